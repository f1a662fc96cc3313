"""Turning and reflecting blocks of cells: ``rectangle NAME CELL..CELL`` and the ``turn`` move rule.

A block is the rectangle of cells between two opposite corners. ``turn BLOCKS
WAY`` moves every piece of one block at once: a quarter turn ``clockwise`` or
``anticlockwise`` (as the board is drawn, north at the top), both (``either
way``), a ``half round`` turn, or ``over`` (mirrored left to right). Each way
is one move, written ``BLOCK+`` (clockwise), ``BLOCK-`` (anticlockwise),
``BLOCK*`` (half round) or ``BLOCK|`` (over), even when it changes no cell: a
turn of an empty block is still a move.

Every turn is a fixed permutation of cells, computed once when the game is
compiled; a move writes the permuted symbols, so the state stays a board.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import NO_CELL, Move
from rulesdsl.interpreter.compile.geometry import Geometry

TURN_ACTION = "turn"
# way -> the marks of its moves, in the order they are listed
WAYS: dict[str, tuple[str, ...]] = {
    "clockwise": ("+",), "anticlockwise": ("-",), "either way": ("-", "+"), "half round": ("*",), "over": ("|",),
}
QUARTER_WAYS = ("clockwise", "anticlockwise", "either way")


def block_rectangle(geometry: Geometry, corners: tuple[str, str]) -> tuple[int, int, int, int] | str:
    """``(x0, y0, x1, y1)`` of the block between two corner cells, or why there is none (a sentence)."""
    found = [geometry.index_of(name) for name in corners]
    for name, index in zip(corners, found):
        if index is None:
            return f"{name!r} is not a cell of this board"
    a, b = (geometry.cells[i] for i in found)  # type: ignore[index]
    x0, x1 = sorted((a.x, b.x))
    y0, y1 = sorted((a.y, b.y))
    missing = [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1) if geometry.at(x, y) < 0]
    if missing:
        return f"the rectangle from {corners[0]} to {corners[1]} has holes: not every cell between them is on the board"
    return x0, y0, x1, y1


def turn_permutation(rect: tuple[int, int, int, int], mark: str) -> list[tuple[int, int, int, int]]:
    """``[(from x, from y, to x, to y)]``: where each cell's piece goes when the block turns this way."""
    x0, y0, x1, y1 = rect
    n = x1 - x0
    out = []
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            dx, dy = x - x0, y - y0
            if mark == "+":  # clockwise, y upward: north goes east
                tx, ty = dy, n - dx
            elif mark == "-":
                tx, ty = (y1 - y0) - dy, dx
            elif mark == "*":
                tx, ty = n - dx, (y1 - y0) - dy
            else:  # over: mirrored left to right
                tx, ty = n - dx, dy
            out.append((x, y, x0 + tx, y0 + ty))
    return out


def block_moves(geometry: Geometry, name: str, rect: tuple[int, int, int, int],
                way: str) -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    """For each move of turning one block: its written label and ``(from cell, to cell)`` pairs."""
    out = []
    for mark in WAYS[way]:
        pairs = tuple((geometry.at(fx, fy), geometry.at(tx, ty)) for fx, fy, tx, ty in turn_permutation(rect, mark))
        out.append((name + mark, tuple(p for p in pairs if p[0] != p[1])))
    return out


def compile_turn(rule: m.MoveRule, blocks: dict[str, tuple[int, int, int, int]],
                 geometry: Geometry) -> Callable[[str, list[Move]], None]:
    """The generator of a ``turn`` rule: every way of turning every block it names, in the order written."""
    moves = []
    for name, span in rule.blocks:
        if name not in blocks:
            raise RulesdslError(f"no rectangle named {name!r}", span)
        x0, y0, x1, y1 = blocks[name]
        if rule.way in QUARTER_WAYS and x1 - x0 != y1 - y0:
            raise RulesdslError(f"rectangle {name} is not square: a quarter turn would not fit it", span)
        moves.extend(block_moves(geometry, name, blocks[name], rule.way))

    def gen_turn(board: str, out: list[Move]) -> None:
        for label, pairs in moves:
            changes = tuple((to, board[src]) for src, to in pairs if board[src] != board[to])
            out.append(Move(NO_CELL, NO_CELL, changes, TURN_ACTION, label=label))

    return gen_turn


def resolve_blocks(statements: list[m.Block], geometry: Geometry) -> dict[str, tuple[int, int, int, int]]:
    """Every block statement's rectangle, by name; raises :class:`RulesdslError` for a bad one."""
    found = {}
    for block in statements:
        rect = block_rectangle(geometry, (block.corners[0][0], block.corners[1][0]))
        if isinstance(rect, str):
            raise RulesdslError(rect, block.span)
        found[block.name] = rect
    return found
