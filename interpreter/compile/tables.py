"""Compile-time tables shared by the move generator, end rules and evaluation.

Everything a rule file names (pieces, players, directions) is resolved here to
symbols, player indices and per-cell neighbour tables, once per compiled game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulesdsl import model as m
from rulesdsl.directions import RELATIVE, Vector, relative_vector
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import Value
from rulesdsl.interpreter.compile.geometry import Geometry
from rulesdsl.interpreter.compile.seats import Seating, seating

if TYPE_CHECKING:
    from rulesdsl.interpreter.compile.game import State

NEUTRAL = -1  # the owner of a piece no player owns


@dataclass
class Tables:
    """Symbols, owners and directions of one compiled game."""

    geometry: Geometry
    empty: str
    player_names: tuple[str, ...]
    player_symbols: tuple[str, ...]
    owner: dict[str, int]  # symbol -> player index
    kind: dict[str, str]  # symbol -> piece kind
    symbol: dict[tuple[int, str], str]  # (player, kind) -> symbol
    forward: dict[int, Vector]
    direction_sets: dict[str, tuple[m.DirRef, ...]]
    promotions: dict[str, str] = field(default_factory=dict)  # symbol -> symbol on the far row
    neutral: dict[str, str] = field(default_factory=dict)  # kind -> symbol, for pieces no player owns
    options: Mapping[str, Value] = field(default_factory=dict)  # the option values it was compiled for
    hand_kind: str | None = None  # the kind of piece players hold in hand (``hand``), if any
    hand_start: int = 0  # how many each player holds at the start
    hand_kinds: tuple[str, ...] = ()  # every kind a hand holds (``hand KIND N, KIND N``), the first is hand_kind
    hand_starts: tuple[int, ...] = ()  # how many of each each player holds at the start
    counted: str | None = None  # the kind a cell holds any number of (``counts KIND``), if any
    # region name -> its cells, per player (interpreter/compile/regions.py)
    regions: dict[str, tuple[frozenset[int], ...]] = field(default_factory=dict)
    tracks: dict[str, tuple[int, ...]] = field(default_factory=dict)  # name -> cells in cyclic order
    score_of: Callable[[State], tuple[int, ...]] | None = None  # each player's score (``score``), if kept
    attacks: Any = None  # which cells a player attacks (interpreter/reference/attacks.py), set when the moves compile
    blocks: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)  # block name -> x0, y0, x1, y1
    nest: object = None  # the small boards (``boards``): an interpreter.nested.Nest, or None
    linking: Any = None  # where links lie and which cross (``link``): an interpreter.linking.LinkTables, or None
    placing: bool = False  # end rules give players places (``finishes``, ``is out``): turns skip placed seats
    bound_seat: int = -1  # the seat ``player`` names while a rule for every seat compiles (reference/places.py)
    _neighbours: dict[Vector, tuple[int, ...]] = field(default_factory=dict)
    seats: Seating = field(init=False)  # who moves after whom (interpreter/compile/seats.py)

    def __post_init__(self) -> None:
        self.seats = seating(len(self.player_names))

    @property
    def cell_count(self) -> int:
        """Number of cells on the board."""
        return len(self.geometry.cells)

    def player_index(self, name: str) -> int:
        """Index of a declared player."""
        return self.player_names.index(name)

    def symbols_of(self, player: int, kind: str | None = None) -> frozenset[str]:
        """Symbols of ``player``'s pieces (of one kind, or all kinds)."""
        return frozenset(s for (p, k), s in self.symbol.items() if p == player and (kind is None or k == kind))

    def enemy_symbols(self, player: int) -> frozenset[str]:
        """Symbols of the other players' pieces (not neutral ones)."""
        return frozenset(s for s, o in self.owner.items() if o not in (player, NEUTRAL))

    def placed_symbol(self, player: int, kind: str) -> str | None:
        """The symbol ``player`` puts down when placing a KIND: its own, or the neutral one."""
        return self.symbol.get((player, kind), self.neutral.get(kind))

    def region(self, name: str, player: int) -> frozenset[int]:
        """The cells of a region that belong to ``player``."""
        return self.regions[name][player]

    def neighbours(self, vector: Vector) -> tuple[int, ...]:
        """For each cell, the neighbour along ``vector`` (-1 off the board); cached."""
        table = self._neighbours.get(vector)
        if table is None:
            table = self._neighbours[vector] = self.geometry.neighbour_table(vector)
        return table

    def heading(self, vector: Vector) -> int:
        """The index of a direction among the board's directions (what a jump's ``heading`` holds)."""
        return list(self.geometry.directions.values()).index(vector)

    def far_cells(self, player: int) -> frozenset[int]:
        """Cells from which one step along ``player``'s forward leaves the board."""
        if player not in self.forward:
            return frozenset()
        vector = self.forward[player]
        return frozenset(c.index for c in self.geometry.cells if self.geometry.step(c.index, vector) < 0)

    def vectors(self, refs: tuple[m.DirRef, ...], player: int) -> list[Vector]:
        """The lattice vectors that direction names mean for ``player``, in order."""
        out: list[Vector] = []
        for ref in refs:
            for vector in self._expand(ref.name, player, ()):
                if vector not in out:
                    out.append(vector)
        return out

    def _expand(self, name: str, player: int, seen: tuple[str, ...]) -> list[Vector]:
        geometry = self.geometry
        if name.startswith("("):  # a vector and its images under the square's symmetries
            return vector_images(name)
        if " (" in name:  # ``forward (1, 2)``: the images that go furthest toward the player's direction
            toward, vector = name.split(" ", 1)
            fx, fy = self.relative(toward, player)
            images = vector_images(vector)
            best = max(x * fx + y * fy for x, y in images)
            return [(x, y) for x, y in images if x * fx + y * fy == best]
        if name in self.direction_sets:
            if name in seen:
                raise RulesdslError(f"directions {name} refers to itself")
            return [v for ref in self.direction_sets[name] for v in self._expand(ref.name, player, (*seen, name))]
        if name in geometry.directions:
            return [geometry.directions[name]]
        if name in geometry.direction_sets:
            return [geometry.directions[d] for d in geometry.direction_sets[name]]
        if name in RELATIVE:
            return [self.relative(name, player)]
        raise RulesdslError(f"unknown direction {name!r}")

    def relative(self, name: str, player: int) -> Vector:
        """A player-relative direction (``forward-left``...) as a lattice vector."""
        if player not in self.forward:
            raise RulesdslError(f"direction {name!r} needs a 'forward' statement for {self.player_names[player]}")
        x, y = relative_vector(name, self.forward[player])
        if (x, y) not in self.geometry.directions.values():
            raise RulesdslError(f"direction {name!r} is not a direction of a {self.geometry.shape} board")
        return (x, y)


def first_step(vector: Vector) -> Vector:
    """The first cell of a leap's way: one step along its longer axis (diagonally when both are equal)."""
    x, y = vector
    longest = max(abs(x), abs(y))
    return ((x > 0) - (x < 0) if abs(x) == longest else 0, (y > 0) - (y < 0) if abs(y) == longest else 0)


def vector_images(name: str) -> list[Vector]:
    """``(1, 2)`` and its images under the eight symmetries of the square, each once, in a fixed order."""
    x, y = (int(part) for part in name.strip("()").split(","))
    out: list[Vector] = []
    for a, b in ((x, y), (y, x)):
        for sa, sb in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            vector = (sa * a, sb * b)
            if vector not in out:
                out.append(vector)
    return out
