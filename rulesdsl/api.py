"""The Python API: load a game, read a position, list and play moves, search.

``import rulesdsl`` gives these names lazily (``rulesdsl.load`` imports this
module on first use), so the command line starts without the engine. Every
value here is immutable; a :class:`Position` is a game plus a state, and
playing a move gives a new one. ``repr(position)`` is its position string, a
notebook draws it (``_repr_svg_``), and ``position.value()`` /
``game.solve()`` ask the strong solver. Errors are :class:`~rulesdsl.errors.RulesdslError`
subclasses with one-line messages. ``docs/api.md`` shows it at work (its
examples run as tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulesdsl.errors import ArgumentError, MoveError, PositionError, RulesdslError, Span
from rulesdsl.interpreter.compile import game as engine
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search import minimax as search

__all__ = ["Game", "Outcome", "Position", "Value", "load"]


def _setting(value: object) -> str:
    """An option value as the command line would write it (``True`` -> ``true``)."""
    if not isinstance(value, (bool, int, str)):
        raise ArgumentError(f"an option value must be a whole number, text or True/False, not {value!r:.60}")
    return str(value).lower() if isinstance(value, bool) else str(value)


def _text(value: object, what: str, error: type[RulesdslError]) -> str:
    """``value`` when it is a string; else ``error`` naming ``what`` and the type given."""
    if not isinstance(value, str):
        raise error(f"{what} must be a string, not {type(value).__name__}")
    return value


def _depth(value: object, lowest: int) -> int:
    """``value`` when it is a whole number of plies of at least ``lowest``; else :class:`ArgumentError`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"depth must be a whole number of plies, not {type(value).__name__}")
    if value < lowest:
        raise ArgumentError(f"depth must be at least {lowest}, not {value}")
    return value


def load(spec: str, **options: object) -> Game:
    """The game in a rule file, named by path or bundled name, with options as keyword arguments.

    ``load(NAME, rows=6, cols=6)`` is ``rulesdsl play NAME --set rows=6 --set cols=6``.
    Raises :class:`~rulesdsl.errors.RulesError` for a file with errors,
    :class:`~rulesdsl.errors.OptionError` for an unknown or out-of-range option and
    :class:`~rulesdsl.errors.ArgumentError` for a ``spec`` that is not a string.
    """
    _text(spec, "the game (a path or bundled name)", ArgumentError)
    return Game(load_game(spec, {name: _setting(value) for name, value in options.items()}))


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is a player's name, or ``None`` for a draw. ``rule`` is the
    number of the end rule that fired (1 = the first in the ``end`` block) and
    ``span`` where it is written; both are ``None`` when the player to move
    simply had no legal move. ``reason`` is the condition as written.
    ``places`` gives each player's place by name (1 = first; players sharing
    a place share the better one), with two players from the winner.
    """

    winner: str | None
    reason: str
    rule: int | None
    span: Span | None
    places: dict[str, int] | None = None


@dataclass(frozen=True)
class Value:
    """A solved position: ``win``, ``lose`` or ``draw`` for the player to move, and in how many plies.

    ``remoteness`` is ``None`` for a draw (neither side can force an end);
    ``positions`` is how many positions the solve reached (``None`` when the
    answer was read from the database).
    """

    value: str
    remoteness: int | None
    positions: int | None = None


@dataclass(frozen=True, repr=False)
class Game:
    """A compiled game: its players and options, and the way into its positions."""

    engine: engine.Game

    def __repr__(self) -> str:
        options = " ".join(f"{name}={_setting(value)}" for name, value in self.engine.options.items())
        return f"<Game {self.title}{': ' + options if options else ''}>"

    @property
    def title(self) -> str:
        """The game's title (``game "..."``)."""
        return self.engine.title

    @property
    def players(self) -> list[str]:
        """The players' names, in the order they move."""
        return [p.name for p in self.engine.players]

    @property
    def options(self) -> dict[str, object]:
        """The value of every option in force."""
        return dict(self.engine.options)

    def start(self) -> Position:
        """The start position."""
        return Position(self.engine, self.engine.initial_state())

    def position(self, text: str) -> Position:
        """A position from its string, e.g. ``"(b \\"\\" ...)"``; raises PositionError.

        A position for another board size recompiles the game for that size.
        """
        game, state = load_position(self.engine, _text(text, "a position", PositionError))
        return Position(game, state)

    def solve(self, *, db: str | Path | None = None, store: bool = True, workers: int = 1) -> Value:
        """The start position's exact value: ``game.start().value(...)``."""
        return self.start().value(db=db, store=store, workers=workers)


@dataclass(frozen=True, repr=False)
class Position:
    """A position of a game: whose turn, the board, and what may happen next."""

    engine: engine.Game
    state: engine.State

    def __str__(self) -> str:
        return self.engine.format_position(self.state)

    def __repr__(self) -> str:
        return self.engine.format_position(self.state)

    def _repr_svg_(self) -> str:
        """The board as SVG, for notebooks (Jupyter shows it in place of the text)."""
        from rulesdsl.cli.svg import draw

        return draw(self.engine, self.state)

    def value(self, *, db: str | Path | None = None, store: bool = True, workers: int = 1) -> Value:
        """Solve this position exactly (the strong solver of ``rulesdsl solve``).

        ``db`` is the SQLite file that keeps solutions (default: the one in the
        user's cache folder, as on the command line); ``store=False`` solves in
        memory and keeps nothing. Raises :class:`~rulesdsl.errors.RulesdslError`
        for a game the solver cannot hold (one that forbids repeating a board).
        """
        from rulesdsl.interpreter.solver import solve  # numpy loads only when solving

        result = solve(self.engine, self.state, db=db, use_db=store, workers=workers)
        return Value(result.value, result.remoteness, result.positions)

    @property
    def to_move(self) -> str:
        """The name of the player to move."""
        return self.engine.players[self.state.turn].name

    def moves(self) -> list[str]:
        """The legal moves in the game's notation; empty when the game is over."""
        return [self.engine.format_move(self.state, move) for move in self.engine.legal_moves(self.state)]

    def play(self, move: str) -> Position:
        """The position after ``move`` (in the game's notation); raises MoveError when it is not legal."""
        chosen = self.engine.parse_move(self.state, _text(move, "a move", MoveError))
        return Position(self.engine, self.engine.apply(self.state, chosen))

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        result = self.engine.outcome(self.state)
        if result is None:
            return None
        winner = None if result.winner is None else self.engine.players[result.winner].name
        rule = result.rule
        players = self.engine.players
        places = dict(zip((p.name for p in players), result.ranking(len(players))))
        return Outcome(winner, result.reason, rule.number if rule else None, rule.span if rule else None, places)

    def perft(self, depth: int) -> int:
        """The number of move sequences of exactly ``depth`` plies from here (0 or more; else ArgumentError)."""
        return search.perft(self.engine, self.state, _depth(depth, 0))

    def best_move(self, depth: int) -> str | None:
        """The move alpha-beta search to ``depth`` plies picks (``None`` when the game is over).

        ``depth`` is 1 or more; else :class:`~rulesdsl.errors.ArgumentError`.
        """
        choice = search.best_move(self.engine, self.state, _depth(depth, 1))
        return None if choice is None else self.engine.format_move(self.state, choice.move)
