// The web board: plain JavaScript, no build step. The server keeps no game:
// this page holds the position (and earlier boards), so undo, copy and paste
// happen here, and every request carries what the server needs.
"use strict";

const $ = (id) => document.getElementById(id);
const page = {
  games: [], game: null, data: null, history: [], stack: [], selected: null, busy: false,
};
const VALUE_COLOURS = { win: "#1a9c1a", lose: "#c62020", tie: "#d8a400", draw: "#d8a400" };
const VALUE_RANK = { win: 0, draw: 1, tie: 1, lose: 2 };
const SVG_NS = "http://www.w3.org/2000/svg";

async function call(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function request(extra) {
  return Object.assign({
    game: page.game.name, options: readOptions(),
    position: page.data ? page.data.position : "", history: page.history,
    memory: page.data ? page.data.memory : null,
  }, extra || {});
}

function readOptions() {
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    if (input.type === "checkbox") out[input.dataset.option] = input.checked;
    else if (input.value !== "") out[input.dataset.option] = input.type === "number" ? Number(input.value) : input.value;
  }
  return out;
}

function showError(message) { $("error").textContent = message || ""; }

function buildOptions() {
  const box = $("options");
  box.textContent = "";
  for (const option of page.game.options) {
    const label = document.createElement("label");
    label.title = option.doc || "";
    label.append(option.name + " ");
    let input;
    if (option.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = !!option.default;
    } else if (option.kind === "choice") {
      input = document.createElement("select");
      for (const choice of option.choices) input.add(new Option(choice, choice, false, choice === option.default));
    } else {
      input = document.createElement("input");
      input.type = option.kind === "int" ? "number" : "text";
      if (option.default !== null && option.default !== undefined) input.value = option.default;
      if (option.low !== null && option.low !== undefined) input.min = option.low;
      if (option.high !== null && option.high !== undefined) input.max = option.high;
    }
    input.dataset.option = option.name;
    input.id = "option-" + option.name;
    label.append(input);
    box.append(label);
  }
}

function buildModes(players) {
  const mode = $("mode");
  const keep = mode.value;
  mode.textContent = "";
  mode.add(new Option("two people", "people"));
  for (const player of players) mode.add(new Option(`${player} against the engine`, "engine:" + player));
  if ([...mode.options].some((o) => o.value === keep)) mode.value = keep;
}

function humanPlays(player) {
  const mode = $("mode").value;
  return mode === "people" || mode === "engine:" + player;
}

function show(data, remember) {
  if (remember && page.data) page.stack.push({ data: page.data, history: page.history.slice(), log: $("log").innerHTML });
  page.data = data;
  page.history = data.history || [];
  page.selected = null;
  if (data.played) {
    const item = document.createElement("li");
    item.textContent = `${data.mover}: ${data.played}`;
    $("log").append(item);
  }
  $("board").innerHTML = data.svg;
  $("position").value = data.position;
  $("pass").hidden = !data.canPass;
  $("legend").hidden = !data.solved;
  showPlayers(data);
  showValue(data);
  drawChart();
  const again = $("again");
  if (data.over) {
    const result = data.over.winner ? `${data.over.winner} wins` : "draw";
    const places = data.over.places  // with three or more players: every player's place
      ? "; places: " + Object.entries(data.over.places).sort((a, b) => a[1] - b[1])
        .map(([name, place]) => `${place} ${name}`).join(", ")
      : "";
    $("status").textContent = `Game over: ${result} (${data.over.reason})${places}`;
    again.hidden = true;
  } else {
    $("status").textContent = `${data.turn} to move` + (humanPlays(data.turn) ? "" : " (engine)");
    again.hidden = !data.again;
    again.textContent = data.again
      ? `${data.turn} moves again: the last move ended on ${data.last}. Move again${data.canPass ? " or pass" : ""}.`
      : "";
  }
  markTargets();
  setTimeout(engineTurn, 50);
}

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

function valueWords(value, remoteness) {
  if (value === "draw" || value === "tie") return "draw";
  return remoteness === null || remoteness === undefined ? value : `${value} in ${remoteness}`;
}

function better(a, b) {  // the better move value for the player making it: quick wins, draws, slow losses
  if (!b) return a;
  const ra = VALUE_RANK[a.value], rb = VALUE_RANK[b.value];
  if (ra !== rb) return ra < rb ? a : b;
  const pa = a.remoteness || 0, pb = b.remoteness || 0;
  return (ra === 2 ? pa > pb : pa < pb) ? a : b;
}

