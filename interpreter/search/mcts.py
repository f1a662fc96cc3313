"""Monte Carlo tree search: UCT with random playouts, for games with no good evaluation.

Each iteration walks down the tree by UCB1 (each child's mean result for the
player who moved into it, plus an exploration bonus), adds one child, plays
random legal moves from it to the end of the game (or a ply cap, scored as a
draw) and backs the result up: each node gains the reward of the player who
moved into it (1 for a win, 0.5 for a draw, 0 for a loss; with more players,
1 for first place down to 0 for last). The move played is the root's most visited
child. Go-again needs nothing special: each node remembers who moved into it.
"""

from __future__ import annotations

import math
import random
import time

from rulesdsl.interpreter.compile.game import Game, Move, Outcome, State
from rulesdsl.interpreter.search.engine import Result
from rulesdsl.interpreter.search.minimax import INFINITY

EXPLORATION = 1.4
PLAYOUT_CAP = 1000  # plies; a playout this long is scored as a draw
CHECK_EVERY = 16  # iterations between two looks at the clock


class Node:
    """A position in the tree: visits and total result for the player who moved into it."""

    __slots__ = ("state", "mover", "move", "parent", "children", "untried", "visits", "total", "outcome")

    def __init__(self, game: Game, state: State, mover: int, move: Move | None, parent: Node | None) -> None:
        self.state, self.mover, self.move, self.parent = state, mover, move, parent
        moves, self.outcome = game.status(state)
        self.untried = list(moves)
        self.children: list[Node] = []
        self.visits = 0
        self.total = 0.0

    def select(self) -> Node:
        """The child with the highest UCB1 value."""
        log_n = math.log(self.visits)
        best, best_value = self.children[0], -INFINITY
        for child in self.children:
            value = child.total / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best


def playout(game: Game, state: State, rng: random.Random) -> tuple[Outcome | None, int]:
    """Play random moves to the end: ``(outcome, or None when cut at the cap, plies played)``.

    :meth:`Game.playout` plays them: on the kernel in machine code where the game has one and it is
    ready, else on the Python kernel or through ``status`` and ``apply``.
    """
    end = game.playout(state, rng, PLAYOUT_CAP)
    return end.outcome, end.plies


def rewards(outcome: Outcome | None, players: int) -> tuple[float, ...]:
    """Each player's reward from 0 to 1: ``(1 + Outcome.returns) / 2`` (two players: 1 for a win, 0.5 for a
    draw, 0 for a loss; more: 1 for first place down to 0 for last); a cut playout is 0.5 for everyone."""
    if outcome is None:
        return (0.5,) * players
    return tuple((1.0 + r) / 2 for r in outcome.returns(players))


def mcts(
    game: Game,
    state: State,
    seconds: float | None = None,
    iterations: int | None = None,
    *,
    seed: int | None = None,
    catch_interrupt: bool = False,
) -> Result | None:
    """The most visited root move after ``iterations`` or ``seconds`` (``None`` when the game is over).

    With neither limit, one second. ``seed`` makes a run with an iteration
    count repeatable.
    """
    root = Node(game, state, -1, None, None)
    if root.outcome is not None or not root.untried:
        return None
    if seconds is None and iterations is None:
        seconds = 1.0
    rng = random.Random(seed)
    players = len(game.players)
    game.native_kernel()  # begin making the kernel's machine code (the playouts take it when it is ready)
    started = time.perf_counter()
    deadline = started + seconds if seconds is not None else INFINITY
    done = 0
    interrupted = False
    try:
        while iterations is None or done < iterations:
            if done % CHECK_EVERY == 0 and done and time.perf_counter() > deadline:
                break
            node = root
            while not node.untried and node.children:
                node = node.select()
            if node.untried:
                move = node.untried.pop(rng.randrange(len(node.untried)))
                mover = game.to_move(node.state)
                child = Node(game, game.apply(node.state, move), mover, move, node)
                node.children.append(child)
                node = child
            if node.outcome is not None:
                reward = rewards(node.outcome, players)
            else:
                reward = rewards(playout(game, node.state, rng)[0], players)
            while node is not None:  # each node gains the reward of the player who moved into it
                node.visits += 1
                if node.mover >= 0:
                    node.total += reward[node.mover]
                node = node.parent
            done += 1
    except KeyboardInterrupt:
        if not catch_interrupt or not root.children:
            raise
        interrupted = True
    if not root.children:
        return Result(root.untried[0], 0.0, 0, 0, time.perf_counter() - started, engine="mcts")
    best = max(root.children, key=lambda c: c.visits)
    score = 2 * best.total / best.visits - 1  # -1..1 for the player to move
    return Result(best.move, score, 0, done, time.perf_counter() - started, interrupted=interrupted, engine="mcts")
