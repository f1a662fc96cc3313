"""Capturing jumps as building blocks: long-range (``flying``) jumps and whole capture chains.

A chain (``again after capture with same piece in one move``) is one move: the
piece jumps from cell to cell while it can, and the pieces it jumps are
removed only at the end. Until then they stay on the board: each can be
jumped once, and it blocks the way like any piece. A
chain goes on while a jump exists; only complete chains are moves. Chains
that start and end on the same cells and take the same pieces (in another
order) are one move. A piece that ends its chain on its far row is promoted;
passing over the far row on the way changes nothing.

A ``flying`` jump may start any distance before the jumped piece, over empty
cells, and land on any empty cell beyond it (a flying king).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import Move
from rulesdsl.interpreter.compile.tables import Tables

Generator = Callable[[str, list[Move]], None]
# One rule's jumps for a symbol: the rays with their headings, flying or not, what may be jumped,
# and whether the jumped piece is taken.
Entry = tuple[list[tuple[tuple[int, ...], int]], bool, frozenset[str], bool]


def _entries(rules: list[m.MoveRule], tables: Tables, player: int) -> dict[str, list[Entry]]:
    """For each of the player's symbols, the jump rules that move it."""
    mine = tables.symbols_of(player)
    over_sets = {"enemy": tables.enemy_symbols(player), "friend": mine, "any": frozenset(tables.owner)}
    by_symbol: dict[str, list[Entry]] = {}
    for rule in rules:
        rays = [(tables.neighbours(v), tables.heading(v)) for v in tables.vectors(rule.directions, player)]
        entry = (rays, rule.flying, over_sets[rule.over or "enemy"], rule.capture)
        for sym in tables.symbols_of(player, rule.kind):
            by_symbol.setdefault(sym, []).append(entry)
    return by_symbol


def _jumps(view: list[str] | str, cell: int, entries: list[Entry], taken: list[int], empty: str
           ) -> Iterator[tuple[int, int, int, bool]]:
    """``(jumped cell, landing cell, heading, captures)`` for each jump from ``cell`` on ``view``."""
    for rays, flying, over, captures in entries:
        for ray, heading in rays:
            mid = ray[cell]
            if flying:
                while mid >= 0 and view[mid] == empty:
                    mid = ray[mid]
            if mid < 0 or view[mid] not in over or mid in taken:
                continue
            t = ray[mid]
            while t >= 0 and view[t] == empty:
                yield mid, t, heading, captures
                if not flying:
                    break
                t = ray[t]


def compile_jumps(rules: list[m.MoveRule], tables: Tables, player: int, chains: bool) -> Generator:
    """Jump rules for one player as one generator: single jumps, or (``chains``) whole capture chains."""
    by_symbol = _entries(rules, tables, player)
    empty = tables.empty
    promoted = tables.promotions
    far = tables.far_cells(player) if promoted else frozenset()
    cells = range(tables.cell_count)

    def single(board: str, out: list[Move]) -> None:
        for c in cells:
            piece = board[c]
            entries = by_symbol.get(piece)
            if not entries:
                continue
            for mid, t, heading, captures in _jumps(board, c, entries, [], empty):
                put = promoted.get(piece, piece) if t in far else piece
                if captures:
                    out.append(Move(c, t, ((c, empty), (mid, empty), (t, put)), "jump", (c,), (mid,), 1,
                                    (), heading))
                else:
                    out.append(Move(c, t, ((c, empty), (t, put)), "jump", (c,), heading=heading))

    def chained(board: str, out: list[Move]) -> None:
        seen: set[tuple[int, int, frozenset[int]]] = set()
        for c in cells:
            entries = by_symbol.get(board[c])
            if entries:
                _chains_from(board, c, entries, seen, out)

    def _chains_from(board: str, c: int, entries: list[Entry], seen: set, out: list[Move]) -> None:
        piece = board[c]
        view = list(board)
        view[c] = empty  # the jumping piece has left its cell: the chain may cross it
        taken: list[int] = []
        path: list[int] = []

        def extend(cell: int, heading: int) -> None:
            went_on = False
            for mid, t, step_heading, _ in _jumps(view, cell, entries, taken, empty):
                went_on = True
                taken.append(mid)
                path.append(t)
                extend(t, step_heading)
                taken.pop()
                path.pop()
            if went_on or not taken:
                return
            key = (c, cell, frozenset(taken))
            if key in seen:
                return
            seen.add(key)
            put = promoted.get(piece, piece) if cell in far else piece
            changes = ((c, empty), *((x, empty) for x in taken), (cell, put))
            out.append(Move(c, cell, changes, "jump", (c,), tuple(taken), len(taken), tuple(path[:-1]), heading))

        extend(c, -1)

    return chained if chains else single
