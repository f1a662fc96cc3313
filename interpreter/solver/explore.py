"""Forward exploration: every position reachable from a root, with its moves.

Positions are explored a breadth-first layer at a time. Each layer is cut into
chunks that worker processes expand independently (decode the key, generate
the moves, encode each child); the main process only merges sorted key arrays,
so the work splits across cores with no shared state but the compiled game.
"""

from __future__ import annotations

import multiprocessing
import os
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from rulesdsl.interpreter.game import Game
from rulesdsl.interpreter.solver.encoding import PositionCodec, SolveError

# What a finished position is worth to the player to move there.
OPEN, WIN, LOSE, DRAW = 0, 1, 2, 3
CHUNK = 2000
PARALLEL_FROM = 4 * CHUNK  # layers smaller than this are expanded in the main process

Progress = Callable[[str, int, int], None]
EMPTY_KEYS = np.zeros(0, dtype=np.int64)


@dataclass
class Graph:
    """The reachable positions and their moves, as flat arrays.

    ``keys`` is sorted; position i is ``keys[i]``. ``outcome[i]`` is OPEN or the
    result of a finished position for its player to move. The moves of the
    positions in ``order`` (indices into ``keys``) are listed one position after
    another: ``degree`` moves each, to ``child`` (indices), ``flip`` set when the
    child's player to move is the other player.
    """

    keys: np.ndarray
    outcome: np.ndarray
    degree: np.ndarray
    order: np.ndarray
    child: np.ndarray
    flip: np.ndarray


def expand(game: Game, codec: PositionCodec, keys: list[int]) -> tuple[bytes, bytes, bytes, bytes]:
    """Outcome codes, move counts, child keys and flip flags of ``keys``' positions (as raw bytes)."""
    outcomes = bytearray()
    degrees = array("I")
    children = array("q")
    flips = bytearray()
    decode, encode, status, apply = codec.decode, codec.encode, game.status, game.apply
    for key in keys:
        state = decode(key)
        moves, outcome = status(state)
        if outcome is not None:
            outcomes.append(DRAW if outcome.winner is None else WIN if outcome.winner == state.turn else LOSE)
            degrees.append(0)
            continue
        outcomes.append(OPEN)
        degrees.append(len(moves))
        turn = state.turn
        for move in moves:
            child = apply(state, move)
            children.append(encode(child))
            flips.append(child.turn != turn)
    return bytes(outcomes), degrees.tobytes(), children.tobytes(), bytes(flips)


_WORKER: tuple[Game, PositionCodec] | None = None


def _expand_in_worker(keys: list[int]) -> tuple[bytes, bytes, bytes, bytes]:
    assert _WORKER is not None
    return expand(_WORKER[0], _WORKER[1], keys)


class Expander:
    """Expands chunks of positions in the main process or in forked workers."""

    def __init__(self, game: Game, codec: PositionCodec, workers: int):
        self.game, self.codec, self.workers = game, codec, workers
        self.pool = None

    def __enter__(self) -> Expander:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()

    def run(self, keys: np.ndarray) -> Iterator[tuple[int, tuple[bytes, bytes, bytes, bytes]]]:
        """Yield (chunk size, expansion) for consecutive chunks of ``keys``, in order."""
        chunks = [keys[i:i + CHUNK].tolist() for i in range(0, len(keys), CHUNK)]
        if self.workers > 1 and len(keys) >= PARALLEL_FROM and "fork" in multiprocessing.get_all_start_methods():
            if self.pool is None:
                global _WORKER
                _WORKER = (self.game, self.codec)
                self.pool = multiprocessing.get_context("fork").Pool(self.workers)
            yield from zip(map(len, chunks), self.pool.imap(_expand_in_worker, chunks))
            return
        for chunk in chunks:
            yield len(chunk), expand(self.game, self.codec, chunk)


def explore(game: Game, codec: PositionCodec, root: int, workers: int = 1,
            limit: int | None = None, progress: Progress | None = None) -> Graph:
    """Every position reachable from ``root`` and its moves.

    Raises :class:`SolveError` when more than ``limit`` positions are found.
    """
    seen = np.array([root], dtype=np.int64)
    frontier = seen
    expanded: list[np.ndarray] = []
    outcomes: list[np.ndarray] = []
    degrees: list[np.ndarray] = []
    children: list[np.ndarray] = []
    flips: list[np.ndarray] = []
    done = 0
    with Expander(game, codec, workers) as expander:
        while len(frontier):
            layer_children = []
            for size, (out, deg, kids, flip) in expander.run(frontier):
                outcomes.append(np.frombuffer(out, dtype=np.uint8))
                degrees.append(np.frombuffer(deg, dtype=np.uint32))
                kid_keys = np.frombuffer(kids, dtype=np.int64)
                children.append(kid_keys)
                layer_children.append(kid_keys)
                flips.append(np.frombuffer(flip, dtype=np.bool_))
                done += size
                if progress:
                    progress("explore", len(seen), done)
            expanded.append(frontier)
            fresh = np.unique(np.concatenate(layer_children)) if layer_children else seen[:0]
            at = np.searchsorted(seen, fresh)
            known = (at < len(seen)) & (seen[np.minimum(at, len(seen) - 1)] == fresh)
            frontier = fresh[~known]
            seen = np.insert(seen, at[~known], frontier)
            if limit is not None and len(seen) > limit:
                raise SolveError(f"more than {limit:,} positions are reachable")
    order = np.searchsorted(seen, np.concatenate(expanded)).astype(index_type(len(seen)))
    outcome = np.zeros(len(seen), dtype=np.uint8)
    outcome[order] = np.concatenate(outcomes)
    # Child keys become child indices one chunk at a time, so the two never both exist in full.
    child = np.empty(sum(map(len, children)), dtype=index_type(len(seen)))
    at = 0
    for i, keys in enumerate(children):
        child[at:at + len(keys)] = np.searchsorted(seen, keys)
        at += len(keys)
        children[i] = EMPTY_KEYS
    return Graph(seen, outcome, np.concatenate(degrees), order, child,
                 np.concatenate(flips) if flips else np.zeros(0, np.bool_))


def index_type(count: int) -> type:
    """The narrowest integer type that indexes ``count`` positions."""
    return np.int32 if count < 2**31 else np.int64


def default_workers() -> int:
    """All local cores."""
    return os.cpu_count() or 1
