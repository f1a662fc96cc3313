"""Placements in a region that enclose cells: ``place KIND in REGION [enclosing KIND2 in REGION2 [again]]``.

The reference (:mod:`rulesdsl.interpreter.reference.boxes`) puts the piece on an
empty cell of the mover's REGION; then every empty cell of REGION2 next to it
(along the board's ``all`` directions) whose neighbours on the board are all
taken gets the mover's KIND2, and with ``again`` such a move earns the mover
another turn. On bitboards:

- the landing cells are the empty cells ``E`` and the region's constant mask;
- playing the move on bit ``t`` sets the placed symbol's bit, then works out
  ``encl``: the cells of REGION2 next to ``t`` (one shift and mask per
  direction) that are empty, kept only where, along every direction, the
  neighbour is taken or off the board (one more shift and mask per
  direction); those cells get the claimed symbol;
- ``again``: the move's group keeps the turn when ``encl`` is not zero
  (:attr:`Group.keeps <rulesdsl.interpreter.kernel.codegen.Group>`): the same
  player moves next, no cell to continue from, the turns played unchanged, as
  the reference's ``Move.bonus``.

tests/test_kernel_counts.py and tests/test_playout.py hold this to the reference.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted
from rulesdsl.interpreter.kernel.regions import region_mask

ENCLOSED = "encl"  # the name of the enclosed cells' bits in the source (``Group.keeps`` reads it)


class EnclosingError(ValueError):
    """A placement in a region this module does not compile (the game keeps the generic path)."""


def region_placement(rule: m.MoveRule, tables: Tables, layout: BitLayout, player: int, var: dict[str, str],
                     everything: str) -> tuple[str, list[str], str | None] | None:
    """``(mask, apply, keeps)`` of a placement in a region by ``player``: the expression of its landing cells,
    the statements playing the one on bit ``t`` and the expression that is not zero when the mover moves again
    (``None``: never); ``None`` when the player has no symbol of the kind. ``everything`` is the expression of
    every piece's cells (read after the placement)."""
    if rule.falling is not None or rule.flanking or rule.from_hand:
        raise EnclosingError("a placement in a region that falls, flanks or comes from a hand")
    symbol = tables.placed_symbol(player, rule.kind)
    if symbol is None:
        return None
    mask = "E" if rule.region is None else f"E & {region_mask(tables, layout, rule.region, player)}"
    apply = [f"{var[symbol]} |= t"]
    enclose = rule.enclose
    if enclose is None:
        return mask, apply, None
    claimed = tables.placed_symbol(player, enclose.kind)
    if claimed is None or claimed not in var:
        raise EnclosingError(f"enclosing {enclose.kind}: the player has no such piece")
    targets = region_mask(tables, layout, enclose.region, player)
    vectors = tables.vectors((m.DirRef(rule.span, "all"),), player)
    # the cells from which a step along each direction lands on a cell of REGION2 (none: the direction is left out)
    toward = [(v, layout.has_next(v) & _shift(targets, -layout.shift_of(v))) for v in vectors]
    near = " | ".join(shifted(f"(t & {into})", layout.shift_of(v)) for v, into in toward if into) or "0"
    apply += [f"occ = {everything}", f"{ENCLOSED} = ({near}) & {targets} & ~occ"]
    for v in vectors:  # along each direction the neighbour is taken, or there is none
        if targets & layout.has_next(v):
            apply.append(f"{ENCLOSED} &= {layout.full & ~layout.has_next(v)} | {shifted('occ', -layout.shift_of(v))}")
    apply.append(f"{var[claimed]} |= {ENCLOSED}")
    return mask, apply, ENCLOSED if enclose.again else None


def _shift(bits: int, by: int) -> int:
    """``bits`` moved by ``by`` places (left when positive)."""
    return bits << by if by >= 0 else bits >> -by
