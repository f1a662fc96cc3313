"""Turning blocks on bitboards: the kernel's source for ``turn BLOCKS WAY`` (``rectangle NAME CELL..CELL``).

A turn of one block one way (:mod:`rulesdsl.interpreter.reference.turning`) is
a fixed permutation of the block's cells. On a bitboard every cell of the
block moves by some number of bit places (the bit of the cell it goes to minus
its own), and cells that move by the same number move together: one mask and
one shift. So a turn is worked out once, when the game is compiled, as a short
list of ``(mask, shift)`` pairs (a quarter turn of a 3 x 3 block: eight, one
per cell but the centre, which stays), and a move rewrites each bitboard as

    ``v = (v & STAY) | ((v & M1) << S1) | ((v & M2) >> S2) | ...``

a few integer operations and no table: the same source runs on Python's
integers and, on boards of at most 64 cells, as 64-bit words in machine code
(a table indexed by the block's bits would need the bits gathered first, one
row slice at a time, and scattered back, for no fewer operations).

Each way of turning each block is one move group whose mask is the constant
``1`` (a turn is always a move, even of an empty block), in the order the
reference lists them: the blocks as written, each way's marks in
:data:`~rulesdsl.interpreter.reference.turning.WAYS` order.
tests/test_kernel_blocks.py holds these to the reference path.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted
from rulesdsl.interpreter.reference.turning import QUARTER_WAYS, block_moves

# the fields of a move rule that a turn may set (any other keeps the game on the generic path)
TURN_FIELDS = {"span", "guard", "kind", "action", "directions", "blocks", "way", "option_spans"}


class TurnError(Exception):
    """A turn the kernel does not compile (the game keeps the generic path)."""


def permutation_terms(layout: BitLayout, pairs) -> tuple[int, list[tuple[int, int]]]:
    """``(moved, [(mask, shift)])`` of a permutation of cells given as ``(from cell, to cell)`` pairs (the cells
    that stay left out): the bits of the cells that move, and per distinct shift the cells moving by it."""
    by_shift: dict[int, int] = {}
    moved = 0
    for src, dst in pairs:
        shift = layout.bit[dst] - layout.bit[src]
        by_shift[shift] = by_shift.get(shift, 0) | 1 << layout.bit[src]
        moved |= 1 << layout.bit[src]
    return moved, sorted(by_shift.items(), key=lambda item: item[1])


def permuted(var: str, layout: BitLayout, moved: int, terms: list[tuple[int, int]]) -> str:
    """The statement rewriting bitboard ``var`` with its bits permuted (see the module docstring)."""
    parts = [f"({var} & {layout.full & ~moved})"]
    parts += [shifted(f"({var} & {mask})", shift) for shift, mask in terms]
    return f"{var} = {' | '.join(parts)}"


def turn_applies(rule: m.MoveRule, tables: Tables, layout: BitLayout, variables: list[str]) -> list[list[str]]:
    """Per move of a ``turn`` rule, in the reference's order: the statements turning every bitboard in
    ``variables`` (the names of every symbol's bitboard)."""
    out = []
    for name, _ in rule.blocks:
        if name not in tables.blocks:
            raise TurnError(f"no rectangle {name}")
        x0, y0, x1, y1 = tables.blocks[name]
        if rule.way in QUARTER_WAYS and x1 - x0 != y1 - y0:
            raise TurnError("a quarter turn of a block that is not square")
        for _, pairs in block_moves(tables.geometry, name, tables.blocks[name], rule.way):
            moved, terms = permutation_terms(layout, pairs)
            out.append([permuted(v, layout, moved, terms) for v in variables] if terms else [])
    return out

