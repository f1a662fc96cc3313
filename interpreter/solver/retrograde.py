"""Retrograde analysis of one tier, a remoteness level at a time, with the moves read from disk.

Finished positions are decided first (remoteness 0). Then sweep r = 1, 2, ...
looks at every undecided position of the tier and its children decided at a
remoteness below r: if some child is bad for the opponent, the position is a
win at r (no child bad for the opponent was decided earlier, or the position
would already be decided, so the nearest is at r - 1); if every child is
decided and good for the opponent, it is a loss at r (the farthest child is at
r - 1). Children in lower tiers are already solved and count from the sweep
after their remoteness. When a sweep decides nothing and no lower child is
still to count, the positions left can avoid losing forever without forcing a
win: draws. So cycles come out as draws and never loop.

Seen from the parent, a child's value is flipped when the other player moves
there and kept when the same player moves again (go-again).

The moves are never all in memory: they are streamed from the tier's files a
block of positions at a time, as child indices into the values of the tier
and of the lower tiers it reaches. In memory: the tier's keys while the moves
are being indexed, then one byte of value and two of remoteness per position
(of the tier and of those lower tiers), and four bytes of expansion order.
Blocks whose positions are all decided are skipped in later sweeps, and
once fewer than half the positions in the file are undecided, the file is
rewritten with only theirs.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from rulesdsl.interpreter.solver.explore import DRAW, LOSE, OPEN, WIN, Tier, unique
from rulesdsl.interpreter.solver.fast_tables import KeyIndex, compiled
from rulesdsl.interpreter.solver.tiers import TierMap

Progress = Callable[[str, int, int], None]
BLOCK = 1 << 16  # positions per block of moves read back (about 10 MB of temporary arrays for ten moves each)
INDEX_BLOCK = 1 << 18  # moves per block when turning child keys into indices


def _index_moves(tier: Tier, lower: dict[int, Tier], tiers: TierMap) -> tuple[np.ndarray, np.ndarray, type]:
    """Write ``edge``: each move as (index of the child) * 2 + flip; returns the values and remoteness it indexes.

    Indices below the tier's size are its own positions; the lower tiers' positions follow, tier after tier.
    """
    value = tier.load("outcome")
    remoteness = np.zeros(len(value), dtype=np.uint16)
    offsets = {tier.number: 0}
    values, remotenesses = [value], [remoteness]
    at = len(value)
    for number in sorted(tier.reaches):
        offsets[number] = at
        values.append(lower[number].load("value"))
        remotenesses.append(lower[number].load("remoteness"))
        at += len(values[-1])
    index_type = np.int32 if 2 * at < 2**31 else np.int64
    block = INDEX_BLOCK
    fast = compiled() if not tiers.codec.wide else None
    keys, neighbours, finder = np.zeros(0, dtype=np.int64), {}, None
    if fast is not None:
        # one hash index over every key the moves may reach, in the order of the values: no tier numbers needed
        # (a key's tier is a function of the key, so the keys are distinct); read a tier at a time into place
        every = np.empty(at, dtype=np.int64)
        for number, start in offsets.items():
            part = (tier if number == tier.number else lower[number]).load("keys")
            every[start:start + len(part)] = part
            del part
        finder = KeyIndex(fast, every)
    else:
        keys = tier.load("keys")
        neighbours = {number: lower[number].load("keys") for number in sorted(tier.reaches)}
    with open(tier.path("child"), "rb") as children, open(tier.path("flip"), "rb") as flips, \
            open(tier.path("edge"), "wb") as edges:
        while True:
            kids = np.fromfile(children, dtype=tiers.codec.key_dtype, count=block)
            if not len(kids):
                break
            flip = np.fromfile(flips, dtype=np.uint8, count=len(kids))
            if finder is not None:
                index = finder.find(kids)
            else:
                index = np.empty(len(kids), dtype=np.int64)
                where = tiers.of(kids)
                for number in unique(where).tolist():
                    pick = where == number
                    known = keys if number == tier.number else neighbours[number]
                    index[pick] = np.searchsorted(known, kids[pick]) + offsets[number]
            ((index << 1) | flip).astype(index_type).tofile(edges)
    del keys, neighbours, finder
    os.remove(tier.path("child"))
    os.remove(tier.path("flip"))
    return np.concatenate(values), np.concatenate(remotenesses), index_type


def solve_tier(tier: Tier, lower: dict[int, Tier], tiers: TierMap, progress: Progress | None = None,
               decided_before: int = 0, total: int = 0) -> None:
    """Solve ``tier`` (its lower tiers already solved); saves its ``value`` and ``remoteness``."""
    value, remoteness, index_type = _index_moves(tier, lower, tiers)
    n = tier.size
    order = tier.load("order")
    degree = np.fromfile(tier.path("degree"), dtype=np.uint16)
    blocks = _blocks(degree)
    fixed = value[n:]
    last_fixed = int(remoteness[n:][(fixed == WIN) | (fixed == LOSE)].max(initial=0))
    decided = int(np.count_nonzero(value[:n] != OPEN))
    itemsize = np.dtype(index_type).itemsize
    fast = compiled()
    level = 0
    while blocks:
        level += 1
        fresh = 0
        still = []
        with open(tier.path("edge"), "rb") as edges:
            for first, last, at in blocks:
                if fast is not None:  # the same sweep in machine code, deciding in place
                    edges.seek(at * itemsize)
                    counts = degree[first:last]
                    edge = np.fromfile(edges, dtype=index_type, count=int(counts.sum(dtype=np.int64)))
                    decided_here, undecided = fast.sweep(edge, counts, order[first:last], value, remoteness, level,
                                                         OPEN, WIN, LOSE)
                    fresh += decided_here
                    if undecided:
                        still.append((first, last, at))
                    continue
                parents = order[first:last]
                open_ = value[parents] == OPEN
                if not open_.any():
                    continue
                starts = np.zeros(last - first + 1, dtype=np.int64)
                np.cumsum(degree[first:last], out=starts[1:])
                edges.seek(at * itemsize)
                edge = np.fromfile(edges, dtype=index_type, count=int(starts[-1]))
                won, lost = _sweep(edge, starts, value, remoteness, level)
                won &= open_
                lost &= open_ & ~won
                value[parents[won]] = WIN
                value[parents[lost]] = LOSE
                remoteness[parents[won | lost]] = level
                fresh += int(np.count_nonzero(won | lost))
                still.append((first, last, at))
        blocks = still
        decided += fresh
        if progress:
            progress("retrograde", total or n, decided_before + decided)
        if not fresh and level > last_fixed:
            break
        if blocks and len(order) > BLOCK and 2 * (n - decided) < len(order):
            order, degree = _compact(tier, order, degree, value, index_type, blocks)
            blocks = _blocks(degree)
    mine = value[:n]
    mine[mine == OPEN] = DRAW
    tier.save("value", mine.copy())
    tier.save("remoteness", remoteness[:n].copy())
    os.remove(tier.path("edge"))
    os.remove(tier.path("degree"))


def _blocks(degree: np.ndarray) -> list[tuple[int, int, int]]:
    """Blocks of expanded positions: (first rank, last rank, first move); dropped once all of it is decided."""
    blocks = []
    moves = 0
    for first in range(0, len(degree), BLOCK):
        last = min(first + BLOCK, len(degree))
        blocks.append((first, last, moves))
        moves += int(degree[first:last].sum(dtype=np.int64))
    return blocks


def _compact(tier: Tier, order: np.ndarray, degree: np.ndarray, value: np.ndarray, index_type: type,
             blocks: list[tuple[int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Rewrite the moves file with only the undecided positions' moves; their order and move counts.

    Called when fewer than half the positions in the file are undecided, so
    later sweeps read less (the draws stay to the end).
    """
    itemsize = np.dtype(index_type).itemsize
    kept_order, kept_degree = [], []
    with open(tier.path("edge"), "rb") as source, open(tier.path("edge.new"), "wb") as target:
        for first, last, at in blocks:
            parents, counts = order[first:last], degree[first:last]
            open_ = value[parents] == OPEN
            source.seek(at * itemsize)
            edge = np.fromfile(source, dtype=index_type, count=int(counts.sum(dtype=np.int64)))
            edge[np.repeat(open_, counts)].tofile(target)
            kept_order.append(parents[open_])
            kept_degree.append(counts[open_])
    os.replace(tier.path("edge.new"), tier.path("edge"))
    return np.concatenate(kept_order), np.concatenate(kept_degree)


def _sweep(edge: np.ndarray, starts: np.ndarray, value: np.ndarray, remoteness: np.ndarray,
           level: int) -> tuple[np.ndarray, np.ndarray]:
    """Per parent of a block: (some child bad for the opponent, every child good for the opponent).

    Only children decided below ``level`` count. ``starts`` are the parents' first moves, plus the end.
    """
    child = edge >> 1
    flip = (edge & 1).astype(np.uint8)
    seen = value[child]
    counts = remoteness[child] < level
    del child
    bad = counts & (seen == WIN + flip)  # bad for the opponent: WIN if the same player moves again, else LOSE
    good = counts & (seen == LOSE - flip)
    del counts, seen, flip
    bad_sum = np.concatenate(([0], np.cumsum(bad, dtype=np.int32)))
    good_sum = np.concatenate(([0], np.cumsum(good, dtype=np.int32)))
    degree = starts[1:] - starts[:-1]
    won = (bad_sum[starts[1:]] - bad_sum[starts[:-1]]) > 0
    lost = (good_sum[starts[1:]] - good_sum[starts[:-1]]) == degree
    return won, lost & (degree > 0)
