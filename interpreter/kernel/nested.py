"""Small boards on bitboards: the kernel's source for ``boards W x H won by N in a row``, ``place KIND in sent
board`` and ``PLAYER has N in a row of boards`` (:mod:`rulesdsl.interpreter.reference.nested`).

Which small boards are won is worked out from the bitboards at each ply, not
kept in a word: the position stays the bitboards, the player to move and
``last`` (the cell of the last placement, which the kernel keeps as that
cell's bit across turns, as the reference keeps it), so nothing has to be
brought up to date when a piece is placed, and a position typed by hand needs
nothing more. Per ply that costs, per player, one term per kind of line in a
small board (the line's first cells, masked so that the line stays inside its
small board, ANDed with the player's bitboard moved back along the line: the
cells where a line of the player's pieces starts), then one test per small
board:

- the cells of the decided boards: every small board where a line starts (a
  full board takes no piece anyway: it has no empty cell);
- ``in sent board``: the small board that ``last`` sends to, found by one
  test per small board (``last`` against the cells that send there); the
  open cells there, or any open cell when it has none;
- ``has N in a row of boards``: the player's line starts ANDed with each small
  board's cells, along each line of N small boards on the big board.

All of it is masks and shifts (integers), so it runs on Python's integers for
a board of more than 64 cells and as 64-bit words in machine code for one of
at most 64. tests/test_kernel_blocks.py holds it to the reference path.
"""

from __future__ import annotations

from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted
from rulesdsl.interpreter.reference.nested import Nest, big_lines


def line_starts(nest: Nest, layout: BitLayout, own: str) -> str:
    """The expression of the cells where a line of N of ``own``'s cells starts inside a small board."""
    if own == "0":
        return "0"
    by_offsets: dict[tuple[int, ...], int] = {}
    for lines in nest.lines:
        for line in lines:
            offsets = tuple(layout.bit[c] - layout.bit[line[0]] for c in line[1:])
            by_offsets[offsets] = by_offsets.get(offsets, 0) | 1 << layout.bit[line[0]]
    terms = [" & ".join([f"({own} & {starts})", *(shifted(own, -k) for k in offsets)])
             for offsets, starts in by_offsets.items()]
    return "(" + " | ".join(terms) + ")" if terms else "0"


def board_masks(nest: Nest, layout: BitLayout) -> list[int]:
    """Each small board's cells, as bits."""
    return [layout.mask(cells) for cells in nest.cells]


def allowed_cells(tables: Tables, layout: BitLayout, players: list[str], sent: bool) -> tuple[list[str], str]:
    """``(prelude, mask)`` of a placement on small boards: statements working out the open cells (``E``: the
    empty cells; ``last``: the bit of the last placement's cell, 0 for none) and the name of the landing
    cells: the open cells of the board ``last`` sends to (``sent``), else every open cell."""
    nest = tables.nest
    boards = board_masks(nest, layout)
    won = " | ".join(line_starts(nest, layout, own) for own in players) or "0"
    lines = [f"nw = {won}", "nd = 0", "if nw:"]  # no line yet (most of a game's first plies): no test a board
    for mask in boards:
        lines += [f"    if nw & {mask}:", f"        nd |= {mask}"]
    lines.append(f"no = E & ({layout.full} ^ nd)")
    if not sent:
        return lines, "no"
    lines.append("na = 0")
    first = True
    for target, mask in enumerate(boards):
        senders = layout.mask(c for c, to in enumerate(nest.sends) if to == target)
        if senders:
            lines += [f"{'if' if first else 'elif'} last & {senders}:", f"    na = no & {mask}"]
            first = False
    return lines + ["if not na:", "    na = no"], "na"


def boards_in_a_row(tables: Tables, layout: BitLayout, own: str, length: int, name: str) -> tuple[list[str], str]:
    """``PLAYER has N in a row of boards``: a statement setting ``name`` to the line starts of ``own`` (the
    player's pieces) and the expression (a truth value) of N small boards in a row each holding one."""
    nest = tables.nest
    boards = board_masks(nest, layout)
    rows = [" and ".join(f"({name} & {boards[b]})" for b in line) for line in big_lines(nest, length)]
    if own == "0" or not rows:
        return [], "False"
    return [f"{name} = {line_starts(nest, layout, own)}"], "bool(" + " or ".join(f"({r})" for r in rows) + ")"
