"""Slides on bitboards: the kernel's source for ``slide`` and for ``place ... from last step|slide``.

A slide along one direction is one move group per sliding symbol and
direction. Its landing cells are a fill: from the sliding pieces, one shift
and two masks a step give the empty cells one step further along
(``q = ((q & has next) << s) & E``), gathered while any is left, so a whole
direction costs a few operations a step, never a loop over pieces:

- ``to empty`` (the default): the group lands on the filled cells;
- ``to enemy``: a second group lands on the first enemy piece past the
  sliding piece or a filled cell, and takes it.

Each landing cell of a group is one move (the empty run behind it ends at
exactly one piece), so its count is the group's bit count. Playing one walks
back from the landing cell, one shift at a time, to the first piece: the
origin. ``place KIND from last slide DIRS`` (the second part of a ``then``
turn) is the same fill from the one cell the turn continues from (``L`` in
the masks, replaced by the caller with the name of that cell's bit); it puts
a new piece on the landing cell, with no walk. ``from last step`` is the
first step only.

Whether a group has a move is known from its first step alone (``exists``):
the kernel asks that when it needs only to know whether a player can move
(the second part of a turn exists). tests/test_playout.py and
tests/test_native.py hold these groups to the reference path
(:mod:`rulesdsl.interpreter.reference.movegen`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted

LAST = "L"  # the token of the continuing cell's bit in a mask, replaced by the caller


@dataclass
class Ray:
    """The moves of one direction of a slide: what the kernel makes one move group of."""

    prelude: list[str]  # statements filling the reached cells
    mask: str  # the landing cells (``E``: the empty cells, ``L``: the cell a placement is made from)
    apply: list[str]  # statements playing the move landing on bit ``t``
    captures: bool
    exists: str | None  # an expression that is not zero when the group has a move, without the prelude


def ray_groups(layout: BitLayout, vector, origin: str, number: int, longest: int, into_empty: bool,
               enemy: str | None, moving: str | None, placed: str | None, enemy_vars: list[str]) -> list[Ray]:
    """The groups of one direction of a slide from the cells ``origin`` (an expression): ``longest`` steps at
    most, landing on empty cells when ``into_empty`` and on the first enemy piece (``enemy``'s cells) when it is
    given. A move either moves the piece of the bitboard ``moving`` or puts a piece on the bitboard ``placed``.
    ``number`` tells this ray's names apart from the others'."""
    s, pre = layout.shift_of(vector), layout.has_next(vector)
    key = f"{number}_{abs(s)}{'p' if s > 0 else 'n'}"
    front, filled = f"q{key}", f"r{key}"
    first = f"{shifted(f'({origin} & {pre})', s)}"
    prelude = [f"{front} = {first} & E", f"{filled} = {front}"]
    if longest > 1:
        prelude += [f"while {front}:", f"    {front} = {shifted(f'({front} & {pre})', s)} & E",
                    f"    {filled} |= {front}"]
    if moving is not None:
        play = ["u = t", "while True:", f"    u = {shifted('u', -s)}", f"    if u & {moving}:", "        break",
                f"{moving} ^= u | t"]
    else:
        play = [f"{placed} |= t"]
    out = []
    if into_empty:
        out.append(Ray(prelude, filled, play, False, f"{first} & E"))
        prelude = []
    if enemy is not None:
        taken = [f"{v} &= ~t" for v in enemy_vars]
        reach = f"({origin} | {filled})" if longest > 1 else origin
        out.append(Ray(prelude, f"{shifted(f'({reach} & {pre})', s)} & {enemy}", play + taken, True,
                       f"{first} & {enemy}" if into_empty else None))
    return out


def longest_ray(geometry, vector) -> int:
    """The most steps a piece can make along ``vector`` on the board."""
    return max(len(geometry.ray(c.index, vector)) for c in geometry.cells)
