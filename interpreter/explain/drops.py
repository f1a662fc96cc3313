"""Why a drop (``SYMBOL@CELL``, a piece put back from a hand of several kinds) is not legal.

The checks follow ``drop KIND [in REGION] [one per column] [when ...]`` and the
statements that filter drops afterwards (``forbid dropping KIND giving mate``,
``forbid leaving KIND attacked``), so the first that fails is the reason given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import NO_CELL, Move, State
from rulesdsl.interpreter.reference.drops import DROP_ACTION, DROP_MARK

if TYPE_CHECKING:
    from rulesdsl.interpreter.explain.reasons import Explainer, Reason


def is_drop_text(text: str) -> bool:
    """True when a move's text is written as a drop, ``P@e4``."""
    symbol, mark, cell = text.partition(DROP_MARK)
    return bool(mark) and len(symbol) == 1 and bool(cell)


def why_no_drop(ex: Explainer, state: State, text: str) -> Reason:
    """The first reason the drop ``text`` (``SYMBOL@CELL``) is not among ``state``'s legal moves."""
    from rulesdsl.interpreter.explain.reasons import Reason

    tables, player = ex.tables, state.turn
    symbol, _, name = text.partition(DROP_MARK)
    target = ex.geometry.index_of(name.lower())
    if target is None:
        return Reason("bad-move", f"{name!r} is not a cell of this board")
    kind = tables.kind.get(symbol) if tables.owner.get(symbol) == player else None
    if kind is None:
        owned = sorted(tables.symbols_of(player))
        return Reason("bad-move", f"{symbol!r} is not one of {ex.player(player)}'s pieces "
                                  f"(a drop is written with the piece's symbol: {''.join(owned)})")
    rules = [r for r in ex.rules if r.action == DROP_ACTION and r.kind == kind]
    if not rules:
        return Reason("no-rule", f"no rule drops a {kind}")
    rule = rules[0]
    hand = state.hand or ()
    slot = player * len(tables.hand_kinds) + tables.hand_kinds.index(kind) if kind in tables.hand_kinds else -1
    if slot < 0 or slot >= len(hand) or hand[slot] <= 0:
        return ex.cite("empty-hand", f"{ex.player(player)} has no {kind} in hand", rule)
    if state.board[target] != tables.empty:
        return ex.cite("occupied", f"{ex.cell(target)} is taken: a drop needs an empty cell", rule)
    if rule.region and target not in tables.region(rule.region, player):
        return ex.cite("outside-region", f"{ex.cell(target)} is not in {ex.player(player)}'s {rule.region}", rule)
    if rule.one_per_column:
        column = ex.geometry.cells[target].x
        if any(s == symbol and ex.geometry.cells[c].x == column for c, s in enumerate(state.board)):
            return ex.cite("one-per-column", f"{ex.player(player)} has a {kind} in that column already", rule)
    move = Move(NO_CELL, target, ((target, symbol),), DROP_ACTION)
    protected = next((f for f in ex.active.all(m.Forbid) if f.what == "leaving attacked"), None)
    if protected is not None and not ex.pieces.keep_safe(state.board, player, [move]):
        return ex.cite("leaves-attacked", f"it would leave {ex.player(player)}'s {protected.kind} attacked",
                       protected)
    mate = next((f for f in ex.active.all(m.Forbid) if f.what == "drop mate" and f.kind == kind), None)
    if mate is not None and not ex.game.legal_moves(ex.game.apply(state, move)):
        return ex.cite("drop-mate", f"a {kind} dropped here would give mate", mate)
    if rule.when is not None:
        return ex.cite("condition", "the rule's 'when' condition does not hold here", rule)
    return Reason("no-rule", "the rules make this move, yet it is not among the legal moves")
