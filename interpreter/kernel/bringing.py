"""``KIND slide DIRS exactly N unmoved [safe] bringing KIND2`` on bitboards, and the rights word it reads.

The reference (:mod:`rulesdsl.interpreter.reference.marks`) finds the *rights*
on the start board: a start cell of the moving kind with the first piece of
the brought kind along each direction. A right holds while no move has
changed any of its cells. The kernel keeps the rights as one word after the
bitboards, bit ``i`` for the reference's right ``i`` (the same numbering, so
the word is ``Marks.rights`` itself), and clears a right's bit after any move
that touches one of its cells (:meth:`Bringing.touched`).

Each right of the player is one move group with at most one landing cell:
the mover on its start cell, the right held, every cell between the mover and
the brought piece empty, and (``safe``) neither the start cell nor a cell
passed attacked (:mod:`rulesdsl.interpreter.kernel.attacks`). The move lands
the mover N cells along and the brought piece on the last cell passed (the
start cell when N is 1). tests/test_kernel_chess_blocks.py holds it to the reference.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.attacks import Attacks
from rulesdsl.interpreter.kernel.bitboards import BitLayout


class BringingError(Exception):
    """A rule of this family the kernel does not compile (the game keeps the generic path)."""


def rights_cells(rights: list[tuple[int, ...]], layout: BitLayout) -> list[int]:
    """Each right's cells as a mask."""
    return [layout.mask(right) for right in rights]


def touched_lines(touched: str, word: str, masks: list[int], layout: BitLayout, constants: dict) -> list[str]:
    """Statements clearing the bits of the rights with a cell among ``touched`` (an expression): per touched cell
    of a right, one lookup in the table ``rgt`` (each cell's bit: the rights that stay) put in ``constants``."""
    every = 0
    for mask in masks:
        every |= mask
    if not every:
        return []
    held = (1 << len(masks)) - 1
    constants["rgt"] = tuple(held & ~sum(1 << i for i, mask in enumerate(masks) if mask >> b & 1)
                             for b in range(max(layout.bit) + 1))
    return [f"if {word}:", f"    tc = {touched} & {every}", "    while tc:", "        b = tc & -tc", "        tc ^= b",
            f"        {word} &= rgt[b.bit_length() - 1]"]


def castling_groups(rule: m.MoveRule, tables: Tables, layout: BitLayout, player: int, index: dict,
                    var: dict[str, str], start: str, word: str, attacks: Attacks, occupied: str,
                    number: Callable[[], int], variables: str) -> list[dict]:
    """The groups of one ``bringing`` rule for one player, as ``Group`` keyword arguments (``index``: each
    right's bit; ``occupied``: the source of the occupied cells; ``number()``: a fresh number for names;
    ``variables``: the position's words, each followed by a comma, for the attack test's call)."""
    if rule.action != "slide" or rule.distance is None or not rule.unmoved or rule.region is not None \
            or rule.within is not None or rule.passing or rule.over is not None:
        raise BringingError("bringing without unmoved and exactly N, or with a region")
    steps = int(rule.distance)
    movers = tables.symbols_of(player, rule.kind)
    brought = tables.symbols_of(player, rule.bringing)
    opponent = tables.seats.opponent[player]
    out = []
    for vector in tables.vectors(rule.directions, player):
        ray = tables.neighbours(vector)
        for c in range(tables.cell_count):
            if start[c] not in movers:
                continue
            line = []  # the cells from the mover to the brought piece
            t = ray[c]
            while t >= 0 and start[t] not in brought:
                line.append(t)
                t = ray[t]
            right = (c, t)
            if t < 0 or right not in index or steps > len(line):
                continue
            land, dest = line[steps - 1], (line[steps - 2] if steps > 1 else c)
            mover, companion = var[start[c]], var[start[t]]
            cbit, tbit, ubit, dbit = (1 << layout.bit[x] for x in (c, land, t, dest))
            between = layout.mask(line)
            name = f"ck{number()}"
            test = f"{word} & {1 << index[right]} and {mover} & {cbit} and {companion} & {ubit} " \
                   f"and not {occupied} & {between}"
            prelude = [f"{name} = 0", f"if {test}:"]
            if rule.safe:
                watched = cbit | layout.mask(line[:steps - 1])
                prelude.append("    " + attacks.call(variables, str(watched), opponent, "sf"))
                prelude += ["    if not sf:", f"        {name} = {tbit}"]
            else:
                prelude.append(f"    {name} = {tbit}")
            apply = [f"{mover} ^= {cbit | tbit}", f"{companion} ^= {ubit | dbit}"]
            out.append(dict(prelude=prelude, mask=name, apply=apply, target="t",
                            origin_shift=layout.bit[land] - layout.bit[c], action="slide", captures=False,
                            piece=mover, touches=str(cbit | tbit | ubit | dbit)))
    return out
