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

- ``drop ... one per column``: the landing cells lose the columns of the
  mover's pieces of the kind (:func:`column_fill`: a few shifts by the row's
  width).

``drop ... when`` stays on the generic path.
tests/test_kernel_chess_blocks.py and tests/test_kernel_zones.py hold this to the reference.
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
        if rule.when is not None or rule.within is not None:
            raise DropError("a drop when a condition holds, or within a region")
        sym = self.tables.placed_symbol(player, rule.kind)
        if sym is None:
            return []
        slot = self.names[self.book.index(player, rule.kind)]
        mask = "E"
        if rule.region is not None:
            mask = f"E & {self.layout.mask(self.tables.region(rule.region, player))}"
        prelude = []
        if rule.one_per_column:  # not in a column that holds one of the mover's already
            name = f"cf{self.book.index(player, rule.kind)}"
            prelude = column_fill(self.var[sym], self.layout, name)
            mask = f"{mask} & ~{name}"
        return [dict(prelude=prelude, mask=mask, apply=[f"{self.var[sym]} |= t", f"{slot} -= 1"], target="t",
                     origin_shift=0, action="drop", captures=False, guard=f"{slot} > 0")]

    def held(self, player: int, kind: str | None) -> list[str]:
        """The words of ``player``'s pieces of ``kind`` in hand (every kind's when ``None``), as ``count`` adds."""
        return [self.names[self.book.index(player, k)] for k in self.book.kinds if kind in (None, k)]

    def gains(self, player: int, cell: str) -> list[str]:
        """Statements adding the piece on the bit ``cell`` (before the capture) to ``player``'s hand."""
        out = []
        for sym, slot in sorted(self.book.gains[player].items()):
            out += [f"{'if' if not out else 'elif'} {self.var[sym]} & {cell}:", f"    {self.names[slot]} += 1"]
        return out


def column_fill(pieces: str, layout: BitLayout, name: str) -> list[str]:
    """Statements setting ``name`` to every cell in a column (same ``x``) of one of ``pieces``: shifts by the row's
    width, each twice the last, up and then down, kept to the board's cells."""
    rows = max(layout.bit) // layout.width + 1
    shifts, reach = [], 1
    while reach < rows:
        shifts.append(reach * layout.width)
        reach *= 2
    return [f"{name} = {pieces}", *(f"{name} |= {name} << {by}" for by in shifts),
            *(f"{name} |= {name} >> {by}" for by in shifts), f"{name} &= {layout.full}"]
