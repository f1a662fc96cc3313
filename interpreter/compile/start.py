"""Start layouts: pieces placed by condition on ``col``/``row``, or at named cells."""

from __future__ import annotations

from collections.abc import Mapping

from rulesdsl import model as m
from rulesdsl.errors import PositionError
from rulesdsl.expr import Value, evaluate
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.reference.counts import MAX_COUNT, count_symbol


def start_board(layout: m.StartLayout, tables: Tables, options: Mapping[str, Value]) -> str:
    """The board a layout describes. Two pieces on one cell is an error."""
    geometry = tables.geometry
    cells = [tables.empty] * len(geometry.cells)
    env = dict(options)
    for item in layout.items:
        if item.amount is not None:  # put N KIND in REGION: a count on each cell of the region
            amount = evaluate(item.amount, options)
            if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount < MAX_COUNT:
                raise PositionError(f"put {amount!r} {item.kind}: a cell holds a whole number of pieces, from 0 "
                                    f"to {MAX_COUNT - 1}", item.span)
            for index in sorted(frozenset().union(*tables.regions[item.region])):
                _place(cells, index, count_symbol(amount, tables.empty), item, tables)
            continue
        if item.kind is not None and item.player not in tables.player_names:
            continue  # a player not seated for these options (a guarded 'players')
        if item.kind is not None and item.region is not None:  # KIND PLAYER in REGION
            player = tables.player_index(item.player)
            sym = tables.placed_symbol(player, item.kind)
            per_player = tables.regions.get(item.region)
            for index in sorted(per_player[player] if per_player else ()):
                _place(cells, index, sym, item, tables)
            continue
        if item.kind is not None and item.where is not None:
            sym = tables.placed_symbol(tables.player_index(item.player), item.kind)
            for cell in geometry.cells:
                env["col"], env["row"] = cell.x, cell.y
                if evaluate(item.where, env):
                    _place(cells, cell.index, sym, item, tables)
            continue
        for ref in item.cells:
            index = _cell_index(ref, tables, options)
            if item.kind is None:
                cells[index] = tables.empty
            else:
                sym = tables.placed_symbol(tables.player_index(item.player), item.kind)
                _place(cells, index, sym, item, tables)
    return "".join(cells)


def _place(cells: list[str], index: int, sym: str, item: m.StartItem, tables: Tables) -> None:
    if cells[index] != tables.empty and cells[index] != sym:
        name = tables.geometry.cells[index].name
        raise PositionError(f"start layout puts two pieces on {name} ({cells[index]!r} and {sym!r}) for these "
                            "options", item.span)
    cells[index] = sym


def _cell_index(ref: m.CellRef, tables: Tables, options: Mapping[str, Value]) -> int:
    geometry = tables.geometry
    if ref.name is not None:
        index = geometry.index_of(ref.name)
        if index is None:
            raise PositionError(f"{ref.name!r} is not a cell of this board", ref.span)
        return index
    x, y = (evaluate(e, options) for e in ref.xy)
    if isinstance(x, float) or isinstance(y, float):
        raise PositionError(f"the start layout names ({x}, {y}): a cell's coordinates are whole numbers", ref.span)
    index = geometry.at(int(x), int(y))
    if index < 0:
        raise PositionError(f"the start layout names ({x}, {y}), which is off the board for these options, so "
                            "there is no start position; give one with --position", ref.span)
    return index
