"""Boards of points and lines, rows, flying and removals on bitboards: the kernel's source for ``lines``,
``then after N in a row``, ``remove KIND [except N in a row]`` and ``fly KIND``.

:mod:`rulesdsl.interpreter.kernel.codegen` asks this module for the masks and
statements of these blocks; everything here is made from the layout's masks
and shifts (integers) and fixed words, as the rest of the kernel's source:

- A board that declares its ``lines`` keeps its bounding-box layout; a step
  along a direction goes to the next point of a line, which may be several
  cells of the box away. :func:`link_steps` splits a direction by that
  distance: the points whose next point lies ``k`` cells on are one mask, and
  a step from them is one shift by ``k`` cells, so each ``(direction, k)`` is
  a move group as on a plain grid.
- Rows: every run of N consecutive points along one of the board's axes
  (following the lines on a board of points, as
  :mod:`rulesdsl.interpreter.reference.rows` does) is one mask, a *window*.
  A piece stands in N in a row when some complete window of its owner holds
  it (:func:`complete_windows` gathers the complete ones, a few shifts and
  masks for all windows of one shape).
- ``remove KIND except N in a row``: the enemy pieces of KIND outside every
  complete enemy window, or all of them when none is outside.
- ``fly KIND``: one move group per piece symbol, of pairs: any piece of the
  symbol to any empty cell (the codegen counts a group's moves as origins
  times landing cells, and picks move r as origin r // landing cells).
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted

MAX_WINDOWS = 4096  # rows of more windows stay on the generic path


def link_steps(layout: BitLayout, vector: tuple[int, int]) -> list[tuple[int, int]]:
    """``(shift, from)`` pairs of one direction: the points ``from`` whose next point along ``vector`` is one
    ``shift`` away in the layout (on a plain grid: one pair, the direction's shift and the cells that have a
    neighbour that way)."""
    geometry = layout.geometry
    if not geometry.has_lines:
        return [(layout.shift_of(vector), layout.has_next(vector))]
    by_shift: dict[int, int] = {}
    for cell in geometry.cells:
        nxt = geometry.step(cell.index, vector)
        if nxt < 0:
            continue
        far = geometry.cells[nxt]
        shift = layout.shift_of((far.x - cell.x, far.y - cell.y))
        by_shift[shift] = by_shift.get(shift, 0) | 1 << layout.bit[cell.index]
    return sorted(by_shift.items(), key=lambda pair: abs(pair[0]))


def windows(tables: Tables, layout: BitLayout, length: int) -> list[tuple[int, ...]]:
    """Every run of ``length`` consecutive points along one of the board's axes, as its bit numbers in order
    (each run once)."""
    geometry = tables.geometry
    vectors = [geometry.directions[d] for d in geometry.direction_sets["all"]]
    found: dict[frozenset[int], tuple[int, ...]] = {}
    for vector in vectors:
        table = tables.neighbours(vector)
        for cell in geometry.cells:
            run, c = [cell.index], cell.index
            while len(run) < length and table[c] >= 0:
                c = table[c]
                run.append(c)
            bits = tuple(layout.bit[i] for i in run)
            if len(run) == length and frozenset(bits) not in found:
                found[frozenset(bits)] = bits if bits[0] < bits[-1] else bits[::-1]
    if len(found) > MAX_WINDOWS:
        raise ValueError("too many rows to compile")
    return list(found.values())


def complete_windows(own: str, rows: list[tuple[int, ...]], name: str) -> list[str]:
    """Statements setting ``name`` to the union of the windows ``rows`` that ``own`` fills.

    Windows of one shape (the same offsets from their first bit) are tested together: the first bits of
    the complete ones are ``own`` shifted back by each offset, masked to the shape's first bits, and the
    union is those first bits shifted on by each offset again."""
    lines = [f"{name} = 0"]
    for i, (offsets, starts) in enumerate(sorted(_shapes(rows).items())):
        full = " & ".join([str(starts), *(shifted(own, -k) for k in offsets)])
        lines += [f"ws{i} = {full}", f"if ws{i}:", f"    {name} |= {' | '.join(shifted(f'ws{i}', k) for k in offsets)}"]
    return lines


def row_through(own: str, rows: list[tuple[int, ...]], cell: str) -> str:
    """An expression, not zero when the bit ``cell`` stands in a window of ``rows`` that ``own`` fills: per
    shape, the first bits of the complete windows meet ``cell`` moved back by one of the shape's offsets."""
    terms = []
    for offsets, starts in sorted(_shapes(rows).items()):
        near = " | ".join(shifted(cell, -k) for k in offsets)
        terms.append(" & ".join([f"({near})", str(starts), *(shifted(own, -k) for k in offsets)]))
    return "(" + " | ".join(f"({t})" for t in terms) + ")" if terms else "0"


def _shapes(rows: list[tuple[int, ...]]) -> dict[tuple[int, ...], int]:
    """The windows by shape: their offsets from their first bit, and the mask of their first bits."""
    shapes: dict[tuple[int, ...], int] = {}
    for bits in rows:
        offsets = tuple(b - bits[0] for b in bits)
        shapes[offsets] = shapes.get(offsets, 0) | 1 << bits[0]
    return shapes


def removal(rule: m.MoveRule, tables: Tables, layout: BitLayout, player: int, var: dict[str, str],
            bits, spared_at: int) -> tuple[list[str], str, list[str], str] | None:
    """``(prelude, mask, apply, exists)`` of ``remove KIND [except N in a row]`` by ``player``: statements the
    mask needs, the cells that may be emptied, statements emptying bit ``t``, and an expression not zero when
    there is a removal; ``None`` when the other player has no symbol of KIND."""
    victims = sorted(s for s in tables.enemy_symbols(player) if tables.kind[s] == rule.kind)
    if not victims:
        return None
    them = bits(victims)
    apply = [f"{var[victims[0]]} ^= t"] if len(victims) == 1 else [f"{var[s]} &= ~t" for s in victims]
    if not spared_at:
        return [], them, apply, them
    prelude = complete_windows(bits(tables.enemy_symbols(player)), windows(tables, layout, spared_at), "sp")
    prelude += [f"rv = {them} & ~sp", "if not rv:", f"    rv = {them}"]
    return prelude, "rv", apply, them


def fly(rule: m.MoveRule, tables: Tables, player: int, var: dict[str, str]) -> list[tuple[str, list[str]]]:
    """``(origins, apply)`` of each move group of ``fly KIND``, one per symbol: its pieces (any of them, bit
    ``f``, to any empty cell, bit ``t``), and the statements moving one."""
    return [(var[s], [f"{var[s]} ^= f | t"]) for s in sorted(tables.symbols_of(player, rule.kind))]
