"""Boards as integers: one bit per cell, a direction as one shift.

A cell at lattice point ``(x, y)`` is bit ``(x - min x) + (y - min y) * width``
of the board's bounding box, whatever the shape (grid, hexagon, a grid with
holes). Moving every cell of a set one step along a vector ``(dx, dy)`` is then
one shift by ``dx + dy * width``, once the set is masked to the cells whose
neighbour that way exists (so nothing wraps round an edge or falls in a hole).
Everything here is worked out once, when a game is compiled.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rulesdsl.interpreter.compile.geometry import Geometry, Vector


@dataclass
class BitLayout:
    """Where each cell's bit is, and the masks and shifts of each direction."""

    geometry: Geometry
    bit: tuple[int, ...]  # cell index -> bit number
    width: int
    full: int  # every cell's bit

    def mask(self, cells) -> int:
        """The bits of some cells (indices)."""
        out = 0
        for c in cells:
            out |= 1 << self.bit[c]
        return out

    def shift_of(self, vector: Vector) -> int:
        """How far a bit moves for one step along ``vector``."""
        return vector[0] + vector[1] * self.width

    def has_next(self, vector: Vector, steps: int = 1) -> int:
        """The cells from which ``steps`` steps along ``vector`` stay on the board."""
        geometry = self.geometry
        found = []
        for cell in geometry.cells:
            c = cell.index
            for _ in range(steps):
                c = geometry.step(c, vector)
                if c < 0:
                    break
            if c >= 0:
                found.append(cell.index)
        return self.mask(found)

    def encode(self, board: str, symbol: str) -> int:
        """The cells of ``board`` that hold ``symbol``."""
        bit = self.bit
        out = 0
        i = board.find(symbol)
        while i >= 0:
            out |= 1 << bit[i]
            i = board.find(symbol, i + 1)
        return out

    def decode(self, empty: str, layers: tuple[tuple[int, str], ...]) -> str:
        """A board string from ``(bits, symbol)`` layers (cells in none of them are empty)."""
        cells = [empty] * len(self.bit)
        cell_at = self.cell_at
        for bits, symbol in layers:
            while bits:
                low = bits & -bits
                cells[cell_at[low.bit_length() - 1]] = symbol
                bits ^= low
        return "".join(cells)

    @cached_property
    def cell_at(self) -> dict[int, int]:
        """Bit number -> cell index."""
        return {b: c for c, b in enumerate(self.bit)}

    def cell_of(self, single_bit: int) -> int:
        """The cell index of a one-bit board."""
        return self.cell_at[single_bit.bit_length() - 1]


def bit_layout(geometry: Geometry) -> BitLayout:
    """The layout of a board's cells in the bits of an integer."""
    minx, maxx, miny, _ = geometry.bounds
    width = maxx - minx + 1
    bits = tuple((c.x - minx) + (c.y - miny) * width for c in geometry.cells)
    full = 0
    for b in bits:
        full |= 1 << b
    return BitLayout(geometry, bits, width, full)


def shifted(expr: str, by: int) -> str:
    """Python source moving every bit of ``expr`` by ``by`` places (left when positive)."""
    if by > 0:
        return f"({expr} << {by})"
    if by < 0:
        return f"({expr} >> {-by})"
    return expr
