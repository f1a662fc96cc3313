"""Rings, corners and edges on bitboards: the kernel's source for ``PLAYER forms a ring``, ``PLAYER joins N
corners`` and ``PLAYER joins N edges``.

The board's border, corners and edges are the reference's
(:func:`rulesdsl.interpreter.reference.connections.board_outline`), turned into
masks once, when the game is compiled:

- ``joins N corners`` / ``joins N edges``: when the player's pieces together
  hold N corners (touch N edges), their groups are flood-filled one at a time
  (one shift and mask per direction a round), starting only from the player's
  pieces on a corner (on an edge): a group that touches none cannot count.
  A group holds N corners when its bit count on the corners' mask is N or
  more; it touches N edges when N of the edges' masks meet it. In a playout
  of a game whose every move places a piece and changes nothing else, once
  each player has placed one, only the group of the mover's newest piece is
  filled: the mover's other groups stood, unchanged, when the rule was last
  asked of the mover, and did not end the game then.
- ``forms a ring``: a piece of the player's whose every neighbour is the
  player's (one mask per direction, ANDed), or a cell that is not the
  player's and that the cells not the player's do not reach from the border:
  a flood fill of those cells from the border, and a test for what is left;
  none while the player has fewer pieces than a cell inside has neighbours.

Nothing here allocates: the source uses a handful of integer names per
condition. tests/test_kernel_connections.py and tests/test_playout.py hold it to
the reference path.
"""

from __future__ import annotations

from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted
from rulesdsl.interpreter.reference.connections import Outline


def _around(layout: BitLayout, vectors, cells: str) -> str:
    """The expression of the cells next to ``cells`` along ``vectors`` (each step masked so nothing wraps)."""
    return " | ".join(shifted(f"({cells} & {layout.has_next(v)})", layout.shift_of(v)) for v in vectors) or "0"


def _fill(layout: BitLayout, vectors, group: str, front: str, new: str, within: str) -> list[str]:
    """Statements growing ``group`` (its newest cells ``front``) through the cells ``within``, until it stops."""
    return [f"while {front}:", f"    {new} = ({_around(layout, vectors, front)}) & {within} & ~{group}",
            f"    {group} |= {new}", f"    {front} = {new}"]


def joined(layout: BitLayout, vectors, outline: Outline, own: str, what: str, wanted: int, number: int,
           newest: tuple[str, str] | None = None) -> tuple[list[str], str]:
    """Statements looking for one group of ``own``'s cells that holds ``wanted`` corners (``what``: "corners") or
    touches ``wanted`` edges ("edges"), and the expression (a truth value) of having found one; ``number`` tells
    the names apart. ``newest``: ``(when, bit)``, where ``when`` holds, only the group of the piece on ``bit`` can
    be new (a playout where every ply places a piece: the player's other groups stood, unchanged, when the
    condition was last asked of the player)."""
    if own == "0":
        return [], "False"
    corners = layout.mask(c for c, is_corner in enumerate(outline.corner) if is_corner)
    edges = [layout.mask(c for c, e in enumerate(outline.edge_of) if e == k) for k in range(outline.edges)]
    touching = corners if what == "corners" else layout.mask(c for c, e in enumerate(outline.edge_of) if e >= 0)
    p, g, f, n, w = (f"jn{x}{number}" for x in "pgfnw")

    def found(cells: str) -> str:  # how many corners ``cells`` hold, or how many edges they touch
        if what == "corners":
            return f"({cells} & {corners}).bit_count()"
        return " + ".join(f"(({cells} & {mask}) != 0)" for mask in edges) or "0"

    # the groups are filled only when all the player's pieces together hold enough of them
    lines = [f"{w} = False", f"{p} = {own} & {touching}", f"if {found(p)} < {wanted}:", f"    {p} = 0",
             f"while {p}:", f"    {g} = {p} & -{p}", f"    {f} = {g}"]
    if newest is not None:
        lines[-3:-3] = [f"if {newest[0]} and {p}:", f"    {p} = {newest[1]}"]
    lines += ["    " + line for line in _fill(layout, vectors, g, f, n, own)]
    lines += [f"    if {found(g)} >= {wanted}:", f"        {w} = True", "        break", f"    {p} &= ~{g}"]
    return lines, w


def ring(layout: BitLayout, vectors, outline: Outline, own: str, number: int) -> tuple[list[str], str]:
    """Statements looking for a ring of ``own``'s cells (see the module docstring), and the expression (a truth
    value) of having found one; ``number`` tells the names apart."""
    if own == "0":
        return [], "False"
    inside = layout.mask(c for c, near in enumerate(outline.around) if len(near) == outline.full)
    border = layout.mask(outline.border)
    o, r, f, n = (f"rg{x}{number}" for x in "ofrn")
    # a piece ringed by pieces: every neighbour, along every direction, is the player's
    ringed = " & ".join([f"{own} & {inside}", *(shifted(own, -layout.shift_of(v)) for v in vectors)])
    # Fewer pieces than an inner cell has neighbours ring nothing (the cells a ring closes round, U, have all
    # their neighbours on the board, and in the lattice |U + (D and 0)| >= |U| + |D|: |A + B| >= |A| + |B| - 1
    # for finite sets of a group without torsion); ``r`` is then every cell that is not the player's.
    fewest = outline.full if outline.full == len(vectors) else 0
    lines = [f"{o} = {layout.full} & ~{own}", f"{r} = {o}", f"if {own}.bit_count() >= {fewest}:",
             f"    {r} = {o} & {border}", f"    {f} = {r}"]
    lines += ["    " + line for line in _fill(layout, vectors, r, f, n, o)]
    return lines, f"bool(({ringed}) | ({o} & ~{r}))"
