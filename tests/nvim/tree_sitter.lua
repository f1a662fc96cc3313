-- Headless Neovim: load the rulesdsl tree-sitter parser from a file, parse a rule file, run the
-- highlight query, and write "CAPTURE COUNT" lines (nodes per capture name) and "errors 0|1" to a file.
-- Paths come in the environment: TS_PARSER (the .so), TS_QUERY, TS_RULES, TS_OUTPUT.
local env = vim.env
local ts = vim.treesitter
if ts.language.add then
  ts.language.add("rulesdsl", { path = env.TS_PARSER })  -- Neovim 0.9+
else
  ts.require_language("rulesdsl", env.TS_PARSER)  -- Neovim 0.7, 0.8
end
local query_text = table.concat(vim.fn.readfile(env.TS_QUERY), "\n")
local query = (ts.query.parse or ts.query.parse_query)("rulesdsl", query_text)

local buf = vim.api.nvim_create_buf(false, true)
vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.fn.readfile(env.TS_RULES))
local root = ts.get_parser(buf, "rulesdsl"):parse()[1]:root()

local counts, seen, lines = {}, {}, {}
for id, node in query:iter_captures(root, buf, 0, -1) do
  local name = query.captures[id]
  local key = name .. " " .. table.concat({ node:range() }, ":")  -- a node captured twice by one name counts once
  if not seen[key] then
    seen[key] = true
    counts[name] = (counts[name] or 0) + 1
  end
end
for name, count in pairs(counts) do
  table.insert(lines, name .. " " .. count)
end
table.insert(lines, "errors " .. (root:has_error() and 1 or 0))
vim.fn.writefile(lines, env.TS_OUTPUT)
vim.cmd("qall!")
