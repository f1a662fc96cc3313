"""Boards: which cells exist, what they are called, and where each direction leads.

Every board is a set of cells on an integer lattice ``(x, y)``: ``x`` grows to
the right, ``y`` grows upward. A direction is a lattice vector. Grids use the
square lattice (eight neighbours); hexagons use axial coordinates in which the
six neighbours of ``(x, y)`` are ``(x±1, y)``, ``(x, y±1)``, ``(x+1, y+1)`` and
``(x-1, y-1)``. Everything here is computed once, when a game is compiled.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

from rulesdsl.directions import GRID_DIRECTIONS, GRID_SETS, HEX_DIRECTIONS, HEX_SETS, Vector, rotate_left
from rulesdsl.errors import RulesdslError

__all__ = ["GRID_DIRECTIONS", "GRID_SETS", "HEX_DIRECTIONS", "HEX_SETS", "Cell", "Geometry", "NamePart", "Vector",
           "build_geometry", "join_lines", "rotate_left"]



@dataclass(frozen=True)
class Cell:
    """One cell: its index in the board string, lattice position and name."""

    index: int
    x: int
    y: int
    name: str


@dataclass(frozen=True)
class NamePart:
    """One part of a cell name: an axis counted in letters or numbers.

    ``axis`` is ``column`` (x) or ``row`` (y); ``first`` is the label of the
    first line (``"a"``, ``"A"`` or a number); ``from_end`` counts from the
    right (columns) or the top (rows) instead of the left or bottom.
    """

    axis: str
    first: str | int
    from_end: bool = False
    skip: str = ""  # a letter left out of the labels (goban columns skip "i"), or ""

    def label(self, offset: int) -> str:
        """The label of the line ``offset`` steps from where counting starts."""
        if isinstance(self.first, int):
            return str(self.first + offset)
        letter = chr(ord(self.first) + offset)
        return chr(ord(letter) + 1) if self.skip and self.first <= self.skip <= letter else letter


@dataclass
class Geometry:
    """The cells of a board and the lattice moves between them."""

    shape: str
    cells: tuple[Cell, ...]
    directions: dict[str, Vector]
    direction_sets: dict[str, tuple[str, ...]]
    rows_listed: tuple[tuple[int, ...], ...]
    _by_xy: dict[Vector, int] = field(repr=False)
    _by_name: dict[str, int] = field(repr=False)
    links: dict[tuple[int, Vector], int] | None = field(default=None, repr=False)  # declared lines, if any

    @property
    def has_lines(self) -> bool:
        """True when the board declares its lines (``lines ...``): pieces move only along them."""
        return self.links is not None

    def at(self, x: int, y: int) -> int:
        """Index of the cell at ``(x, y)``, or -1 when it is off the board."""
        return self._by_xy.get((x, y), -1)

    def index_of(self, name: str) -> int | None:
        """Index of the cell called ``name`` (case-insensitive), or ``None``."""
        return self._by_name.get(name.strip().lower())

    def step(self, cell: int, vector: Vector) -> int:
        """The neighbour of ``cell`` along ``vector``, or -1 off the board.

        On a board with declared lines, the neighbour is the next point of a
        line through ``cell`` in that direction (-1 when no line goes that way).
        """
        if self.links is not None:
            return self.links.get((cell, vector), -1)
        c = self.cells[cell]
        return self._by_xy.get((c.x + vector[0], c.y + vector[1]), -1)

    def neighbour_table(self, vector: Vector) -> tuple[int, ...]:
        """For each cell, its neighbour along ``vector`` (-1 off the board)."""
        return tuple(self.step(c.index, vector) for c in self.cells)

    def ray(self, cell: int, vector: Vector) -> tuple[int, ...]:
        """The cells beyond ``cell`` along ``vector`` up to the edge."""
        out: list[int] = []
        nxt = self.step(cell, vector)
        while nxt >= 0:
            out.append(nxt)
            nxt = self.step(nxt, vector)
        return tuple(out)

    @cached_property
    def bounds(self) -> tuple[int, int, int, int]:
        """``(min x, max x, min y, max y)`` over all cells (worked out once)."""
        xs = [c.x for c in self.cells]
        ys = [c.y for c in self.cells]
        return min(xs), max(xs), min(ys), max(ys)

    @cached_property
    def _hex_left(self) -> int:
        return min(2 * c.x - c.y for c in self.cells)

    def display_column(self, cell: Cell) -> int:
        """Horizontal place of a cell in a drawing, in half-cell units (constant time per cell)."""
        if self.shape in ("hexagon", "rhombus"):
            return 2 * cell.x - cell.y - self._hex_left
        return 2 * (cell.x - self.bounds[0])

    def corners(self) -> tuple[int, ...]:
        """Cells with the fewest neighbours over the board's directions."""
        vectors = [self.directions[d] for d in self.direction_sets["all"]]
        counts = [sum(self.step(c.index, v) >= 0 for v in vectors) for c in self.cells]
        least = min(counts)
        return tuple(i for i, n in enumerate(counts) if n == least)

    def outward(self, cell: int) -> Vector | None:
        """The board direction pointing from the board's centre to ``cell``."""
        c = self.cells[cell]
        n = len(self.cells)
        cx2 = sum(k.x for k in self.cells) * 2
        cy2 = sum(k.y for k in self.cells) * 2
        dx, dy = 2 * n * c.x - cx2, 2 * n * c.y - cy2
        for vector in self.directions.values():
            vx, vy = vector
            # Same direction: parallel (zero cross product) and pointing alike.
            if dx * vy - dy * vx == 0 and dx * vx + dy * vy > 0:
                return vector
        return None


