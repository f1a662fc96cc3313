"""Move choosers for self-play: random, alpha-beta to a time budget, and Monte Carlo tree search.

Each takes the game, the position, the legal moves and a seeded random
generator, and returns one of the moves. Ties are broken at random, so many
games between the same engines are not all the same game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from rulesdsl.interpreter.game import Game, Move, State
from rulesdsl.interpreter.search import INFINITY, alphabeta

Chooser = Callable[[Game, State, list[Move], random.Random], Move]
ENGINES = ("random", "alphabeta", "mcts")


def random_move(game: Game, state: State, moves: list[Move], rng: random.Random) -> Move:
    """Any legal move, uniformly."""
    return moves[rng.randrange(len(moves))]


def alphabeta_mover(seconds: float, max_depth: int = 64) -> Chooser:
    """Alpha-beta, one more ply at a time while the budget lasts; random among the best at the last depth."""

    def choose(game: Game, state: State, moves: list[Move], rng: random.Random) -> Move:
        me = game.to_move(state)
        start = time.monotonic()
        best = list(moves)
        for depth in range(1, max_depth + 1):
            scores = []
            for move in moves:
                child = game.apply(state, move)
                value = alphabeta(game, child, depth - 1, -INFINITY, INFINITY, 1)
                scores.append(value if game.to_move(child) == me else -value)
            top = max(scores)
            best = [m for m, s in zip(moves, scores) if s == top]
            if time.monotonic() - start > seconds / 4 or len(moves) == 1:
                break
        return best[rng.randrange(len(best))]

    return choose


def mcts_mover(seconds: float, playout_limit: int = 200) -> Chooser:
    """UCT: random playouts from the position, the most visited move after ``seconds``."""

    def playout(game: Game, state: State, me: int, rng: random.Random) -> float:
        for _ in range(playout_limit):
            moves, outcome = game.status(state)
            if outcome is not None:
                return 0.5 if outcome.winner is None else float(outcome.winner == me)
            state = game.apply(state, moves[rng.randrange(len(moves))])
        return 0.5

    def choose(game: Game, state: State, moves: list[Move], rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        me = game.to_move(state)
        children = [game.apply(state, m) for m in moves]
        visits = [0] * len(moves)
        wins = [0.0] * len(moves)
        deadline = time.monotonic() + seconds
        total = 0
        while total < len(moves) or time.monotonic() < deadline:
            if total < len(moves):
                pick = total
            else:
                log_total = math.log(total)
                pick = max(range(len(moves)),
                           key=lambda i: wins[i] / visits[i] + 1.4 * math.sqrt(log_total / visits[i]))
            wins[pick] += playout(game, children[pick], me, rng)
            visits[pick] += 1
            total += 1
        most = max(visits)
        return moves[rng.choice([i for i, v in enumerate(visits) if v == most])]

    return choose


def chooser(engine: str, seconds: float) -> Chooser:
    """The chooser named ``engine`` with ``seconds`` per move."""
    if engine == "random":
        return random_move
    if engine == "alphabeta":
        return alphabeta_mover(seconds)
    if engine == "mcts":
        return mcts_mover(seconds)
    raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
