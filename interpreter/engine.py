"""The engine: iterative-deepening alpha-beta under a depth and/or a time limit.

Each iteration searches one ply deeper than the last, trying first the move
the transposition table remembers for a position, then captures (most pieces
displaced first), then the two killer moves of the ply, then moves by their
history score. The table is bounded in entries; when full it is cleared.

A search to a fixed depth (no time limit) gives exactly the alpha-beta (=
minimax) value to that depth: a table entry cuts the search only when it
was stored for the same remaining depth, and won/lost scores are stored
relative to the position, so they mean the same wherever the position
recurs. Under a time limit a deeper entry may answer for a shallower search
too (it knows more). Scores follow
:mod:`rulesdsl.interpreter.search`: from the point of view of the player to
move, negated only when the player to move changes (go-again).

When the time runs out (or Ctrl-C arrives and the caller asked to catch it)
the move of the deepest finished iteration is played; if a deeper iteration
has already proved another root move better, that one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rulesdsl.interpreter.game import Game, Move, State
from rulesdsl.interpreter.search import INFINITY, WIN, terminal_score

MAX_DEPTH = 64
EXACT, LOWER, UPPER = 0, 1, 2
ENTRY_BYTES = 200  # a rough size of one table entry (key, tuple, move) in CPython
CHECK_EVERY = 256  # nodes between two looks at the clock
NULL_WINDOW = 1e-7  # scores closer than this count as equal in a null-window probe


class OutOfTime(Exception):
    """Raised inside the search when its time is up."""


@dataclass(frozen=True)
class Iteration:
    """What one finished iteration found."""

    depth: int
    score: float
    nodes: int
    seconds: float
    pv: tuple[Move, ...]


@dataclass
class Result:
    """The engine's pick, with how it got there."""

    move: Move
    score: float
    depth: int  # deepest finished iteration (0 if none finished)
    nodes: int
    seconds: float
    iterations: list[Iteration] = field(default_factory=list)
    interrupted: bool = False  # Ctrl-C stopped it
    engine: str = "alphabeta"


def to_table(score: float, ply: int) -> float:
    """A won/lost score counted from the position instead of from the root."""
    if score >= WIN / 2:
        return score + ply
    if score <= -WIN / 2:
        return score - ply
    return score


def from_table(score: float, ply: int) -> float:
    """The inverse of :func:`to_table` at ``ply``."""
    if score >= WIN / 2:
        return score - ply
    if score <= -WIN / 2:
        return score + ply
    return score


