"""Slides by the pieces in line, and one group of pieces, on bitboards: the kernel's source for
``slide DIRS by pieces in line [over CLASS]`` and for the end condition ``PLAYER forms one group``.

A piece that slides ``by pieces in line`` moves exactly as many cells as
there are pieces (of both players, itself included) on the whole line through
it along the direction, both ways. Every piece on one line has the same
distance along it, so a landing cell has exactly one origin per direction:
the cell that distance back. The landing cells of one symbol and direction
are one move group (one mask), found by one walk over the symbol's pieces:
per piece and line, one table of the lines through each cell and a bit count
give the line's pieces, then a walk of that many steps along each direction of the line
checks the cells passed (empty, or a piece of the class ``over`` names) and
the landing cell (empty with ``to empty``, an enemy piece with ``to enemy``;
the two are separate groups, the second captures). Playing a move counts the
line through the landing cell again and steps back that many cells to the
origin.

``forms one group`` is a flood fill: from the player's lowest piece, the
neighbours along the condition's directions (one shift and mask each) that
hold the player's pieces are added while any is new; the player forms one
group when the fill holds all of them (and there is at least one).

Nothing here allocates: the source uses a handful of integer names.
tests/test_kernel_lines.py and tests/test_playout.py hold it to the
reference path (:mod:`rulesdsl.interpreter.reference.movegen`,
:mod:`rulesdsl.interpreter.reference.endings`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted


@dataclass
class LineGroup:
    """The moves of one direction of a slide by the pieces in line that land on one kind of cell."""

    prelude: list[str]  # statements filling every direction's landing cells (on the symbol's first group only)
    mask: str  # the landing cells
    apply: list[str]  # statements playing the move landing on bit ``t``
    captures: bool


def _key(number: int, s: int) -> str:
    return f"{number}_{abs(s)}{'p' if s > 0 else 'n'}"


def line_table(layout: BitLayout, vector, constants: dict[str, object]) -> str:
    """The name of the table (kept in ``constants``) that gives, per bit number, the cells of the whole line
    through that cell along ``vector`` and back (0 for a bit that is no cell)."""
    s = abs(layout.shift_of(vector))
    name = f"LNA{s}"
    if name not in constants:
        geometry = layout.geometry
        back = (-vector[0], -vector[1])
        table = [0] * (max(layout.bit) + 1)
        for cell in geometry.cells:
            table[layout.bit[cell.index]] = layout.mask([cell.index, *geometry.ray(cell.index, vector),
                                                         *geometry.ray(cell.index, back)])
        constants[name] = tuple(table)
    return name


def _line_count(table: str, start: str, occupied: str, into: str) -> list[str]:
    """Statements setting ``into`` to the number of pieces on the line (``table``'s) through the bit ``start``."""
    return [f"{into} = ({occupied} & {table}[({start} - 1).bit_count()]).bit_count()"]


def line_slides(layout: BitLayout, vectors, mover: str, number: int, occupied: str, blocking: str,
                into_empty: bool, enemy: str | None, enemy_vars: list[str],
                constants: dict[str, object]) -> list[LineGroup]:
    """The groups of one symbol's slides by the pieces in line: per direction of ``vectors``, the moves landing
    on empty cells (``into_empty``, ``E`` in the masks) and those taking an enemy piece (``enemy``'s cells).
    ``mover`` is the symbol's bitboard, ``occupied`` the cells holding any piece, ``blocking`` the pieces a slide
    may not pass over; ``number`` tells this rule and symbol's names apart from the others'. The lines through
    each cell are tables the source reads by name, added to ``constants``."""
    axes: dict[tuple[int, int], str] = {}  # a line's direction (one of its two) -> the name of its count
    for v in vectors:
        if (-v[0], -v[1]) not in axes:
            axes.setdefault(v, f"lyn{len(axes)}")
    count_of = {**axes, **{(-v[0], -v[1]): name for v, name in axes.items()}}
    loop = ["lyo = lyp & -lyp", "lyp ^= lyo"]
    for v, name in axes.items():
        loop += _line_count(line_table(layout, v, constants), "lyo", occupied, name)
    names = []
    for v in vectors:
        s, pre = layout.shift_of(v), layout.has_next(v)
        empty_name, enemy_name = f"lm{_key(number, s)}", f"lc{_key(number, s)}"
        names.append((v, empty_name, enemy_name))
        landing = []
        if into_empty:
            landing += ["if lyu & E:", f"    {empty_name} |= lyu"]
        if enemy is not None:
            landing += [f"{'elif' if landing else 'if'} lyu & {enemy}:", f"    {enemy_name} |= lyu"]
        loop += [f"lyk = {count_of[v]}", "lyu = lyo", "while lyk and lyu:",
                 f"    lyu = {shifted(f'(lyu & {pre})', s)}", "    lyk -= 1",
                 f"    if lyk and lyu & {blocking}:", "        lyu = 0", *landing]
    prelude = [f"{n} = 0" for _, e, c in names for n in (e, c)] + [f"lyp = {mover}", "while lyp:"]
    prelude += ["    " + line for line in loop]
    out = []
    for v, empty_name, enemy_name in names:
        s = layout.shift_of(v)
        back = ["lyu = t", "while lyk:", f"    lyu = {shifted('lyu', -s)}", "    lyk -= 1"]
        play = [*_line_count(line_table(layout, v, constants), "t", occupied, "lyk"), *back, f"{mover} ^= lyu | t"]
        if into_empty:
            out.append(LineGroup(prelude, empty_name, play, False))
            prelude = []
        if enemy is not None:
            out.append(LineGroup(prelude, enemy_name, play + [f"{x} &= ~t" for x in enemy_vars], True))
            prelude = []
    return out


def one_group(layout: BitLayout, vectors, pieces: str, number: int) -> tuple[list[str], str]:
    """Statements flood-filling the cells ``pieces`` from its lowest bit along ``vectors``, and the expression
    that is true when the fill holds them all (``forms one group``); ``number`` tells the names apart."""
    p, g, f, n = (f"og{x}{number}" for x in "pgfn")
    around = " | ".join(shifted(f"({f} & {layout.has_next(v)})", layout.shift_of(v)) for v in vectors) or "0"
    lines = [f"{p} = {pieces}", f"{g} = {p} & -{p}", f"{f} = {g}", f"while {f}:",
             f"    {n} = ({around}) & {p} & ~{g}", f"    {g} |= {n}", f"    {f} = {n}"]
    return lines, f"bool({p} and {g} == {p})"
