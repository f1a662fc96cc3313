"""Forward exploration, tier by tier: every position reachable from a root, with its moves.

Tiers (:mod:`.tiers`) are explored from the most pieces down: a tier's
positions can only be reached from tiers with more pieces, so by the time a
tier comes up, every way into it is known. Within a tier, positions are
explored a breadth-first layer at a time; each layer is cut into chunks that
forked worker processes expand (:mod:`.successors`). The main process keeps
only the tier's sorted int64 keys; the moves (child keys, flip flags, move
counts) go straight to files in a scratch folder, to be read back in blocks
by the retrograde analysis. Children in lower tiers become that tier's seeds.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from rulesdsl.interpreter.compile.game import Game
from rulesdsl.interpreter.parallel.processes import can_fork, fork_pool, stop_pool
from rulesdsl.interpreter.solver.encoding import PositionCodec, SolveError
from rulesdsl.interpreter.solver.fast_tables import KeySet, compiled
from rulesdsl.interpreter.solver.successors import DRAW, LOSE, OPEN, WIN, Expander, Expansion
from rulesdsl.interpreter.solver.tiers import TierMap

__all__ = ["DRAW", "LOSE", "OPEN", "WIN", "Progress", "Tier", "default_workers", "explore"]

CHUNK = 2000
PARALLEL_FROM = 4 * CHUNK  # layers smaller than this are expanded in the main process
MERGE_EVERY = 64  # seed arrays waiting for a lower tier are merged when this many pile up

Progress = Callable[[str, int, int], None]


@dataclass
class Tier:
    """One tier's files in the scratch folder, and what is known about it.

    ``keys.npy``: the sorted keys (position i is keys[i]). ``order.npy``: for
    each position in the order it was expanded, its index in ``keys``.
    ``outcome.npy``: per position (sorted), OPEN or the result of a finished
    position for its player to move. ``degree``: per expanded position, its
    move count (uint16); ``child``: each move's child key (int64); ``flip``:
    per move, 1 when the other player moves next. After solving,
    ``value.npy`` and ``remoteness.npy`` (per sorted position).
    """

    number: int
    folder: Path
    size: int = 0
    moves: int = 0
    reaches: set[int] = field(default_factory=set)  # the lower tiers its moves lead to

    def path(self, name: str) -> Path:
        """The file ``name`` of this tier."""
        return self.folder / f"tier{self.number}.{name}"

    def load(self, name: str) -> np.ndarray:
        """A saved array of this tier."""
        return np.load(self.path(name + ".npy"))

    def save(self, name: str, array: np.ndarray) -> None:
        """Save an array of this tier."""
        np.save(self.path(name + ".npy"), array)


def unique(keys: np.ndarray) -> np.ndarray:
    """The distinct values of ``keys``, sorted (a sort and a comparison: numpy's hashing unique is several
    times slower on these arrays)."""
    keys = np.sort(keys)
    if len(keys) < 2:
        return keys
    keep = np.empty(len(keys), dtype=np.bool_)
    keep[0] = True
    keep[1:] = keys[1:] != keys[:-1]  # int64 or wide (structured) keys alike
    return keys[keep]


# One chunk expanded: the expansion, its distinct children (sorted) and their tiers.
Chunk = tuple[Expansion, np.ndarray, np.ndarray]
_WORKER: tuple[Expander, TierMap] | None = None


def _expand_chunk(keys: np.ndarray) -> Chunk:
    assert _WORKER is not None
    expander, tiers = _WORKER
    expansion = expander.expand(keys)
    children = unique(np.frombuffer(expansion[2], dtype=tiers.codec.key_dtype))
    return expansion, children, tiers.of(children)


class Workers:
    """Expands chunks of positions in the main process or in forked workers."""

    def __init__(self, expander: Expander, tiers: TierMap, workers: int):
        self.expander, self.tiers, self.workers = expander, tiers, workers
        self.pool: Pool | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            stop_pool(self.pool)

    def _keep(self, pool: Pool) -> None:
        self.pool = pool

    def run(self, keys: np.ndarray) -> Iterator[tuple[int, Chunk]]:
        """Yield (chunk size, expanded chunk) for consecutive chunks of ``keys``, in order."""
        global _WORKER
        _WORKER = self.expander, self.tiers
        chunks = [keys[i:i + CHUNK] for i in range(0, len(keys), CHUNK)]
        if self.workers > 1 and len(keys) >= PARALLEL_FROM and can_fork():
            if self.pool is None:
                fork_pool(self.workers, self._keep)
            yield from zip(map(len, chunks), self.pool.imap(_expand_chunk, chunks))
            return
        for chunk in chunks:
            yield len(chunk), _expand_chunk(chunk)


def _member(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Which of ``keys`` are in ``sorted_keys``."""
    if not len(sorted_keys):
        return np.zeros(len(keys), dtype=np.bool_)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[at] == keys


