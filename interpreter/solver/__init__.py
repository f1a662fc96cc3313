"""The strong solver: the exact value and remoteness of a position.

``solve(game, state)`` explores every position reachable from ``state``
tier by tier (:mod:`.tiers`, :mod:`.explore`; the moves are expanded by
:mod:`.successors` across worker processes and written to a scratch folder),
decides them by retrograde analysis from the tier with the fewest pieces up
(:mod:`.retrograde`, so cycles come out as draws), and keeps the results in
SQLite (:mod:`.store`) so that a second call answers at once. Positions are
integer keys (:mod:`.encoding`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.interpreter.parallel.processes import scratch_folder
from rulesdsl.interpreter.solver.encoding import PositionCodec, SolveError, check_solvable
from rulesdsl.interpreter.solver.explore import DRAW, LOSE, WIN, Progress, Tier, default_workers, explore
from rulesdsl.interpreter.solver.schedule import solve_in_order
from rulesdsl.interpreter.solver.store import DamagedStore, Store, default_path, start_over, table_name
from rulesdsl.interpreter.solver.tiers import TierMap

__all__ = ["MoveValue", "Solution", "SolveError", "VALUE_NAMES", "best_first", "solve", "solve_all", "solve_tiers"]

SCRATCH_PREFIX = "rulesdsl-solve-"  # the scratch folder of a solve, in the temporary folder; removed at the end
VALUE_NAMES = {WIN: "win", LOSE: "lose", DRAW: "draw"}


@dataclass(frozen=True)
class MoveValue:
    """One move and the solved value of the position it leads to (for that position's player to move)."""

    move: Move
    state: State
    value: str
    remoteness: int | None

    def for_mover(self, mover: int) -> tuple[str, int | None]:
        """The move's value for the player who makes it, and the plies to the end counting the move."""
        if self.value == "draw":
            return "draw", None
        same = self.state.turn == mover
        good = (self.value == "win") == same
        return ("win" if good else "lose"), (self.remoteness or 0) + 1


def best_first(moves: tuple[MoveValue, ...], mover: int) -> list[MoveValue]:
    """Moves ordered for the mover: quickest wins, then draws, then slowest losses."""

    def rank(entry: MoveValue) -> tuple[int, int]:
        value, plies = entry.for_mover(mover)
        return {"win": (0, plies or 0), "draw": (1, 0), "lose": (2, -(plies or 0))}[value]

    return sorted(moves, key=rank)


@dataclass(frozen=True)
class Solution:
    """The value (``win``/``lose``/``draw`` for the player to move) and remoteness of a position.

    ``positions`` is the number of positions reachable from it (itself included),
    ``None`` when it was answered from a stored solve of another start.
    ``stored`` tells whether the answer came from the database without solving.
    """

    value: str
    remoteness: int | None
    positions: int | None
    stored: bool
    moves: tuple[MoveValue, ...] = ()
    cluster: Any = None  # what a cluster solve measured (cluster_solve.ClusterStats), else None


def solve(game: Game, state: State, *, db: Path | str | None = None, use_db: bool = True, workers: int | None = None,
          limit: int | None = None, with_moves: bool = False, progress: Progress | None = None,
          client: Any = None, scratch: Path | str | None = None, status: Callable[[str], None] | None = None
          ) -> Solution:
    """Solve ``state`` exactly (or read it from the database).

    ``db`` is the SQLite file (default: the user's cache folder); ``use_db=False``
    keeps everything in memory. ``limit`` refuses games with more reachable
    positions (raising :class:`SolveError`). ``with_moves`` adds every move's value.
    ``client`` (a ``distributed.Client``) solves on that Dask cluster instead, with its
    work files under ``scratch`` (:mod:`.cluster_solve`); ``status`` hears of its workers.
    """
    check_solvable(game, state)
    codec = PositionCodec(game)
    with ExitStack() as stack:
        store = Store(db if db is not None else default_path()) if use_db else None
        if store is None and client is not None:  # the cluster solver stores tier by tier: a throw-away database
            store = Store(stack.enter_context(scratch_folder("rulesdsl-db-")) / "db")
        if store is not None:
            stack.callback(store.close)
        table = table_name(game, codec)
        root = codec.encode(state)
        known = store.lookup(table, root) if store else None
        positions = store.root_positions(table, root) if store and known else None
        solved: dict[int, tuple[int, int | None]] = {}
        fresh = known is None
        cluster = None
        if known is None and client is not None and store is not None:
            from rulesdsl.interpreter.solver.cluster_solve import ClusterSolve

            cluster = ClusterSolve(game, codec, table, store, client, Path(scratch) if scratch else None,
                                   progress, status, limit).run(state)
            positions = cluster.positions
            known = store.lookup(table, root)
            if known is None:  # cannot happen: the root's tier is stored with the others
                raise SolveError("the cluster solve did not store its start")
        elif known is None:
            with scratch_folder(SCRATCH_PREFIX) as work:
                tiers = solve_tiers(game, codec, root, work, workers or default_workers(), limit, progress)
                positions = sum(tier.size for tier in tiers)
                if store:
                    store.save(table, game, root, _tier_rows(codec, tiers), progress, positions, codec.wide)
                children = [codec.encode(game.apply(state, m)) for m in game.legal_moves(state)] if with_moves else []
                solved = _lookup(TierMap(game, codec), tiers, [root, *children])
            known = solved[root]
        moves = _move_values(game, state, codec, table, store, solved) if with_moves else ()
        if not fresh:
            _check_stored(game, state, known, moves, store.path if store else Path("?"))
        return Solution(VALUE_NAMES[known[0]], known[1], positions, not fresh, moves, cluster)


def _check_stored(game: Game, state: State, known: tuple[int, int | None], moves: tuple[MoveValue, ...],
                  path: Path) -> None:
    """Refuse a stored value no solve could have written for ``state`` (a damaged or forged database).

    A position that is over has remoteness 0 and the value its outcome gives; one that is not over
    has a win or loss at least 1 ply away; and, with the moves' values, the position's value is the
    best of them for its player.
    """
    value, remoteness = VALUE_NAMES[known[0]], known[1]
    said = value if remoteness is None else f"{value} in {remoteness}"
    _, outcome = game.status(state)
    if outcome is not None:
        expected = "draw" if outcome.winner is None else "win" if outcome.winner == state.turn else "lose"
        right = value == expected and remoteness in (None, 0)
    else:
        right = value == "draw" or (remoteness or 0) >= 1
        if right and moves:
            best = best_first(moves, state.turn)[0].for_mover(state.turn)
            right = best == (value, remoteness)
    if not right:
        raise DamagedStore(f"{path}: the stored value of {game.format_position(state)} is impossible "
                           f"({said}); the database is damaged: {start_over(path)}")


def solve_tiers(game: Game, codec: PositionCodec, root: int, scratch: Path, workers: int = 1,
                limit: int | None = None, progress: Progress | None = None) -> list[Tier]:
    """Explore and solve every position reachable from ``root``, tier by tier, in the folder ``scratch``.

    Returns the tiers (most pieces first), each with its ``keys``, ``value`` and ``remoteness`` saved.
    """
    tiers = explore(game, codec, root, scratch, workers, limit, progress)
    solve_in_order(tiers, TierMap(game, codec), workers, progress)
    return tiers


def solve_all(game: Game, state: State, workers: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every position reachable from ``state``: sorted keys, values and remoteness (for tests and small games)."""
    check_solvable(game, state)
    codec = PositionCodec(game)
    with scratch_folder(SCRATCH_PREFIX) as scratch:
        tiers = solve_tiers(game, codec, codec.encode(state), scratch, workers)
        keys, value, remoteness = (np.concatenate(part) for part in zip(*_tier_rows(codec, tiers)))
    at = np.argsort(keys)
    return keys[at], value[at], remoteness[at]


def _tier_rows(codec: PositionCodec, tiers: list[Tier]) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(keys as numbers, value, remoteness) of each tier, one tier in memory at a time."""
    for tier in tiers:
        yield codec.ints(tier.load("keys")), tier.load("value"), tier.load("remoteness")


def _lookup(tiermap: TierMap, tiers: list[Tier], keys: list[int]) -> dict[int, tuple[int, int | None]]:
    """(value, remoteness) of some solved positions, read from their tiers' files."""
    wanted = tiermap.codec.keys(sorted(set(keys)))
    where = tiermap.of(wanted)
    found: dict[int, tuple[int, int | None]] = {}
    for tier in tiers:
        pick = wanted[where == tier.number]
        if not len(pick):
            continue
        at = np.searchsorted(tier.load("keys"), pick)
        value, remoteness = tier.load("value")[at], tier.load("remoteness")[at]
        for key, v, r in zip(tiermap.codec.ints(pick).tolist(), value.tolist(), remoteness.tolist()):
            found[key] = (v, None if v == DRAW else r)
    return found


def _move_values(game: Game, state: State, codec: PositionCodec, table: str, store: Store | None,
                 solved: dict[int, tuple[int, int | None]]) -> tuple[MoveValue, ...]:
    out = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        key = codec.encode(child)
        hit = solved.get(key) or (store.lookup(table, key) if store else None)
        if hit is None:  # cannot happen: every child of a solved position is solved with it
            raise SolveError(f"no stored value for {game.format_position(child)}")
        out.append(MoveValue(move, child, VALUE_NAMES[hit[0]], hit[1]))
    return tuple(out)
