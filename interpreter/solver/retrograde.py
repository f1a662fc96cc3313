"""Counting retrograde analysis over an explored graph.

Finished positions are decided first (remoteness 0). Then, one remoteness at a
time, every position decided at remoteness r tells its parents: a parent for
which this child is bad for the opponent is a win at r + 1 (the first such
child is the nearest); otherwise the parent's count of undecided children goes
down by one, and a parent whose count reaches zero is a loss at r + 1 (its last
child is its farthest). Positions never decided can avoid losing forever
without forcing a win: draws. So cycles come out as draws and never loop.

Seen from the parent, a child's value is flipped when the other player moves
there and kept when the same player moves again (go-again).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rulesdsl.interpreter.solver.explore import DRAW, LOSE, OPEN, WIN, Graph

Progress = Callable[[str, int, int], None]


def _ranges(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The concatenation of ``range(s, e)`` for each pair, vectorised."""
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(starts - np.concatenate(([0], np.cumsum(lengths)[:-1])), lengths)
    return offsets + np.arange(total, dtype=np.int64)


BLOCK = 1 << 20  # positions per block when packing moves


def _moves_into(graph: Graph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The moves inverted: for child c, its parents ``parents[inptr[c]:inptr[c+1]]`` with their flip flags.

    Takes the moves out of ``graph`` (to free them early). Each move is packed
    into one int64, child << 33 | parent << 1 | flip, and the array sorted in
    place: about 13 bytes per move at the peak.
    """
    n = len(graph.keys)
    child, flip = graph.child, graph.flip
    graph.child, graph.flip = np.zeros(0, child.dtype), np.zeros(0, np.bool_)  # fresh: a view would keep them
    inptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(child, minlength=n), out=inptr[1:])
    if n >= 2**30:  # too many positions to pack: sort an index instead
        by_child = np.argsort(child, kind="stable")
        parent = np.repeat(graph.order, graph.degree.astype(np.int64))
        return parent[by_child], flip[by_child], inptr
    packed = np.empty(len(child), dtype=np.int64)
    starts = np.zeros(len(graph.order) + 1, dtype=np.int64)
    np.cumsum(graph.degree, out=starts[1:])
    for first in range(0, len(graph.order), BLOCK):
        last = min(first + BLOCK, len(graph.order))
        a, b = starts[first], starts[last]
        parent = np.repeat(graph.order[first:last].astype(np.int64), graph.degree[first:last].astype(np.int64))
        packed[a:b] = (child[a:b].astype(np.int64) << 33) | (parent << 1) | flip[a:b]
    del child, flip, parent
    packed.sort()
    parents = ((packed >> 1) & 0xFFFFFFFF).astype(np.int32)
    flips = (packed & 1).astype(np.bool_)
    return parents, flips, inptr


def solve_graph(graph: Graph, progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Value (WIN, LOSE or DRAW for the player to move) and remoteness of every position."""
    n = len(graph.keys)
    parents, flips, inptr = _moves_into(graph)
    value = graph.outcome.copy()
    remoteness = np.zeros(n, dtype=np.uint16)
    pending = np.zeros(n, dtype=np.int32)
    pending[graph.order] = graph.degree
    frontier = np.flatnonzero((value == WIN) | (value == LOSE))
    decided = int(np.count_nonzero(value))
    level = 0
    while len(frontier):
        edges = _ranges(inptr[frontier], inptr[frontier + 1])
        child_value = np.repeat(value[frontier], inptr[frontier + 1] - inptr[frontier])
        who = parents[edges]
        good = np.where(flips[edges], child_value == LOSE, child_value == WIN)
        winners = np.unique(who[good])
        winners = winners[value[winners] == OPEN]
        value[winners] = WIN
        losing, times = np.unique(who[~good], return_counts=True)
        pending[losing] -= times.astype(np.int32)
        losers = losing[(pending[losing] == 0) & (value[losing] == OPEN)]
        value[losers] = LOSE
        level += 1
        frontier = np.concatenate((winners, losers))
        remoteness[frontier] = level
        decided += len(frontier)
        if progress:
            progress("retrograde", n, decided)
    value[value == OPEN] = DRAW
    return value, remoteness
