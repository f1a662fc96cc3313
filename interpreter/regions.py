"""Regions: named sets of cells (``region NAME where EXPR``), one set per player.

``EXPR`` reads ``col`` and ``row`` (as a start layout's ``where`` does) and
``rank``, the row counted from the player's own side: 1 for the cells from
which one step backward leaves the board, 2 for the next, and so on.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import Value, evaluate
from rulesdsl.interpreter.tables import Tables

Regions = dict[str, list[frozenset[int]]]  # name -> per player, the cells of the region


def rank_of(tables: Tables, player: int, cell: int) -> int:
    """How many cells from ``cell`` back to the edge behind ``player`` (``cell`` included)."""
    forward = tables.forward.get(player)
    if forward is None:
        raise RulesdslError(f"'rank' is counted from {tables.player_names[player]}'s side, but no 'forward' "
                            "statement gives it")
    back = (-forward[0], -forward[1])
    rank, at = 1, tables.geometry.step(cell, back)
    while at >= 0:
        rank, at = rank + 1, tables.geometry.step(at, back)
    return rank


def compile_regions(active, tables: Tables, options: Mapping[str, Value]) -> Regions:
    """Every region of the active statements, per player."""
    geometry = tables.geometry
    out: Regions = {}
    uses_rank = any(isinstance(n, m.NameRef) and n.name == "rank"
                    for region in active.all(m.Region) for n in m.walk(region.where))
    for region in active.all(m.Region):
        per_player = []
        for player in range(len(tables.player_names)):
            cells = []
            for cell in geometry.cells:
                names = {**options, "col": cell.x, "row": cell.y}
                if uses_rank:
                    names["rank"] = rank_of(tables, player, cell.index)
                if evaluate(region.where, names):
                    cells.append(cell.index)
            per_player.append(frozenset(cells))
        out[region.name] = per_player
    return out
