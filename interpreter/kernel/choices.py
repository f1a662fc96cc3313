"""Promotion choices on bitboards: ``promote KIND to A, B, C on far row`` as one move group per choice.

The reference (:func:`rulesdsl.interpreter.reference.piece_moves.choice_expander`)
turns each move that lands a piece with a choice on its far row into one move
per kind it may become. The kernel does the same per move group: a group of a
piece with choices becomes the group confined to the cells off the far row
(the piece lands as it is) and, for each choice, the group confined to the far
row whose move then swaps the landed piece for the chosen one. The count of a
ply is still the sum of the groups' bit counts; nothing is allocated per move.
tests/test_kernel_chess_blocks.py holds this to the reference.
"""

from __future__ import annotations

from dataclasses import replace

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout


def choice_symbols(active, tables: Tables, player: int) -> dict[str, tuple[str, ...]]:
    """The player's symbols that promote with a choice on the far row, each with the symbols it may become."""
    out: dict[str, tuple[str, ...]] = {}
    for stmt in active.all(m.Promote):
        if not stmt.choices or stmt.zone is not None:
            continue
        sym = tables.symbol.get((player, stmt.kind))
        if sym is not None:
            out[sym] = tuple(tables.symbol[(player, k)] for k in stmt.choices if (player, k) in tables.symbol)
    return out


def with_choices(groups: list, choices: dict[str, tuple[str, ...]], far: int, layout: BitLayout) -> list:
    """``groups`` with each group of a piece (``Group.piece``: its bitboard's name) that has choices split: off the
    far row as it is, and one group per choice on it (``choices``: bitboard name -> the chosen bitboards' names)."""
    if not choices or not far:
        return groups
    out = []
    near = layout.full & ~far
    for group in groups:
        chosen = choices.get(group.piece or "")
        if not chosen:
            out.append(group)
            continue
        out.append(replace(group, mask=f"({group.mask}) & {near}", exists=None))
        for number, new in enumerate(chosen):
            swap = [f"{group.piece} ^= t", f"{new} |= t"] if new != group.piece else []
            # the prelude was run for the first copy already (its names hold the same values)
            out.append(replace(group, prelude=[], mask=f"({group.mask}) & {far}", exists=None,
                               apply=[*group.apply, *swap], promotes=far, echo=number > 0))
    return out
