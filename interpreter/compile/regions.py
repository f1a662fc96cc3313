"""Regions and tracks: named sets of cells (per player) and cyclic orders of cells, resolved to indices.

A region is one set of cells per player. ``region NAME where EXPR`` gives each
player the cells where EXPR holds on ``col``, ``row`` and ``rank`` (the row
counted from that player's own side: 1 for the cells from which one step
backward leaves the board, 2 for the next, and so on); ``region NAME PLAYER
CELLS, PLAYER CELLS`` gives each player their own cells, and ``region NAME
PLAYER where EXPR, PLAYER where EXPR`` each player's own condition (a player
not seated for these options, under a guarded ``players``, is skipped). Move rules (``from``,
``within``, ``sow ... from``, ``place ... in``, ``capture ... into``) and end
rules (``count(... REGION)``, ``total(PLAYER REGION)``) read the mover's or the
named player's set. ``track NAME CELLS`` is a cyclic order of cells.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import Value, evaluate
from rulesdsl.interpreter.compile.geometry import Geometry
from rulesdsl.interpreter.compile.tables import Tables

Regions = dict[str, tuple[frozenset[int], ...]]  # name -> the region's cells, per player


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


def build_regions(statements: list[m.Region], tables: Tables, options: Mapping[str, Value]) -> Regions:
    """Every active region, per player."""
    geometry, players = tables.geometry, tables.player_names
    out: Regions = {}
    for stmt in statements:
        if stmt.where is not None:
            out[stmt.name] = _where(stmt, tables, options)
            continue
        per: list[set[int]] = [set() for _ in players]
        for player, cells in stmt.cells:
            if player in players:
                per[players.index(player)].update(_index(geometry, name, span) for name, span in cells)
        for part in stmt.wheres:
            if part.player in players:
                player = players.index(part.player)
                per[player].update(_cells_where(part.where, player, tables, options))
                if not per[player]:
                    raise RulesdslError(f"region {stmt.name} of {part.player} holds no cell of this board "
                                        "for these options", part.span)
        out[stmt.name] = tuple(frozenset(p) for p in per)
    return out


def _where(stmt: m.Region, tables: Tables, options: Mapping[str, Value]) -> tuple[frozenset[int], ...]:
    """``region NAME where EXPR``: per player, the cells where EXPR holds (``rank`` from that player's side)."""
    assert stmt.where is not None
    per_player = [_cells_where(stmt.where, player, tables, options) for player in range(len(tables.player_names))]
    if not any(per_player):
        raise RulesdslError(f"region {stmt.name} names no cells: 'where' holds on no cell of this board "
                            "for these options", stmt.where.span)
    return tuple(per_player)


def _cells_where(where: m.Expr, player: int, tables: Tables, options: Mapping[str, Value]) -> frozenset[int]:
    """The cells where ``where`` holds on ``col``, ``row`` and ``rank`` (counted from ``player``'s side)."""
    uses_rank = any(isinstance(n, m.NameRef) and n.name == "rank" for n in m.walk(where))
    found = []
    for cell in tables.geometry.cells:
        env = {**options, "col": cell.x, "row": cell.y}
        if uses_rank:
            env["rank"] = rank_of(tables, player, cell.index)
        if evaluate(where, env):
            found.append(cell.index)
    return frozenset(found)


def build_tracks(statements: list[m.Track], geometry: Geometry) -> dict[str, tuple[int, ...]]:
    """Every active track, as cell indices in order; each cell must be next to the one before it, and the
    last next to the first (the track closes)."""
    out = {}
    vectors = [geometry.directions[d] for d in geometry.direction_sets["all"]]
    for stmt in statements:
        cells = tuple(_index(geometry, name, span) for name, span in stmt.cells)
        for i, (name, span) in enumerate(stmt.cells):
            before = cells[i - 1]
            if not any(geometry.step(before, v) == cells[i] for v in vectors):
                start = i == 0
                what = (f"track {stmt.name} does not close: its last cell {stmt.cells[-1][0]} is not next to its "
                        f"first, {name}" if start else
                        f"track {stmt.name} jumps from {stmt.cells[i - 1][0]} to {name}, which are not neighbours")
                raise RulesdslError(what + "; list the cells in order around the board", span)
        out[stmt.name] = cells
    return out


def _index(geometry: Geometry, name: str, span) -> int:
    index = geometry.index_of(name)
    if index is None:
        raise RulesdslError(f"{name!r} is not a cell of this board", span)
    return index
