"""Hands of several kinds on bitboards: ``captured KIND to hand [as KIND2]`` and ``drop KIND [in REGION]``.

The reference (:mod:`rulesdsl.interpreter.reference.drops`) keeps ``State.hand``
as one count per player and kind (``hand[player * K + k]``). The kernel keeps
the same counts as words after the counter (the kernel's ``hand_size`` words):

- ``drop KIND [in REGION]``: one move group per player and kind, landing on
  the empty cells (of the mover's region) while the count is above 0; its move
  puts the piece there and takes one from the count;
- a capture adds the captured piece to the capturer's count of the kind it
  joins as (:class:`~rulesdsl.interpreter.reference.drops.HandBook`'s gains):
  before a capturing move is played, the piece on the cell it takes (the
  landing cell, or the passer of a capture in passing) is looked up among the
  enemy's bitboards, one test each until it is found.

``drop ... one per column`` and ``drop ... when`` stay on the generic path.
tests/test_kernel_chess_blocks.py holds this to the reference.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout
from rulesdsl.interpreter.reference.drops import HandBook


class DropError(Exception):
    """A hand or a drop the kernel does not compile (the game keeps the generic path)."""


def uses_drops(active) -> bool:
    """True when the game has hands of captured pieces or drops (this module's hands, not ``place from hand``)."""
    moves = active.first(m.Moves)
    return bool(active.all(m.CapturedToHand)) or any(r.action == "drop" for r in (moves.rules if moves else ()))


class Drops:
    """The hand words of a game (``names``: player by player, kind by kind, as ``State.hand``)."""

    def __init__(self, active, tables: Tables, layout: BitLayout, first: int, var: dict[str, str]):
        self.tables, self.layout, self.var = tables, layout, var
        self.book = HandBook(active, tables)
        count = len(tables.player_names) * self.book.size
        self.names = [f"v{first + i}" for i in range(count)]

    def groups(self, rule: m.MoveRule, player: int) -> list[dict]:
        """The group of ``drop KIND [in REGION]`` for one player, as ``Group`` keyword arguments."""
        if rule.one_per_column or rule.when is not None or rule.within is not None:
            raise DropError("a drop one per column, when a condition holds, or within a region")
        sym = self.tables.placed_symbol(player, rule.kind)
        if sym is None:
            return []
        slot = self.names[self.book.index(player, rule.kind)]
        mask = "E"
        if rule.region is not None:
            mask = f"E & {self.layout.mask(self.tables.region(rule.region, player))}"
        return [dict(prelude=[], mask=mask, apply=[f"{self.var[sym]} |= t", f"{slot} -= 1"], target="t",
                     origin_shift=0, action="drop", captures=False, guard=f"{slot} > 0")]

    def gains(self, player: int, cell: str) -> list[str]:
        """Statements adding the piece on the bit ``cell`` (before the capture) to ``player``'s hand."""
        out = []
        for sym, slot in sorted(self.book.gains[player].items()):
            out += [f"{'if' if not out else 'elif'} {self.var[sym]} & {cell}:", f"    {self.names[slot]} += 1"]
        return out