def lattice_points(shape: str, size: tuple[int, ...]) -> list[Vector]:
    """The cells of a board shape, as ``(x, y)`` points."""
    if shape in ("grid", "rhombus"):  # a rhombus is a grid of the hexagonal lattice
        cols, rows = size
        return [(x, y) for y in range(1, rows + 1) for x in range(1, cols + 1)]
    (side,) = size
    span = 2 * side - 1
    return [
        (x, y)
        for y in range(1, span + 1)
        for x in range(1, span + 1)
        if abs(x - y) <= side - 1
    ]


def build_geometry(
    shape: str,
    size: tuple[int, ...],
    naming: tuple[NamePart, ...],
    top_first: bool,
    keep: Callable[[int, int], bool] | None = None,
) -> Geometry:
    """Lay out a board: cells in position-listing order, names, directions.

    ``keep(x, y)`` (from ``board ... where``) leaves out the lattice points where
    it is false; names still count lines from the whole lattice's edges.
    """
    points = lattice_points(shape, size)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    if keep is not None:
        points = [p for p in points if keep(*p)]
        if not points:
            raise RulesdslError("the board has no cells: its 'where' condition holds on none")
        ys = [p[1] for p in points]
    row_ys = sorted(set(ys), reverse=top_first)
    row_rank = {y: rank for rank, y in enumerate(row_ys)}  # a dict, not list.index: linear in cells
    ordered = sorted(points, key=lambda p: (row_rank[p[1]], p[0]))

    def name_of(x: int, y: int) -> str:
        text = []
        for part in naming:
            if part.axis == "column":
                offset = maxx - x if part.from_end else x - minx
            else:
                offset = maxy - y if part.from_end else y - miny
            text.append(part.label(offset))
        return "".join(text)

    cells = tuple(Cell(i, x, y, name_of(x, y)) for i, (x, y) in enumerate(ordered))
    seen: dict[str, Cell] = {}
    for cell in cells:
        twin = seen.setdefault(cell.name.lower(), cell)
        if twin is not cell:
            raise ValueError(f"two cells are both named {cell.name!r}: put a letter axis first or "
                             "use letters for one axis")
    by_row: dict[int, list[int]] = {y: [] for y in row_ys}
    for cell in cells:
        by_row[cell.y].append(cell.index)
    rows_listed = tuple(tuple(by_row[y]) for y in row_ys)
    if shape == "grid":
        directions, sets = dict(GRID_DIRECTIONS), dict(GRID_SETS)
    else:
        directions, sets = dict(HEX_DIRECTIONS), dict(HEX_SETS)
    return Geometry(
        shape=shape,
        cells=cells,
        directions=directions,
        direction_sets=sets,
        rows_listed=rows_listed,
        _by_xy={(c.x, c.y): c.index for c in cells},
        _by_name={c.name.lower(): c.index for c in cells},
    )



def join_lines(geometry: Geometry, lines: list[list[tuple[str, object]]]) -> Geometry:
    """The board with its declared lines: each point's neighbour along a direction is the next point of a line.

    ``lines`` holds, per line, its points as ``(name, place)``. Consecutive
    points must lie along one of the board's directions, with no other point
    of the board between them. Raises ``ValueError`` with the place of the
    first problem (a :class:`rulesdsl.errors.Span`) as its second argument.
    """
    unit_of = {v: name for name, v in geometry.directions.items()}
    links: dict[tuple[int, Vector], int] = {}
    for line in lines:
        points = []
        for name, place in line:
            index = geometry.index_of(name)
            if index is None:
                raise ValueError(f"{name!r} is not a point of this board", place)
            points.append((index, place))
        for (a, _), (b, place) in zip(points, points[1:]):
            ca, cb = geometry.cells[a], geometry.cells[b]
            dx, dy = cb.x - ca.x, cb.y - ca.y
            g = math.gcd(dx, dy)
            unit = (dx // g, dy // g) if g else (0, 0)
            if unit not in unit_of:
                raise ValueError(f"{ca.name} and {cb.name} are not along a direction of the board", place)
            between = [geometry.at(ca.x + k * unit[0], ca.y + k * unit[1]) for k in range(1, g)]
            hidden = [geometry.cells[i].name for i in between if i >= 0]
            if hidden:
                raise ValueError(f"the line from {ca.name} to {cb.name} passes point {hidden[0]}: list it", place)
            # No point lies between, so another line from a (or b) the same way must pass over b (or a).
            links[(a, unit)] = b
            links[(b, (-unit[0], -unit[1]))] = a
    return replace(geometry, links=links)
