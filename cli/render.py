"""Plain-text drawings of a board, with its coordinates.

The drawing is built from the board's geometry alone, so it works for every
game: rows are drawn from the top (highest ``y``) down, each cell at its
``display_column`` (in half-cell units), empty cells as ``.`` and pieces by
their symbols. Labels are read off the cell names: each name is split into
its letter part and number part, the part shared by a whole row labels that
row (written just left of the row) and the part shared by a whole column or
diagonal labels it (written just past the column's lowest cell, so a grid gets
its column letters under the board and a hexagon its diagonal numbers along
its lower edges).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.compile.geometry import Cell, Geometry
from rulesdsl.interpreter.reference.counts import cell_text

EMPTY_MARK = "."
LAST_MARKS = ("(", ")")  # round a cell the last move landed on: "b(w)b"
_NAME_PART = re.compile(r"[A-Za-z]+|[0-9]+")


def name_parts(name: str) -> tuple[str, ...]:
    """A cell name split into its letter and number parts: ``"A4"`` -> ``("A", "4")``."""
    return tuple(_NAME_PART.findall(name))


def _shared_by(cells: Sequence[Cell], parts: dict[int, tuple[str, ...]],
               key: Callable[[Cell], int], position: int) -> bool:
    """True when every group of cells with the same ``key`` agrees on one name part."""
    seen: dict[int, str] = {}
    for cell in cells:
        value = parts[cell.index][position]
        if seen.setdefault(key(cell), value) != value:
            return False
    return True


def _pick(candidates: list[int], others: list[int], taken: int | None) -> int | None:
    """The first candidate part not already taken, preferring ones not in ``others``."""
    free = [p for p in candidates if p != taken]
    preferred = [p for p in free if p not in others]
    return (preferred or free or [None])[0]


def axis_labels(geometry: Geometry) -> tuple[dict[int, str], dict[int, str]]:
    """Labels of the board's rows (by ``y``) and columns or diagonals (by ``x``).

    A row's label is the name part its cells share, a column's the part its
    cells share. When names do not split that way, lines are numbered from 1.
    """
    cells = geometry.cells
    parts = {c.index: name_parts(c.name) for c in cells}
    lengths = {len(p) for p in parts.values()}
    row_part = col_part = None
    if len(lengths) == 1:
        width = lengths.pop()
        by_row = [i for i in range(width) if _shared_by(cells, parts, lambda c: c.y, i)]
        by_col = [i for i in range(width) if _shared_by(cells, parts, lambda c: c.x, i)]
        row_part = _pick(by_row, by_col, None)
        col_part = _pick(by_col, by_row, row_part)
    minx, _, miny, _ = geometry.bounds
    rows: dict[int, str] = {}
    cols: dict[int, str] = {}
    for cell in cells:
        p = parts[cell.index]
        rows[cell.y] = p[row_part] if row_part is not None else str(cell.y - miny + 1)
        cols[cell.x] = p[col_part] if col_part is not None else str(cell.x - minx + 1)
    return rows, cols


class _Canvas:
    """Lines of characters that grow as text is written at any column."""

    def __init__(self) -> None:
        self.lines: dict[int, dict[int, str]] = {}

    def write(self, line: int, column: int, text: str) -> None:
        """Put ``text`` on ``line`` starting at ``column`` (may be negative)."""
        row = self.lines.setdefault(line, {})
        for k, ch in enumerate(text):
            row[column + k] = ch

    def text(self) -> str:
        """All lines, shifted so the leftmost character is in column 0."""
        used = [col for row in self.lines.values() for col in row]
        left = min(used, default=0)
        out = []
        for line in sorted(self.lines):
            row = self.lines[line]
            width = max(row) - left + 1 if row else 0
            chars = [" "] * width
            for col, ch in row.items():
                chars[col - left] = ch
            out.append("".join(chars).rstrip())
        return "\n".join(out)


def render(game: Game, state: State, marked: Collection[int] = ()) -> str:
    """The board of ``state`` drawn with its coordinates (no trailing newline).

    Each cell in ``marked`` (the cells the last move landed on) is put in brackets: ``w(b)w``.
    Neighbouring cells are drawn two columns apart or more, so the brackets cover no other cell.
    """
    geometry = game.geometry
    row_labels, col_labels = axis_labels(geometry)
    marks = [EMPTY_MARK if sym == game.empty else cell_text(sym) for sym in state.board]  # a count as its number
    widest = max((len(t) for t in (*col_labels.values(), *marks)), default=1)
    unit = max(1, (widest + 2) // 2)  # characters per half cell: labels never touch

    def column(x: int, y: int) -> int:
        return geometry.display_column(Cell(-1, x, y, "")) * unit

    _, _, miny, maxy = geometry.bounds
    canvas = _Canvas()
    lowest: dict[int, int] = {}
    leftmost: dict[int, int] = {}  # per row, gathered in the same pass: a redraw is linear in cells
    for cell in geometry.cells:
        mark = marks[cell.index]
        canvas.write(maxy - cell.y, column(cell.x, cell.y) - (len(mark) - 1) // 2, mark)
        lowest[cell.x] = min(lowest.get(cell.x, cell.y), cell.y)
        leftmost[cell.y] = min(leftmost.get(cell.y, cell.x), cell.x)
    if geometry.has_lines:
        _draw_lines(canvas, geometry, column, maxy)
    for index in marked:
        cell = geometry.cells[index]
        where = column(cell.x, cell.y)
        canvas.write(maxy - cell.y, where - 1, LAST_MARKS[0])
        canvas.write(maxy - cell.y, where + 1, LAST_MARKS[1])
    # A grid or rhombus, holes (board ... where) or none, keeps its labels on its edges: a label drawn at the
    # end of a shortened row or column would read like a piece. A hexagon labels its diagonals along its edge.
    grid = geometry.shape in ("grid", "rhombus")
    minx = geometry.bounds[0]
    for y in sorted(row_labels, reverse=True):
        first = minx if grid else leftmost[y]
        label = row_labels[y]
        canvas.write(maxy - y, column(first, y) - 1 - len(label), label)
    for x, y in sorted(lowest.items()):
        below = miny - 1 if grid else y - 1
        canvas.write(maxy - below, column(x, below), col_labels[x])
    return canvas.text() + _link_lines(game, state)


def _link_lines(game: Game, state: State) -> str:
    """The links between pieces (``link KIND DIRS``), one line per player that has some: ``x links c1-d3 c5-d3``."""
    if not state.links:
        return ""
    names = [c.name for c in game.geometry.cells]
    by_symbol: dict[str, list[str]] = {}
    for a, b in game.links(state):
        by_symbol.setdefault(state.board[a], []).append(f"{names[a]}-{names[b]}")
    return "".join(f"\n{symbol} links {' '.join(pairs)}" for symbol, pairs in by_symbol.items())


def line_segments(geometry: Geometry) -> list[tuple[int, int]]:
    """Each drawn segment of a board with declared lines, once: ``(from cell, to cell)``."""
    if geometry.links is None:
        return []
    return sorted((a, b) for (a, vector), b in geometry.links.items() if vector > (0, 0))


def _draw_lines(canvas: _Canvas, geometry: Geometry, column: Callable[[int, int], int], maxy: int) -> None:
    """The lines of a board of points: ``-`` along rows (between the points too), ``|`` ``/`` ``\\`` across
    the lattice points a line passes between two points."""
    for a, b in line_segments(geometry):
        ca, cb = geometry.cells[a], geometry.cells[b]
        dx, dy = cb.x - ca.x, cb.y - ca.y
        if dy == 0:
            left, right = sorted((column(ca.x, ca.y), column(cb.x, cb.y)))
            canvas.write(maxy - ca.y, left + 1, "-" * (right - left - 1))
            continue
        mark = "|" if dx == 0 else "/" if (dx > 0) == (dy > 0) else "\\"
        steps = max(abs(dx), abs(dy))
        for k in range(1, steps):
            x, y = ca.x + dx * k // steps, ca.y + dy * k // steps
            canvas.write(maxy - y, column(x, y), mark)
