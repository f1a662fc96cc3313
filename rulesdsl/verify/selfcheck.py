"""Random playouts that hold a compiled game to the promises of the Game interface.

``rulesdsl check`` runs these after the static checks, in the spirit of
OpenSpiel's random simulation tests. From the start (default options) each
playout plays random legal moves until the game ends or a ply cap, and at
every position asserts that:

- an unfinished position has a legal move and a finished one has none
  (``Game.status`` promises moves or an outcome, never neither);
- no call raises (status, apply, evaluation, notation);
- the position string reads back to the same board, turn and go-again cell
  (history is not part of a position string);
- every legal move has its own notation, and the chosen move's notation
  reads back to the same move; no move is listed twice;
- applying a move leaves the parent position as it was;
- the static evaluation is a finite number.

Nothing here knows which game it plays.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from rulesdsl import model as m
from rulesdsl.errors import Diagnostic, RulesdslError, Span
from rulesdsl.interpreter.compile.compiler import compile_game
from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.limits import MAX_GO_AGAIN
from rulesdsl.options import option_values

DEFAULT_PLAYOUTS = 20
DEFAULT_MAX_PLIES = 200
PLAYOUT_WORK = 1_000_000  # cell-plies check's playouts may cost: a ply checks every cell, so a big board plays fewer
MIN_PLAYOUT_PLIES = 20  # but at least this many plies in all

# What each code means (E2xx: found by playing, not by reading the file).
CODES = {
    "E200": "the game cannot be set up with the default options",
    "E201": "an unfinished position has no legal move",
    "E202": "a finished position still lists moves, or names no player as the winner",
    "E203": "a call raised an exception",
    "E204": "a position string does not read back to the same position",
    "E205": "a move's notation does not read back to the same move",
    "E206": "applying a move changed the position it was applied to",
    "E207": "the same move is listed twice",
    "E208": "the static evaluation is not a finite number",
}
# W200 (a warning): no playout ended within the ply cap, so the game may never end.
# W201 (a warning): in a playout one player moved MAX_GO_AGAIN plies in a row (a go-again rule that never ends).


@dataclass(frozen=True)
class Problem:
    """One broken promise, with the place in the playout that shows it."""

    code: str
    message: str


@dataclass(frozen=True)
class PlayoutReport:
    """What the playouts did and what they found."""

    playouts: int
    plies: int
    finished: int
    problems: tuple[Problem, ...]
    runaway: str = ""  # the first playout in which one player moved MAX_GO_AGAIN plies in a row, described


class _Broken(Exception):
    """Stops one playout at its first problem."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


class _Playout:
    """One random game, checking every position it passes through."""

    def __init__(self, game: Game, number: int, seed: int):
        self.game = game
        self.number = number
        self.seed = seed
        self.ply = 0
        self.where = ""
        self.runaway = ""

    def fail(self, code: str, what: str) -> None:
        place = f"playout {self.number + 1} (seed {self.seed}), ply {self.ply}"
        if self.where:
            place += f", at {self.where}"
        raise _Broken(Problem(code, f"{place}: {what}"))

    def call(self, what: str, function, *args):
        """Call into the game; an exception becomes an E203 problem."""
        try:
            return function(*args)
        except _Broken:
            raise
        except Exception as error:  # any exception is the finding
            detail = str(error).splitlines()[0] if str(error) else ""
            self.fail("E203", f"{what} raised {type(error).__name__}" + (f": {detail}" if detail else ""))

    def check_position(self, state: State) -> None:
        game = self.game
        text = self.call("format_position", game.format_position, state)
        self.where = text
        back = self.call(f"parse_position({text!r})", game.parse_position, text)
        if (back.board, back.turn, back.last) != (state.board, state.turn, state.last):
            again = self.call("format_position", game.format_position, back)
            if again != text:
                self.fail("E204", f"{text} reads back as {again}")
            fields = [f"{name} {b!r} instead of {a!r}" for name, a, b in
                      (("turn", state.turn, back.turn), ("go-again cell", state.last, back.last))
                      if a != b] or ["another board"]
            self.fail("E204", f"{text} reads back with {', '.join(fields)}: the position string does not hold it")

    def check_moves(self, state: State, moves: list[Move]) -> None:
        game = self.game
        written: dict[str, Move] = {}
        seen: set[Move] = set()
        for move in moves:
            text = self.call("format_move", game.format_move, state, move)
            if move in seen:
                self.fail("E207", f"the move {text} is listed twice")
            seen.add(move)
            key = _normal(text)
            if key in written:
                self.fail("E205", f"two different legal moves are both written {text!r}")
            written[key] = move

    def check_evaluation(self, state: State) -> None:
        for player in range(len(self.game.players)):
            value = self.call("evaluate", self.game.evaluate, state, player)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                self.fail("E208", f"evaluate(state, {player}) returned {value!r}")

    def play(self, rng: random.Random, max_plies: int) -> tuple[int, bool]:
        """Play to the end or the cap; ``(plies, finished)``. Raises :class:`_Broken`."""
        game = self.game
        state = self.call("initial_state", game.initial_state)
        streak = 0  # plies in a row by the player to move, without the turn passing
        while True:
            self.check_position(state)
            moves, outcome = self.call("status", game.status, state)
            if outcome is not None:
                if moves:
                    self.fail("E202", f"the game is over ({outcome.reason}), yet lists {len(moves)} moves")
                if outcome.winner is not None and outcome.winner not in range(len(game.players)):
                    self.fail("E202", f"the outcome names player {outcome.winner!r}, who does not exist")
                return self.ply, True
            if not moves:
                self.fail("E201", "the game is not over, yet there is no legal move")
            if self.ply >= max_plies:
                return self.ply, False
            if streak >= MAX_GO_AGAIN:  # the turn never passes: this playout would never end
                name = game.players[game.to_move(state)].name
                self.runaway = (f"in playout {self.number + 1} (seed {self.seed}) {name} moved {streak} plies in a "
                                f"row from ply {self.ply - streak} without the turn passing, up to {self.where}")
                return self.ply, False
            self.check_moves(state, moves)
            self.check_evaluation(state)
            move = rng.choice(moves)
            text = self.call("format_move", game.format_move, state, move)
            parsed = self.call(f"parse_move({text!r})", game.parse_move, state, text)
            if parsed != move:
                self.fail("E205", f"the move {text!r} reads back as {game.format_move(state, parsed)!r}, "
                          "a different move")
            before = (state.board, state.turn, state.last, state.history)
            child = self.call(f"apply({text!r})", game.apply, state, move)
            if (state.board, state.turn, state.last, state.history) != before or \
                    self.call("format_position", game.format_position, state) != self.where:
                self.fail("E206", f"applying {text!r} changed the parent position")
            streak = streak + 1 if game.to_move(child) == game.to_move(state) else 0
            state = child
            self.ply += 1


