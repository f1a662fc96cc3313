"""Walls between cells on bitboards: the kernel's source for ``walk KIND DIRS``, ``build KIND [from hand]`` and
``keep ... PLAYER can reach far row`` on a wall grid.

The wall grid is the reference's (:mod:`rulesdsl.interpreter.reference.walls`):
squares at even columns and rows, grooves between them, posts where grooves
meet; walls are a neutral symbol on grooves and posts. With ``G(x)`` the cells
one step along a direction from ``x`` (a shift and a mask), a walk along it is
one move group per kind of landing, each a fixed shift back to the walker:

- a step: ``G(G(P) & E) & E`` (the groove free of walls, the square empty);
- a leap straight over a piece ``X = G(G(P) & E) & occupied`` whose groove
  ahead is free: ``G(G(X & free ahead)) & E``;
- a leap to either side of such a piece whose groove ahead is walled or off
  the board: ``G'(G'(X & ~free ahead) & E) & E`` along each perpendicular
  direction (as the reference, a square reached two ways is two moves).

A wall is built on an empty post whose two grooves along one axis are empty:
one group per axis, landing on the post. ``keep`` (only conditions made of
``can reach far row``, ``and``, ``or``, ``not``) is read on the board after
each move: a walk moves a pawn within the squares it could already reach
(pawns never block a path), so it keeps the condition exactly when the board
before it does (and no move keeps conditions the board breaks: walls only
take paths away). A candidate wall that meets other walls or the edge at two
of its three points or more (only such a wall can close a ring) is put up, the
condition worked out (one flood fill from the player's far-row squares across
free grooves per player it names) and taken down again; any other keeps them.

Nothing allocates: the source uses a handful of integer names.
tests/test_kernel_walls.py and tests/test_playout.py hold it to the generic path.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted


def _along(layout: BitLayout, cells: str, vector) -> str:
    """``G(cells)``: the cells one step along ``vector`` from ``cells``."""
    return shifted(f"({cells} & {layout.has_next(vector)})", layout.shift_of(vector))


@dataclass
class WallGroup:
    """The moves of one walk landing (or one wall axis): the landing cells and the shift back to the mover."""

    prelude: list[str]
    mask: str
    back: int  # the origin is the landing bit moved back by this many places (0 for a wall: no origin)
    apply: list[str]


def walk_groups(layout: BitLayout, vectors, pawn: str, occupied: str, keep: str) -> list[WallGroup]:
    """The groups of ``walk`` for the pawns of the bitboard ``pawn`` along ``vectors`` (``occupied``: every
    piece; ``keep``: a name that is all cells when the board keeps the ``keep`` conditions, else 0)."""
    out = []
    for v in vectors:
        s = layout.shift_of(v)
        reached = f"{_along(layout, f'{_along(layout, pawn, v)} & E', v)}"
        out.append(WallGroup([], f"{reached} & E & {keep}", 2 * s, [f"{pawn} ^= {shifted('t', -2 * s)} | t"]))
        ahead = f"(wx & {shifted('E', -s)} & {layout.has_next(v)})"  # pieces in the way with a free groove beyond
        prelude = [f"wx = {reached} & {occupied}"]
        out.append(WallGroup(prelude, f"{_along(layout, _along(layout, ahead, v), v)} & E & {keep}", 4 * s,
                             [f"{pawn} ^= {shifted('t', -4 * s)} | t"]))
        for w in vectors:
            if w[0] * v[0] + w[1] * v[1] != 0:
                continue
            r = layout.shift_of(w)
            blocked = f"(wx & ~{ahead})"
            mask = f"{_along(layout, f'{_along(layout, blocked, w)} & E', w)} & E & {keep}"
            out.append(WallGroup(list(prelude), mask, 2 * s + 2 * r, [f"{pawn} ^= {shifted('t', -2 * s - 2 * r)} | t"]))
    return out


def posts(layout: BitLayout) -> int:
    """The posts: cells an odd number of cells from the bottom-left corner each way."""
    geometry = layout.geometry
    left, _, bottom, _ = geometry.bounds
    return layout.mask(c.index for c in geometry.cells if (c.x - left) % 2 == 1 and (c.y - bottom) % 2 == 1)


def squares(layout: BitLayout) -> int:
    """The squares: cells an even number of cells from the bottom-left corner each way."""
    geometry = layout.geometry
    left, _, bottom, _ = geometry.bounds
    return layout.mask(c.index for c in geometry.cells if (c.x - left) % 2 == 0 and (c.y - bottom) % 2 == 0)


def build_groups(layout: BitLayout, wall: str, keep: tuple[list[str], str] | None, number: int) -> list[WallGroup]:
    """The groups of ``build``: a wall on an empty post and its two grooves along x, then along y (``wall``: the
    walls' bitboard; ``keep``: statements and the test of the ``keep`` conditions on the board as it stands,
    each candidate wall put up in ``wall`` while they are worked out).

    Walls only take paths away, so no wall keeps conditions the board breaks already (none is built then), and
    a wall can cut a path only where it closes a ring of walls and board edge: where it meets them at two of
    its three points (its ends and its middle post) or more. Only those candidates are put up and tried."""
    out = []
    lines, test = keep if keep is not None else ([], "True")
    first = [f"wk{number} = {layout.full}"]
    if keep is not None:
        first += lines + [f"if not {test}:", f"    wk{number} ^= wk{number}"]
    for axis, across in (((1, 0), (0, 1)), ((0, 1), (1, 0))):
        s, r = layout.shift_of(axis), layout.shift_of(across)
        cells = f"t | {shifted('t', s)} | {shifted('t', -s)}"
        name = f"wb{'xy'[axis[1]]}{number}"
        prelude = [*first, f"{name} = {posts(layout)} & E & {shifted('E', -s)} & {shifted('E', s)} & wk{number}"]
        first = []
        if keep is not None:
            # the posts a wall meets: one holding a wall, or next to a groove that holds one; off the board: the edge
            touched = f"({wall} | {shifted(wall, s)} | {shifted(wall, -s)} | {shifted(wall, r)} | {shifted(wall, -r)})"
            back = (-axis[0], -axis[1])
            ends = [f"{shifted(f'({touched} & {layout.has_next(axis, 2)})', 2 * s)} | "
                    f"{posts(layout) & ~layout.has_next(back, 2)}",
                    f"{shifted(f'({touched} & {layout.has_next(back, 2)})', -2 * s)} | "
                    f"{posts(layout) & ~layout.has_next(axis, 2)}"]
            middle = f"({shifted(wall, r)} | {shifted(wall, -r)})"
            prelude += [f"wl = {ends[0]}", f"wr = {ends[1]}", f"wm = {middle}",
                        f"wc = {name} & ((wl & wr) | (wl & wm) | (wr & wm))",
                        "while wc:", "    t = wc & -wc", "    wc ^= t", f"    {wall} |= {cells}"]
            prelude += ["    " + line for line in lines]
            prelude += [f"    {wall} ^= {cells}", f"    if not {test}:", f"        {name} ^= t"]
        out.append(WallGroup(prelude, name, 0, [f"{wall} |= {cells}"]))
    return out


def reaches(layout: BitLayout, far: int, pieces: str, wall: str, name: str) -> tuple[list[str], str]:
    """Statements flooding from the far-row squares ``far`` across grooves free of ``wall`` into ``name``, and
    the test that every cell of ``pieces`` is in it (``can reach far row``)."""
    vectors = ((1, 0), (-1, 0), (0, 1), (0, -1))
    step = " | ".join(_along(layout, f"{_along(layout, name, v)} & ~{wall}", v) for v in vectors)
    lines = [f"{name} = {far}", "while True:", f"    fz = {name} | {step}", f"    if fz == {name}:", "        break",
             f"    {name} = fz"]
    return lines, f"(not {pieces} & ~{name})"
