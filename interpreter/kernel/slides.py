"""Slides on bitboards: the kernel's source for ``slide`` and for ``place ... from last step|slide``.

A slide along one direction is written as one move group per distance ``k``
(1 up to the longest ray of the board that way), so that every group keeps
what the kernel needs of a move: one mask of landing cells and a fixed shift
back to the origin (``k`` steps). The cells a piece reaches after ``k`` steps
over empty cells are found from those after ``k - 1`` by one shift and two
masks (``rN = ((rN-1 & has next) << s) & E``, ``r0`` the sliding pieces), so a
whole direction costs one shift a distance, never a loop over pieces:

- ``to empty`` (the default): the group of distance ``k`` lands on ``rk``;
- ``to enemy``: a second group per distance lands on the first enemy piece
  past ``rk-1`` (``((rk-1 & has next) << s) & enemy``) and takes it.

``place KIND from last slide DIRS`` (the second part of a ``then`` turn) is
the same ray from the one cell the turn continues from (``L`` in the
masks, replaced by the caller with the name of that cell's bit); it puts a
new piece on the landing cell. ``from last step`` is its first distance only.

A group past the first distance of a ray that may end on an empty cell is
*implied* by the first one: it has a move only when the first has. The
kernel asks only the groups that are not implied whether a player has a move
(the second part of a turn exists), which keeps that question one mask a
direction. tests/test_playout.py and tests/test_native.py hold these groups to
the reference path (:mod:`rulesdsl.interpreter.reference.movegen`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted

LAST = "L"  # the token of the continuing cell's bit in a mask, replaced by the caller


@dataclass
class Reach:
    """The moves of one distance of a ray: what the kernel makes one move group of."""

    prelude: list[str]  # statements defining the cells reached at this distance
    mask: str  # the landing cells (``E``: the empty cells, ``L``: the cell a placement is made from)
    apply: list[str]  # statements playing the move landing on bit ``t``
    distance: int
    captures: bool
    implied: bool  # it has a move only when the ray's first distance has one


def ray_reaches(layout: BitLayout, vector, origin: str, name: str, longest: int, into_empty: bool,
                enemy: str | None, moving: str | None, placed: str | None, enemy_vars: list[str]) -> list[Reach]:
    """The groups of one ray from the cells ``origin`` (an expression): ``longest`` distances at most, landing
    on empty cells when ``into_empty`` and on the first enemy piece (``enemy``'s cells) when it is given. The
    move either moves the piece of the bitboard ``moving`` or puts a piece on the bitboard ``placed``. ``name``
    is the stem of the names of the reached sets (one per distance)."""
    s, pre = layout.shift_of(vector), layout.has_next(vector)
    key = f"_{abs(s)}{'p' if s > 0 else 'n'}"
    out: list[Reach] = []
    previous = origin
    for k in range(1, longest + 1):
        reached = f"{name}z{k}{key}"
        past = f"{shifted(f'({previous} & {pre})', s)}"
        prelude = [f"{reached} = {past} & E"]
        play = [f"{moving} ^= {shifted('t', -k * s)} | t"] if moving is not None else [f"{placed} |= t"]
        if into_empty:
            out.append(Reach(prelude, reached, play, k, False, k > 1))
            prelude = []
        if enemy is not None:
            taken = [f"{v} &= ~t" for v in enemy_vars]
            out.append(Reach(prelude, f"{past} & {enemy}", play + taken, k, True, into_empty and k > 1))
        previous = reached
    return out


def longest_ray(geometry, vector) -> int:
    """The most steps a piece can make along ``vector`` on the board."""
    return max(len(geometry.ray(c.index, vector)) for c in geometry.cells)