class Searcher:
    """One search: its table, killers, history, node count and clock."""

    def __init__(self, game: Game, table_mb: float = 64.0, exact: bool = True) -> None:
        self.game = game
        # exact: a table entry answers only for its own remaining depth, so that a fixed depth gives
        # exactly the minimax value; otherwise (under a clock) a deeper entry answers too.
        self.exact = exact
        # hash -> (remaining depth, bound, score, best move, the subtree reached the depth limit)
        self.table: dict[int, tuple[int, int, float, Move | None, bool]] = {}
        self.table_limit = max(1024, int(table_mb * 1_000_000 / ENTRY_BYTES))
        self.killers: dict[int, list[Move]] = {}
        self.history: dict[Move, int] = {}
        self.nodes = 0
        self.deadline = INFINITY
        self.horizon = False  # some leaf was cut by the depth limit in this iteration

    # -- ordering -------------------------------------------------------------
    def order(self, moves: list[Move], best: Move | None, ply: int) -> list[Move]:
        """Table move, captures, killers, then by history score (stable otherwise)."""
        killers = self.killers.get(ply, ())
        history = self.history

        def key(move: Move) -> tuple:
            return (move != best, -len(move.displaced), move not in killers, -history.get(move, 0))

        return sorted(moves, key=key)

    def reward(self, move: Move, depth: int, ply: int) -> None:
        """A quiet move caused a cut: remember it as a killer and in the history."""
        if move.displaced:
            return
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    def store(self, key: int, depth: int, flag: int, score: float, move: Move | None, ply: int,
              cut: bool) -> None:
        """Remember a result; a full table is cleared first (bounded memory)."""
        if len(self.table) >= self.table_limit:
            self.table.clear()
        self.table[key] = (depth, flag, to_table(score, ply), move, cut)

    # -- the search -----------------------------------------------------------
    def alphabeta(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The alpha-beta value of ``state`` to ``depth`` plies, with the table."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        game = self.game
        moves, outcome = game.status(state)
        if outcome is not None:
            return terminal_score(game, state, outcome, ply)
        me = game.to_move(state)
        if depth == 0:
            self.horizon = True
            return game.evaluate(state, me)
        key = game.hash(state)
        entry = self.table.get(key)
        best_move: Move | None = None
        if entry is not None:
            best_move = entry[3]
            if entry[0] == depth or (entry[0] > depth and not self.exact):
                score = from_table(entry[2], ply)
                flag = entry[1]
                if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                    self.horizon = self.horizon or entry[4]
                    return score
        outer = self.horizon
        self.horizon = False
        alpha_in = alpha
        best = -INFINITY
        found: Move | None = None
        for move in self.order(moves, best_move, ply):
            child = game.apply(state, move)
            value = self.child(child, game.to_move(child) != me, depth - 1, alpha, beta, ply + 1, found is None)
            if value > best:
                best, found = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self.reward(move, depth, ply)
                        break
        flag = LOWER if best >= beta else UPPER if best <= alpha_in else EXACT
        self.store(key, depth, flag, best, found, ply, self.horizon)
        self.horizon = self.horizon or outer
        return best

    def child(self, child: State, flip: bool, depth: int, alpha: float, beta: float, ply: int,
              first: bool) -> float:
        """A child's value from the parent's side (negated when the turn changes).

        Under a clock (not ``exact``) every move after the first is tried with a null window
        first (principal variation search) and searched again only if it may be better.
        """
        if not first and not self.exact and beta - alpha > NULL_WINDOW:
            probe = (-self.alphabeta(child, depth, -alpha - NULL_WINDOW, -alpha, ply) if flip
                     else self.alphabeta(child, depth, alpha, alpha + NULL_WINDOW, ply))
            if probe <= alpha or probe >= beta:
                return probe
        if flip:
            return -self.alphabeta(child, depth, -beta, -alpha, ply)
        return self.alphabeta(child, depth, alpha, beta, ply)

    def root(self, state: State, moves: list[Move], depth: int, first: Move | None,
             partial: list) -> tuple[Move, float]:
        """Search every root move to ``depth``; ``partial`` gets the best so far as it improves."""
        game = self.game
        me = game.to_move(state)
        best: Move | None = None
        best_score = -INFINITY
        alpha = -INFINITY
        for move in self.order(moves, first, 0):
            child = game.apply(state, move)
            value = self.child(child, game.to_move(child) != me, depth - 1, alpha, INFINITY, 1, best is None)
            if value > best_score:
                best, best_score = move, value
                alpha = max(alpha, value)
                partial[:] = [best, best_score]
        assert best is not None
        self.store(game.hash(state), depth, EXACT, best_score, best, 0, self.horizon)
        return best, best_score

    def principal_variation(self, state: State, depth: int) -> tuple[Move, ...]:
        """The table's best moves from ``state``, as far as they are legal and known."""
        line: list[Move] = []
        seen = set()
        while len(line) < depth:
            entry = self.table.get(self.game.hash(state))
            if entry is None or entry[3] is None or state in seen:
                break
            seen.add(state)
            moves = self.game.legal_moves(state)
            if entry[3] not in moves:
                break
            line.append(entry[3])
            state = self.game.apply(state, entry[3])
        return tuple(line)


def think(
    game: Game,
    state: State,
    depth: int | None = None,
    seconds: float | None = None,
    *,
    on_iteration: Callable[[Iteration], None] | None = None,
    catch_interrupt: bool = False,
    table_mb: float = 64.0,
) -> Result | None:
    """The engine's move by iterative deepening (``None`` when the game is over).

    ``depth`` caps the iterations (exactly that depth when there is no time
    limit); ``seconds`` stops the search when the time is up. With neither,
    the depth is 3. ``on_iteration`` is called after each finished iteration.
    ``catch_interrupt``: Ctrl-C stops the search and the best move so far is
    returned (``interrupted`` set) instead of the interrupt propagating.
    """
    if depth is not None and depth < 1:
        raise ValueError("depth must be at least 1")
    moves, outcome = game.status(state)
    if outcome is not None or not moves:
        return None
    if depth is None and seconds is None:
        depth = 3
    limit = depth if depth is not None else MAX_DEPTH
    searcher = Searcher(game, table_mb, exact=seconds is None)
    started = time.perf_counter()
    if seconds is not None:
        searcher.deadline = started + seconds
    result = Result(moves[0], 0.0, 0, 0, 0.0)
    partial: list = []
    try:
        for d in range(1, limit + 1):
            searcher.horizon = False
            partial = []
            move, score = searcher.root(state, moves, d, result.move if result.depth else None, partial)
            elapsed = time.perf_counter() - started
            iteration = Iteration(d, score, searcher.nodes, elapsed,
                                  searcher.principal_variation(state, d))
            result.move, result.score, result.depth = move, score, d
            result.iterations.append(iteration)
            if on_iteration is not None:
                on_iteration(iteration)
            if not searcher.horizon or abs(score) >= WIN / 2:
                break  # the whole tree was seen, or a forced result was found: deeper says no more
    except OutOfTime:
        _adopt_partial(result, partial)
    except KeyboardInterrupt:
        if not catch_interrupt:
            raise
        _adopt_partial(result, partial)
        result.interrupted = True
    result.nodes = searcher.nodes
    result.seconds = time.perf_counter() - started
    return result


def _adopt_partial(result: Result, partial: list) -> None:
    """Take an unfinished iteration's best root move so far.

    Its first root move is the last iteration's choice, so anything it
    prefers beat that choice one ply deeper.
    """
    if partial:
        result.move, result.score = partial
