"""Paranoid and max^n on the native kernel: the searches of more than two players over rows of words.

The same searches as :mod:`rulesdsl.interpreter.search.paranoid` and
:mod:`rulesdsl.interpreter.search.maxn`, on the row interface of
:mod:`rulesdsl.interpreter.search.kernel_search` (a position is a row of words,
its children written by ``expandrow``, the table keyed by the row's bytes,
the last ply one call in machine code) with the helpers of
:mod:`rulesdsl.interpreter.search.native_players`; iterative deepening,
the clock and the result are :mod:`rulesdsl.interpreter.search.deepening`'s.

- Paranoid is the two-player searcher (:class:`KernelSearcher`: its table
  rules, move order, principal variation search under a clock) with two sides:
  the root player's and everyone else's. A row's score is the root player's
  value, negated on the other side; the static value at a leaf is the root
  player's, whoever moves.
- max^n keeps a value vector per row (each player's static value at a leaf,
  each player's reward times ``WIN - ply`` at the end of a game); the player
  to move picks by :func:`rulesdsl.interpreter.search.maxn.preferred`, so the
  vector does not depend on the order the kernel writes children in. The table
  keeps a row's vector for the remaining depth and the ply it was found at.

A search to a fixed depth gives the generic search's value and move
(tests/test_kernel_search_players.py): each iteration starts with the table's
scores forgotten (the children and their order are kept), so that no line is
cut short by an entry of an earlier iteration and the horizon is seen as the
generic search sees it.

In a game that gives places (``finishes``: the seats' places in one word of
the row, :mod:`rulesdsl.interpreter.kernel.places`) a finished row is worth
each seat's reward for its final place times ``WIN - ply`` in both searches,
as the generic ones score it (a table entry keeps the rewards where it would
keep the winner); a row where some seats have finished is scored at the
horizon by the board's evaluation, as the generic searches score it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from rulesdsl.interpreter.compile.game import Game, Move, State, rank_returns
from rulesdsl.interpreter.kernel.places import places_word, unpack
from rulesdsl.interpreter.reference.places import final_places
from rulesdsl.interpreter.search.deepening import begin, deepen
from rulesdsl.interpreter.search.engine import CHECK_EVERY, Iteration, OutOfTime, Result
from rulesdsl.interpreter.search.kernel_search import (
    CHILDREN,
    DEPTH,
    ORDER,
    SCORE,
    WINNER,
    KernelSearcher,
    KernelView,
    rows_view,
)
from rulesdsl.interpreter.search.maxn import Vector, best_for, preferred
from rulesdsl.interpreter.search.minimax import EVAL_LIMIT, INFINITY, WIN
from rulesdsl.interpreter.search.native_players import MARK


def players_view(game: Game, wait: bool = False) -> KernelView | None:
    """The kernel view of a game of more than two players whose kernel holds the helpers (its machine code ready,
    or made now with ``wait``), else ``None``."""
    compiled = getattr(game, "_compiled", None)
    if len(game.players) < 3 or compiled is None or compiled.kernel() is None:
        return None
    view = rows_view(game, wait)
    return view if view is not None and hasattr(view.module, MARK) else None


class RowSearch(KernelSearcher):
    """What both searches add to the kernel searcher: the root moves' rows, the helpers, a fresh iteration."""

    def __init__(self, view: KernelView, exact: bool, table_mb: float, rows: dict[Move, np.ndarray]) -> None:
        super().__init__(view, exact, table_mb)
        self.rows = rows
        module = view.module
        self.scorefor, self.scoresfor, self.vectorrow = module.scorefor, module.scoresfor, module.vectorrow
        self.pfrontier, self.mfrontier = module.pfrontier, module.mfrontier
        kernel = view.native.kernel
        self.seats = kernel.seats  # a game that gives places (0: none): its seats and the column of its places word
        self.places = view.native.place(places_word(kernel), 0)[0] if kernel.seats else -1

    def expand(self, row: np.ndarray) -> tuple[np.ndarray | None, int | Vector]:
        """:meth:`KernelSearcher.expand`; in a game that gives places, a finished row's rewards for its final
        places instead of its winner."""
        children, winner = super().expand(row)
        if children is not None or not self.seats:
            return children, winner
        final = final_places(unpack(int(row[self.places]), self.seats), winner if winner >= 0 else None)
        return children, rank_returns(final)

    def fresh(self) -> None:
        """Forget the scores found so far (the children, their order and best child stay)."""
        for entry in self.table.values():
            entry[DEPTH] = -1


