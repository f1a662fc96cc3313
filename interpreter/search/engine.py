"""The engine: iterative-deepening alpha-beta under a depth and/or a time limit.

Each position the search meets gets one entry in a table keyed by the
position itself: the game is asked for its legal moves, outcome and static
value once, however often the position recurs (transpositions) or is searched
again one ply deeper (the next iteration), and the entry also keeps what the
search found there (remaining depth, bound, score, best move). The table is
bounded in (estimated) bytes; when full it is cleared.

Each iteration searches one ply deeper than the last, trying first the move
the table remembers for a position, then captures (most pieces captured or
displaced first), then the two killer moves of the ply, then moves by their
history score; placements next to pieces come before lonely ones
(:mod:`rulesdsl.interpreter.search.ordering`).

A search to a fixed depth (no time limit) gives exactly the alpha-beta (=
minimax) value to that depth: a table entry cuts the search only when it
was stored for the same remaining depth, and won/lost scores are stored
relative to the position, so they mean the same wherever the position
recurs. Under a time limit a deeper entry may answer for a shallower search
too (it knows more), moves after the first are probed with a null window,
and in a position with very many placements only those near pieces are
searched (the result says ``selective``). Scores follow
:mod:`rulesdsl.interpreter.search.minimax`: from the point of view of the player to
move, negated only when the player to move changes (go-again).

When the time runs out (or Ctrl-C arrives and the caller asked to catch it)
the move of the deepest finished iteration is played; if a deeper iteration
has already proved another root move better, that one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.interpreter.search.minimax import INFINITY, WIN, static_score, terminal_score
from rulesdsl.interpreter.search.ordering import static_order

MAX_DEPTH = 64
EXACT, LOWER, UPPER = 0, 1, 2
ENTRY_BYTES = 400  # a rough size of one table entry (key state, the list, its fields) in CPython
MOVE_BYTES = 8  # one more reference in an entry's move list (the moves themselves are the game's)
CHECK_EVERY = 256  # nodes between two looks at the clock
NULL_WINDOW = 1e-7  # scores closer than this count as equal in a null-window probe
# The fields of a table entry (a list, one per position seen, keyed by the position itself):
# what the game said once (moves, outcome, who moves, static value), then what the search found.
MOVES, OUTCOME, MOVER, VALUE, ORDERED, NARROWED, DEPTH, FLAG, SCORE, BEST, CUT = range(11)


class OutOfTime(Exception):
    """Raised inside the search when its time is up."""


@dataclass(frozen=True)
class Iteration:
    """What one finished iteration found.

    ``selective``: some position's candidates were narrowed by the selective rule of
    :mod:`rulesdsl.interpreter.search.ordering` (only under a clock), so ``depth`` is the depth of a
    narrower tree than the full one.
    """

    depth: int
    score: float
    nodes: int
    seconds: float
    pv: tuple[Move, ...]
    selective: bool = False


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
    selective: bool = False  # the deepest iteration searched narrowed candidates (see Iteration)
    kernel: str = "generic"  # what the search ran on: "native" (the kernel in machine code) or "generic"
    partial: int = 0  # the depth of the unfinished iteration the move comes from (0: from ``depth``'s)


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


class NullWindowChild:
    """The step from a node to one child that both alpha-beta searchers share (principal variation search);
    the searcher gives ``exact`` and ``alphabeta``."""

    exact: bool

    def alphabeta(self, node: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The node's value from the side to move there, searched ``depth`` plies deeper (the searcher's)."""
        raise NotImplementedError

    def child(self, child: Any, flip: bool, depth: int, alpha: float, beta: float, ply: int,
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


class Searcher(NullWindowChild):
    """One search: its table, killers, history, node count and clock.

    The table remembers, for each position seen, what the game said about it
    (legal moves, outcome, static value: each asked once per position, however
    often the position recurs or is searched again one ply deeper) and what
    the search found (remaining depth, bound, score, best move).
    """

    def __init__(self, game: Game, table_mb: float = 64.0, exact: bool = True) -> None:
        self.game = game
        # exact: a table entry answers only for its own remaining depth, so that a fixed depth gives
        # exactly the minimax value; otherwise (under a clock) a deeper entry answers too, every move
        # after the first is probed with a null window, and the selective rule may narrow placements.
        self.exact = exact
        self.table: dict[State, list] = {}
        self.budget = max(1024 * ENTRY_BYTES, int(table_mb * 1_000_000))
        self.table_limit = self.budget // ENTRY_BYTES
        self.used = 0  # estimated bytes in the table
        self.static = static_order(game)
        self.root_player: int | None = None  # the player whose moves the selective rule may narrow
        self.killers: dict[int, list[Move]] = {}
        self.history: dict[tuple[int, int], int] = {}
        self.nodes = 0
        self.deadline = INFINITY
        self.horizon = False  # some leaf was cut by the depth limit in this iteration
        self.selective = False  # some node's candidates were narrowed in this iteration

    # -- the table ------------------------------------------------------------
    def node(self, state: State) -> list:
        """The table entry of ``state``, made (asking the game once) if new; a full table is cleared."""
        entry = self.table.get(state)
        if entry is None:
            moves, outcome = self.game.status(state)
            cost = ENTRY_BYTES + MOVE_BYTES * len(moves)
            if self.used + cost > self.budget:
                self.table.clear()
                self.used = 0
            self.used += cost
            entry = [moves, outcome, self.game.to_move(state), None, False, False, -1, EXACT, 0.0, None, False]
            self.table[state] = entry
        return entry

    def candidates(self, state: State, entry: list) -> list[Move]:
        """The entry's moves in static order (captures first), narrowed once by the selective rule."""
        if not entry[ORDERED]:
            # only the root player's own moves are narrowed: leaving out an opponent's reply could only
            # flatter the root player's moves, so a narrowed score is never above the full search's
            narrow = not self.exact and entry[MOVER] == self.root_player
            entry[MOVES], entry[NARROWED] = self.static(state, entry[MOVES], narrow)
            entry[ORDERED] = True
        if entry[NARROWED]:
            self.selective = True
        return entry[MOVES]

    def store(self, entry: list, depth: int, flag: int, score: float, move: Move | None, ply: int,
              cut: bool) -> None:
        """Remember what the search found for the entry's position."""
        entry[DEPTH], entry[FLAG], entry[SCORE], entry[BEST], entry[CUT] = depth, flag, to_table(score, ply), move, cut

    # -- ordering -------------------------------------------------------------
    def order(self, moves: list[Move], best: Move | None, ply: int) -> list[Move]:
        """Table move, captures, killers, pushes (most displaced first), then by history score."""
        killers = self.killers.get(ply, ())
        history = self.history
        if not killers and not history:
            return moves if best is None or best is moves[0] else [best] + [mv for mv in moves if mv != best]

        def key(move: Move) -> tuple:
            return (move != best, -move.captures, move not in killers, -len(move.displaced),
                    -history.get((move.origin, move.target), 0))

        return sorted(moves, key=key)

    def reward(self, move: Move, depth: int, ply: int) -> None:
        """A quiet move caused a cut: remember it as a killer and in the history."""
        if move.displaced or move.captures:
            return
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        where = (move.origin, move.target)
        self.history[where] = self.history.get(where, 0) + depth * depth

    # -- the search -----------------------------------------------------------
    def alphabeta(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The alpha-beta value of ``state`` to ``depth`` plies, with the table."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        entry = self.node(state)
        if entry[OUTCOME] is not None:
            return terminal_score(self.game, state, entry[OUTCOME], ply)
        if depth == 0:
            self.horizon = True
            value = entry[VALUE]
            if value is None:
                value = entry[VALUE] = static_score(self.game, state, entry[MOVER])
            return value
        stored = entry[DEPTH]
        if stored == depth or (stored > depth and not self.exact):
            score = from_table(entry[SCORE], ply)
            flag = entry[FLAG]
            if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                self.horizon = self.horizon or entry[CUT]
                return score
        me = entry[MOVER]
        moves = self.candidates(state, entry)
        outer = self.horizon
        self.horizon = False
        alpha_in = alpha
        best = -INFINITY
        found: Move | None = None
        game = self.game
        for move in self.order(moves, entry[BEST], ply):
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
        self.store(entry, depth, flag, best, found, ply, self.horizon)
        self.horizon = self.horizon or outer
        return best

    def root(self, state: State, depth: int, first: Move | None, partial: list) -> tuple[Move, float]:
        """Search every root move to ``depth``; ``partial`` gets the best so far as it improves."""
        game = self.game
        entry = self.node(state)
        me = entry[MOVER]
        best: Move | None = None
        best_score = -INFINITY
        alpha = -INFINITY
        for move in self.order(self.candidates(state, entry), first, 0):
            child = game.apply(state, move)
            value = self.child(child, game.to_move(child) != me, depth - 1, alpha, INFINITY, 1, best is None)
            if value > best_score:
                best, best_score = move, value
                alpha = max(alpha, value)
                partial[:] = [best, best_score]
        assert best is not None
        self.store(self.node(state), depth, EXACT, best_score, best, 0, self.horizon)
        return best, best_score

    def principal_variation(self, state: State, depth: int) -> tuple[Move, ...]:
        """The table's best moves from ``state``, as far as they are legal and known."""
        line: list[Move] = []
        seen = set()
        while len(line) < depth:
            entry = self.table.get(state)
            if entry is None or entry[BEST] is None or state in seen:
                break
            seen.add(state)
            if entry[BEST] not in self.game.legal_moves(state):
                break
            line.append(entry[BEST])
            state = self.game.apply(state, entry[BEST])
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
    shuffle: random.Random | None = None,
    kernel: bool | None = None,
) -> Result | None:
    """The engine's move by iterative deepening (``None`` when the game is over).

    ``depth`` caps the iterations (exactly that depth when there is no time
    limit); ``seconds`` stops the search when the time is up. With neither,
    the depth is 3. ``on_iteration`` is called after each finished iteration.
    ``catch_interrupt``: Ctrl-C stops the search and the best move so far is
    returned (``interrupted`` set) instead of the interrupt propagating.
    ``shuffle``: the root moves are shuffled with it before the (stable) static order, so that among
    equally good moves a random one is played (self-play).
    ``kernel``: search on the kernel in machine code (:mod:`rulesdsl.interpreter.search.kernel_search`) where the game
    has one: ``True`` (compiling it now if need be), ``False`` never, ``None`` (the default) under a time limit
    once the machine code is ready (a fixed depth then keeps the generic path's move order, so its choice
    among equal moves does not depend on when the compile ended).
    """
    if depth is not None and depth < 1:
        raise ValueError("depth must be at least 1")
    if kernel is not False and (kernel or seconds is not None):
        from rulesdsl.interpreter.search.kernel_search import kernel_think

        found = kernel_think(game, state, depth, seconds, on_iteration=on_iteration, catch_interrupt=catch_interrupt,
                             table_mb=table_mb, shuffle=shuffle, wait=bool(kernel))
        if found is not None:
            return found
    moves, outcome = game.status(state)
    if outcome is not None or not moves:
        return None
    if depth is None and seconds is None:
        depth = 3
    limit = depth if depth is not None else MAX_DEPTH
    searcher = Searcher(game, table_mb, exact=seconds is None)
    searcher.root_player = game.to_move(state)
    started = time.perf_counter()
    if seconds is not None:
        searcher.deadline = started + seconds
    if shuffle is not None:
        entry = searcher.node(state)
        entry[MOVES] = list(entry[MOVES])
        shuffle.shuffle(entry[MOVES])
    result = Result(moves[0], 0.0, 0, 0, 0.0)
    partial: list = []
    with iterating(result, partial, catch_interrupt):
        for d in range(1, limit + 1):
            searcher.horizon = searcher.selective = False
            partial.clear()
            move, score = searcher.root(state, d, result.move if result.depth else None, partial)
            elapsed = time.perf_counter() - started
            iteration = Iteration(d, score, searcher.nodes, elapsed,
                                  searcher.principal_variation(state, d), searcher.selective)
            result.move, result.score, result.depth = move, score, d
            result.selective = searcher.selective
            result.iterations.append(iteration)
            if on_iteration is not None:
                on_iteration(iteration)
            if not searcher.horizon or abs(score) >= WIN / 2:
                break  # the whole tree was seen, or a forced result was found: deeper says no more
    result.nodes = searcher.nodes
    result.seconds = time.perf_counter() - started
    return result


@contextmanager
def iterating(result: Result, partial: list, catch_interrupt: bool) -> Iterator[None]:
    """Around iterative deepening: running out of time, or Ctrl-C where ``catch_interrupt``, ends the search
    with the best root move so far (``partial``: an unfinished iteration's best, see :func:`_adopt_partial`)."""
    try:
        yield
    except OutOfTime:
        _adopt_partial(result, partial)
    except KeyboardInterrupt:
        if not catch_interrupt:
            raise
        _adopt_partial(result, partial)
        result.interrupted = True


def _adopt_partial(result: Result, partial: list) -> None:
    """Take an unfinished iteration's best root move so far, and say so in ``result.partial`` (its depth).

    Its first root move is the last iteration's choice, so anything it
    prefers beat that choice one ply deeper. (A selective search narrows only
    the searching side's own moves, so its scores never exceed a full
    search's: a deeper narrowed score is a fair comparison.)
    """
    if partial and (partial[0] != result.move or not result.depth):  # the same move keeps its finished score
        result.partial = result.depth + 1
        result.move, result.score = partial
