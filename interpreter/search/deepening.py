"""Iterative deepening for the searches of more than two players (paranoid, max^n).

Each search has ``root(state, moves, depth) -> (move, value)``, a node count
``nodes`` and a flag ``horizon`` (a line was cut at the depth, so a deeper
iteration can say more); this drives it one depth after another within the
clock, best move first, as :func:`rulesdsl.interpreter.search.engine.think`
does for two players.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rulesdsl.interpreter.compile.game import Move, State
from rulesdsl.interpreter.search.engine import MAX_DEPTH, Iteration, Result, iterating


def deepen(search: Any, state: State, moves: list[Move], depth: int | None, started: float, engine: str,
           score: Callable[[Any], float], settled: Callable[[float], bool],
           on_iteration: Callable[[Iteration], None] | None, catch_interrupt: bool) -> Result:
    """Search ``state`` to depth 1, 2, ... (``depth`` at most) until the clock runs out, no line reaches the
    horizon or ``settled(score)``; ``score(value)`` is the root value's score for the player to move."""
    result = Result(moves[0], 0.0, 0, 0, 0.0, engine=engine)
    with iterating(result, [], catch_interrupt):
        for d in range(1, (depth or MAX_DEPTH) + 1):
            search.horizon = False
            move, value = search.root(state, moves, d)
            points = score(value)
            result.move, result.score, result.depth = move, points, d
            result.iterations.append(Iteration(d, points, search.nodes, time.perf_counter() - started, (move,)))
            if on_iteration is not None:
                on_iteration(result.iterations[-1])
            moves = [move, *(m for m in moves if m != move)]
            if not search.horizon or settled(points):
                break
    result.nodes = search.nodes
    result.seconds = time.perf_counter() - started
    return result
