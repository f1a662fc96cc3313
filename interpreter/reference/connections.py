"""Connections: corners, edges and rings (``PLAYER joins N corners``, ``... N edges``, ``PLAYER forms a ring``).

Everything is measured along the board's own directions (``all``: six on a
hexagon). The border is the cells with fewer neighbours than a cell inside
has. A corner is a border cell whose two neighbours along the border do not
lie in a straight line through it (the six corners of a hexagon, the four of
a grid or rhombus); an edge is a straight run of border cells between two
corners, so a corner counts for no edge. A group is a set of a player's pieces each
reachable from the others one step at a time.

- ``joins N corners``: one group holds at least N corners (a bridge: 2);
- ``joins N edges``: one group touches at least N different edges (a fork: 3);
- ``forms a ring``: the player's pieces make a closed loop around at least one
  cell, of any content: a cell that is not the player's and cannot reach the
  border through cells that are not the player's, or a piece of the player's
  whose every neighbour is on the board and the player's.

The tables are computed once per compiled game; each test is one pass over the
board (a flood fill), with no allocation beyond its work lists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rulesdsl.interpreter.compile.geometry import Geometry


class Outline(NamedTuple):
    """A board's neighbour lists, border, corners and edges (``edge_of[c]``: the edge's number, or -1)."""

    around: tuple[tuple[int, ...], ...]
    full: int  # how many neighbours a cell inside the board has
    border: tuple[int, ...]
    corner: tuple[bool, ...]
    edge_of: tuple[int, ...]
    edges: int


def board_outline(geometry: Geometry) -> Outline:
    """The border, corners and edges of a board, along its ``all`` directions."""
    vectors = [geometry.directions[name] for name in geometry.direction_sets["all"]]
    cells = range(len(geometry.cells))
    around = tuple(tuple(n for v in vectors if (n := geometry.step(c, v)) >= 0) for c in cells)
    full = max((len(a) for a in around), default=0)
    on_border = [len(around[c]) < full for c in cells]
    corner = [False] * len(around)
    for c in cells:
        if not on_border[c]:
            continue
        along = [v for v in vectors if (n := geometry.step(c, v)) >= 0 and on_border[n]]
        straight = any((-v[0], -v[1]) in along for v in along)
        corner[c] = not straight
    edge_of = [-1] * len(around)
    edges = 0
    for c in cells:
        if on_border[c] and not corner[c] and edge_of[c] < 0:
            edge_of[c] = edges
            todo = [c]
            while todo:
                here = todo.pop()
                for v in vectors:  # along the border: the line through both cells goes on along it
                    n = geometry.step(here, v)
                    if n < 0 or not on_border[n] or corner[n] or edge_of[n] >= 0:
                        continue
                    back, on = geometry.step(here, (-v[0], -v[1])), geometry.step(n, v)
                    if (back >= 0 and on_border[back]) or (on >= 0 and on_border[on]):
                        edge_of[n] = edges
                        todo.append(n)
            edges += 1
    return Outline(around, full, tuple(c for c in cells if on_border[c]), tuple(corner), tuple(edge_of), edges)


def joins(outline: Outline, what: str) -> Callable[[str, frozenset[str], int], bool]:
    """``test(board, symbols, n)``: one group of pieces with these symbols holds n corners (or touches n edges)."""
    around, corner, edge_of = outline.around, outline.corner, outline.edge_of
    corners = what == "corners"

    def test(board: str, mine: frozenset[str], wanted: int) -> bool:
        seen = bytearray(len(board))
        for start, sym in enumerate(board):
            if sym not in mine or seen[start]:
                continue
            seen[start] = 1
            todo, found, touched = [start], 0, 0  # touched: the edges met, as bits
            while todo:
                c = todo.pop()
                if corners:
                    found += corner[c]
                elif edge_of[c] >= 0 and not touched >> edge_of[c] & 1:
                    touched |= 1 << edge_of[c]
                    found += 1
                for n in around[c]:
                    if not seen[n] and board[n] in mine:
                        seen[n] = 1
                        todo.append(n)
            if found >= wanted:
                return True
        return False

    return test


def ring(outline: Outline) -> Callable[[str, frozenset[str]], bool]:
    """``test(board, symbols)``: the pieces with these symbols close a loop around at least one cell."""
    around, full, border = outline.around, outline.full, outline.border

    def test(board: str, mine: frozenset[str]) -> bool:
        for c, sym in enumerate(board):  # a piece whose six neighbours are all mine: they ring it
            if sym in mine and len(around[c]) == full and all(board[n] in mine for n in around[c]):
                return True
        free = [c for c in border if board[c] not in mine]  # cells open to the outside
        reached = bytearray(len(board))
        for c in free:
            reached[c] = 1
        while free:
            for n in around[free.pop()]:
                if not reached[n] and board[n] not in mine:
                    reached[n] = 1
                    free.append(n)
        return any(not reached[c] and sym not in mine for c, sym in enumerate(board))

    return test
