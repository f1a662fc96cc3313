"""Links between a player's own pieces a leap apart (``link KIND DIRS``), and connection through them.

When a piece of KIND lands on a cell, it is linked to every piece of its owner's of the same kind a
leap along DIRS away (a vector such as ``(1, 2)`` and its images), unless the new link would cross a
link already on the board, of either player. Two links cross when their segments, drawn between the
cells' centres, meet anywhere but at a shared end. Links stay until one of their pieces leaves.

The links are kept in the state as one whole number (``State.links``): bit ``cell * K + k`` is the
link from ``cell`` along the k-th of the K link vectors that point "forward" (each link is stored
once, at the end from which its vector points up, or right when level). Crossings are found once,
when the game is compiled: crossing is unchanged by moving both links together, so one table of the
links crossing each vector (as offsets) is translated to every cell. Nothing grows during a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rulesdsl import model as m
from rulesdsl.errors import PositionError, RulesdslError
from rulesdsl.interpreter.compile.game import Move, State
from rulesdsl.interpreter.compile.tables import Tables

Vector = tuple[int, int]


def _orient(a: Vector, b: Vector, c: Vector) -> int:
    """The side of the line a-b on which c lies: 1, -1, or 0 on the line."""
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (cross > 0) - (cross < 0)


def _between(a: Vector, b: Vector, c: Vector) -> bool:
    """c, on the line a-b, lies within the segment's bounding box."""
    return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])


def segments_cross(p1: Vector, p2: Vector, q1: Vector, q2: Vector) -> bool:
    """Whether segment p1-p2 and segment q1-q2 meet anywhere but at an end they share.

    >>> segments_cross((0, 0), (1, 2), (0, 1), (2, 0))
    True
    >>> segments_cross((0, 0), (1, 2), (1, 2), (3, 3))
    False
    """
    shared = {p1, p2} & {q1, q2}
    if shared:  # links from one cell: they meet only there, unless they lie along each other
        if len(shared) == 2:
            return True
        s = shared.pop()
        p, q = (p2 if p1 == s else p1), (q2 if q1 == s else q1)
        return _orient(s, p, q) == 0 and (p[0] - s[0]) * (q[0] - s[0]) + (p[1] - s[1]) * (q[1] - s[1]) > 0
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    if d1 != d2 and d3 != d4 and 0 not in (d1, d2, d3, d4):
        return True
    return ((d1 == 0 and _between(q1, q2, p1)) or (d2 == 0 and _between(q1, q2, p2))
            or (d3 == 0 and _between(p1, p2, q1)) or (d4 == 0 and _between(p1, p2, q2)))


@dataclass(frozen=True)
class LinkTables:
    """Where links may lie on one board, and which of them cross.

    ``ends[bit]``: the link's two cells, or None where the link would leave the board;
    ``crossing[bit]``: the bits of the links that cross it; ``around[cell]``: (bit, other end) of
    every link that may touch the cell; ``symbols``: the pieces that link (per symbol, its owner).
    """

    vectors: tuple[Vector, ...]
    ends: tuple[tuple[int, int] | None, ...]
    crossing: tuple[tuple[int, ...], ...]
    around: tuple[tuple[tuple[int, int], ...], ...]
    symbols: frozenset[str]

    def made(self, board: str, links: int, cell: int) -> int:
        """The links a piece newly standing on ``cell`` makes: ``links`` with them added."""
        sym = board[cell]
        if sym not in self.symbols:
            return links
        for bit, other in self.around[cell]:
            if board[other] == sym and not links >> bit & 1 and not any(links >> b & 1 for b in self.crossing[bit]):
                links |= 1 << bit
        return links

    def dropped(self, links: int, cell: int) -> int:
        """``links`` without those touching ``cell`` (its piece has gone)."""
        for bit, _ in self.around[cell]:
            links &= ~(1 << bit)
        return links

    def after(self, board: str, links: int, changed: Iterable[int]) -> int:
        """The links once the cells ``changed`` hold what ``board`` shows: gone pieces first, then new ones."""
        cells = list(changed)
        for c in cells:
            links = self.dropped(links, c)
        for c in cells:
            links = self.made(board, links, c)
        return links

    def pairs(self, links: int) -> list[tuple[int, int]]:
        """The links as pairs of cells, in bit order."""
        out = []
        while links:
            low = links & -links
            ends = self.ends[low.bit_length() - 1]
            if ends is not None:
                out.append(ends)
            links ^= low
        return out


