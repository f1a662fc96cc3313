"""Scores (``score PLAYER EXPR, ...``): each player's points, worked out from the position.

A score is an expression of the end-rule language evaluated on the position
(``total(south store)``, ``count(first box)``, ``lost(opponent)``), so it
needs no state of its own: whatever the board holds, the score follows, and a
position key that carries the board carries the score. Effects "add to" a
score by putting what they win where the expression counts it (seeds into a
store, a box piece onto an enclosed cell, a piece off the board).
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import State
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.reference.endings import ConditionCompiler


def _no_moves() -> list:
    raise RulesdslError("a score cannot ask about the moves")


def compile_scores(stmt: m.Score | None, conditions: ConditionCompiler,
                   tables: Tables) -> Callable[[State], tuple[int, ...]] | None:
    """``state -> (score of each player)``, or ``None`` when the rules give no ``score``."""
    if stmt is None:
        return None
    by_player: list = [None] * len(tables.player_names)
    for player, expr, _ in stmt.parts:
        by_player[tables.player_index(player)] = conditions.compile(expr)
    missing = [tables.player_names[i] for i, f in enumerate(by_player) if f is None]
    if missing:
        raise RulesdslError(f"score gives no score for {', '.join(missing)}", stmt.span)

    def scores(state: State) -> tuple[int, ...]:
        return tuple(int(f(state, _no_moves)) for f in by_player)

    return scores