function showPlayers(data) {
  const list = $("players");
  list.textContent = "";
  (data.tallies || []).forEach((tally, index) => {
    const item = document.createElement("li");
    item.dataset.player = tally.player;
    if (!data.over && tally.player === data.turn) item.classList.add("turn");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = (data.colours || [])[index] || "#999";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = tally.player;
    const facts = document.createElement("span");
    facts.className = "facts";
    const parts = [];
    if (tally.place) parts.push(`placed ${tally.place}${["th", "st", "nd", "rd"][tally.place] || "th"}`);
    if (tally.score !== null && tally.score !== undefined) parts.push(`score ${tally.score}`);
    if (tally.onBoard !== null && tally.onBoard !== undefined) parts.push(`${tally.onBoard} on the board`);
    if (tally.inHand !== null && tally.inHand !== undefined) parts.push(`${tally.inHand} in hand`);
    if (tally.captured !== null && tally.captured !== undefined) parts.push(`captured ${tally.captured}`);
    facts.textContent = parts.join(", ");
    if (tally.captured !== null && tally.captured !== undefined) facts.dataset.captured = tally.captured;
    facts.dataset.onBoard = tally.onBoard;
    if (tally.score !== null && tally.score !== undefined) facts.dataset.score = tally.score;
    item.append(swatch, name, facts);
    list.append(item);
  });
}

function showValue(data) {
  const box = $("value");
  const pass = $("pass");
  pass.className = "";
  pass.textContent = "Pass";
  const value = data.value;
  box.hidden = !value;
  box.textContent = "";
  if (!value) return;
  const words = document.createElement("span");
  words.className = value.value;
  if (data.over) words.textContent = value.winner ? `${value.winner} won` : "a draw";
  else words.textContent = `${value.player} to move: ${valueWords(value.value, value.remoteness)}`;
  box.append("Value: ", words);
  box.dataset.value = value.value;
  const passing = data.moves.find((m) => m.pass);
  if (passing && passing.value) {
    pass.className = passing.value === "tie" ? "draw" : passing.value;
    pass.textContent = `Pass (${valueWords(passing.value, passing.remoteness)})`;
  }
}

function chartPoints() {  // the value of each position of the game so far, first to last
  const seen = [...page.stack.map((s) => s.data), page.data].filter((d) => d);
  return seen.map((d, ply) => ({ ply, value: d.value, colours: d.colours, players: d.players }));
}

function drawChart() {  // remoteness after each move, coloured by who is winning; draws on a band of their own
  const points = chartPoints();
  const known = points.filter((p) => p.value);
  const box = $("chart-plot");
  box.textContent = "";
  $("chart").hidden = known.length === 0;
  if (known.length === 0) return;
  const finite = (p) => p.value.remoteness !== null && p.value.remoteness !== undefined;
  const draws = known.some((p) => !finite(p));
  const width = 400, height = 180, left = 34, right = 10, top = 20, bottom = 34, band = draws ? 26 : 0;
  const maxPly = Math.max(4, points.length - 1);
  const maxR = Math.max(2, ...known.filter(finite).map((p) => p.value.remoteness));
  const x = (ply) => left + (ply / maxPly) * (width - left - right);
  const y = (p) => finite(p) ? top + band + (1 - p.value.remoteness / maxR) * (height - top - band - bottom)
    : top + band / 2;
  const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    "font-size": 11, "font-family": "sans-serif", class: "value-chart" });
  svg.append(svgElement("rect", { x: left, y: top, width: width - left - right, height: height - top - bottom,
    fill: "#fff", stroke: "#bbb" }));
  const label = (text, attrs) => { const t = svgElement("text", attrs); t.textContent = text; svg.append(t); };
  label("remoteness (plies to the end)", { x: left, y: top - 6, fill: "#555" });
  label("move", { x: width - right, y: height - 4, "text-anchor": "end", fill: "#555" });
  const tick = (text, at) => label(text, { x: left - 8, y: at + 4, "text-anchor": "end", fill: "#555" });
  if (known.some(finite)) for (const r of [0, maxR]) tick(String(r), y({ value: { remoteness: r } }));
  if (draws) tick("draw", top + band / 2);
  for (const ply of [0, points.length - 1]) {
    label(String(ply), { x: x(ply), y: height - bottom + 14, "text-anchor": "middle", fill: "#555" });
  }
  let path = "";
  for (const p of known) path += `${path ? "L" : "M"}${x(p.ply).toFixed(1)},${y(p).toFixed(1)}`;
  svg.append(svgElement("path", { d: path, fill: "none", stroke: "#999", "stroke-width": 1.5 }));
  const winners = new Map();
  for (const p of known) {
    const index = p.value.winner ? p.players.indexOf(p.value.winner) : -1;
    const fill = index >= 0 ? p.colours[index] : p.value.value === "lose" || p.value.value === "win" ? "#999"
      : VALUE_COLOURS.draw;
    const dot = svgElement("circle", { cx: x(p.ply), cy: y(p), r: 5, fill, stroke: "#333", "stroke-width": 1.2,
      class: "point" });
    dot.dataset.ply = p.ply;
    dot.dataset.winner = p.value.winner || "";
    if (finite(p)) dot.dataset.remoteness = p.value.remoteness;
    const tip = svgElement("title", {});
    tip.textContent = `after move ${p.ply}: ` + (finite(p)
      ? `${p.value.winner ? p.value.winner + " wins" : p.value.value} in ${p.value.remoteness}` : "a draw");
    dot.append(tip);
    svg.append(dot);
    winners.set(p.value.winner || (finite(p) ? "?" : "draw"), fill);
  }
  let at = left;
  for (const [who, fill] of winners) {  // the key: one swatch per side seen winning
    svg.append(svgElement("circle", { cx: at + 5, cy: height - 8, r: 5, fill, stroke: "#333" }));
    label(who === "draw" ? "draw" : who === "?" ? "decided" : `${who} winning`, { x: at + 13, y: height - 4,
      fill: "#333" });
    at += 100;
  }
  box.append(svg);
}

