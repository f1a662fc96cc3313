"""The alpha-beta engine on a native kernel that keeps earlier positions (``repetitions``, ``forbid repetition``).

Such a kernel has no ``expand``; its search helpers (:mod:`rulesdsl.interpreter.search.native_history`) work
over ``children`` and one ``hist`` array of earlier positions' keys, which the search carries along its path:
the root's history, then the key of each position on the path (``children`` adds a position's key when it
lists the position's children; each node puts ``hist[0, 0]`` back when its subtree is done). Everything else
is :class:`~rulesdsl.interpreter.search.kernel_search.KernelSearcher`'s (the table's rules, the order, principal
variation search, the clock).

The table's key is the row's bytes followed by the keys of the path from the root (the root's own and those of
the positions above the node): a position's value depends on the positions before it (a third repetition ends
the game; ``forbid repetition`` takes moves away), so an entry answers only for the same position reached by
the same path (the root's history is the same for the whole search). A fixed depth therefore gives exactly the
value of the reference search (tests/test_kernel_search_history.py). Transpositions by another path are not
shared; what the table still gives is the best move and the bounds of earlier iterations and of principal
variation search's re-searches.
"""

from __future__ import annotations

import numpy as np

from rulesdsl.interpreter.compile.game import State
from rulesdsl.interpreter.search.kernel_search import CHILDREN, KernelSearcher, KernelView, TooManyChildren
from rulesdsl.interpreter.search.minimax import EVAL_LIMIT, WIN

PUSHED = 7  # the field of a table entry holding the key its position added to ``hist`` (after KernelSearcher's)


class HistorySearcher(KernelSearcher):
    """One search over ``children`` with the earlier positions (see the module docstring)."""

    def __init__(self, view: KernelView, exact: bool, table_mb: float, hist: np.ndarray) -> None:
        super().__init__(view, exact, table_mb)
        self.hist = hist
        self.empty = np.zeros((2, hist.shape[1]), dtype=np.uint64)  # no earlier position: the static values' counts
        self.base = int(hist[0, 0])  # the keys of the root's history; the path's follow
        self.rs = np.ones(1, dtype=np.uint64)  # (children draws nothing when it writes every child)
        self.ends = tuple(int(w) for w in view.module.hendwin)

    def bind(self, module: object) -> None:
        self.hexpand, self.hfrontier, self.hordering = module.hexpand, module.hfrontier, module.hordering
        self.hscorerow = module.hscorerow

    def expand(self, row: np.ndarray) -> tuple[np.ndarray | None, int]:
        count = int(self.hexpand(row, self.hist, self.buf, self.rs))
        if count == -1:
            raise TooManyChildren
        if count > 0:
            return self.buf[:count].copy(), -2
        return None, self.winner(self.ends[-2 - count] if count < -1 else -1)

    def entry(self, row: np.ndarray, key: bytes) -> list:
        """The table entry, as KernelSearcher's; the position's key is in ``hist`` afterwards (unless the game
        is over there)."""
        hist = self.hist
        n = int(hist[0, 0])
        entry = self.table.get(key)
        if entry is None:
            entry = super().entry(row, key)
            entry.append(None if entry[CHILDREN] is None else hist[n + 1].copy())
        elif entry[CHILDREN] is not None:
            hist[n + 1] = entry[PUSHED]
            hist[0, 0] = n + 1
        return entry

    def static_values(self, row: np.ndarray, children: np.ndarray, count: int) -> None:
        self.hordering(row, children, count, self.scores, self.leaves, self.empty, self.rs, *self.eval, EVAL_LIMIT)

    def root_path(self) -> bytes:
        return self.hist[self.base + 1:self.base + 2].tobytes()

    def pushed(self, entry: list) -> bytes:
        return entry[PUSHED].tobytes()

    def alphabeta(self, row: np.ndarray, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The alpha-beta value of a row to ``depth`` plies, for its player to move, after the positions in
        ``hist`` (which it leaves as it found it)."""
        hist = self.hist
        n = int(hist[0, 0])
        self.tick()
        me = int(row[self.turn])
        if depth == 1:  # the last ply in one call, the row's own outcome with it
            best, count, seen = self.hfrontier(row, ply, hist, self.empty, self.buf, self.leaves, self.rs,
                                               *self.eval, WIN, EVAL_LIMIT, self.view.misere, beta)
            count = int(count)
            if count == -1:
                raise TooManyChildren
            if count <= 0:
                winner = self.winner(self.ends[-2 - count] if count < -1 else -1)
                return 0.0 if winner < 0 else WIN - ply if winner == me else ply - WIN
            self.nodes += int(seen)
            self.horizon = True
            return float(best)
        entry = self.entry(row, row.tobytes() + hist[self.base + 1:n + 1].tobytes())
        if entry[CHILDREN] is None:
            value = self.terminal(entry, me, ply)
        elif depth == 0:
            self.horizon = True
            value = float(self.hscorerow(row, self.empty, self.leaves, self.rs, *self.eval, EVAL_LIMIT))
        else:
            value = self.inner(row, entry, me, depth, alpha, beta, ply)
        hist[0, 0] = n
        return value


def history_searcher(view: KernelView, state: State, root: np.ndarray, exact: bool, table_mb: float,
                     limit: int) -> HistorySearcher | None:
    """A searcher from ``state`` (row ``root``) with its earlier positions, the root's key added, and room for
    the keys of a path ``limit`` plies long; ``None`` when the history is too long for the native array or the
    kernel finds no move there."""
    encoded = view.compiled._encode(state)
    if encoded is None:
        return None
    hist = view.native.history.rows_for(encoded[3], limit + 4)  # children adds one key a ply, the root's too
    if hist is None:
        return None
    searcher = HistorySearcher(view, exact, table_mb, hist)
    if searcher.hexpand(root, hist, searcher.buf, searcher.rs) <= 0:  # the root's key joins hist
        return None
    return searcher


def warm_history_search(module: object, symbols: int, width: int, weights: np.ndarray, consts: np.ndarray,
                        ft: np.ndarray) -> None:
    """Compile (or load) the helpers on the types :class:`HistorySearcher` passes (``symbols``: the row's words
    before the player to move; ``width``: the words of a key of ``hist``)."""
    from rulesdsl.interpreter.kernel.native_helpers import ROWS, history_array

    row = np.zeros(symbols + 2, dtype=np.uint64)
    out = np.zeros((ROWS, symbols + 2), dtype=np.uint64)
    hist, empty = history_array(None, width, 4), history_array(None, width, 1)
    rs = np.ones(1, dtype=np.uint64)
    module.hscorerow(row, empty, out, rs, weights, consts, 1.0, ft, 1.0)
    module.hfrontier(row, 1, hist, empty, out, out, rs, weights, consts, 1.0, ft, 2.0, 1.0, False, 1.0)
    module.hordering(row, out, 0, np.zeros(ROWS), out, empty, rs, weights, consts, 1.0, ft, 1.0)
    module.hexpand(row, hist, out, rs)
