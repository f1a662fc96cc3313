"""Search for games of three or more players: paranoid alpha-beta.

The player to move at the root (``me``) assumes every other player plays
against it: ``me`` picks the move with the highest value, the others the move
with the lowest, all on one scale, ``me``'s. That makes the game two-sided
again, so alpha-beta's cuts stay sound (Sturtevant and Korf's "paranoid"
algorithm). A finished game scores ``WIN - ply`` when ``me`` won, the
opposite when another player did, 0 for a draw; a leaf scores the static
evaluation from ``me``'s point of view. Iterative deepening runs to ``depth``
plies and/or for ``seconds``; when the time runs out the move of the deepest
finished iteration is played.

Every position is asked for its moves through :meth:`Game.status`, so the
search keeps no state beyond the recursion (the engine issue can compile it
as it compiles the two-player search).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.interpreter.search.deepening import begin, deepen, on_kernel
from rulesdsl.interpreter.search.engine import Iteration, OutOfTime, Result
from rulesdsl.interpreter.search.minimax import INFINITY, WIN, static_score
from rulesdsl.interpreter.search.ordering import capture_rank

CHECK_EVERY = 256  # nodes between two looks at the clock


class Paranoid:
    """One search: the root player, the node count and the clock."""

    def __init__(self, game: Game, me: int, deadline: float) -> None:
        self.game, self.me, self.deadline = game, me, deadline
        self.nodes = 0
        self.horizon = False  # some leaf was cut by depth, not by the end of the game

    def value(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The paranoid value of ``state`` for the root player, to ``depth`` plies."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        moves, outcome = self.game.status(state)
        if outcome is not None:
            if outcome.places is not None:  # a game of places: the root player's reward for its place
                return outcome.returns(len(outcome.places))[self.me] * (WIN - ply)
            if outcome.winner is None:
                return 0.0
            return WIN - ply if outcome.winner == self.me else -(WIN - ply)
        if depth == 0:
            self.horizon = True
            return static_score(self.game, state, self.me)
        mine = self.game.to_move(state) == self.me
        best = -INFINITY if mine else INFINITY
        for move in sorted(moves, key=capture_rank):
            child = self.value(self.game.apply(state, move), depth - 1, alpha, beta, ply + 1)
            if mine:
                best = max(best, child)
                alpha = max(alpha, child)
            else:
                best = min(best, child)
                beta = min(beta, child)
            if alpha >= beta:
                break
        return best

    def root(self, state: State, moves: list[Move], depth: int) -> tuple[Move, float]:
        """The root player's best move to ``depth`` plies and its value."""
        best, best_value = moves[0], -INFINITY
        for move in moves:
            value = self.value(self.game.apply(state, move), depth - 1, best_value, INFINITY, 1)
            if value > best_value:
                best, best_value = move, value
        return best, best_value


def think_paranoid(
    game: Game,
    state: State,
    depth: int | None = None,
    seconds: float | None = None,
    *,
    on_iteration: Callable[[Iteration], None] | None = None,
    catch_interrupt: bool = False,
    shuffle: random.Random | None = None,
    kernel: bool | None = None,
) -> Result | None:
    """The paranoid search's move by iterative deepening (``None`` when the game is over).

    The limits and ``on_iteration``, ``catch_interrupt`` and ``shuffle`` mean
    what they mean for :func:`rulesdsl.interpreter.search.engine.think`, ``kernel`` too (the search on the
    native kernel: :mod:`rulesdsl.interpreter.search.kernel_players`).
    """
    found = on_kernel("paranoid", game, state, depth, seconds, kernel, on_iteration, catch_interrupt, shuffle)
    if found is not None:
        return found
    start = begin(game, state, depth, seconds, shuffle)
    if start is None:
        return None
    moves, depth, started, deadline = start
    search = Paranoid(game, game.to_move(state), deadline)
    return deepen(search, state, moves, depth, started, "paranoid", float, lambda score: abs(score) >= WIN / 2,
                  on_iteration, catch_interrupt)
