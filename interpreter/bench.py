"""Measurements behind ``rulesdsl bench``: perft speed, random playouts, search depth in a second.

Each function measures one thing through the :class:`Game` interface and
returns plain numbers; the command line picks the cases, runs the
hand-written baselines beside them and prints the table. Nothing here asserts
a speed: figures are for people (the README's table), never for tests.
"""

from __future__ import annotations

import random
import time

from rulesdsl.interpreter.engine import think
from rulesdsl.interpreter.game import Game, State
from rulesdsl.interpreter.search import perft

PLAYOUT_CAP = 1000  # plies; a longer random game is stopped (and still counted)


def perft_nodes(game: Game, state: State, depth: int) -> int:
    """The nodes a perft to ``depth`` generates: perft(1) + ... + perft(depth)."""
    return sum(perft(game, state, d) for d in range(1, depth + 1))


def timed(function, *args) -> tuple[object, float]:
    """``(result, seconds)`` of one call."""
    started = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - started


def adaptive_depth(game: Game, state: State, seconds: float, limit: int = 12) -> int:
    """The deepest perft (at most ``limit``) whose run takes no more than about ``seconds``.

    Each depth costs roughly the branching factor times the last, so the next
    depth is tried only while the last run took under a tenth of the budget.
    """
    depth = 1
    while depth < limit:
        _, elapsed = timed(perft, game, state, depth)
        if elapsed * 10 > seconds:
            break
        depth += 1
    return depth


def playouts(game: Game, state: State, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Random games from ``state`` for about ``seconds``: ``(games, plies, seconds taken)``.

    Each game is one :meth:`Game.playout` (a compiled kernel where the game has one, else
    :meth:`Game.status` and :meth:`Game.apply` at every ply); at least one game is played.
    """
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    while True:
        plies += game.playout(state, rng, PLAYOUT_CAP).plies
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return games, plies, elapsed


def search_depth(game: Game, state: State, seconds: float = 1.0) -> tuple[int, float]:
    """``(deepest finished iteration, nodes per second)`` of the alpha-beta engine in ``seconds``."""
    result = think(game, state, seconds=seconds)
    if result is None:
        return 0, 0.0
    return result.depth, result.nodes / result.seconds if result.seconds > 0 else 0.0
