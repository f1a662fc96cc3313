"""The engine's static move order, and its one selective rule for crowded placement games.

Moves that capture come first (most captured, then most enemy pieces
displaced); a placement comes before others by how many pieces stand next to
the cell it fills. Both need only the board and its geometry, so they apply
to every game; a game whose states are not boards (a test's wrapper) keeps
its generation order.

The selective rule: in a position with more than ``CROWDED`` placements (a
large empty board, as in Gomoku), a search under a clock looks only at
placements on a line through a piece already on the board, at most two steps
from it (all of them when the board is empty). The engine applies it only to
the searching side's own moves (the player to move at the root): leaving out
an opponent's reply could flatter a move, leaving out one's own can only
undervalue it, so a narrowed score is never above the full search's. It never
applies to a search to a fixed depth, which stays exact.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rulesdsl.interpreter.compile.game import NO_CELL, Game, Move, State

CROWDED = 64  # more placements than this in one position: the selective rule may apply
NEAR = 2  # steps from a piece within which a placement stays a candidate

Order = Callable[[State, list[Move], bool], tuple[list[Move], bool]]


def capture_rank(move: Move) -> tuple[int, int]:
    """Captures first, then moves that displace the most enemy pieces."""
    return (-move.captures, -len(move.displaced))


def plain_order(state: State, moves: list[Move], selective: bool) -> tuple[list[Move], bool]:
    """Captures first, otherwise generation order; nothing left out."""
    return sorted(moves, key=capture_rank), False


def neighbourhoods(game: Game, radius: int) -> list[list[frozenset[int]]]:
    """For each cell, the cells 1, 2, ... ``radius`` steps away along one direction of the board."""
    geometry = game.geometry
    vectors = [geometry.directions[d] for d in geometry.direction_sets["all"]]
    rings: list[list[frozenset[int]]] = []
    for cell in geometry.cells:
        rings.append([frozenset(n for dx, dy in vectors if (n := geometry.at(cell.x + k * dx, cell.y + k * dy)) >= 0)
                      for k in range(1, radius + 1)])
    return rings


def board_order(game: Game) -> Order:
    """The static order for ``game``'s boards (see the module's docstring)."""
    rings = neighbourhoods(game, NEAR)
    empty = game.empty

    def order(state: State, moves: list[Move], selective: bool) -> tuple[list[Move], bool]:
        placements = [mv for mv in moves if mv.origin == NO_CELL and mv.target != NO_CELL]
        if not placements:
            return sorted(moves, key=capture_rank), False
        board = state.board
        occupied = [i for i, ch in enumerate(board) if ch != empty]
        adjacent: set[int] = set()
        near: set[int] = set()
        for cell in occupied:
            adjacent |= rings[cell][0]
            for ring in rings[cell][1:]:
                near |= ring
        near |= adjacent
        counts: dict[int, int] = {}
        for cell in occupied:
            for n in rings[cell][0]:
                counts[n] = counts.get(n, 0) + 1

        def rank(move: Move) -> tuple[int, int, int, bool]:
            if move.origin != NO_CELL or move.target == NO_CELL:
                return (-move.captures, -len(move.displaced), 0, False)
            return (-move.captures, -len(move.displaced), -counts.get(move.target, 0), move.target not in near)

        ranked = sorted(moves, key=rank)
        if selective and len(placements) > CROWDED and near:
            kept = [mv for mv in ranked if mv.origin != NO_CELL or mv.target == NO_CELL or mv.target in near]
            if kept:
                return kept, len(kept) < len(ranked)
        return ranked, False

    return order


def static_order(game: Game) -> Order:
    """:func:`board_order` for a compiled game, :func:`plain_order` for anything else."""
    if isinstance(game, Game) and game.geometry.cells:
        return board_order(game)
    return plain_order


def root_moves(game: Game, state: State, shuffle: random.Random | None = None) -> list[Move] | None:
    """The moves a search for three or more players tries at the root, captures first (shuffled first where
    ``shuffle`` is given, so ties break at random); ``None`` when the game is over."""
    moves, outcome = game.status(state)
    if outcome is not None or not moves:
        return None
    moves = list(moves)
    if shuffle is not None:
        shuffle.shuffle(moves)
    moves.sort(key=capture_rank)
    return moves
