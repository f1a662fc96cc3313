"""Nested boards: ``boards W x H won by N in a row``, ``place KIND in sent board``, ``has N in a row of boards``.

The board is tiled by small boards of W x H cells, from its bottom-left
corner. A small board is won by the first player with N in a row inside it
(along the board's directions), and drawn when it is full; a decided board
takes no more pieces. The small boards form a big board, each marked with its
winner (a drawn board is nobody's).

A placement ``in sent board`` goes in the small board that the last placement
sends to: the one standing in the big board where the last placed piece stands
in its own small board (the top-left cell of any small board sends to the
top-left small board). When no placement was made yet, or the sent board is
decided (or off the big board), any small board that is not decided.

In these games a position's ``last`` is the cell of the last placement, kept
when the turn passes. Everything is computed from the board and ``last``, with
tables built once per compiled game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rulesdsl.errors import RulesdslError, Span
from rulesdsl.interpreter.compile.game import NO_CELL, Move
from rulesdsl.interpreter.compile.geometry import Geometry


@dataclass(frozen=True)
class Nest:
    """The small boards of a board: their cells, their lines, and where each cell sends."""

    cells: tuple[tuple[int, ...], ...]  # per small board (numbered from the bottom-left, row by row)
    lines: tuple[tuple[tuple[int, ...], ...], ...]  # per small board: its lines of N cells
    board_of: tuple[int, ...]  # per cell: its small board
    sends: tuple[int, ...]  # per cell: the small board it sends to (-1: none)
    big: tuple[int, int]  # the big board's columns and rows
    vectors: tuple[tuple[int, int], ...]  # the board's line directions, one per axis

    def owners(self, board: str, symbols: list[frozenset[str]]) -> list[int]:
        """Per small board: the player who won it, -1 for none."""
        out = []
        for lines in self.lines:
            owner = -1
            for line in lines:
                first = board[line[0]]
                for player, mine in enumerate(symbols):
                    if first in mine and all(board[c] in mine for c in line):
                        owner = player
                        break
                if owner >= 0:
                    break
            out.append(owner)
        return out

    def open_boards(self, board: str, empty: str, symbols: list[frozenset[str]]) -> list[bool]:
        """Per small board: True when it is not decided (nobody won it and it has an empty cell)."""
        owners = self.owners(board, symbols)
        return [owner < 0 and any(board[c] == empty for c in cells) for owner, cells in zip(owners, self.cells)]


def build_nest(geometry: Geometry, width: int, height: int, line: int, where: Span) -> Nest:
    """The small boards of a grid board; raises :class:`RulesdslError` when they do not tile it."""
    x0, x1, y0, y1 = geometry.bounds
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    if min(width, height, line) < 1 or cols % width or rows % height:
        raise RulesdslError(f"small boards of {width} x {height} cells do not tile this board of {cols} x {rows}",
                            where)
    if line > max(width, height):
        raise RulesdslError(f"a small board of {width} x {height} cells has no {line} in a row", where)
    big = (cols // width, rows // height)
    vectors: list[tuple[int, int]] = []
    for name in geometry.direction_sets["all"]:
        v = geometry.directions[name]
        if (-v[0], -v[1]) not in vectors:
            vectors.append(v)
    cells: list[list[int]] = [[] for _ in range(big[0] * big[1])]
    board_of, sends = [], []
    for cell in geometry.cells:
        dx, dy = cell.x - x0, cell.y - y0
        index = (dy // height) * big[0] + dx // width
        board_of.append(index)
        cells[index].append(cell.index)
        lx, ly = dx % width, dy % height
        sends.append(ly * big[0] + lx if lx < big[0] and ly < big[1] else -1)
    lines = []
    for own in cells:
        inside = set(own)
        found = []
        for c in own:
            for v in vectors:
                run = [c]
                while len(run) < line and (n := geometry.step(run[-1], v)) in inside:
                    run.append(n)
                if len(run) == line:
                    found.append(tuple(run))
        lines.append(tuple(found))
    return Nest(tuple(map(tuple, cells)), tuple(lines), tuple(board_of), tuple(sends), big, tuple(vectors))


def allowed_boards(nest: Nest, board: str, last: int, empty: str, symbols: list[frozenset[str]],
                   sent: bool) -> list[bool]:
    """Per small board: may a piece be placed there now (open, and the sent one when there is one)."""
    open_ = nest.open_boards(board, empty, symbols)
    if sent and last != NO_CELL:
        target = nest.sends[last]
        if target >= 0 and open_[target]:
            return [i == target for i in range(len(open_))]
    return open_


def nested_placement(gen: Callable[[str, list[Move]], None], nest: Nest, empty: str,
                     symbols: list[frozenset[str]], sent: bool) -> Callable[..., None]:
    """A placement generator restricted to the small boards a piece may go in now (needs ``last``)."""
    board_of = nest.board_of

    def gen_nested(board: str, out: list[Move], last: int = NO_CELL) -> None:
        allowed = allowed_boards(nest, board, last, empty, symbols, sent)
        found: list[Move] = []
        gen(board, found)
        out.extend(mv for mv in found if allowed[board_of[mv.target]])

    gen_nested.needs_last = True  # type: ignore[attr-defined]
    return gen_nested


def big_lines(nest: Nest, length: int) -> list[tuple[int, ...]]:
    """The lines of ``length`` small boards on the big board (numbered row by row from the bottom-left)."""
    cols, rows = nest.big
    out = []
    for y in range(rows):
        for x in range(cols):
            for vx, vy in nest.vectors:
                run = [(x + k * vx, y + k * vy) for k in range(length)]
                if all(0 <= a < cols and 0 <= b < rows for a, b in run):
                    out.append(tuple(b * cols + a for a, b in run))
    return out


def boards_in_a_row(nest: Nest, symbols: list[frozenset[str]], length: int) -> Callable[[str, int], bool]:
    """``test(board, player)``: the player has won ``length`` small boards in a row on the big board."""
    lines = big_lines(nest, length)

    def test(board: str, player: int) -> bool:
        owners = nest.owners(board, symbols)
        return any(all(owners[b] == player for b in line) for line in lines)

    return test
