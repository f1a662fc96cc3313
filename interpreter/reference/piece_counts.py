"""End-rule functions over pieces that regions and attacks refine: ``count(...)`` with a region or without
a player, and ``attacked(PLAYER KIND)``."""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import State
from rulesdsl.interpreter.compile.tables import Tables

PlayerOf = Callable[[State], int]
Counted = Callable[[State, Callable], int]


def in_region(tables: Tables, args: tuple[str, ...]) -> bool:
    """True when the last argument names a region (and not a piece kind)."""
    regions = tables.regions or {}
    return bool(args) and args[-1] in regions and args[-1] not in set(tables.kind.values())


def region_count(tables: Tables, args: tuple[str, ...], player_ref: Callable[[str], PlayerOf]) -> Counted:
    """``count([PLAYER] [KIND] [REGION])``: pieces on the board, of both players when none is named."""
    rest = list(args)
    players = range(len(tables.player_names))
    who = player_ref(rest.pop(0)) if rest and rest[0] in ("mover", "opponent", *tables.player_names) else None
    region_name = rest.pop() if in_region(tables, tuple(rest)) else None
    kind = rest[0] if rest else None
    by_player = [tables.symbols_of(p, kind) for p in players]
    every = frozenset().union(*by_player)
    if region_name is None:
        def count_all(state: State, moves: Callable) -> int:
            syms = by_player[who(state)] if who is not None else every
            return sum(state.board.count(s) for s in syms)

        return count_all
    cells = tables.regions[region_name]

    def count_in(state: State, moves: Callable) -> int:
        board = state.board
        if who is None:
            return sum(1 for p in players for c in cells[p] if board[c] in by_player[p])
        player = who(state)
        return sum(1 for c in cells[player] if board[c] in by_player[player])

    return count_in


def attacked_count(tables: Tables, who: PlayerOf, kind: str) -> Counted:
    """``attacked(PLAYER KIND)``: how many of PLAYER's KIND the other player attacks."""
    by_player = [tables.symbols_of(p, kind) for p in range(len(tables.player_names))]
    opponent = tables.seats.opponent

    def attacked(state: State, moves: Callable) -> int:
        attacks = tables.attacks
        if attacks is None:
            raise RulesdslError("attacked() needs the game's move rules")
        player = who(state)
        board, mine = state.board, by_player[player]
        return sum(1 for c, s in enumerate(board) if s in mine and attacks.attacked(board, c, opponent[player]))

    return attacked
