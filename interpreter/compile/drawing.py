"""What pictures draw besides the cells and pieces: the ``drawn lines`` of a board (no effect on moves)."""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.geometry import Geometry


def drawn_segments(geometry: Geometry, stmt: m.DrawnLines | None) -> tuple[tuple[int, int], ...]:
    """Each straight segment of ``drawn lines`` as ``(cell, cell)``: a line joins each listed point to the next.

    Raises :class:`RulesdslError` at a point that is not a cell of the board.
    """
    if stmt is None:
        return ()
    out = []
    for line in stmt.lines:
        points = []
        for name, place in line:
            index = geometry.index_of(name)
            if index is None:
                raise RulesdslError(f"{name!r} is not a point of this board", place)
            points.append(index)
        out.extend(zip(points, points[1:]))
    return tuple(out)
