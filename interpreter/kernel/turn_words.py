"""Words a position keeps beside its bitboards about the turns: ``turns played`` and ``to new cells``.

The kernel's position is one integer per piece symbol, then (in a game that
counts them) the plies since a capture (:mod:`rulesdsl.interpreter.kernel.codegen`),
then the words of this module, each only in a game that needs it:

- ``turns``: the turns played, for an end rule that reads ``turns played``
  (State.turns): one more each time the turn passes to the next player, a
  pass included, never inside a go-again turn;
- ``visited``: the cells a ``to new cells`` go-again turn has stood on
  (State.visited, as bits of the kernel's layout): where the piece began and
  each cell it landed on. A continuation never lands on one, and the word is
  0 again once the turn passes;
- ``heading``: for ``in same direction``, the direction of the jump that
  began the go-again turn, plus one (State.heading + 1; 0: any direction). A
  continuation's group of another direction has no move.

Both are a fixed-size word, so the kernel's state stays a tuple of integers
(one machine word each where the board fits in 64 bits).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.interpreter.compile.game import NO_CELL, State
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted

FIELDS = ("turns", "visited", "heading")  # the State fields of these words, in the order they follow the bitboards
DEFAULTS = {"turns": 0, "visited": 0, "heading": -1}  # each field's value outside a game that keeps it


@dataclass(frozen=True)
class TurnWords:
    """The source names of the words a game keeps (``None``: the game does not keep it)."""

    turns: str | None = None
    visited: str | None = None
    heading: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The words' source names, in the position's order."""
        return tuple(n for n in (self.turns, self.visited, self.heading) if n is not None)

    @property
    def fields(self) -> tuple[str, ...]:
        """The State fields the words hold, in the position's order."""
        return tuple(f for f, n in zip(FIELDS, (self.turns, self.visited, self.heading)) if n is not None)

    def handover(self) -> list[str]:
        """Statements run when the turn passes to the next player."""
        return ([f"{self.turns} += 1"] if self.turns else []) + [f"{n} = 0" for n in (self.visited, self.heading) if n]

    def landed(self, continuing: bool, origin_shift: int) -> list[str]:
        """Statements setting ``nv`` to the cells the turn has stood on once the piece landed on bit ``g``
        (``continuing``: the turn was already going on, its earlier cells count)."""
        if self.visited is None:
            return []
        before = f"{self.visited} | " if continuing else ""
        return [f"nv = {before}{shifted('g', -origin_shift)} | g"]

    def go_on(self, heading: int) -> list[str]:
        """Statements run when the same player's turn goes on after a move along direction ``heading``."""
        return ([f"{self.visited} = nv"] if self.visited else []) + (
            [f"{self.heading} = {heading + 1}"] if self.heading else [])

    def straight(self, group_heading: int, heading: str | None, mask: str) -> list[str]:
        """Statements emptying the mask named ``mask`` of a continuation's group along ``group_heading`` when the
        turn goes on along another direction (``heading``: the expression of the word, the heading plus one)."""
        if self.heading is None:
            return []
        heading = heading or self.heading
        # ``^=`` itself, not ``= 0``: the native mobility count drops ``must capture``'s ``= 0`` filters, not this
        return [f"if {heading} and {heading} != {group_heading + 1}:", f"    {mask} ^= {mask}"]

    def fresh(self, visited: str) -> str:
        """A filter on a continuation's landing cells: none it has stood on (``visited``: the word's name now)."""
        return f" & ~{visited}" if self.visited else ""


def encode(state: State, fields: tuple[str, ...], layout: BitLayout) -> tuple[int, ...]:
    """A state's words of ``fields`` (the visited cells as bits of the layout)."""
    out = []
    for name in fields:
        if name == "visited":
            cells = state.visited if state.last != NO_CELL else 0
            out.append(sum(1 << layout.bit[c] for c in range(len(layout.bit)) if cells >> c & 1))
        elif name == "heading":
            out.append(state.heading + 1 if state.last != NO_CELL and state.heading >= 0 else 0)
        else:
            out.append(int(getattr(state, name)))
    return tuple(out)


def decode(words, fields: tuple[str, ...], layout: BitLayout) -> dict[str, int]:
    """The State fields of the words (``encode`` the other way)."""
    out = {}
    for name, word in zip(fields, words):
        word = int(word)
        if name == "visited":
            out[name] = sum(1 << c for c, b in enumerate(layout.bit) if word >> b & 1)
        elif name == "heading":
            out[name] = word - 1
        else:
            out[name] = word
    return out