class ParanoidRows(RowSearch):
    """Paranoid alpha-beta on rows: side 1 is the root player ``me``, side 0 everyone else."""

    def __init__(self, view: KernelView, me: int, exact: bool, table_mb: float, rows: dict[Move, np.ndarray]) -> None:
        super().__init__(view, exact, table_mb, rows)
        self.me = me

    def side(self, row: np.ndarray) -> int:
        return int(int(row[self.turn]) == self.me)

    def static(self, row: np.ndarray) -> float:
        value = float(self.scorefor(row, self.me, *self.eval, EVAL_LIMIT))
        return value if self.side(row) else -value

    def last_ply(self, row: np.ndarray, ply: int) -> tuple[float, int]:
        best, count, live = self.pfrontier(row, ply, self.leaves, self.me, *self.eval, WIN, EVAL_LIMIT,
                                           self.view.misere)
        self.horizon = self.horizon or live > 0
        return (float(best) if self.side(row) else -float(best)), count

    def terminal(self, entry: list, side: int, ply: int) -> float:
        winner = entry[WINNER]
        if isinstance(winner, tuple):  # the rewards for places
            value = winner[self.me] * (WIN - ply)
        elif winner < 0:
            return 0.0
        else:
            value = WIN - ply if winner == self.me else ply - WIN
        return value if side else -value

    def order(self, row: np.ndarray, entry: list) -> list[int]:
        """The children's indices, best static value for the row's side first."""
        if entry[ORDER] is None:
            children = entry[CHILDREN]
            count = len(children)
            self.scoresfor(children, count, self.scores, self.me, *self.eval, EVAL_LIMIT)
            values = self.scores[:count] if self.side(row) else -self.scores[:count]
            entry[ORDER] = np.argsort(-values, kind="stable").tolist()
        return entry[ORDER]

    def root(self, state: State, moves: list[Move], depth: int) -> tuple[Move, float]:
        """The root player's best move to ``depth`` plies and its value (as the generic paranoid root)."""
        self.fresh()
        best, best_value = moves[0], -INFINITY
        for move in moves:
            row = self.rows[move]
            value = self.child(row, not self.side(row), depth - 1, best_value, INFINITY, 1, best_value == -INFINITY)
            if value > best_value:
                best, best_value = move, value
        return best, best_value


class MaxNRows(RowSearch):
    """max^n on rows (see the module docstring)."""

    def __init__(self, view: KernelView, table_mb: float, rows: dict[Move, np.ndarray]) -> None:
        super().__init__(view, True, table_mb, rows)
        self.players = len(view.weights)
        self.loser = rank_returns((1,) + (2,) * (self.players - 1))[1]  # the reward of a seat that did not win
        self.vector, self.spare = np.zeros(self.players), np.zeros(self.players)

    def tick(self) -> None:
        """Count a node; raise :class:`OutOfTime` when the clock has run out (read every ``CHECK_EVERY`` calls)."""
        self.nodes += 1
        self.calls += 1
        if self.calls % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime

    def value(self, row: np.ndarray, depth: int, ply: int) -> Vector:
        """The max^n value vector of a row searched ``depth`` plies deep (``ply``: plies from the root)."""
        self.tick()
        entry = self.entry(row, row.tobytes())
        if entry[CHILDREN] is None:
            winner = entry[WINNER]
            if isinstance(winner, tuple):  # the rewards for places
                return tuple(r * (WIN - ply) for r in winner)
            return tuple(0.0 if winner < 0 else (WIN - ply if p == winner else self.loser * (WIN - ply))
                         for p in range(self.players))
        if depth == 0:
            self.horizon = True
            self.vectorrow(row, self.vector, self.players, *self.eval, EVAL_LIMIT)
            return tuple(float(v) for v in self.vector)
        if depth == 1:
            count, live = self.mfrontier(row, ply, self.leaves, self.vector, self.spare, self.players, self.loser,
                                         *self.eval, WIN, EVAL_LIMIT, self.view.misere)
            self.nodes += int(count)
            self.horizon = self.horizon or live > 0
            return tuple(float(v) for v in self.vector)
        if entry[DEPTH] == depth and entry[SCORE][0] == ply:
            return entry[SCORE][1]
        mover = int(row[self.turn])
        best: Vector | None = None
        for child in entry[CHILDREN]:
            vector = self.value(child, depth - 1, ply + 1)
            if best is None or preferred(vector, best, mover):
                best = vector
        assert best is not None  # an unfinished game has a move
        entry[DEPTH], entry[SCORE] = depth, (ply, best)
        return best

    def root(self, state: State, moves: list[Move], depth: int) -> tuple[Move, Vector]:
        """The mover's best move to ``depth`` plies and its value vector (as the generic max^n root)."""
        return best_for(self.view.game.to_move(state), moves, lambda move: self.value(self.rows[move], depth - 1, 1))


def players_think(
    game: Game,
    state: State,
    engine: str,
    depth: int | None,
    seconds: float | None,
    *,
    on_iteration: Callable[[Iteration], None] | None = None,
    catch_interrupt: bool = False,
    shuffle: random.Random | None = None,
    table_mb: float = 64.0,
    wait: bool = False,
) -> Result | None:
    """``engine`` (``paranoid`` or ``maxn``) on the kernel, or ``None`` when the game or the state has no kernel
    path (the caller searches the generic way); the arguments mean what they mean for
    :func:`rulesdsl.interpreter.search.paranoid.think_paranoid`; ``wait``: compile the machine code now."""
    view = players_view(game, wait)
    if view is None or view.row(state) is None:
        return None
    start = begin(game, state, depth, seconds, shuffle)
    if start is None:
        return None
    moves, depth, started, deadline = start
    rows = {move: view.row(game.apply(state, move)) for move in moves}
    if any(row is None for row in rows.values()):
        return None
    search: ParanoidRows | MaxNRows
    if engine == "paranoid":
        search = ParanoidRows(view, game.to_move(state), seconds is None, table_mb, rows)
        score, settled = float, lambda points: abs(points) >= WIN / 2
    else:
        search = MaxNRows(view, table_mb, rows)
        mover = game.to_move(state)
        score, settled = (lambda vector: vector[mover]), (lambda _: False)
    search.deadline = deadline
    result = deepen(search, state, moves, depth, started, engine, score, settled, on_iteration, catch_interrupt)
    result.kernel = "native"
    return result
