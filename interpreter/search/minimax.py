"""Fixed-depth game-tree search over the Game interface.

Scores are from the point of view of the player to move at the searched node.
A child's score is negated only when the player to move changes, so go-again
turns (the same player moving twice) are searched correctly. A finished game
scores ``WIN - ply`` for the winner: the quickest win and the slowest loss are
preferred. The search never looks deeper than ``depth`` plies.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.interpreter.compile.game import Game, Move, State

WIN = 1_000_000.0
INFINITY = float("inf")
EVAL_LIMIT = WIN / 2  # a static score never reaches a won game's (a huge weight is not a win)


def static_score(game: Game, state: State, player: int) -> float:
    """``game.evaluate`` kept within ``±EVAL_LIMIT``, so that a proven win always outranks it (NaN: 0)."""
    value = game.evaluate(state, player)
    if value != value:
        return 0.0
    return -EVAL_LIMIT if value < -EVAL_LIMIT else EVAL_LIMIT if value > EVAL_LIMIT else value


def terminal_score(game: Game, state: State, moves_outcome, ply: int) -> float:
    """Exact score of a finished game for the player to move at ``state``."""
    score = moves_outcome.score_for(game.to_move(state))
    return 0.0 if score == 0 else score * (WIN - ply)


def ordered(moves: list[Move]) -> list[Move]:
    """Moves that capture or displace enemy pieces first: they cut the search soonest."""
    return sorted(moves, key=lambda move: -len(move.displaced))


def minimax(game: Game, state: State, depth: int, ply: int = 0) -> float:
    """Plain minimax (no pruning): the reference alpha-beta must agree with."""
    moves, outcome = game.status(state)
    if outcome is not None:
        return terminal_score(game, state, outcome, ply)
    if depth == 0:
        return static_score(game, state, game.to_move(state))
    me = game.to_move(state)
    best = -INFINITY
    for move in moves:
        child = game.apply(state, move)
        value = minimax(game, child, depth - 1, ply + 1)
        if game.to_move(child) != me:
            value = -value
        best = max(best, value)
    return best


def alphabeta(
    game: Game,
    state: State,
    depth: int,
    alpha: float = -INFINITY,
    beta: float = INFINITY,
    ply: int = 0,
) -> float:
    """Minimax value of ``state`` to ``depth`` plies, with alpha-beta pruning."""
    moves, outcome = game.status(state)
    if outcome is not None:
        return terminal_score(game, state, outcome, ply)
    if depth == 0:
        return static_score(game, state, game.to_move(state))
    me = game.to_move(state)
    best = -INFINITY
    for move in ordered(moves):
        child = game.apply(state, move)
        if game.to_move(child) != me:
            value = -alphabeta(game, child, depth - 1, -beta, -alpha, ply + 1)
        else:
            value = alphabeta(game, child, depth - 1, alpha, beta, ply + 1)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


@dataclass(frozen=True)
class Choice:
    """The engine's pick: the move and its exact score."""

    move: Move
    score: float


def best_move(game: Game, state: State, depth: int) -> Choice | None:
    """The best move by alpha-beta to exactly ``depth`` plies (``None`` if game over).

    Ties keep the first move in generation order, so the choice is deterministic.
    """
    if depth < 1:
        raise ValueError("depth must be at least 1")
    moves, outcome = game.status(state)
    if outcome is not None or not moves:
        return None
    me = game.to_move(state)
    best: Move | None = None
    best_score = -INFINITY
    alpha = -INFINITY
    for move in moves:
        child = game.apply(state, move)
        if game.to_move(child) != me:
            value = -alphabeta(game, child, depth - 1, -INFINITY, -alpha, 1)
        else:
            value = alphabeta(game, child, depth - 1, alpha, INFINITY, 1)
        if value > best_score:
            best, best_score = move, value
            alpha = max(alpha, value)
    assert best is not None
    return Choice(best, best_score)


def perft(game: Game, state: State, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` plies from ``state`` (:meth:`Game.perft`)."""
    return game.perft(state, depth)
