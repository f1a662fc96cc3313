"""Custodian capture: an enemy piece caught between the piece that just moved and a friend is removed.

``KIND step DIRS custodial DIRS2 [of any length] [against CELL, ...]``: after
the piece lands, for each direction of DIRS2, an enemy piece on the next cell
is removed when the cell beyond it holds one of the mover's pieces, or is one
of the hostile CELLs and empty; ``of any length``: a whole run of enemy pieces
ending so is removed. Only the moving piece captures (an enemy that moves between
two of the mover's pieces is safe). The cells around each landing cell are
worked out once per rule, so the move loop only reads the board.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import Move
from rulesdsl.interpreter.compile.tables import Tables

Generator = Callable[[str, list[Move]], None]


def custodial(inner: Generator, rule: m.MoveRule, tables: Tables, player: int) -> Generator:
    """``inner``'s moves, each with the enemy pieces it sandwiches removed."""
    empty = tables.empty
    mine = tables.symbols_of(player)
    theirs = tables.enemy_symbols(player)
    rays = [tables.neighbours(v) for v in tables.vectors(rule.custodial, player)]
    hostile = set()
    for name, span in rule.hostile:
        cell = tables.geometry.index_of(name)
        if cell is None:
            raise RulesdslError(f"{name!r} is not a cell of this board", span)
        hostile.add(cell)
    longest = tables.cell_count if rule.custodial_runs else 1
    # per landing cell and direction: the cells along it, as far as a run could reach (and one beyond)
    lines = [[_line(ray, t, longest + 1) for ray in rays] for t in range(tables.cell_count)]

    def gen_custodial(board: str, out: list[Move]) -> None:
        found: list[Move] = []
        inner(board, found)
        for move in found:
            after = dict(move.changes)
            caught: list[int] = []
            for line in lines[move.target]:
                run = 0  # enemy pieces in a row from the landing cell, leaving room for the cell beyond them
                while run < min(longest, len(line) - 1) and after.get(line[run], board[line[run]]) in theirs:
                    run += 1
                if run == 0:
                    continue
                far = line[run]
                there = after.get(far, board[far])
                if there in mine or (far in hostile and there == empty):
                    caught.extend(line[:run])
            if caught:
                move = move._replace(changes=(*move.changes, *((c, empty) for c in caught)),
                                     displaced=(*move.displaced, *caught), captures=move.captures + len(caught))
            out.append(move)

    return gen_custodial


def _line(ray: tuple[int, ...], start: int, length: int) -> list[int]:
    """Up to ``length`` cells from ``start`` along ``ray`` (``start`` itself not included)."""
    cells: list[int] = []
    cell = ray[start]
    while cell >= 0 and len(cells) < length:
        cells.append(cell)
        cell = ray[cell]
    return cells
