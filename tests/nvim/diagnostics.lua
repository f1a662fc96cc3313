-- Neovim's built-in LSP client (0.7 API) on one rule file: start `rulesdsl lsp`,
-- wait for diagnostics, write them as JSON to $RULESDSL_OUT, quit.
local file, out, python = vim.env.RULESDSL_FILE, vim.env.RULESDSL_OUT, vim.env.RULESDSL_PYTHON
vim.cmd("edit " .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = "rulesdsl",
  cmd = { python, "-m", "rulesdsl.cli.main", "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
})
vim.lsp.buf_attach_client(bufnr, client)
local arrived = vim.wait(60000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  table.insert(found, { lnum = d.lnum, col = d.col, end_col = d.end_col, code = d.code,
                        severity = d.severity, message = d.message })
end
local hover = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 6, character = 8 } }, 30000)
local hovered = ""
for _, answer in pairs(hover or {}) do
  if answer.result then hovered = answer.result.contents.value end
end
vim.fn.writefile({ vim.fn.json_encode({ arrived = arrived, diagnostics = found, hover = hovered }) }, out)
vim.lsp.stop_client(client)
vim.cmd("qall!")