function drawArrows(moves) {  // every shown move with a value: an arrow from its piece, coloured by value
  const svg = $("board");
  const layer = svg.querySelector(".arrows");
  if (!layer) return;
  layer.textContent = "";
  for (const move of moves) {
    if (!move.value || move.from === null || move.to === null) continue;
    const a = svg.querySelector(`[data-mark="${move.from}"]`), b = svg.querySelector(`[data-mark="${move.to}"]`);
    if (!a || !b) continue;
    const line = svgElement("line", { x1: a.getAttribute("cx"), y1: a.getAttribute("cy"), x2: b.getAttribute("cx"),
      y2: b.getAttribute("cy"), stroke: VALUE_COLOURS[move.value], "stroke-width": 5, "stroke-linecap": "round",
      opacity: 0.75, class: "arrow" });
    line.dataset.move = move.text;
    line.dataset.value = move.value;
    layer.append(line);
  }
}

function markTargets() {
  const svg = $("board");
  for (const mark of svg.querySelectorAll(".mark")) mark.setAttribute("visibility", "hidden");
  for (const text of svg.querySelectorAll(".value")) text.textContent = "";
  for (const el of svg.querySelectorAll(".selected")) el.classList.remove("selected");
  const data = page.data;
  if (!data || data.over) return;
  const placing = data.moves.filter((m) => m.from === null && m.to !== null);
  // With solver values and no piece picked, every move shows at once (GamesmanUni's view).
  const everything = data.solved ? data.moves.filter((m) => m.to !== null) : placing;
  const chosen = page.selected === null ? everything : data.moves.filter((m) => m.from === page.selected);
  if (page.selected !== null) {
    for (const el of svg.querySelectorAll(`[data-cell="${page.selected}"]`)) el.classList.add("selected");
  }
  drawArrows(data.solved ? chosen : []);
  const best = new Map();  // target cell -> the best move onto it (several pieces may reach one cell)
  for (const move of chosen) best.set(move.to, move.value ? better(move, best.get(move.to)) : best.get(move.to) || move);
  for (const [to, move] of best) {
    const mark = svg.querySelector(`[data-mark="${to}"]`);
    if (!mark) continue;
    mark.setAttribute("visibility", "visible");
    mark.setAttribute("fill", VALUE_COLOURS[move.value] || "#0a6");
    mark.dataset.move = move.text;
    if (move.value) mark.dataset.valueOf = move.value;
    if (move.remoteness !== undefined && move.remoteness !== null) {
      const text = svg.querySelector(`[data-value="${to}"]`);
      if (text) text.textContent = String(move.remoteness);
    }
  }
}

async function clickCell(name) {
  const data = page.data;
  if (!data || page.busy) return;
  if (data.over) { showError("The game is over: undo, paste a position or start a new game."); return; }
  if (!humanPlays(data.turn)) return;
  showError("");
  const here = data.moves.filter((m) => m.to === name && m.from === page.selected);
  if (here.length > 1) {  // one move per choice (a promotion's kind): ask which
    const texts = here.map((m) => m.text);
    const picked = window.prompt(`Which move? ${texts.join(", ")}`, texts[0]);
    if (picked === null) return;
    const chosen = here.find((m) => m.text.toLowerCase() === picked.trim().toLowerCase());
    if (!chosen) { showError(`${picked} is not one of ${texts.join(", ")}`); return; }
    await play(chosen.text);
    return;
  }
  if (here.length > 0) { await play(here[0].text); return; }
  // A move written as the clicked cell alone (a sowing named by its pit) is played at once.
  const named = data.moves.filter((m) => m.text === name);
  if (page.selected === null && named.length === 1) { await play(named[0].text); return; }
  const hasPiece = $("board").querySelector(`.piece[data-cell="${name}"]`) !== null;
  const movesFrom = data.moves.some((m) => m.from === name);
  const placing = data.moves.some((m) => m.from === null && !m.pass);
  if (!placing && (movesFrom || (page.selected === null && hasPiece))) {
    page.selected = name;
    $("why").textContent = movesFrom ? "" : `No legal move starts on ${name}; click a cell to ask why.`;
    markTargets();
    return;
  }
  if (page.selected === null && !placing) { showError("Click one of your pieces first."); return; }
  // An unreachable cell: ask the rule file why.
  try {
    const answer = await call("/api/why", request({ from: page.selected, to: name }));
    showWhy(answer);
  } catch (error) { showError(error.message); }
}

