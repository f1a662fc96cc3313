"""Promotion by choice inside a zone: ``promote KIND to KIND2 in REGION [forced in REGION2]``.

A move of one of the mover's KIND pieces that starts or ends in the mover's
REGION is offered twice: as it is, and with the piece becoming KIND2 where it
lands. Landing in the mover's REGION2 (the rows from which the piece would
have no further move) only the promoted move is left. Drops never promote.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import NO_CELL, Move
from rulesdsl.interpreter.compile.tables import Tables

# per player: symbol -> (its promoted symbol, zone cells, cells where promotion is forced)
Zones = list[dict[str, tuple[str, frozenset[int], frozenset[int]]]]


def zone_expander(active, tables: Tables) -> Callable[[str, int, list[Move]], list[Move]] | None:
    """``expand(board, player, moves)`` for the zone promotions of a game; ``None`` when it has none."""
    statements = [p for p in active.all(m.Promote) if p.zone is not None]
    if not statements:
        return None
    nplayers = len(tables.player_names)
    zones: Zones = [{} for _ in range(nplayers)]
    for stmt in statements:
        for player in range(nplayers):
            sym, new = tables.symbol.get((player, stmt.kind)), tables.symbol.get((player, stmt.to_kind))
            if sym is None or new is None:
                continue
            forced = tables.region(stmt.forced_in, player) if stmt.forced_in else frozenset()
            zones[player][sym] = (new, tables.region(stmt.zone, player), forced)

    def expand(board: str, player: int, moves: list[Move]) -> list[Move]:
        mine = zones[player]
        if not mine:
            return moves
        out = []
        for move in moves:
            sym = board[move.origin] if move.origin != NO_CELL else ""
            found = mine.get(sym)
            if found is None or not (move.origin in found[1] or move.target in found[1]):
                out.append(move)
                continue
            new, _, forced = found
            if move.target not in forced:
                out.append(move)
            out.append(move._replace(changes=tuple((c, new if c == move.target and s == sym else s)
                                                   for c, s in move.changes)))
        return out

    return expand
