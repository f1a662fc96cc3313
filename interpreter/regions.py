"""Regions: named sets of cells, one set per player (a home, a goal).

``region goal red where row == 5, blue where row == 1`` gives each listed
player the cells where its expression holds (it sees ``col``, ``row`` and
the options, as a start layout does). Players who are not seated for these
options (a ``players`` statement whose guard does not hold) are skipped.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import Value, evaluate
from rulesdsl.interpreter.geometry import Geometry

Regions = dict[tuple[str, int], tuple[int, ...]]  # (region name, player index) -> cells in index order


def region_cells(statements: list[m.Region], geometry: Geometry, player_names: tuple[str, ...],
                 options: Mapping[str, Value]) -> Regions:
    """Every seated player's cells of every region; a region that holds no cell of the board is an error."""
    regions: Regions = {}
    env = dict(options)
    for statement in statements:
        for part in statement.parts:
            if part.player not in player_names:
                continue
            cells = []
            for cell in geometry.cells:
                env["col"], env["row"] = cell.x, cell.y
                if evaluate(part.where, env):
                    cells.append(cell.index)
            if not cells:
                raise RulesdslError(f"region {statement.name} of {part.player} holds no cell of this board "
                                    "for these options", part.span)
            regions[(statement.name, player_names.index(part.player))] = tuple(cells)
    return regions
