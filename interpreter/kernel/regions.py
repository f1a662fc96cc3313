"""Regions on bitboards: each player's cells of a ``region`` as one constant mask in the kernel's source.

A region (:mod:`rulesdsl.interpreter.compile.regions`) is one set of cells per
player; the kernel reads it as that player's mask, written into the source as
a number, so a region costs one ``&`` wherever a rule reads it:

- ``from REGION`` (a step's or a slide's): only pieces standing in the mask
  move so. A step's origin is its landing cell a fixed shift back, so its
  landing mask is ANDed with the region shifted forward; a slide fills from
  the pieces in the region only (its walk back from the landing cell still
  meets the origin first: the fill only crosses empty cells);
- ``within REGION``, and a placement's ``in REGION``: the landing cells are ANDed with the mask;
- ``PLAYER fills REGION``: once the turn is over, every cell of the mask
  holds a piece of the player.

tests/test_kernel_regions.py holds these to the reference path.
"""

from __future__ import annotations

from dataclasses import replace

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted

# The move actions whose ``from`` and ``within`` the kernel confines (the reference reads them for these too);
# a placement's ``in REGION`` (its ``region``) confines the cell it lands on.
CONFINED = ("step", "slide", "place")


class RegionError(Exception):
    """A region read the kernel does not compile (the game keeps the generic path)."""


def region_mask(tables: Tables, layout: BitLayout, name: str, player: int) -> int:
    """The bits of ``player``'s cells of the region ``name``."""
    return layout.mask(tables.region(name, player))


def reads_region(rule: m.MoveRule) -> bool:
    """True when a move rule reads a region (``from REGION`` or ``within REGION``)."""
    return rule.region is not None or rule.within is not None


def origin_cells(rule: m.MoveRule, tables: Tables, layout: BitLayout, player: int, pieces: str) -> str:
    """The expression of the pieces a rule may move: ``pieces``, or those of them in its ``from`` region."""
    if rule.region is None:
        return pieces
    return f"({pieces} & {region_mask(tables, layout, rule.region, player)})"


def confine(groups: list, rule: m.MoveRule, tables: Tables, layout: BitLayout, player: int,
            origins_done: bool = False) -> list:
    """The move groups of ``rule`` with their landing masks confined by its regions: ``within`` on the
    landing cell, ``from`` on the origin a fixed shift back (``origins_done``: the groups already start from
    the region's pieces only, as slides do through :func:`origin_cells`)."""
    if not reads_region(rule):
        return groups
    if rule.action not in CONFINED:
        raise RegionError(f"a region read by a {rule.action}")
    placed = rule.action == "place"
    if placed and rule.within is not None:
        raise RegionError("a placement within a region")
    out = []
    for group in groups:
        mask = group.mask
        for landing in (rule.within, rule.region if placed else None):
            if landing is not None:
                mask = f"({mask}) & {region_mask(tables, layout, landing, player)}"
        if rule.region is not None and not origins_done and not placed:
            if group.walks:
                raise RegionError("a region beside a move that walks back to its origin")
            mask = f"({mask}) & {shifted(str(region_mask(tables, layout, rule.region, player)), group.origin_shift)}"
        # a slide's first step tells whether it has a move only when no region confines the landing cells
        exists = group.exists if rule.within is None else None
        out.append(replace(group, mask=mask, exists=exists))
    return out


def fills(tables: Tables, layout: BitLayout, pieces: str, region: str, player: int, turn_over: bool = False) -> str:
    """``PLAYER fills REGION`` as an expression over the player's ``pieces`` and ``last`` (0: the turn is over;
    ``turn_over``: read where the turn is known to be over, ``last`` unread)."""
    mask = region_mask(tables, layout, region, player)
    if not mask:
        return "False"
    return f"(({pieces} & {mask}) == {mask})" if turn_over else f"(not last and ({pieces} & {mask}) == {mask})"
