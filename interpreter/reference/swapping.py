"""The swap (pie) rule: ``swap [turning WAY] [in REGION]`` in a moves block.

On the second player's first turn, while the board holds one piece only and it is the first
player's, the second player may take that piece over instead of moving: it becomes the second
player's piece of the same kind, on the same cell, or (``turning clockwise``, ``anticlockwise``,
``half round``) on the cell the board turned so carries it to, which keeps each side's goals apart
when the players aim at different sides. With ``in REGION``, only a piece on the mover's cells of
REGION may be taken over. The move is written as the cell of the piece taken over.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import NO_CELL, Move
from rulesdsl.interpreter.compile.tables import Tables

SWAP_ACTION = "swap"
TURNS = {"": lambda x, y: (x, y), "clockwise": lambda x, y: (y, -x), "anticlockwise": lambda x, y: (-y, x),
         "half round": lambda x, y: (-x, -y)}

Generator = Callable[[str, list[Move]], None]


def turned_cells(tables: Tables, way: str) -> list[int]:
    """For each cell, the cell the board turned ``way`` about its centre carries it to (-1: off the board)."""
    geometry = tables.geometry
    left, right, bottom, top = geometry.bounds
    turn = TURNS[way]
    out = []
    for cell in geometry.cells:  # doubled coordinates about the centre stay whole numbers
        x, y = turn(2 * cell.x - left - right, 2 * cell.y - bottom - top)
        out.append(geometry.at((x + left + right) // 2, (y + bottom + top) // 2)
                   if (x + left + right) % 2 == 0 and (y + bottom + top) % 2 == 0 else -1)
    return out


def swapping(rule: m.MoveRule, tables: Tables, player: int) -> Generator:
    """``swap [turning WAY]`` for ``player``: only the second seat, only against the first seat's lone piece."""
    if rule.way not in TURNS:
        raise RulesdslError(f"'swap turning {rule.way}': a swap turns the board clockwise, anticlockwise or "
                            "half round", rule.span)
    empty = tables.empty
    to = turned_cells(tables, rule.way)
    first = tables.symbols_of(0)
    mine = {s: tables.symbol.get((player, tables.kind[s])) for s in first}
    allowed = tables.region(rule.region, player) if rule.region else frozenset(range(tables.cell_count))

    def gen(board: str, out: list[Move]) -> None:
        if player != 1:
            return
        cell = NO_CELL
        for c, sym in enumerate(board):
            if sym != empty:
                if cell != NO_CELL or sym not in first:
                    return
                cell = c
        if cell == NO_CELL or cell not in allowed or to[cell] < 0 or mine[board[cell]] is None:
            return
        taken = mine[board[cell]]
        changes = ((cell, taken),) if to[cell] == cell else ((cell, empty), (to[cell], taken))
        out.append(Move(NO_CELL, cell, changes, SWAP_ACTION))

    return gen
