"""Regions and tracks: named sets of cells (per player) and cyclic orders of cells, resolved to indices.

``region NAME where EXPR`` gives every player the cells where EXPR holds on
``col`` and ``row``; ``region NAME PLAYER CELLS, PLAYER CELLS`` gives each
player their own cells. ``track NAME CELLS`` is a cyclic order of cells.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import Value, evaluate
from rulesdsl.interpreter.geometry import Geometry

Regions = dict[str, tuple[frozenset[int], ...]]  # name -> the region's cells, per player


def build_regions(statements: list[m.Region], geometry: Geometry, players: tuple[str, ...],
                  options: Mapping[str, Value]) -> Regions:
    """Every active region, per player."""
    out: Regions = {}
    for stmt in statements:
        if stmt.where is not None:
            env = dict(options)
            found = set()
            for cell in geometry.cells:
                env["col"], env["row"] = cell.x, cell.y
                if evaluate(stmt.where, env):
                    found.add(cell.index)
            if not found:
                raise RulesdslError(f"region {stmt.name} names no cells: 'where' holds on no cell of this board "
                                    "for these options", stmt.where.span)
            out[stmt.name] = (frozenset(found),) * len(players)
            continue
        per = [set() for _ in players]
        for player, cells in stmt.cells:
            per[players.index(player)].update(_index(geometry, name, span) for name, span in cells)
        out[stmt.name] = tuple(frozenset(p) for p in per)
    return out


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