def compile_links(statement: m.Link, tables: Tables) -> LinkTables:
    """The link tables of ``link KIND DIRS`` on this board."""
    geometry = tables.geometry
    images = tables.vectors(statement.directions, 0)
    forward = tuple(v for v in images if v[1] > 0 or (v[1] == 0 and v[0] > 0))
    if not forward or any((-v[0], -v[1]) not in images for v in forward):
        raise RulesdslError(f"'link {statement.kind}' needs directions that go both ways (a vector such as "
                            "(1, 2) brings its mirror images)", statement.span)
    symbols = frozenset(s for (p, k), s in tables.symbol.items() if k == statement.kind)
    count = len(forward)
    # the links crossing a link along forward[k] from (0, 0): (offset, j) for a link along forward[j]
    reach = max(max(abs(v[0]), abs(v[1])) for v in forward)
    relative: list[list[tuple[int, int, int]]] = []
    for v in forward:
        found = []
        for dx in range(-2 * reach, 2 * reach + 1):
            for dy in range(-2 * reach, 2 * reach + 1):
                for j, w in enumerate(forward):
                    if (dx, dy, w) != (0, 0, v) and segments_cross((0, 0), v, (dx, dy), (dx + w[0], dy + w[1])):
                        found.append((dx, dy, j))
        relative.append(found)
    ends: list[tuple[int, int] | None] = []
    crossing: list[tuple[int, ...]] = []
    around: list[list[tuple[int, int]]] = [[] for _ in geometry.cells]
    for cell in geometry.cells:
        for k, v in enumerate(forward):
            other = geometry.at(cell.x + v[0], cell.y + v[1])
            bit = cell.index * count + k
            if other < 0:
                ends.append(None)
                crossing.append(())
                continue
            ends.append((cell.index, other) if v[0] > 0 else (other, cell.index))  # the left end first
            around[cell.index].append((bit, other))
            around[other].append((bit, cell.index))
            crosses = []
            for dx, dy, j in relative[k]:
                start = geometry.at(cell.x + dx, cell.y + dy)
                w = forward[j]
                if start >= 0 and geometry.at(cell.x + dx + w[0], cell.y + dy + w[1]) >= 0:
                    crosses.append(start * count + j)
            crossing.append(tuple(crosses))
    return LinkTables(forward, tuple(ends), tuple(crossing), tuple(tuple(a) for a in around), symbols)


def format_links(links_table: LinkTables | None, links: int, name: list[str]) -> str:
    """The links of a position as one word: ``b1-c3,d2-e4``, or ``-`` for none."""
    if links_table is None or not links:
        return "-"
    return ",".join(f"{name[a]}-{name[b]}" for a, b in links_table.pairs(links))


def parse_links(links_table: LinkTables | None, word: str, index_of, text: str, board: str) -> int:
    """The links written as ``b1-c3,d2-e4`` (``-``: none) on ``board``; raises :class:`PositionError` naming the
    bad one: not a link's leap, not between two pieces of one player that link, or crossing another."""
    if word == "-":
        return 0
    if links_table is None:
        raise PositionError(f"bad position {text!r}: this game has no links (no 'link' statement)")
    bits = {ends: bit for bit, ends in enumerate(links_table.ends) if ends is not None}
    links = 0
    for item in word.split(","):
        a, _, b = item.partition("-")
        ca, cb = index_of(a), index_of(b)
        if ca is None or cb is None:
            raise PositionError(f"bad position {text!r}: link {item!r} is not two cells joined by '-', like b1-c3")
        bit = bits.get((ca, cb), bits.get((cb, ca)))
        if bit is None:
            raise PositionError(f"bad position {text!r}: {item!r} is not a link: its cells are not a link's leap "
                                "apart")
        if board[ca] != board[cb] or board[ca] not in links_table.symbols:
            raise PositionError(f"bad position {text!r}: link {item!r} does not join two pieces of one player "
                                "that link")
        if any(links >> b & 1 for b in links_table.crossing[bit]):
            raise PositionError(f"bad position {text!r}: link {item!r} crosses another link")
        links |= 1 << bit
    return links


def linked(apply: Callable[[State, Move], State], table: LinkTables) -> Callable[[State, Move], State]:
    """``apply`` that also keeps the links: those of pieces gone are dropped, pieces newly placed link up."""

    def apply_linking(state: State, move: Move) -> State:
        after = apply(state, move)
        links = table.after(after.board, state.links, [c for c, _ in move.changes]) if move.changes else state.links
        return after._replace(links=links)

    return apply_linking


def connected_by_links(table: LinkTables, board: str, links: int, mine: frozenset[str], first: Iterable[int],
                       goal: frozenset[int]) -> bool:
    """Whether a chain of linked pieces with these symbols joins a cell of ``first`` to a cell of ``goal``."""
    around = table.around
    stack = [c for c in first if board[c] in mine]
    seen = set(stack)
    while stack:
        cell = stack.pop()
        if cell in goal:
            return True
        for bit, other in around[cell]:
            if links >> bit & 1 and other not in seen:
                seen.add(other)
                stack.append(other)
    return False
