"""Solver values for the web board, read from the solver's SQLite database.

Only what a solve has already stored is shown: the board never starts a
solve. When the position is in the database, each legal move gets its value
for the player who makes it (``win``, ``lose`` or ``draw``) and its
remoteness (plies to the end, counting the move), as GamesCrafters' web
front end shows them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

from rulesdsl.interpreter.compile.game import Game, State


def database_values(path: Path | str | None = None):
    """A value source for :class:`rulesdsl.cli.web_api.Api` over the database at ``path``.

    ``None`` means the solver's default database. The source answers ``None``
    for a position the database does not hold (or a game the solver cannot key).
    """

    def values(game: Game, state: State) -> Mapping[str, tuple[str, int | None]] | None:
        try:
            from rulesdsl.interpreter.solver import VALUE_NAMES, MoveValue, SolveError
            from rulesdsl.interpreter.solver.encoding import PositionCodec, check_solvable
            from rulesdsl.interpreter.solver.store import Store, default_path, table_name
        except ModuleNotFoundError:  # installed without the 'solve' extra: the board shows no values
            return None

        db = Path(path) if path is not None else default_path()
        if not db.is_file():
            return None
        try:
            check_solvable(game, state)
            codec = PositionCodec(game)
            store = Store(db)
        except SolveError:
            return None
        try:
            table = table_name(game, codec)
            if store.lookup(table, codec.encode(state)) is None:
                return None
            mover = game.to_move(state)
            out: dict[str, tuple[str, int | None]] = {}
            for move in game.legal_moves(state):
                child = game.apply(state, move)
                hit = store.lookup(table, codec.encode(child))
                if hit is not None:
                    entry = MoveValue(move, child, VALUE_NAMES[hit[0]], hit[1])
                    out[game.format_move(state, move)] = entry.for_mover(mover)
            return out
        except (sqlite3.Error, SolveError):
            return None
        finally:
            store.close()

    return values
