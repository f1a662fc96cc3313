"""``forbid dropping KIND giving mate`` on bitboards.

The reference (:func:`rulesdsl.interpreter.reference.legality`'s
``gives_drop_mate``) drops a drop of KIND after which a protected piece of the
other player is attacked (``forbid leaving KIND attacked``) and the other
player has no legal move (judged without this rule). The kernel tests the same,
only where the dropped piece could attack a protected piece: per landing cell
of a drop group of KIND, a table (:meth:`DropMates.lines`) gives the cells a
piece of KIND attacks a cell from (its steps exactly, its slides' whole rays),
so a ply looks the other player's protected cells up once and the test runs on
those few landing cells only (on every one where a protected piece stands
attacked already; a slide over a screen leaves the game on the generic path):
the drop is played, ``attacked(...)`` asked (:mod:`~.attacks`), and if so
``canmove(...)``, a function of the kernel's source holding the other player's
move generation (:meth:`DropMates.function`), says whether an answer exists. Nothing is allocated per move.
tests/test_kernel_zones.py holds this to the reference.
"""

from __future__ import annotations

import re

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout


class DropMateError(Exception):
    """A drop-mate rule the kernel does not compile (the game keeps the generic path)."""


def forbids_drop_mates(active) -> bool:
    """True when the game has ``forbid dropping KIND giving mate``."""
    return any(f.what == "drop mate" for f in active.all(m.Forbid))


class DropMates:
    """The drop-mate test of a game: per player, the dropped bitboards it judges and their attack tables."""

    def __init__(self, active, tables: Tables, layout: BitLayout, var: dict[str, str], rules: list[m.MoveRule],
                 constants: dict[str, object]):
        kinds = {f.kind for f in active.all(m.Forbid) if f.what == "drop mate"}
        if any(rule.over == "one" for rule in rules):  # a piece dropped may be the screen of another's attack
            raise DropMateError("a drop that may not mate beside a slide over one piece")
        self.full = layout.full
        size = max(layout.bit) + 1
        self.tables: list[dict[str, str]] = []  # per player: dropped bitboard -> the name of its table
        for player in range(len(tables.player_names)):
            mine: dict[str, str] = {}
            for kind in sorted(kinds):
                sym = tables.placed_symbol(player, kind)
                if sym is None:
                    continue
                table = [0] * size
                for rule in rules:
                    if rule.kind != kind or rule.action not in ("step", "slide") or rule.from_hand:
                        continue
                    if rule.action == "step" and rule.blocked:
                        raise DropMateError("a drop-mate kind that leaps over a cell")
                    for vector in tables.vectors(rule.directions, player):
                        back = (-vector[0], -vector[1])
                        for cell in layout.geometry.cells:
                            if rule.action == "step":
                                found = [layout.geometry.step(cell.index, back)]
                            else:  # every cell of the ray: the pieces between are asked by the test itself
                                found = list(layout.geometry.ray(cell.index, back))
                            table[layout.bit[cell.index]] |= layout.mask(c for c in found if c >= 0)
                name = f"dmt{len(constants)}"
                constants[name] = tuple(table)
                mine[var[sym]] = name
            self.tables.append(mine)

    def dropped(self, group, player: int) -> str | None:
        """The judged bitboard a drop group puts a piece on, or ``None``."""
        if group.action != "drop":
            return None
        for board, _ in self.tables[player].items():
            if any(re.fullmatch(rf"{board} \|= t", line) for line in group.apply):
                return board
        return None

    def lines(self, player: int, other: int, groups: list, prefix: str, variables: str, royal: str,
              call: str) -> list[str]:
        """Statements dropping from the drop groups' landing cells (``{prefix}{i}``) the drops that mate ``other``
        (``royal``: its protected pieces' cells; ``call``: the attack test's statement setting ``dmc``)."""
        judged = [(i, board) for i, group in enumerate(groups) if (board := self.dropped(group, player))]
        if not judged:
            return []
        # a protected piece attacked already (a position set up so): every drop is judged
        out = ["dmk = " + royal, "dsv = " + variables, call.replace("dmc", "dmo", 1)]
        for i, board in judged:
            table = self.tables[player][board]
            out += ["dma = 0", "dmb = dmk", "if dmo:", f"    dma = {self.full}", "    dmb = 0", "while dmb:",
                    "    dmq = dmb & -dmb", "    dmb ^= dmq", f"    dma |= {table}[dmq.bit_length() - 1]",
                    f"dml = {prefix}{i} & dma", "while dml:", "    t = dml & -dml", "    dml ^= t"]
            out += ["    " + line for line in [*groups[i].apply, call, f"if dmc and not canmove({variables} {other}):",
                                               f"    {prefix}{i} ^= t", f"{variables} = dsv"]]
        return out

    @staticmethod
    def function(variables: str, body: list[str]) -> str:
        """The source of ``canmove(*words, turn)``: not zero when the player to move has a legal move (``body``:
        the statements, per player, returning it)."""
        return f"def canmove({variables} turn):\n" + "".join(f"    {line}\n" for line in body)
