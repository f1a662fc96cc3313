"""Voluntary passes and the boards a position remembers about its recent past.

``pass`` in a ``moves`` block lets the player to move pass; ``passes in a
row`` counts the passes just played; ``board repeated`` holds after a move
(not a pass) that made a board seen earlier; ``forbid immediate repetition``
forbids a move that recreates the board as it stood before the opponent's
last move (go's ko). States carry the count (``State.passes``) and the board
before the last ply (``State.before``) only in games that read them.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import NO_CELL, PASS_ACTION, Move, State

PASS_MOVE = Move(NO_CELL, NO_CELL, (), PASS_ACTION)


def gen_pass(board: str, out: list[Move]) -> None:
    """The generator of a ``pass`` rule: one move that changes nothing."""
    out.append(PASS_MOVE)


gen_pass.exists = lambda board: True  # type: ignore[attr-defined]


def reads(active, node: type) -> bool:
    """True when an end rule's condition uses a node of this type."""
    return any(isinstance(n, node) for end in active.all(m.End) for rule in end.rules
               for n in m.walk(rule.condition))


def counts_passes(active) -> bool:
    """True when states must count the passes in a row (an end rule reads them, or ``board repeated``)."""
    return reads(active, m.PassesInARow) or reads(active, m.BoardRepeated)


def forbids(active, what: str) -> bool:
    """True when a ``forbid WHAT`` statement is in force."""
    return any(f.what == what for f in active.all(m.Forbid))


def recreates(board: str, move: Move, before: str) -> bool:
    """True when playing ``move`` on ``board`` gives exactly ``before`` (its changed cells checked first); a
    move that changes nothing (a pass) recreates nothing."""
    if not move.changes:
        return False
    for cell, sym in move.changes:
        if before[cell] != sym:
            return False
    cells = list(board)
    for cell, sym in move.changes:
        cells[cell] = sym
    return "".join(cells) == before


def remember(state: State, after: State, move: Move, passes: bool, before: bool) -> State:
    """``after`` with the pass count and the board before this ply, where the game keeps them."""
    if passes:
        after = after._replace(passes=state.passes + 1 if move.action == PASS_ACTION else 0)
    if before:
        after = after._replace(before=state.board)
    return after


def board_repeated(state: State) -> bool:
    """The last move (not a pass) made a board that the game's history already holds."""
    return state.passes == 0 and state.history is not None and state.board in state.history