class Seen:
    """The positions of a tier found so far: a hash set in machine code, or (without numba, or with wide keys) one
    sorted array per breadth-first layer, searched one after another."""

    def __init__(self, seeds: np.ndarray, fast: SimpleNamespace | None):
        self.set = KeySet(fast, len(seeds)) if fast is not None else None
        self.layers: list[np.ndarray] = []
        self.add(seeds)

    def add(self, keys: np.ndarray) -> None:
        """Add ``keys`` (distinct, sorted, none seen before)."""
        if self.set is not None:
            self.set.add(keys)
        else:
            self.layers.append(keys)

    def new(self, keys: np.ndarray) -> np.ndarray:
        """The keys of ``keys`` not seen yet."""
        if self.set is not None:
            return keys[~self.set.has(keys)]
        for layer in self.layers:
            keys = keys[~_member(layer, keys)]
        return keys


def explore(game: Game, codec: PositionCodec, root: int, folder: Path, workers: int = 1,
            limit: int | None = None, progress: Progress | None = None) -> list[Tier]:
    """Explore every position reachable from ``root`` into ``folder``; the tiers, most pieces first.

    Raises :class:`SolveError` when more than ``limit`` positions are found.
    """
    tiers = TierMap(game, codec)
    first = codec.keys([root])
    waiting: dict[int, list[np.ndarray]] = {int(tiers.of(first)[0]): [first]}
    done: list[Tier] = []
    found = 0
    with Workers(Expander(game, codec), tiers, workers) as pool:
        while waiting:
            number = max(waiting, key=tiers.total)
            tier = Tier(number, folder)
            found = _explore_tier(tier, waiting.pop(number), tiers, pool, waiting, found, limit, progress)
            done.append(tier)
    return done


def _explore_tier(tier: Tier, piles: list[np.ndarray], tiers: TierMap, pool: Workers,
                  waiting: dict[int, list[np.ndarray]], found: int, limit: int | None,
                  progress: Progress | None) -> int:
    """Explore one tier from its seeds (``piles``, emptied); returns the count of positions found in all tiers."""
    seeds = unique(np.concatenate(piles))
    piles.clear()
    seen = Seen(seeds, None if tiers.codec.wide else compiled())  # the tier's positions so far
    found_here = len(seeds)
    frontier = seeds
    expanded = 0
    total = tiers.total(tier.number)
    with ExitStack() as stack:
        files = {name: stack.enter_context(open(tier.path(name), "wb"))
                 for name in ("ranked", "outcome", "degree", "child", "flip")}
        while len(frontier):
            fresh_parts: list[np.ndarray] = []
            waiting_fresh = merged = 0
            for size, ((out, deg, kids, flip), children, where) in pool.run(frontier):
                degrees = np.frombuffer(deg, dtype=np.uint32)
                if len(degrees) and degrees.max() >= 2**16:
                    raise SolveError("a position with 65,536 moves or more is beyond the solver")
                files["outcome"].write(out)
                files["degree"].write(degrees.astype(np.uint16).tobytes())
                files["child"].write(kids)
                files["flip"].write(flip)
                here = where == tier.number
                fresh = seen.new(children[here])
                fresh_parts.append(fresh)
                waiting_fresh += len(fresh)
                if waiting_fresh > 2 * merged + max(found_here // 8, 1 << 16):  # the same child from many chunks
                    fresh_parts = [unique(np.concatenate(fresh_parts))]
                    waiting_fresh = merged = len(fresh_parts[0])
                for other in unique(where[~here]).tolist():
                    if tiers.total(other) >= total:
                        raise SolveError("a move added a piece although no rule places one (a solver bug)")
                    tier.reaches.add(other)
                    pile = waiting.setdefault(other, [])
                    pile.append(children[where == other])
                    if len(pile) >= MERGE_EVERY:
                        waiting[other] = [unique(np.concatenate(pile))]
                expanded += size
                tier.moves += len(kids) // tiers.codec.key_dtype.itemsize
                if progress:
                    progress("explore", found + found_here, found + expanded)
            files["ranked"].write(frontier.tobytes())
            frontier = unique(np.concatenate(fresh_parts)) if fresh_parts else seeds[:0]
            del fresh_parts
            if len(frontier):
                seen.add(frontier)
            found_here += len(frontier)
            if limit is not None and found + found_here > limit:
                raise SolveError(f"more than {limit:,} positions are reachable")
    del seen, frontier, seeds
    keys = np.fromfile(tier.path("ranked"), dtype=tiers.codec.key_dtype)  # every layer, read back into one array
    keys.sort()
    tier.size = len(keys)
    tier.save("keys", keys)
    _sort_order(tier, keys, tiers.codec.key_dtype)
    return found + len(keys)


def _sort_order(tier: Tier, keys: np.ndarray, key_dtype: np.dtype) -> None:
    """Turn the expansion-order files into ``order.npy`` and ``outcome.npy`` (indices into the sorted keys)."""
    order = np.empty(len(keys), dtype=np.int32 if len(keys) < 2**31 else np.int64)
    block = 1 << 20
    with open(tier.path("ranked"), "rb") as ranked:
        for start in range(0, len(keys), block):
            part = np.fromfile(ranked, dtype=key_dtype, count=block)
            order[start:start + len(part)] = np.searchsorted(keys, part)
    os.remove(tier.path("ranked"))
    outcome = np.zeros(len(keys), dtype=np.uint8)
    outcome[order] = np.fromfile(tier.path("outcome"), dtype=np.uint8)
    os.remove(tier.path("outcome"))
    tier.save("order", order)
    tier.save("outcome", outcome)


def default_workers() -> int:
    """All local cores."""
    return os.cpu_count() or 1

