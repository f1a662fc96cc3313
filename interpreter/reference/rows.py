"""Rows through one cell: how many of a player's pieces stand in a straight run with it.

Used by ``then after N in a row`` (did the piece that just landed complete a
row?) and ``remove KIND except N in a row`` (which pieces are spared). A run
follows the board's directions, so on a board with declared ``lines`` it
follows the lines.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl.interpreter.compile.tables import Tables

RunLength = Callable[[str, int], int]


def run_length(tables: Tables) -> RunLength:
    """``run(board, cell)``: the longest straight run of the owner's pieces through ``cell`` (0 if empty)."""
    geometry = tables.geometry
    vectors = [geometry.directions[d] for d in geometry.direction_sets["all"]]
    axes = []
    for vector in vectors:
        back = (-vector[0], -vector[1])
        if back in vectors and any(a[1] == vector for a in axes):
            continue
        axes.append((tables.neighbours(vector), tables.neighbours(back) if back in vectors else None))
    owner = tables.owner
    mine = {p: tables.symbols_of(p) for p in range(len(tables.player_names))}

    def run(board: str, cell: int) -> int:
        player = owner.get(board[cell])
        if player is None or player not in mine:
            return 0
        own = mine[player]
        best = 0
        for ahead, behind in axes:
            n = 1
            for table in (ahead, behind):
                if table is None:
                    continue
                t = table[cell]
                while t >= 0 and board[t] in own:
                    n += 1
                    t = table[t]
            best = max(best, n)
        return best

    return run
