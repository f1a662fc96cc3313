// The web board: plain JavaScript, no build step. The server keeps no game:
// this page holds the position (and earlier boards), so undo, copy and paste
// happen here, and every request carries what the server needs.
"use strict";

const $ = (id) => document.getElementById(id);
const page = {
  games: [], game: null, data: null, history: [], stack: [], selected: null, busy: false,
};
const VALUE_COLOURS = { win: "#1a9c1a", lose: "#c62020", tie: "#d8a400", draw: "#d8a400" };

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
  const again = $("again");
  if (data.over) {
    const result = data.over.winner ? `${data.over.winner} wins` : "draw";
    $("status").textContent = `Game over: ${result} (${data.over.reason})`;
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

function markTargets() {
  const svg = $("board");
  for (const mark of svg.querySelectorAll(".mark")) mark.setAttribute("visibility", "hidden");
  for (const text of svg.querySelectorAll(".value")) text.textContent = "";
  for (const el of svg.querySelectorAll(".selected")) el.classList.remove("selected");
  const data = page.data;
  if (!data || data.over) return;
  const placing = data.moves.filter((m) => m.from === null && m.to !== null);
  const chosen = page.selected === null ? placing : data.moves.filter((m) => m.from === page.selected);
  if (page.selected !== null) {
    for (const el of svg.querySelectorAll(`[data-cell="${page.selected}"]`)) el.classList.add("selected");
  }
  for (const move of chosen) {
    const mark = svg.querySelector(`[data-mark="${move.to}"]`);
    if (!mark) continue;
    mark.setAttribute("visibility", "visible");
    mark.setAttribute("fill", VALUE_COLOURS[move.value] || "#0a6");
    mark.dataset.move = move.text;
    if (move.remoteness !== undefined && move.remoteness !== null) {
      const text = svg.querySelector(`[data-value="${move.to}"]`);
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
    const seconds = Math.min(30, Math.max(0.1, Number($("seconds").value) || 1));
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
    const seconds = Math.min(30, Math.max(0.1, Number($("seconds").value) || 1));
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
  const choose = () => { page.game = page.games.find((g) => g.name === select.value); buildOptions(); };
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
