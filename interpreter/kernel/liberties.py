"""Groups and liberties on bitboards: the kernel's source for ``place KIND enclosing DIRS`` (with
``forbid suicide`` and ``forbid immediate repetition``) and for ``area(PLAYER)``.

Everything is a flood fill over one integer: the cells of a set joined to a
seed along the directions are found by adding the seed's neighbours (one shift
and mask per direction) that lie in the set until nothing new comes
(:func:`flood`), as :func:`~rulesdsl.interpreter.kernel.lines.one_group` does.

A placement's legal cells are found once per position, without trying each
cell: every enemy group with exactly one liberty (``a & (a - 1) == 0``) gives
that liberty as a capturing cell; every own group with two liberties or more
makes its neighbours safe. An empty cell is legal when it has an empty
neighbour, a safe own neighbour, or captures; any other placement would leave
its group without a liberty (a suicide, which ``forbid suicide`` forbids: the
kernel compiles only games that forbid it). ``forbid immediate repetition``
(go's ko) can only be met by a capturing placement (one that takes nothing
adds a stone to the board the opponent's move left); the kernel plays each
capturing cell and drops it when the board it makes is the one before the
opponent's move (the words of :mod:`rulesdsl.interpreter.kernel.passing`).
Playing a placement floods each enemy group next to the cell and removes those
left without a liberty.

``area(P)``: P's pieces plus the empty cells whose empty region touches only
P's pieces (a flood through the empty cells from P's pieces' neighbours, less
the same flood from the other side's), across the cells' sides as the
reference's :func:`~rulesdsl.interpreter.reference.groups.area_scorer`.

Nothing allocates: the source uses a handful of integer names. The generic
path (:mod:`rulesdsl.interpreter.reference.groups`) is the truth;
tests/test_kernel_liberties.py and tests/test_playout.py hold the kernel to it.
"""

from __future__ import annotations

from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted


def around(layout: BitLayout, vectors, cells: str) -> str:
    """An expression: the cells next to ``cells`` along ``vectors``."""
    return "(" + " | ".join(shifted(f"({cells} & {layout.has_next(v)})", layout.shift_of(v)) for v in vectors) + ")"


def flood(layout: BitLayout, vectors, seed: str, within: str, into: str) -> list[str]:
    """Statements setting ``into`` to the cells of ``within`` joined to ``seed`` (cells of ``within``)."""
    return [f"{into} = {seed}", "while True:", f"    fz = ({into} | {around(layout, vectors, into)}) & {within}",
            f"    if fz == {into}:", "        break", f"    {into} = fz"]


def captured(layout: BitLayout, vectors, own_after: str, opp: str, into: str) -> list[str]:
    """Statements setting ``into`` to the enemy groups (of ``opp``) next to bit ``t`` that have no liberty
    once ``own_after`` (the own pieces, ``t`` among them) stand (``ez``: the empty cells then)."""
    lines = [f"ez = {layout.full} & ~({own_after} | {opp})", f"{into} = 0"]
    for v in vectors:
        near = f"{shifted(f'(t & {layout.has_next(v)})', layout.shift_of(v))} & {opp} & ~{into}"
        lines += [f"nz = {near}", "if nz:"]
        lines += ["    " + line for line in flood(layout, vectors, "nz", opp, "gz")]
        lines += [f"    if not {around(layout, vectors, 'gz')} & ez:", f"        {into} |= gz"]
    return lines


def enclosing(layout: BitLayout, vectors, own: str, opp: str, before: tuple[str, str] | None,
              number: int) -> tuple[list[str], str, list[str]]:
    """``(prelude, mask, apply)`` of ``place ... enclosing`` for the side whose one piece symbol's bitboard is
    ``own`` (the other side's: ``opp``): statements finding the legal cells (``E``: the empty cells), their
    mask, and statements playing the placement on bit ``t``. ``before``: the words holding the board before
    the opponent's move (this side's, the other's) and the word telling whether it is known, for ko."""
    al, ok, gl = f"al{number}", f"ok{number}", f"lb{number}"
    ko = f"kn{number}"
    lines = [f"{al} = 0", f"{ok} = 0", f"{ko} = 0"]
    for side, test, out in ((opp, f"{gl} and not {gl} & ({gl} - 1)", al), (own, f"{gl} & ({gl} - 1)", ok)):
        lines += [f"gr = {side}", "while gr:"]
        body = flood(layout, vectors, "gr & -gr", side, "gg")
        body += ["gr &= ~gg", f"{gl} = {around(layout, vectors, 'gg')} & E", f"if {test}:",
                 f"    {out} |= {gl if out == al else 'gg'}"]
        lines += ["    " + line for line in body]
    mask = f"((E & ({around(layout, vectors, 'E')} | {around(layout, vectors, ok)})) | {al}) & ~{ko}"
    if before is not None:  # ko: a capturing cell that recreates the board before the opponent's move
        mine, theirs, known = before
        lines += [f"if {known}:", f"    kk = {al}", "    while kk:", "        t = kk & -kk", "        kk ^= t"]
        body = captured(layout, vectors, f"({own} | t)", opp, "cz")
        body += [f"if ({own} | t) == {mine} and ({opp} & ~cz) == {theirs}:", f"    {ko} |= t"]
        lines += ["        " + line for line in body]
    apply = [*captured(layout, vectors, f"({own} | t)", opp, "cz"), f"{own} |= t", f"{opp} ^= cz"]
    return lines, mask, apply


def area(layout: BitLayout, vectors, mine: str, theirs: str, name: str) -> list[str]:
    """Statements setting ``name`` to ``area``: the pieces ``mine`` plus the empty cells whose empty region
    touches ``mine`` and not ``theirs``."""
    empty = f"({layout.full} & ~({mine} | {theirs}))"
    lines = [f"ea = {empty}"]
    lines += flood(layout, vectors, f"{around(layout, vectors, mine)} & ea", "ea", "ra")
    lines += flood(layout, vectors, f"{around(layout, vectors, theirs)} & ea", "ea", "rb")
    return lines + [f"{name} = ({mine}).bit_count() + (ra & ~rb).bit_count()"]
