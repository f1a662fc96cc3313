"""Search for games of three or more players: max^n (Luckhardt and Irani).

Every position gets a value vector, one number per player; the player to
move picks the child whose vector is best in its own component. A finished
game is worth each player's reward (:meth:`Outcome.returns`: +1 first .. -1
last) times ``WIN - ply``, so a sooner first place and a later last place
count for more; a leaf cut by depth is worth each player's static evaluation
from its own point of view. Among children equally good for the player to move,
it picks the one worst for the others (the lowest sum, then the lowest value in
seat order: :func:`preferred`), so the value vector does not depend on the order
the moves are tried in (the kernel's search, :mod:`rulesdsl.interpreter.search.kernel_players`,
tries them in its own); at the root, among equal vectors, the first move in the
order tried (captures first) is kept.

There is no pruning (max^n's shallow pruning needs bounds the evaluation
does not give); iterative deepening runs to ``depth`` plies and/or for
``seconds``, and when the time runs out the move of the deepest finished
iteration is played. The search keeps no state beyond the recursion.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.interpreter.search.deepening import begin, deepen, on_kernel
from rulesdsl.interpreter.search.engine import Iteration, OutOfTime, Result
from rulesdsl.interpreter.search.minimax import WIN, static_score
from rulesdsl.interpreter.search.ordering import capture_rank

CHECK_EVERY = 256  # nodes between two looks at the clock

Vector = tuple[float, ...]


def preferred(a: Vector, b: Vector, mover: int) -> bool:
    """Whether ``mover`` picks the vector ``a`` over ``b``: more for itself, else less for all players together,
    else less for the first player (in seat order) the two vectors differ for."""
    if a[mover] != b[mover]:
        return a[mover] > b[mover]
    if sum(a) != sum(b):
        return sum(a) < sum(b)
    return next((x < y for x, y in zip(a, b) if x != y), False)


class MaxN:
    """One search: the node count and the clock."""

    def __init__(self, game: Game, deadline: float) -> None:
        self.game, self.deadline = game, deadline
        self.players = len(game.players)
        self.nodes = 0
        self.horizon = False  # some leaf was cut by depth, not by the end of the game

    def value(self, state: State, depth: int, ply: int) -> Vector:
        """The max^n value vector of ``state`` searched ``depth`` plies deep (``ply``: plies from the root)."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        moves, outcome = self.game.status(state)
        if outcome is not None:
            return tuple(r * (WIN - ply) for r in outcome.returns(self.players))
        if depth == 0:
            self.horizon = True
            return tuple(static_score(self.game, state, p) for p in range(self.players))
        mover = self.game.to_move(state)
        best: Vector | None = None
        for move in sorted(moves, key=capture_rank):
            child = self.value(self.game.apply(state, move), depth - 1, ply + 1)
            if best is None or preferred(child, best, mover):
                best = child
        assert best is not None  # an unfinished game has a move
        return best

    def root(self, state: State, moves: list[Move], depth: int) -> tuple[Move, Vector]:
        """The mover's best move to ``depth`` plies and its value vector."""
        return best_for(self.game.to_move(state), moves,
                        lambda move: self.value(self.game.apply(state, move), depth - 1, 1))


def best_for(mover: int, moves: list[Move], value_of: Callable[[Move], Vector]) -> tuple[Move, Vector]:
    """The move whose value vector ``mover`` prefers (:func:`preferred`; the first of equals), and that vector."""
    best, best_value = moves[0], None
    for move in moves:
        value = value_of(move)
        if best_value is None or preferred(value, best_value, mover):
            best, best_value = move, value
    assert best_value is not None
    return best, best_value


def think_maxn(
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
    """The max^n search's move by iterative deepening (``None`` when the game is over); the score is the
    mover's component of the root's value vector.

    The limits and ``on_iteration``, ``catch_interrupt`` and ``shuffle`` mean
    what they mean for :func:`rulesdsl.interpreter.search.engine.think`, ``kernel`` too (the search on the
    native kernel: :mod:`rulesdsl.interpreter.search.kernel_players`).
    """
    found = on_kernel("maxn", game, state, depth, seconds, kernel, on_iteration, catch_interrupt, shuffle)
    if found is not None:
        return found
    start = begin(game, state, depth, seconds, shuffle)
    if start is None:
        return None
    moves, depth, started, deadline = start
    mover = game.to_move(state)
    search = MaxN(game, deadline)
    return deepen(search, state, moves, depth, started, "maxn", lambda vector: vector[mover], lambda _: False,
                  on_iteration, catch_interrupt)
