"""The web board's API: JSON requests in, JSON answers out, no HTTP here.

Every request names a game (one of the files the server was started with),
its option settings, a position string and, for games that forbid repeating
a board, the earlier boards. The server keeps no game in play: the page
holds the position (so undo, copy and paste are the page's business), and
any number of pages can share one server. A bad request raises
:class:`ApiError` with an HTTP status and one line of text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from rulesdsl import model as m
from rulesdsl.cli.results import result_fields
from rulesdsl.cli.scores import describe_score
from rulesdsl.cli.svg import draw, player_colours
from rulesdsl.cli.tally import opening_comment, tallies
from rulesdsl.errors import RulesdslError, suggest
from rulesdsl.interpreter.compile.game import NO_CELL, PASS_ACTION, Game, Move, State
from rulesdsl.interpreter.compile.load import load_game, load_position, load_rules
from rulesdsl.interpreter.explain.reasons import explain_move
from rulesdsl.loader import bundled_games, find_rules

MAX_SECONDS = 10.0  # the most engine time a request may ask for (serve --max-seconds)
MAX_SEARCHES = 2  # engine searches at once; more get 503, so searches cannot take every worker
MAX_HISTORY = 10_000

# A source of solver values: (game, state) -> {move text: (value, remoteness)} or None.
ValueSource = Callable[[Game, State], Mapping[str, tuple[str, int]] | None]


class ApiError(Exception):
    """A request the server cannot serve: an HTTP status and one line for the person."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Entry:
    """A rule file the server may serve: the name pages use, and the path or bundled name to load."""

    name: str
    spec: str


MEMORY_COUNTS = ("passes", "turns", "quiet")  # what a position remembers besides its string, carried by the page


def _with_memory(game: Game, state: State, memory: object) -> State:
    """``state`` with what the page carried over from the last answer: the counts of passes, turns and quiet
    plies, and the board before the last ply (games that keep them; position strings do not hold them)."""
    if memory in (None, {}):
        return state
    if not isinstance(memory, dict):
        raise ApiError(400, "memory must be an object")
    found = {}
    for name in MEMORY_COUNTS:
        value = memory.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1_000_000:
            raise ApiError(400, f"memory.{name} must be a whole number from 0 to 1000000")
        found[name] = value
    before = memory.get("before")
    if before is not None:
        symbols = set(game.piece_names) | {game.empty}
        if not isinstance(before, str) or len(before) != len(state.board) or not set(before) <= symbols:
            raise ApiError(400, "memory.before must be a board of this game, one symbol per cell")
    return state._replace(before=before, **found)

def entries_for(files: Iterable[str]) -> dict[str, Entry]:
    """The named rule files (or, with none named, every bundled game), by name.

    Raises :class:`ApiError` (status 400) for a file that does not exist.
    """
    specs = list(files) or bundled_games()
    out: dict[str, Entry] = {}
    for spec in specs:
        path = find_rules(spec)
        if path is None:
            close = suggest(spec, bundled_games())
            raise ApiError(400, f"{spec}: no such rule file or bundled game"
                           + (f" (did you mean {close!r}?)" if close else ""))
        out[path.stem] = Entry(path.stem, str(path))
    return out


