"""Iterative deepening for the searches of more than two players (paranoid, max^n).

Each search has ``root(state, moves, depth) -> (move, value)``, a node count
``nodes`` and a flag ``horizon`` (a line was cut at the depth, so a deeper
iteration can say more); this drives it one depth after another within the
clock, best move first, as :func:`rulesdsl.interpreter.search.engine.think`
does for two players.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.interpreter.search.engine import MAX_DEPTH, Iteration, Result, iterating
from rulesdsl.interpreter.search.minimax import INFINITY
from rulesdsl.interpreter.search.ordering import root_moves

DEFAULT_DEPTH = 3  # the depth searched when neither a depth nor a clock is given


def begin(game: Game, state: State, depth: int | None, seconds: float | None,
          shuffle: random.Random | None) -> tuple[list[Move], int | None, float, float] | None:
    """What a search of more than two players starts from: the root's moves (``shuffle``: in a random order),
    the depth limit, the time it started and its deadline; ``None`` when the game is over."""
    if depth is not None and depth < 1:
        raise ValueError("depth must be at least 1")
    moves = root_moves(game, state, shuffle)
    if moves is None:
        return None
    if depth is None and seconds is None:
        depth = DEFAULT_DEPTH
    started = time.perf_counter()
    return moves, depth, started, started + seconds if seconds is not None else INFINITY


def on_kernel(engine: str, game: Game, state: State, depth: int | None, seconds: float | None, kernel: bool | None,
              on_iteration: Callable[[Iteration], None] | None, catch_interrupt: bool,
              shuffle: random.Random | None) -> Result | None:
    """``engine``'s search on the native kernel (:mod:`rulesdsl.interpreter.search.kernel_players`) when
    ``kernel`` asks for it (``True``: compiling it now if need be; ``None``: under a clock, once the machine code is
    ready, as :func:`rulesdsl.interpreter.search.engine.think` decides) and the game has it, else ``None``."""
    if kernel is False or not (kernel or seconds is not None):
        return None
    from rulesdsl.interpreter.search.kernel_players import players_think

    return players_think(game, state, engine, depth, seconds, on_iteration=on_iteration,
                         catch_interrupt=catch_interrupt, shuffle=shuffle, wait=bool(kernel))


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
