"""The alpha-beta engine on the native kernel: positions as rows of machine words.

The engine's search (:mod:`rulesdsl.interpreter.search.engine`) takes this path for
a game whose kernel is compiled to machine code (:mod:`rulesdsl.interpreter.kernel.native`)
and whose evaluation is made of features the kernel computes (material,
advancement, centrality, captures, mobility, score of piece counts, and
``area`` and ``threatened``: :mod:`rulesdsl.interpreter.search.native_features`). It talks to the kernel through
one narrow interface (:mod:`rulesdsl.interpreter.search.native_search`):

- a position is one row of unsigned words (the bitboards, each in as many
  words as its board needs, the other words, the player to move, the go-again
  bit); a child is a copy, written by ``expandrow`` into a
  buffer, so nothing is unmade;
- the table is keyed by the row's bytes (an exact key: no two positions
  share one, so no hash collision can give a wrong score);
- the last ply of every search is one call (``frontier``), which plays every
  move of a position and scores each child in machine code.

What it keeps of the engine: iterative deepening, the table (a best move per
position, tried first; the remaining depth, bound and score, with the same
rules: at a fixed depth an entry answers only for its own depth, so the value
is exactly minimax's), captures-first order at the root, children ordered by
their static value below it, principal variation search and the clock under
a time limit. A fixed depth gives the value the reference search gives
(tests/test_kernel_search.py holds it to :func:`rulesdsl.interpreter.search.minimax.minimax`).

A kernel that keeps earlier positions has no ``expand``: its search
(:mod:`rulesdsl.interpreter.search.history_search`) goes over ``children`` and carries
the earlier positions along its path, with the same rules.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.interpreter.kernel.native import NOT_OVER, NativeKernel
from rulesdsl.interpreter.kernel.native_helpers import ROWS
from rulesdsl.interpreter.search.engine import (  # the engine's table rules, results and partial-iteration rule
    CHECK_EVERY,
    EXACT,
    LOWER,
    MAX_DEPTH,
    UPPER,
    Iteration,
    NullWindowChild,
    OutOfTime,
    Result,
    from_table,
    iterating,
    to_table,
)
from rulesdsl.interpreter.search.minimax import EVAL_LIMIT, INFINITY, WIN
from rulesdsl.interpreter.search.native_features import Unsupported, feature_table, native_terms
from rulesdsl.interpreter.search.ordering import static_order
from rulesdsl.interpreter.search.score_terms import score_terms

ENTRY_BYTES = 300  # a rough size of one table entry besides its children's rows
# The fields of a table entry (a list per position seen): its children's rows (None when the game is over there),
# the winner there (before nothing: already swapped for misere; -1 a draw), the children's order, then what the
# search found (remaining depth, bound, score, the best child's index).
CHILDREN, WINNER, ORDER, DEPTH, FLAG, SCORE, BEST = range(7)


class TooManyChildren(Exception):
    """A position has more children than the native functions have room for (the search goes generic)."""


class KernelView:
    """A game's native kernel and evaluation tables, and its states as rows of words."""

    def __init__(self, game: Game, native: NativeKernel, terms) -> None:
        compiled = game._compiled
        kernel = native.kernel
        self.game, self.native, self.compiled, self.module = game, native, compiled, native.module
        self.history = native.history is not None  # earlier positions: searched over children (history_search.py)
        self.children_max = native.children_max or ROWS
        self.width = native.columns  # the row's words before the player to move (each lane of a bitboard one)
        folded, mobility, extra = terms
        self.mobility = float(mobility)
        players = len(folded)
        self.weights = np.zeros((players, self.width, 64), dtype=np.float64)  # [player, column, bit]
        self.consts = np.array([0.0] * players + [w for _, w, _ in extra], dtype=np.float64)  # then area, threatened
        if extra and (players != 2 or not hasattr(self.module, "feats")):
            raise Unsupported("machine code without feats")
        self.features = feature_table(extra, compiled.tables, compiled.active, kernel,  # their tables and scratch
                                      lambda s, cell: native.place(s, kernel.layout.bit[cell]), self.width)
        index = {s: i for i, s in enumerate(kernel.symbols)}
        counts = {c: kernel.width - len(kernel.counted) + k for k, c in enumerate(kernel.counted)}  # a count's word
        for player, (rows, constant) in enumerate(folded):
            self.consts[player] = constant
            for symbol, per_cell in rows:
                for cell, weight in enumerate(per_cell):
                    if symbol in index:
                        column, bit = native.place(index[symbol], kernel.layout.bit[cell])
                        self.weights[player, column, bit] += weight
                    else:  # the counted pieces: the weight of one, times the cell's count
                        self.weights[player, native.place(counts[cell], 0)[0], 0] += weight
        self.misere = bool(kernel.misere)
        self.eval = (self.weights, self.consts, self.mobility, self.features)  # what the helpers take after a row

    def row(self, state: State) -> np.ndarray | None:
        """The state as a row of words, or ``None`` when the kernel does not take it."""
        encoded = self.compiled._encode(state)
        if encoded is None:
            return None
        _, bits, last, _ = encoded
        return np.array([*self.native.words(bits), state.turn, self.native.last_word(last)], dtype=np.uint64)

    def buffer(self) -> np.ndarray:
        """Room for every child of one position."""
        return np.zeros((self.children_max, self.width + 2), dtype=np.uint64)