class Api:
    """The answers of the web board, for a fixed set of rule files."""

    def __init__(self, entries: Mapping[str, Entry], values: ValueSource | None = None,
                 max_seconds: float = MAX_SECONDS) -> None:
        self.entries = dict(entries)
        self.values = values
        self.max_seconds = max_seconds
        self._searches = threading.BoundedSemaphore(MAX_SEARCHES)
        self._games: dict[tuple[str, tuple[tuple[str, str], ...]], Game] = {}

    # -- requests -------------------------------------------------------------
    def games(self) -> dict[str, object]:
        """Every game served: its name, title, options (default, range or choices, text) and opening comment."""
        out = []
        for name, entry in self.entries.items():
            try:
                resolved = load_rules(entry.spec)
            except RulesdslError as error:
                out.append({"name": name, "title": name, "options": [], "error": _one_line(error)})
                continue
            titles = resolved.of(m.GameTitle)
            options = []
            for decl in resolved.of(m.OptionDecl):
                default = getattr(decl.default, "value", None)
                kind = "bool" if isinstance(default, bool) else "choice" if decl.choices else \
                    "int" if isinstance(default, int) else "text"
                options.append({"name": decl.name, "kind": kind, "default": default,
                                "choices": list(decl.choices or ()), "doc": decl.doc,
                                "low": getattr(decl.low, "value", None), "high": getattr(decl.high, "value", None)})
            out.append({"name": name, "title": titles[-1].title if titles else name, "options": options,
                        "lines": len(Path(entry.spec).read_text(encoding="utf-8").splitlines()),
                        "about": opening_comment(entry.spec)})
        return {"games": out}

    def state(self, request: Mapping[str, object]) -> dict[str, object]:
        """The position a request names (the start when it names none), described for the page."""
        game, state = self.load(request)
        return self.describe(game, state)

    def move(self, request: Mapping[str, object]) -> dict[str, object]:
        """Play the move ``request["move"]`` (its notation) and describe the position after it."""
        game, state = self.load(request)
        text = _text(request, "move")
        try:
            move = game.parse_move(state, text)
        except RulesdslError as error:
            raise ApiError(422, _one_line(error)) from None
        return self.describe(game, game.apply(state, move), played=(state, move))

    def engine(self, request: Mapping[str, object]) -> dict[str, object]:
        """The engine's move within ``request["seconds"]``, played; the position after it."""
        game, state = self.load(request)
        choice, depth = self.search(game, state, _seconds(request, self.max_seconds))
        if choice is None:
            raise ApiError(409, "the game is over: there is no move to make")
        out = self.describe(game, game.apply(state, choice.move), played=(state, choice.move))
        out["engine"] = {"move": game.format_move(state, choice.move), "depth": depth,
                         "score": describe_score(game, choice.score, game.to_move(state))}
        return out

    def hint(self, request: Mapping[str, object]) -> dict[str, object]:
        """The engine's suggestion for the player to move (not played)."""
        game, state = self.load(request)
        choice, depth = self.search(game, state, _seconds(request, self.max_seconds))
        if choice is None:
            raise ApiError(409, "the game is over: there is no hint to give")
        return {"move": game.format_move(state, choice.move), "depth": depth,
                "score": describe_score(game, choice.score, game.to_move(state))}

    def why(self, request: Mapping[str, object]) -> dict[str, object]:
        """Why a move (by its text, or by ``from`` and ``to`` cells) is or is not legal here."""
        game, state = self.load(request)
        text = request.get("move")
        if not isinstance(text, str) or not text.strip():
            text = self.move_text(game, request.get("from"), request.get("to"))
        return explain_move(game, state, text).as_dict()

    # -- helpers ----------------------------------------------------------------
    def load(self, request: Mapping[str, object]) -> tuple[Game, State]:
        """The game (compiled for the request's options) and the request's position."""
        name = _text(request, "game")
        entry = self.entries.get(name)
        if entry is None:
            raise ApiError(404, f"no such game here: {name!r} (served: {', '.join(self.entries)})")
        options = request.get("options") or {}
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise ApiError(400, "options must be an object of NAME: VALUE")
        settings = tuple(sorted((k, _setting(v)) for k, v in options.items()))
        key = (name, settings)
        try:
            game = self._games.get(key)
            if game is None:
                if len(self._games) > 64:
                    self._games.clear()
                game = self._games[key] = load_game(entry.spec, dict(settings))
            position = request.get("position")
            if position in (None, ""):
                state = game.initial_state()
            elif isinstance(position, str):
                game, state = load_position(game, position)
            else:
                raise ApiError(400, "position must be a string")
            history = request.get("history") or []
            if not isinstance(history, list) or not all(isinstance(b, str) for b in history):
                raise ApiError(400, "history must be a list of board strings")
            if len(history) > MAX_HISTORY:
                raise ApiError(413, f"history is longer than {MAX_HISTORY} boards")
            if history and state.history is not None:
                state = state._replace(history=state.history | {game.parse_board(b) for b in history})
            state = _with_memory(game, state, request.get("memory"))
        except RulesdslError as error:
            raise ApiError(400, _one_line(error)) from None
        return game, state

    def move_text(self, game: Game, origin: object, target: object) -> str:
        """A move's text in the game's notation from its cells."""
        if not isinstance(target, str) or (origin is not None and not isinstance(origin, str)):
            raise ApiError(400, "give 'move', or 'to' (and 'from') cell names")
        notation = game.resolved.of(m.Notation) if game.resolved is not None else []
        parts = notation[-1].parts if notation else ("from", "-", "to")
        if origin is None and "from" in parts and "to" in parts:  # a placement: no 'from', nor the text after it
            first, last = sorted((parts.index("from"), parts.index("to")))
            parts = parts[:first] + parts[last:] if parts[first] == "from" else parts
        return "".join({"from": origin or "", "to": target}.get(p, p) for p in parts)

    def search(self, game: Game, state: State, seconds: float):
        """The engine's choice within ``seconds`` (iterative deepening) and the depth it finished."""
        from rulesdsl.interpreter.search.engines import choose  # max^n with more than two players

        if not self._searches.acquire(blocking=False):
            raise ApiError(503, f"the engine is busy with {MAX_SEARCHES} searches; try again")
        try:
            result = choose(game, state, seconds=seconds)
        finally:
            self._searches.release()
        if result is None:
            return None, 0
        return result, result.depth

    def describe(self, game: Game, state: State, played: tuple[State, Move] | None = None) -> dict[str, object]:
        """Everything the page shows of a position."""
        moves, outcome = game.status(state)
        cells = game.geometry.cells
        listed = []
        for mv in moves:
            listed.append({"text": game.format_move(state, mv),
                           "from": cells[mv.origin].name if mv.origin != NO_CELL else None,
                           "to": cells[mv.target].name if mv.target != NO_CELL else None,
                           "pass": mv.action == PASS_ACTION})
        turn = game.players[game.to_move(state)]
        values = self.values(game, state) if self.values is not None and outcome is None else None
        if values:
            for item in listed:
                found = values.get(item["text"])
                if found is not None:
                    item["value"], item["remoteness"] = found
        before, move = played if played is not None else (None, None)
        value = position_value(game, state, listed) if values else None
        if outcome is not None and self.values is not None:  # the end: decided, nothing left to play
            winner = game.players[outcome.winner].name if outcome.winner is not None else None
            value = {"value": "draw" if winner is None else "win" if winner == turn.name else "lose",
                     "remoteness": 0, "player": turn.name, "winner": winner}
        out: dict[str, object] = {
            "position": game.format_position(state),
            "board": state.board,
            "history": sorted(state.history) if state.history is not None else None,
            "keepsHistory": state.history is not None,
            "memory": {"passes": state.passes, "turns": state.turns, "quiet": state.quiet, "before": state.before},
            "turn": turn.name,
            "players": [p.name for p in game.players],
            "again": state.last != NO_CELL,
            "last": cells[state.last].name if state.last != NO_CELL else None,
            "moves": listed,
            "canPass": any(item["pass"] for item in listed),
            "over": None if outcome is None else result_fields(game, outcome),
            "svg": draw(game, state, move=move, before=before, interactive=True),
            "options": {k: v for k, v in game.options.items()},
            "solved": bool(values),
            "value": value,
            "tallies": [t.as_dict() for t in tallies(game, state)],
            "colours": [fill for fill, _ in player_colours(game)],
            "lastMove": None if move is None else {
                "from": cells[move.origin].name if move.origin != NO_CELL else None,
                "to": cells[move.target].name if move.target != NO_CELL else None},
        }
        if played is not None:
            out["played"] = game.format_move(before, move)
            out["mover"] = game.players[game.to_move(before)].name
        return out


