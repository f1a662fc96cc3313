"""Hands of several kinds: captured pieces that join the capturer's hand, and drops back onto the board.

``hand KIND N, KIND N, ...`` gives each player a count per kind (the state's
``hand``, laid out player by player: ``hand[player * K + k]`` for the k-th kind
of K). ``captured KIND, ... to hand [as KIND2]`` sends a captured piece to the
capturer's hand, in the capturer's colour, as KIND2 when given. ``drop KIND
[in REGION] [when CONDITION]`` puts one piece of KIND from the mover's hand on
an empty cell (of the mover's REGION): one move among the others, unlike
``place KIND from hand``, which must empty the hand first. The state stays a
fixed-size tuple of counts, so a kernel can keep it in a few machine words.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import NO_CELL, Move, State
from rulesdsl.interpreter.compile.tables import Tables

DROP_ACTION = "drop"
DROP_MARK = "@"  # a drop is written SYMBOL@CELL: P@e4


class HandBook:
    """Where each kind sits in a state's hand, and which captured symbol joins which hand."""

    def __init__(self, active, tables: Tables):
        self.kinds: tuple[str, ...] = tables.hand_kinds
        self.size = len(self.kinds)
        nplayers = len(tables.player_names)
        joins: dict[str, str] = {}  # a captured piece's kind -> the kind it joins the hand as
        for stmt in active.all(m.CapturedToHand):
            kinds = sorted(set(tables.kind.values())) if "pieces" in stmt.kinds else stmt.kinds
            for kind in kinds:
                joins.setdefault(kind, stmt.as_kind or kind)
        # captured symbol -> the hand index it adds to, per capturer
        self.gains: list[dict[str, int]] = [{} for _ in range(nplayers)]
        for player in range(nplayers):
            for owner in range(nplayers):
                if owner == player:
                    continue
                for kind, joined in joins.items():
                    if joined in self.kinds:
                        for sym in tables.symbols_of(owner, kind):
                            self.gains[player][sym] = player * self.size + self.kinds.index(joined)
        self.captures = bool(joins)

    def index(self, player: int, kind: str) -> int:
        """The position of ``player``'s count of ``kind`` in a state's hand."""
        return player * self.size + self.kinds.index(kind)

    def after(self, state: State, move: Move, hand: tuple[int, ...]) -> tuple[int, ...]:
        """``hand`` once ``move`` is made: a drop spends a piece, a capture gains the captured ones."""
        counts = None
        if move.action == DROP_ACTION:
            sym = next(s for cell, s in move.changes if cell == move.target)
            counts = list(hand)
            counts[self.dropped[sym]] -= 1
        if self.captures and move.displaced:
            gains = self.gains[state.turn]
            for cell in move.displaced:
                slot = gains.get(state.board[cell])
                if slot is not None:
                    counts = counts if counts is not None else list(hand)
                    counts[slot] += 1
        return tuple(counts) if counts is not None else hand

    dropped: dict[str, int]  # a dropped symbol -> the hand index it comes from (set by compile_drops)


def compile_drops(rules: list[m.MoveRule], tables: Tables, book: HandBook,
                  condition: Callable[[m.Expr], Callable]) -> Callable[[State, list[Move]], list[Move]]:
    """``more(state, moves)``: ``moves`` plus the drops the mover's hand allows in ``state``."""
    nplayers = len(tables.player_names)
    empty = tables.empty
    book.dropped = {}
    column = [cell.x for cell in tables.geometry.cells]
    # per player: (hand index, when-condition or None, the symbol one per column limits or "", moves onto each
    # allowed cell)
    per_player: list[list[tuple[int, Callable | None, str, list[Move]]]] = [[] for _ in range(nplayers)]
    for rule in rules:
        for player in range(nplayers):
            sym = tables.placed_symbol(player, rule.kind)
            if sym is None:
                continue
            slot = book.index(player, rule.kind)
            book.dropped[sym] = slot
            cells = sorted(tables.region(rule.region, player)) if rule.region else range(tables.cell_count)
            moves = [Move(NO_CELL, t, ((t, sym),), DROP_ACTION) for t in cells]
            holds = condition(rule.when) if rule.when is not None else None
            per_player[player].append((slot, holds, sym if rule.one_per_column else "", moves))

    def more(state: State, moves: list[Move]) -> list[Move]:
        hand, board = state.hand, state.board
        if hand is None:
            return moves
        found = []
        seen = state if state.last != NO_CELL else state._replace(last=0)  # 'mover': the player to move
        for slot, holds, single, drops in per_player[state.turn]:
            if hand[slot] <= 0 or (holds is not None and not holds(seen, _no_moves)):
                continue
            if single:  # one per column: not where the mover has one already
                taken = {column[c] for c, sym in enumerate(board) if sym == single}
                found.extend(mv for mv in drops if board[mv.target] == empty and column[mv.target] not in taken)
            else:
                found.extend(mv for mv in drops if board[mv.target] == empty)
        return moves + found if found else moves

    return more


def _no_moves() -> list[Move]:
    """A drop's condition cannot ask about the moves themselves (the checker refuses it)."""
    return []


def hand_text(book_kinds: tuple[str, ...], tables: Tables, hand: tuple[int, ...]) -> str:
    """A hand of several kinds as each player's symbols, ``-`` for none: ``PPN/q``."""
    size = len(book_kinds)
    parts = []
    for player in range(len(tables.player_names)):
        text = "".join(tables.placed_symbol(player, kind) * hand[player * size + k]
                       for k, kind in enumerate(book_kinds))
        parts.append(text or "-")
    return "/".join(parts)


def read_hand(word: str, tables: Tables) -> tuple[int, ...] | str:
    """The counts of a hand written as :func:`hand_text` writes it, or a message saying what is wrong."""
    kinds = tables.hand_kinds
    nplayers = len(tables.player_names)
    parts = word.split("/")
    if len(parts) != nplayers:
        return f"hand {word!r} is not each player's pieces in hand, like {'/'.join(['-'] * nplayers)}"
    counts = [0] * (nplayers * len(kinds))
    for player, part in enumerate(parts):
        if part == "-":
            continue
        symbols = {tables.placed_symbol(player, kind): k for k, kind in enumerate(kinds)}
        for ch in part:
            if ch not in symbols:
                return (f"hand {word!r}: {ch!r} is not a piece {tables.player_names[player]} may hold "
                        f"(expected one of {''.join(s for s in symbols if s)})")
            counts[player * len(kinds) + symbols[ch]] += 1
    return tuple(counts)
