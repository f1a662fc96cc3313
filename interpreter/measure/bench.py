"""Measurements behind ``rulesdsl bench``: perft speed, random playouts, search depth in a second.

Each function measures one thing through the :class:`Game` interface and
returns plain numbers; the command line picks the cases, runs the
hand-written baselines beside them and prints the table. Nothing here asserts
a speed: figures are for people (the README's table), never for tests.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.search.engine import think
from rulesdsl.interpreter.search.minimax import perft

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
    """The deepest perft (at most ``limit``) whose run takes no more than about ``seconds``."""
    return deepest_within(lambda depth: perft(game, state, depth), seconds, limit)


def deepest_within(count: Callable[[int], object], seconds: float, limit: int = 12) -> int:
    """The deepest ``count(depth)`` (at most ``limit``) whose run takes no more than about ``seconds``.

    Each depth costs roughly the branching factor times the last, so the next
    depth is tried only while the last run took under a tenth of the budget.
    """
    depth = 1
    while depth < limit:
        _, elapsed = timed(count, depth)
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


def kernel_playouts(game: Game, state: State, seconds: float, seed: int = 0) -> tuple[int, int, float, str]:
    """Random games from ``state`` for about ``seconds`` on the engine the game runs them on now:
    ``(games, plies, seconds taken, engine)``, engine ``native``, ``python`` or ``generic``.

    The native kernel plays its games in batches (one call from Python per batch, the
    start position encoded once); the others go through :meth:`Game.playout`.
    """
    engine = game.kernel_engine()
    if engine != "native":
        return (*playouts(game, state, seconds, seed), engine)
    import numpy as np

    native = game.native_kernel()
    kernel = native.kernel
    words = native.words([*(kernel.layout.encode(state.board, s) for s in kernel.symbols),
                          *kernel.extra(state)])
    last = native.last_word(1 << kernel.layout.bit[state.last] if state.last >= 0 else 0)
    rs = np.array([random.Random(seed).getrandbits(64) | 1], dtype=np.uint64)
    games = plies = 0
    batch = 1
    started = time.perf_counter()
    while True:
        plies += int(native.playouts(*words, state.turn, last, None, rs, PLAYOUT_CAP, batch))
        games += batch
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return games, plies, elapsed, engine
        batch = min(batch * 2, 4096)


def python_kernel_playouts(game: Game, state: State, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """:func:`playouts` with the machine code set aside: the Python kernel plays (the generic path where the game
    has no kernel)."""
    compiled = game._compiled
    if compiled is None:
        return playouts(game, state, seconds, seed)
    compiled.use_native = False
    try:
        return playouts(game, state, seconds, seed)
    finally:
        compiled.use_native = True


def openspiel_playouts(name: str, params: dict[str, int], seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """OpenSpiel's implementation of a game (``pyspiel``, C++ driven from Python): uniformly random games from its
    start for about ``seconds``, each ply a ``legal_actions``/``apply_action`` pair: ``(games, plies, seconds)``."""
    import pyspiel

    spiel = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    while True:
        state = spiel.new_initial_state()
        played = 0
        while not state.is_terminal() and played < PLAYOUT_CAP:
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            played += 1
        plies += played
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return games, plies, elapsed


def search_depth(game: Game, state: State, seconds: float = 1.0) -> tuple[int, float, str]:
    """``(deepest finished iteration, nodes per second, what it ran on)`` of the alpha-beta engine in ``seconds``
    (``native``: the kernel in machine code, ``generic``: the generic path)."""
    result = think(game, state, seconds=seconds)
    if result is None:
        return 0, 0.0, "generic"
    return result.depth, result.nodes / result.seconds if result.seconds > 0 else 0.0, result.kernel