def position_value(game: Game, state: State, listed: list[dict[str, object]]) -> dict[str, object] | None:
    """The position's value for the player to move: the best of its moves' values (``None`` unless all have one).

    ``{"value", "remoteness", "player", "winner"}``; ``winner`` is ``None`` for a draw, or when a loss
    leaves more than one other player.
    """
    rank = {"win": 0, "draw": 1, "tie": 1, "lose": 2}
    if not listed or any("value" not in item for item in listed):
        return None

    def order(item: dict[str, object]) -> tuple[int, int]:
        plies = int(item.get("remoteness") or 0)
        kind = rank[str(item["value"])]
        return kind, -plies if kind == 2 else plies

    best = min(listed, key=order)
    mover = game.to_move(state)
    others = [p.name for p in game.players if p.index != mover]
    winner = {"win": game.players[mover].name, "lose": others[0] if len(others) == 1 else None}.get(
        str(best["value"]))
    return {"value": best["value"], "remoteness": best.get("remoteness"), "player": game.players[mover].name,
            "winner": winner}


def _text(request: Mapping[str, object], key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"missing {key!r} (a string)")
    return value


def _setting(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise ApiError(400, f"option value {value!r} is not a number, text or true/false")


def _seconds(request: Mapping[str, object], most: float = MAX_SECONDS) -> float:
    value = request.get("seconds", 1.0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= most:
        raise ApiError(400, f"seconds must be a number above 0 and at most {most:g}")
    return float(value)


def _one_line(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__
