"""Placements and lines on bitboards: the kernel's source for ``place``, ``falling``, ``flanking`` and ``N in a row``.

:mod:`rulesdsl.interpreter.kernel` asks this module for the text of the
statements it writes for these blocks; everything here is made from the
layout's masks and shifts (integers) and fixed words, as the rest of the
kernel's source:

- ``place KIND``: the landing cells are the empty cells ``E``; playing one
  sets its bit in the placed symbol's bitboard.
- ``falling DIR``: only the empty cells that rest (the next cell that way is
  off the board or taken).
- ``flanking DIRS`` (one symbol a side): along each direction, the cells
  from which a run of enemy pieces ends at an own piece are found by
  walking back from the own pieces through enemy ones (one shift and two
  masks per step); playing one walks each direction from the placed bit and
  turns every run that ends at an own piece.
- ``PLAYER has N in a row``: for each axis of the board's ``all``
  directions, the cells from which N steps of own pieces stay on the board
  and on own pieces (N - 1 shifted copies and one mask).
- ``PLAYER connects SIDE and SIDE``: a flood fill on bitboards; from the own
  pieces on the first side, each round adds the own pieces next to the
  reached ones (one shift and mask per direction) until nothing is added;
  the sides are joined when the reached set meets the second side.

Each building block is held to the reference (generic) path by
tests/test_playout.py and tests/test_native.py.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted


class PlacementError(Exception):
    """A placement this module does not compile (the caller keeps the generic path)."""


def placement(rule: m.MoveRule, tables: Tables, layout: BitLayout, player: int, var: dict[str, str],
              bits) -> tuple[list[str], str, list[str]] | None:
    """``(prelude, mask, apply)`` of a placement by ``player``: statements the mask needs, the expression of the
    cells it may land on (``E``: the empty cells) and statements playing the one landing on bit ``t``; ``None``
    when the player has no symbol of the kind. ``bits(symbols)`` is the expression of those symbols' cells."""
    symbol = tables.placed_symbol(player, rule.kind)
    if symbol is None:
        return None
    if symbol not in var:
        raise PlacementError("a placed symbol without a bitboard")
    placed = var[symbol]
    if rule.flanking and rule.falling is not None:
        raise PlacementError("a placement both falling and flanking")
    if rule.flanking:
        return flanking(rule, tables, layout, player, var, bits)
    mask = "E"
    if rule.falling is not None:
        vector = tables.vectors((rule.falling,), player)[0]
        s, pre = layout.shift_of(vector), layout.has_next(vector)
        floor = layout.full & ~pre  # the last cells that way: a piece there rests
        mask = f"E & ({floor} | ({shifted(f'({layout.full} ^ E)', -s)} & {pre}))"
    return [], mask, [f"{placed} |= t"]


def flanking(rule: m.MoveRule, tables: Tables, layout: BitLayout, player: int, var: dict[str, str],
             bits) -> tuple[list[str], str, list[str]]:
    """``place KIND flanking DIRS`` (see the module docstring); one symbol a side."""
    mine, theirs = sorted(tables.symbols_of(player)), sorted(tables.enemy_symbols(player))
    if len(mine) != 1 or len(theirs) != 1 or tables.placed_symbol(player, rule.kind) != mine[0]:
        raise PlacementError("flanking with several symbols a side")
    own, opp = var[mine[0]], var[theirs[0]]
    geometry = tables.geometry
    prelude, ends, apply = [], [], ["fl = 0"]
    for i, vector in enumerate(tables.vectors(rule.flanking, player)):
        s, pre = layout.shift_of(vector), layout.has_next(vector)
        longest = max(len(geometry.ray(c.index, vector)) for c in geometry.cells)
        # fk: the enemy pieces from which, along the vector, a run of enemy pieces ends at an own piece
        prelude.append(f"fk{i} = {shifted(own, -s)} & {pre} & {opp}")
        prelude += [f"fk{i} |= {shifted(f'fk{i}', -s)} & {pre} & {opp}"] * max(0, longest - 2)
        ends.append(f"({shifted(f'fk{i}', -s)} & {pre} & E)")
        apply += ["f = 0", f"u = {shifted(f'(t & {pre})', s)}", f"while u & {opp}:", "    f |= u",
                  f"    u = {shifted(f'(u & {pre})', s)}", f"if u & {own}:", "    fl |= f"]
    mask = " | ".join(ends) if ends else "0"
    return prelude, mask, apply + [f"{own} |= t | fl", f"{opp} ^= fl"]


def in_a_row(tables: Tables, layout: BitLayout, own: str, length: int) -> str:
    """The expression (a truth value) of ``length`` of ``own``'s cells in a straight line along the board's
    directions (each axis once, as :func:`rulesdsl.interpreter.reference.endings.straight_lines` takes them)."""
    if own == "0":
        return "False"
    geometry = tables.geometry
    axes: list[tuple[int, int]] = []
    for name in geometry.direction_sets["all"]:
        vector = geometry.directions[name]
        if (-vector[0], -vector[1]) not in axes and vector not in axes:
            axes.append(vector)
    terms = []
    for vector in axes:
        s = layout.shift_of(vector)
        room = layout.has_next(vector, length - 1) if length > 1 else layout.full
        if not room:
            continue
        terms.append(" & ".join([f"{own} & {room}", *(shifted(own, -k * s) for k in range(1, length))]))
    return "bool(" + " | ".join(f"({t})" for t in terms) + ")" if terms else "False"


def joins(tables: Tables, layout: BitLayout, own: str, player: int, first: list[int], goal: list[int],
          along: tuple[m.DirRef, ...], name: str) -> tuple[list[str], str]:
    """Statements flooding ``name`` from ``own``'s cells on the side ``first`` through ``own``'s cells along
    ``along`` (see the module docstring), and the expression (a truth value) of its meeting the side ``goal``."""
    if own == "0":
        return [], "False"
    grow = [shifted(f"({name} & {layout.has_next(v)})", layout.shift_of(v)) for v in tables.vectors(along, player)]
    goal_mask = layout.mask(goal)
    # grown only when the player has pieces on both sides (else nothing of ``name`` can meet the goal)
    lines = [f"{name} = {own} & {layout.mask(first)}", f"if {name} and {own} & {goal_mask}:", "    while True:",
             f"        gw = ({' | '.join([name, *grow])}) & {own}", f"        if gw == {name}:", "            break",
             f"        {name} = gw"]
    return lines, f"bool({name} & {goal_mask})"