def kernel_view(game: Game, wait: bool = False) -> KernelView | None:
    """The game's kernel view when its machine code is ready (``wait``: make it now) and its evaluation is
    made of features the kernel computes, else ``None`` (and with more than two players: this search is
    two-sided)."""
    if len(game.players) != 2:
        return None
    return rows_view(game, wait)


def rows_view(game: Game, wait: bool = False) -> KernelView | None:
    """:func:`kernel_view` for any number of players (the searches of more than two players use it too)."""
    native = game.native_kernel(wait, search=True)
    helper = "expandrow" if native is None or native.history is None else "hexpand"  # earlier positions: children
    if native is None or not hasattr(native.module, helper):  # no module, or a module without the search helpers
        return None
    compiled = game._compiled
    terms = native_terms(compiled.features, compiled.tables, compiled.start_board,
                         score_terms(compiled.active, compiled.tables))
    if terms is None:
        return None
    try:
        view = KernelView(game, native, terms)
    except Unsupported:  # a nonlinear feature the kernel does not compute here
        return None
    native.warm_search()  # before any clock starts
    if not native.searchable:
        return None
    return view


class KernelSearcher(NullWindowChild):
    """One search on the kernel: its table, node count and clock (see the module docstring)."""

    def __init__(self, view: KernelView, exact: bool, table_mb: float) -> None:
        self.view, self.exact = view, exact
        self.bind(view.module)
        self.table: dict[bytes, list] = {}
        self.budget = max(1_000_000, int(table_mb * 1_000_000))
        self.used = 0
        self.buf, self.leaves = view.buffer(), view.buffer()
        self.scores = np.zeros(view.children_max, dtype=np.float64)
        self.eval = view.eval
        self.turn = view.width  # the column of the player to move
        self.nodes = self.calls = 0
        self.deadline = INFINITY
        self.horizon = False

    def bind(self, module: object) -> None:
        """Take the native module's search helpers (:mod:`rulesdsl.interpreter.search.native_search`)."""
        self.expandrow, self.frontier, self.ordering = module.expandrow, module.frontier, module.ordering
        self.scorerow = module.scorerow

    def expand(self, row: np.ndarray) -> tuple[np.ndarray | None, int]:
        """The row's children (``None`` when the game is over there) and the winner there (-1 a draw; before
        nothing: already swapped for misere)."""
        winner, _, count = self.expandrow(row, self.buf)
        return (None if winner != NOT_OVER else self.buf[:count].copy()), self.winner(int(winner))

    def winner(self, winner: int) -> int:
        """A winner as the kernel says it, swapped for misere."""
        return self.view.native.kernel.opponent[winner] if winner >= 0 and self.view.misere else winner

    def entry(self, row: np.ndarray, key: bytes) -> list:
        """The table entry of a row, made (expanding it once) if new; a full table is cleared."""
        entry = self.table.get(key)
        if entry is None:
            children, winner = self.expand(row)
            cost = ENTRY_BYTES + (0 if children is None else children.nbytes)
            if self.used + cost > self.budget:
                self.table.clear()
                self.used = 0
            self.used += cost
            entry = [children, winner, None, -1, EXACT, 0.0, -1]
            self.table[key] = entry
        return entry

    def side(self, row: np.ndarray) -> int:
        """Whose side a row's score is counted for: the player to move (a change of side negates it)."""
        return int(row[self.turn])

    def static(self, row: np.ndarray) -> float:
        """A row's static value for its side."""
        return float(self.scorerow(row, *self.eval, EVAL_LIMIT))

    def last_ply(self, row: np.ndarray, ply: int) -> tuple[float, int]:
        """A row's value for its side searched one ply deep (in machine code), and its count of children; a child
        may be cut by the depth (``horizon``)."""
        self.horizon = True
        return self.frontier(row, ply, self.leaves, *self.eval, WIN, EVAL_LIMIT, self.view.misere)

    def terminal(self, entry: list, mover: int, ply: int) -> float:
        winner = entry[WINNER]
        if winner < 0:
            return 0.0
        return WIN - ply if winner == mover else ply - WIN

    def order(self, row: np.ndarray, entry: list) -> list[int]:
        """The children's indices, best static value (for the mover) first."""
        if entry[ORDER] is None:
            children = entry[CHILDREN]
            count = len(children)
            self.static_values(row, children, count)
            entry[ORDER] = np.argsort(-self.scores[:count], kind="stable").tolist()
        return entry[ORDER]

    def static_values(self, row: np.ndarray, children: np.ndarray, count: int) -> None:
        """``self.scores[:count]``: each child's static value from the row's mover's side."""
        self.ordering(row, children, count, self.scores, *self.eval, EVAL_LIMIT)

    def tick(self) -> None:
        """Count a node; past the deadline (read every CHECK_EVERY calls), :class:`OutOfTime`."""
        self.nodes += 1
        self.calls += 1  # the clock is read every CHECK_EVERY calls (a frontier call adds many nodes at once)
        if self.calls % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime

    def alphabeta(self, row: np.ndarray, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The alpha-beta value of a row to ``depth`` plies, for its player to move."""
        self.tick()
        entry = self.entry(row, row.tobytes())
        me = self.side(row)
        if entry[CHILDREN] is None:
            return self.terminal(entry, me, ply)
        if depth == 0:
            self.horizon = True
            return self.static(row)
        if depth == 1:
            best, count = self.last_ply(row, ply)
            self.nodes += int(count)
            return float(best)
        return self.inner(row, entry, me, depth, alpha, beta, ply)

    def inner(self, row: np.ndarray, entry: list, me: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """An inner node's value (``row``, ``entry`` its table entry, ``me`` its mover, ``depth`` at least 2): the
        table's answer when it has one, else its children searched in order."""
        stored = entry[DEPTH]
        if stored == depth or (stored > depth and not self.exact):
            score = from_table(entry[SCORE], ply)
            flag = entry[FLAG]
            if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                return score
        children = entry[CHILDREN]
        order = self.order(row, entry)
        first = entry[BEST]
        if first >= 0:
            order = [first] + [j for j in order if j != first]
        alpha_in = alpha
        best, found = -INFINITY, -1
        for j in order:
            child = children[j]
            value = self.child(child, self.side(child) != me, depth - 1, alpha, beta, ply + 1, found < 0)
            if value > best:
                best, found = value, j
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = LOWER if best >= beta else UPPER if best <= alpha_in else EXACT
        entry[DEPTH], entry[FLAG], entry[SCORE], entry[BEST] = depth, flag, to_table(best, ply), found
        return best

    def root_path(self) -> bytes:
        """What the table keys of the root's children hold besides their rows (here nothing)."""
        return b""

    def pushed(self, entry: list) -> bytes:
        """What the table keys of an entry's children hold besides their parent's (here nothing)."""
        return b""

    def principal_variation(self, game: Game, state: State, row: np.ndarray, depth: int) -> tuple[Move, ...]:
        """The table's best moves from ``state``, as far as they are known (as the game's moves)."""
        line: list[Move] = []
        path = self.root_path()
        while len(line) < depth:
            entry = self.table.get(row.tobytes() + path)
            if entry is None or entry[CHILDREN] is None or entry[BEST] < 0:
                break
            path += self.pushed(entry)
            row = entry[CHILDREN][entry[BEST]]
            move = next((m for m in game.legal_moves(state)
                         if np.array_equal(self.view.row(game.apply(state, m)), row)), None)
            if move is None:
                break
            line.append(move)
            state = game.apply(state, move)
        return tuple(line)


def make_searcher(view: KernelView, state: State, root: np.ndarray, exact: bool, table_mb: float,
                  limit: int) -> KernelSearcher | None:
    """The searcher of a search from ``state`` (row ``root``) at most ``limit`` plies deep: over ``children`` with
    the earlier positions for a kernel that keeps them (``None`` when the kernel disagrees with the game there)."""
    if not view.history:
        return KernelSearcher(view, exact=exact, table_mb=table_mb)
    from rulesdsl.interpreter.search.history_search import history_searcher  # (which imports this module)

    return history_searcher(view, state, root, exact, table_mb, limit)


def kernel_think(
    game: Game,
    state: State,
    depth: int | None,
    seconds: float | None,
    *,
    on_iteration: Callable[[Iteration], None] | None = None,
    catch_interrupt: bool = False,
    table_mb: float = 64.0,
    shuffle: random.Random | None = None,
    wait: bool = False,
) -> Result | None:
    """:func:`rulesdsl.interpreter.search.engine.think` on the kernel, or ``None`` when the game or the state has no
    kernel path (the caller searches the generic way); ``wait``: compile the machine code now if need be."""
    view = kernel_view(game, wait)
    if view is None:
        return None
    root = view.row(state)
    moves, outcome = game.status(state)
    if root is None or outcome is not None or not moves:
        return None
    if shuffle is not None:
        moves = list(moves)
        shuffle.shuffle(moves)
    moves, _ = static_order(game)(state, moves, False)
    children = [(move, view.row(game.apply(state, move))) for move in moves]
    if any(row is None for _, row in children):
        return None
    if depth is None and seconds is None:
        depth = 3
    limit = depth if depth is not None else MAX_DEPTH
    searcher = make_searcher(view, state, root, seconds is None, table_mb, limit)
    if searcher is None:
        return None
    started = time.perf_counter()
    if seconds is not None:
        searcher.deadline = started + seconds
    me = int(root[searcher.turn])
    result = Result(moves[0], 0.0, 0, 0, 0.0, kernel="native")
    partial: list = []
    try:
        with iterating(result, partial, catch_interrupt):
            for d in range(1, limit + 1):
                searcher.horizon = False
                partial.clear()
                best_score, alpha = -INFINITY, -INFINITY
                best: Move | None = None
                for move, row in children:
                    flip = int(row[searcher.turn]) != me
                    value = searcher.child(row, flip, d - 1, alpha, INFINITY, 1, best is None)
                    if value > best_score:
                        best, best_score = move, value
                        alpha = max(alpha, value)
                        partial[:] = [best, best_score]
                assert best is not None
                children.sort(key=lambda pair: pair[0] is not best)  # the best first in the next iteration
                elapsed = time.perf_counter() - started
                iteration = Iteration(d, best_score, searcher.nodes, elapsed,
                                      (best, *searcher.principal_variation(game, game.apply(state, best),
                                                                           children[0][1], d - 1)))
                result.move, result.score, result.depth = best, best_score, d
                result.iterations.append(iteration)
                if on_iteration is not None:
                    on_iteration(iteration)
                if not searcher.horizon or abs(best_score) >= WIN / 2:
                    break
    except TooManyChildren:  # more children than the native buffer holds: the caller searches generically
        return None
    result.nodes = searcher.nodes
    result.seconds = time.perf_counter() - started
    return result