function showWhy(answer) {
  const box = $("why");
  box.textContent = "";
  const head = document.createElement("div");
  head.textContent = answer.legal ? `${answer.move} is legal` : `Why not ${answer.move}?`;
  box.append(head);
  for (const reason of answer.reasons) {
    const line = document.createElement("div");
    line.className = "reason";
    line.dataset.code = reason.code;
    line.textContent = reason.message;
    box.append(line);
    if (reason.line) {
      const cite = document.createElement("div");
      cite.className = "cite";
      cite.textContent = `  ${reason.file}:${reason.line}: ${reason.source}`;
      box.append(cite);
    }
  }
}

async function play(text) {
  page.busy = true;
  try {
    show(await call("/api/move", request({ move: text })), true);
    $("why").textContent = "";
    $("hint-text").textContent = "";
  } catch (error) { showError(error.message); }
  page.busy = false;
}

async function engineTurn() {
  const data = page.data;
  if (!data || data.over || humanPlays(data.turn) || page.busy) return;
  page.busy = true;
  $("status").textContent = `${data.turn} (engine) is thinking...`;
  try {
    const seconds = Math.min(10, Math.max(0.1, Number($("seconds").value) || 1));
    const answer = await call("/api/engine", request({ seconds }));
    page.busy = false;
    show(answer, true);
  } catch (error) { page.busy = false; showError(error.message); }
}

async function start(position) {
  showError("");
  $("why").textContent = "";
  $("hint-text").textContent = "";
  try {
    const data = await call("/api/state", {
      game: page.game.name, options: readOptions(), position: position || "", history: [],
    });
    page.stack = [];
    page.data = null;
    $("log").textContent = "";
    buildModes(data.players);
    show(data, false);
  } catch (error) { showError(error.message); }
}

function undo() {
  if (page.busy) return;
  // Take back to the last position where a human was to move (the engine's replies go too).
  while (page.stack.length > 0) {
    const previous = page.stack.pop();
    page.data = null;
    show(Object.assign({}, previous.data, { played: undefined }), false);
    $("log").innerHTML = previous.log;
    page.history = previous.history;
    if (previous.data.over || humanPlays(previous.data.turn)) break;
  }
}

async function hint() {
  if (!page.data || page.data.over) return;
  $("hint-text").textContent = "thinking...";
  try {
    const seconds = Math.min(10, Math.max(0.1, Number($("seconds").value) || 1));
    const answer = await call("/api/hint", request({ seconds }));
    $("hint-text").textContent = `hint: ${answer.move} (${answer.score}, depth ${answer.depth})`;
  } catch (error) { $("hint-text").textContent = ""; showError(error.message); }
}

async function main() {
  try {
    page.games = (await call("/api/games")).games;
  } catch (error) { showError(error.message); return; }
  const select = $("game");
  for (const game of page.games) select.add(new Option(game.title, game.name));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && page.games.some((g) => g.name === wanted)) select.value = wanted;
  const choose = () => {
    page.game = page.games.find((g) => g.name === select.value);
    $("title").textContent = page.game.title;
    $("about").textContent = page.game.about || "";
    document.title = `${page.game.title}: rulesdsl`;
    buildOptions();
  };
  choose();
  select.addEventListener("change", () => { choose(); start(); });
  $("new").addEventListener("click", () => start());
  $("mode").addEventListener("change", () => { if (page.data) show(page.data, false); });
  $("board").addEventListener("click", (event) => {
    const target = event.target.closest("[data-cell]");
    if (target) clickCell(target.dataset.cell);
  });
  $("pass").addEventListener("click", () => play("pass"));
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("copy").addEventListener("click", async () => {
    $("position").select();
    try { await navigator.clipboard.writeText($("position").value); } catch (error) { document.execCommand("copy"); }
  });
  $("load").addEventListener("click", () => start($("paste").value.trim()));
  await start();
  document.body.dataset.ready = "yes";
}

main();
