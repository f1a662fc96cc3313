"""Links between pieces on bitboards: the kernel's words and source for ``link KIND DIRS`` and ``PLAYER connects
SIDE and SIDE by links``.

The reference keeps a position's links in one whole number, ``State.links``
(:mod:`rulesdsl.interpreter.reference.linking`: bit ``cell * K + k`` is the
link from ``cell`` along the k-th of the K link vectors that point up, or
right when level). The kernel keeps the same links as K words after the
bitboards and the turn words (:mod:`~.turn_words`), one per link vector: word
k holds, in the board's bit layout, the lower end of each link along vector k.
Its upper end is that bit moved by the vector's shift, so following links is
one shift and one mask per word and way, with no mask against wrapping round
an edge (a link only ever stands where both its ends are cells).

- A piece of a linking kind placed on bit ``t`` links, per vector, to the
  same symbol's piece a vector up and to the one a vector down, unless the new
  link crosses one already on the board, of either player. The links that
  cross a link along vector k are the reference's table
  (``LinkTables.crossing``), translated once into a few terms per vector:
  word j, read at the lower end moved by a fixed offset, for the lower ends
  in a mask (the cells from which that offset lands on the cell it means).
  Two links from one cell never cross here (the module refuses vectors for
  which they could), so the order in which one piece's links are made does
  not matter.
- ``connects SIDE and SIDE by links``: from the player's pieces on the first
  side, a flood fill along the links (of either word, either way) until
  nothing is added; the sides are joined when it meets the second.

Nothing here allocates. tests/test_kernel_connections.py holds it to the
reference path and to OpenSpiel's implementation of a game with links.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted
from rulesdsl.interpreter.reference.linking import LinkTables, segments_cross


class LinkError(Exception):
    """Links the kernel does not compile (the game keeps the generic path)."""


@dataclass(frozen=True)
class LinkWords:
    """The words of a game's links (their source names, one per link vector) and how to play them."""

    names: tuple[str, ...]
    shifts: tuple[int, ...]  # per vector: how far the upper end's bit is from the lower end's
    up: tuple[int, ...]  # per vector: the cells whose cell a vector up exists (a link's lower ends)
    down: tuple[int, ...]  # per vector: the cells whose cell a vector down exists (a link's upper ends)
    crossing: tuple[tuple[tuple[int, int, int], ...], ...]  # per vector: (offset, word, lower ends' mask)
    symbols: frozenset[str]  # the symbols that link
    table: LinkTables
    layout: BitLayout

    def encode(self, links: int) -> tuple[int, ...]:
        """``State.links`` as the words."""
        count, bit = len(self.names), self.layout.bit
        words = [0] * count
        while links:
            low = links & -links
            cell, k = divmod(low.bit_length() - 1, count)
            words[k] |= 1 << bit[cell]
            links ^= low
        return tuple(words)

    def decode(self, words) -> int:
        """The words as ``State.links``."""
        count, cell_at = len(self.names), self.layout.cell_at
        links = 0
        for k, word in enumerate(words):
            word = int(word)
            while word:
                low = word & -word
                links |= 1 << (cell_at[low.bit_length() - 1] * count + k)
                word ^= low
        return links

    def crosses(self, k: int, lower: str) -> str:
        """The expression (not zero when true) of a link along vector k from the bit ``lower`` crossing one on
        the board."""
        terms = [f"({self.names[j]} & {shifted(f'({lower} & {mask})', offset)})"
                 for offset, j, mask in self.crossing[k]]
        return " | ".join(terms) or "0"

    def made(self, placed: str, symbol: str) -> list[str]:
        """Statements making the links of a piece of ``symbol`` (bitboard ``placed``) just placed on bit ``t``."""
        if symbol not in self.symbols:
            return []
        lines = []
        for k, (name, s) in enumerate(zip(self.names, self.shifts)):
            lines += [f"if t & {self.up[k]} and {placed} & {shifted('t', s)}:",
                      f"    if not ({self.crosses(k, 't')}):", f"        {name} |= t",
                      f"if t & {self.down[k]} and {placed} & {shifted('t', -s)}:", f"    lk = {shifted('t', -s)}",
                      f"    if not ({self.crosses(k, 'lk')}):", f"        {name} |= lk"]
        return lines

    def joins(self, own: str, first: int, goal: int, name: str) -> tuple[list[str], str]:
        """Statements flooding ``name`` along the links from ``own``'s cells on the side ``first``, and the
        expression (a truth value) of its meeting the side ``goal``."""
        if own == "0":
            return [], "False"
        grow = [name]
        for word, s in zip(self.names, self.shifts):
            grow += [shifted(f"({name} & {word})", s), f"({shifted(name, -s)} & {word})"]
        lines = [f"{name} = {own} & {first}", f"if {name} and {own} & {goal}:", "    while True:",
                 f"        gw = {' | '.join(grow)}", f"        if gw == {name}:", "            break",
                 f"        {name} = gw"]
        return lines, f"bool({name} & {goal})"


def link_words(table: LinkTables, layout: BitLayout, first_name: int) -> LinkWords:
    """The words of the links of ``table`` on ``layout``, named ``v{first_name}``, ``v{first_name + 1}``..."""
    vectors = table.vectors
    count = len(vectors)
    for i, v in enumerate(vectors):  # two links from one cell must never cross (see the module docstring)
        for w in vectors[i + 1:]:
            for a in (v, (-v[0], -v[1])):
                for b in (w, (-w[0], -w[1])):
                    if segments_cross((0, 0), a, (0, 0), b):
                        raise LinkError("links from one cell that lie along each other")
    geometry = layout.geometry
    bit = layout.bit
    shifts = tuple(layout.shift_of(v) for v in vectors)
    up = tuple(layout.mask(c.index for c in geometry.cells if geometry.at(c.x + v[0], c.y + v[1]) >= 0)
               for v in vectors)
    down = tuple(layout.mask(c.index for c in geometry.cells if geometry.at(c.x - v[0], c.y - v[1]) >= 0)
                 for v in vectors)
    masks: list[dict[tuple[int, int], int]] = [{} for _ in vectors]
    for link, crossed in enumerate(table.crossing):
        if table.ends[link] is None:
            continue
        cell, k = divmod(link, count)
        for other in crossed:
            start, j = divmod(other, count)
            key = (bit[start] - bit[cell], j)
            masks[k][key] = masks[k].get(key, 0) | 1 << bit[cell]
    crossing = tuple(tuple((offset, j, mask) for (offset, j), mask in sorted(found.items())) for found in masks)
    return LinkWords(tuple(f"v{first_name + k}" for k in range(count)), shifts, up, down, crossing,
                     table.symbols, table, layout)
