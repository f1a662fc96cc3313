"""Solving the explored tiers from the fewest pieces up, tiers with as many pieces side by side.

A move never adds a piece (:mod:`.tiers`), so a tier's moves lead to its own
positions or to tiers with fewer pieces in all: tiers with the same total
(5+4 and 4+5) never need each other's values. Each group of such tiers runs
at once in forked processes, one tier each, every process reading the lower
tiers' saved values and writing its own tier's files
(:func:`.retrograde.solve_tier` works on files only). Their progress comes
back to the main process through a queue.
"""

from __future__ import annotations

import multiprocessing
import queue as queues
from itertools import groupby
from multiprocessing.pool import Pool

from rulesdsl.interpreter.parallel.processes import can_fork, fork_pool, stop_pool
from rulesdsl.interpreter.solver.explore import Progress, Tier
from rulesdsl.interpreter.solver.retrograde import solve_tier
from rulesdsl.interpreter.solver.tiers import TierMap

POLL = 0.2  # seconds between looks at the queue of progress reports
SIDE_BY_SIDE_FROM = 1 << 16  # a group with fewer positions in all is solved in the main process: forking costs more

# What the forked processes read: the tiers by number, the tier map and the progress queue.
_JOB: tuple[dict[int, Tier], TierMap, object] | None = None


def solve_in_order(tiers: list[Tier], tiermap: TierMap, workers: int, progress: Progress | None = None) -> None:
    """Solve every tier (values and remoteness saved to its files), fewest pieces first."""
    by_number = {tier.number: tier for tier in tiers}
    total = sum(tier.size for tier in tiers)
    decided = 0
    ordered = sorted(tiers, key=lambda tier: tiermap.total(tier.number))
    for _, same in groupby(ordered, key=lambda tier: tiermap.total(tier.number)):
        group = list(same)
        if (workers > 1 and len(group) > 1 and sum(tier.size for tier in group) >= SIDE_BY_SIDE_FROM
                and can_fork()):
            _side_by_side(group, by_number, tiermap, min(workers, len(group)), progress, decided, total)
            decided += sum(tier.size for tier in group)
            continue
        for tier in group:
            solve_tier(tier, by_number, tiermap, progress, decided, total)
            decided += tier.size


def _report(number: int):
    """The progress callback of the process solving tier ``number``: its decided count goes on the queue."""
    assert _JOB is not None
    reports = _JOB[2]
    return lambda phase, size, done: reports.put((number, done))


def _solve_one(number: int) -> int:
    assert _JOB is not None
    by_number, tiermap, _ = _JOB
    solve_tier(by_number[number], by_number, tiermap, _report(number))
    return number


def _side_by_side(group: list[Tier], by_number: dict[int, Tier], tiermap: TierMap, processes: int,
                  progress: Progress | None, decided: int, total: int) -> None:
    """Solve the tiers of ``group`` at the same time in ``processes`` forked processes."""
    global _JOB
    context = multiprocessing.get_context("fork")
    reports = context.Queue()
    _JOB = by_number, tiermap, reports
    done_in = {tier.number: 0 for tier in group}
    pools: list[Pool] = []
    try:
        pool = fork_pool(processes, pools.append)
        result = pool.map_async(_solve_one, [tier.number for tier in group])
        while True:
            finished = result.ready()
            try:
                while True:
                    number, done = reports.get(timeout=0 if finished else POLL)
                    done_in[number] = done
                    if progress:
                        progress("retrograde", total, decided + sum(done_in.values()))
            except queues.Empty:
                pass
            if finished:
                break
        result.get()  # a failure in a process is raised here
        if progress:
            progress("retrograde", total, decided + sum(tier.size for tier in group))
    finally:
        for pool in pools:
            stop_pool(pool)
        _JOB = None