def run_playouts(game: Game, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0,
                 max_plies: int = DEFAULT_MAX_PLIES) -> PlayoutReport:
    """Play ``playouts`` random games from the start; every problem found (one per code)."""
    rng = random.Random(seed)
    problems: dict[str, Problem] = {}
    plies = finished = 0
    runaway = ""
    for number in range(playouts):
        playout = _Playout(game, number, seed)
        try:
            length, done = playout.play(rng, max_plies)
        except _Broken as broken:
            problems.setdefault(broken.problem.code, broken.problem)
            plies += playout.ply
            continue
        plies += length
        finished += done
        runaway = runaway or playout.runaway
    return PlayoutReport(playouts, plies, finished, tuple(sorted(problems.values(), key=lambda p: p.code)), runaway)


def scaled_playouts(playouts: int, max_plies: int, cells: int) -> tuple[int, int]:
    """``(playouts, max plies)`` cut to :data:`PLAYOUT_WORK` cell-plies on a big board (each ply checks every
    cell), keeping at least :data:`MIN_PLAYOUT_PLIES` plies; unchanged when the work fits."""
    if not playouts:
        return playouts, max_plies
    budget = max(MIN_PLAYOUT_PLIES, PLAYOUT_WORK // max(cells, 1))
    if playouts * max_plies <= budget:
        return playouts, max_plies
    each = min(max_plies, budget)
    return max(1, min(playouts, budget // each)), each


def selfcheck(resolved, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0,
              max_plies: int = DEFAULT_MAX_PLIES) -> tuple[list[Diagnostic], PlayoutReport | None]:
    """Compile ``resolved`` with its default options and run the playouts.

    Returns the diagnostics (E2xx, at the file: line 0) and the report (``None``
    when the game could not be set up).
    """
    where = Span(0, 0, file=resolved.path)
    try:
        game = compile_game(resolved, option_values(resolved))
        game.initial_state()
    except RulesdslError as error:
        return [Diagnostic(where, f"cannot set up the game with the default options: {error}", "E200",
                           hint="the playouts need a start position")], None
    except Exception as error:  # a gap elsewhere: still one line
        message = f"setting up the game raised {type(error).__name__}: {error}"
        return [Diagnostic(where, message, "E200")], None
    asked = (playouts, max_plies)
    playouts, max_plies = scaled_playouts(playouts, max_plies, len(game.geometry.cells))
    report = run_playouts(game, playouts, seed, max_plies)
    found = []
    if (playouts, max_plies) != asked:
        found.append(Diagnostic(where, f"random playouts scaled to the board's {len(game.geometry.cells):,} cells: "
                                f"{playouts} of at most {max_plies} plies (asked: {asked[0]} of {asked[1]})",
                                "I200", severity="information",
                                hint=f"a ply checks every cell and move; {PLAYOUT_WORK:,} cell-plies are played"))
    found += [Diagnostic(where, f"random playouts: {CODES[p.code]}: {p.message}", p.code,
                        hint=f"reproduce with: rulesdsl check --seed {seed} --playouts {playouts} "
                             f"--max-plies {max_plies}")
             for p in report.problems]
    if report.runaway and not report.problems:
        again = resolved.of(m.Again)
        found.append(Diagnostic(again[0].span if again else where,
                                f"random playouts: a go-again turn that never ends: {report.runaway}", "W201",
                                severity="warning",
                                hint="let the turn pass: 'again after capture', 'with same piece', or 'or pass'; "
                                     f"play stops the engine after {MAX_GO_AGAIN} plies in a row"))
    elif playouts and not report.problems and report.finished == 0 and (playouts, max_plies) == asked:
        found.append(Diagnostic(where, f"random playouts: none of the {playouts} games ended within {max_plies} "
                                "plies: the game may never end", "W200", severity="warning",
                                hint="add an end rule that always comes, e.g. a draw after some plies without "
                                     "a capture; or check with a larger --max-plies"))
    return found, report
