"""The swap (pie) rule on bitboards: the kernel's source for ``swap [turning WAY] [in REGION]``.

As in the reference (:mod:`rulesdsl.interpreter.reference.swapping`), only the
second seat swaps, and only while the board holds one piece, the first seat's,
on a cell of the mover's REGION that the turn carries onto the board. Per
symbol of the first seat that the second seat has a piece of the same kind
for, one move group: its landing cell is the turned cell of that lone piece,
read from a table of one bit per bit of the layout (``TURN`` in the source's
constants); playing it empties the first seat's bitboard (it held that piece
alone) and puts the second seat's piece on the landing cell. A lone piece has
no links, so a swap makes and drops none.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout
from rulesdsl.interpreter.reference.swapping import TURNS, turned_cells


class SwapError(Exception):
    """A swap the kernel does not compile (the game keeps the generic path)."""


def swap_groups(rule: m.MoveRule, tables: Tables, layout: BitLayout, player: int, var: dict[str, str],
                bits, constants: dict[str, object]) -> list[tuple[list[str], str, list[str]]]:
    """``(prelude, mask, apply)`` per group of ``player``'s swaps (none but for the second seat); ``bits(symbols)``
    is the expression of those symbols' cells; the turn's table is added to ``constants``."""
    if rule.way not in TURNS:
        raise SwapError(f"swap turning {rule.way}")
    if player != 1:
        return []
    to = turned_cells(tables, rule.way)
    allowed = tables.region(rule.region, player) if rule.region else range(tables.cell_count)
    name = f"TURN{list(TURNS).index(rule.way)}"
    table = [0] * (max(layout.bit) + 1)
    for cell, there in enumerate(to):
        if there >= 0:
            table[layout.bit[cell]] = 1 << layout.bit[there]
    constants[name] = tuple(table)
    mask = layout.mask(c for c in allowed if to[c] >= 0)
    out = []
    for symbol in sorted(tables.symbols_of(0)):
        taken = tables.symbol.get((player, tables.kind[symbol]))
        if taken is None:
            continue
        mine, rest = var[symbol], bits(set(tables.owner) - {symbol})
        found = f"sw{len(out)}"
        lone = f"{mine} and not ({mine} & ({mine} - 1))" + (f" and not {rest}" if rest != "0" else "")
        prelude = [f"{found} = 0", f"if {lone} and {mine} & {mask}:",
                   f"    {found} |= {name}[({mine} - 1).bit_count()]"]  # ``|=``: a word for the native kernel
        out.append((prelude, found, [f"{mine} = 0", f"{var[taken]} |= t"]))
    return out
