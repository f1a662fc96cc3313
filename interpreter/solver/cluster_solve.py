"""Solving on a Dask cluster: the tiers as today, each tier's positions split over the workers by key.

The client (this process) plans: it explores the tiers from the most pieces
down and solves them from the fewest up, like the embedded solver, but every
step over a tier's positions is a batch of tasks (:mod:`.cluster_tasks`), one
per partition or per segment of a partition's frontier, that read and write
files in a work folder every worker can read (``--scratch``). What travels
through Dask is small: the tasks' arguments and their counts. A layer or a
tier with fewer than :data:`SMALL` positions runs as one task (spreading it
would cost more in scheduling than it saves).

Each solved tier is stored at once, in its own transaction, in the same
SQLite table the embedded solver writes, with a row in ``tiers_done``; a run
that finds such rows for its start skips those tiers (it neither explores nor
solves them: their values come back from the database), so a solve whose
scheduler died resumes from the tiers already finished.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any

import numpy as np

from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.parallel.cluster import ClusterError, lost_scheduler, recipe, workers_status
from rulesdsl.interpreter.solver import cluster_tasks as tasks
from rulesdsl.interpreter.solver import encoding
from rulesdsl.interpreter.solver.encoding import PositionCodec, SolveError
from rulesdsl.interpreter.solver.explore import Progress
from rulesdsl.interpreter.solver.partition import owners, save
from rulesdsl.interpreter.solver.store import Store
from rulesdsl.interpreter.solver.tiers import TierMap

SMALL = 1 << 15  # a layer or a tier with fewer positions in all runs as one task
STATUS_EVERY = 1.0  # seconds between looks at the workers' memory
# Bytes per position of a partition that each step holds, for the message when a worker runs out of memory.
NEEDS = {"exploring": 24, "sorting": 19, "indexing": 12, "solving": 11}


@dataclass
class ClusterStats:
    """What a cluster solve measured: positions, and each worker's idle and peak memory (MB)."""

    positions: int = 0
    idle: dict[str, float] = field(default_factory=dict)
    peak: dict[str, float] = field(default_factory=dict)
    resumed_tiers: int = 0


class DaskRunner:
    """Runs a step's calls as Dask tasks and gathers their results; failures become one-line errors."""

    def __init__(self, client: Any):
        self.client = client
        self.doing = ("", "starting", 0)  # tier label, phase, largest partition
        self.tick: Callable[[Callable[..., Any], Any], None] | None = None  # hears of each task as it ends

    def map(self, function: Callable[..., Any], calls: list[tuple]) -> list[Any]:
        """Each call's result, in order."""
        futures = [self.client.submit(function, *call, pure=False) for call in calls]
        try:
            if self.tick and len(futures) > 1:
                from distributed import as_completed

                for future in as_completed(futures):
                    self.tick(function, future.result())
            return self.client.gather(futures)
        except RulesdslError:
            raise
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                raise
            raise self.explain(error) from None

    def one(self, function: Callable[..., Any], *args: Any) -> Any:
        """One call as one task."""
        return self.map(function, [args])[0]

    def explain(self, error: BaseException) -> RulesdslError:
        """A one-line error for a failed step."""
        label, phase, largest = self.doing
        names = {type(e).__name__ for e in _chain(error)}
        if names & {"KilledWorker", "MemoryError"}:
            need = NEEDS.get(phase, 24) * largest / 1e6
            return SolveError(f"tier {label}: a worker ran out of memory (or died again and again) while {phase}; "
                              f"this step holds about {need:,.0f} MB per worker for its {largest:,} positions "
                              "besides the worker itself: give the workers more memory (dask worker "
                              "--memory-limit) or add workers")
        if lost_scheduler(error):
            return ClusterError(f"lost the Dask scheduler while {phase} tier {label}: run the same command again "
                                "with the same --db to resume from the tiers already stored")
        return SolveError(f"tier {label}: {phase} failed on a worker: {type(error).__name__}: {error}")


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: BaseException | None = error
    for _ in range(10):
        if seen is None:
            return
        yield seen
        seen = seen.__cause__ or seen.__context__


def make_job(game: Game, codec: PositionCodec, table: str, root: int, scratch: Path | None, parts: int) -> tasks.Job:
    """The job description every task gets, with a fresh work folder for this start under ``scratch``."""
    rules, settings = recipe(game)
    folder = Path(scratch or tempfile.gettempdir()).resolve() / f"rulesdsl-{table}-{root:x}"
    shutil.rmtree(folder, ignore_errors=True)  # left by an interrupted run: the database says what is done
    try:
        folder.mkdir(parents=True)
    except OSError as error:
        raise SolveError(f"{folder}: cannot make the work folder: {error}") from None
    return tasks.Job(rules, settings, table, str(folder), parts, encoding.NARROW_LIMIT)


class ClusterSolve:
    """One solve on a cluster: explore, then solve and store tier by tier."""

    def __init__(self, game: Game, codec: PositionCodec, table: str, store: Store, client: Any,
                 scratch: Path | None, progress: Progress | None, status: Callable[[str], None] | None,
                 limit: int | None = None):
        self.game, self.codec, self.table, self.store, self.client = game, codec, table, store, client
        self.tiers = TierMap(game, codec)
        self.scratch, self.progress, self.status, self.limit = scratch, progress, status, limit
        self.runner = DaskRunner(client)
        self.sizes: dict[int, list[int]] = {}
        self.plans: dict[int, tasks.TierPlan] = {}
        self.solved = 0
        self.shown = 0.0

    def run(self, state: State) -> ClusterStats:
        """Solve every position reachable from ``state`` into the database."""
        root = self.codec.encode(state)
        alive, _ = workers_status(self.client)
        if not alive:
            raise ClusterError("the Dask scheduler has no workers: start some with 'dask worker ADDRESS'")
        self.job = job = make_job(self.game, self.codec, self.table, root, self.scratch, alive)
        stats = ClusterStats()
        try:
            stats.idle = self.client.run(tasks.warm, job)
            done = self.store.done_tiers(self.table, root)
            stats.resumed_tiers = len(done)
            self.explore(root, done)
            self.solve(root, done)
            stats.positions = sum(size for size, _ in done.values()) + sum(sum(s) for s in self.sizes.values())
            self.store.finish(self.table, self.game, root, stats.positions)
            stats.peak = self.client.run(_peak)
        except RulesdslError:
            raise
        except (OSError, TimeoutError) as error:
            raise self.runner.explain(error) from None
        finally:
            shutil.rmtree(job.folder, ignore_errors=True)
        return stats

    # -- exploring ---------------------------------------------------------------------------------------

    def explore(self, root: int, done: dict[int, tuple[int, int]]) -> None:
        """Explore every tier not already solved, most pieces first; tiers with as many pieces in all never
        reach one another, so the small ones among them are explored side by side, one task each."""
        first = self.codec.keys([root])
        number = int(self.tiers.of(first)[0])
        self.job.tier(number).mkdir()
        save(self.job.tier(number) / f"in.root.0.0.0.{int(owners(first, self.job.parts)[0])}.npy", first)
        self.waiting = {number: 1}
        self.found = self.expanded = 0
        while self.waiting:
            top = max(map(self.tiers.total, self.waiting))
            group = [n for n in sorted(self.waiting) if self.tiers.total(n) == top and n not in done]
            incoming = {n: self.waiting.pop(n) for n in [n for n in self.waiting if self.tiers.total(n) == top]}
            small = [n for n in group if incoming[n] < SMALL]
            self.runner.doing = ("/".join(map(self.tiers.label, small)), "exploring", SMALL)
            results = self.runner.map(tasks.explore_here, [(self.job, n, None, 0, SMALL) for n in small])
            for number, result in zip(small, results):
                self._explore_rest(number, [], {}, result)
            for number in group:
                if number not in small:
                    self.runner.doing = (self.tiers.label(number), "exploring", incoming[number] // self.job.parts)
                    sizes = tasks.seed_tier(self.job, number, self.runner)
                    self._explore_rest(number, [], {}, ([], sizes, [], 0, None))

    def _explore_rest(self, number: int, segments: list[tasks.Segment], reaches: dict[int, int],
                      result: tuple) -> None:
        """Go on exploring a tier from where ``result`` (of :func:`.cluster_tasks.explore_here`) left it."""
        label = self.tiers.label(number)
        while True:
            expansions, sizes, new, layer, part_sizes = result
            for positions, _, reached in expansions:
                self.expanded += positions
                for other, count in reached.items():
                    reaches[other] = reaches.get(other, 0) + count
            segments += new
            self.found = self.expanded + sum(sizes)
            if self.limit is not None and self.found > self.limit:
                raise SolveError(f"more than {self.limit:,} positions are reachable")
            self._show("explore", self.found, self.expanded)
            if part_sizes is not None or not sum(sizes):
                break
            self.runner.doing = (label, "exploring", max(sizes) * 8)
            if sum(sizes) < SMALL:
                result = self.runner.one(tasks.explore_here, self.job, number, sizes, layer, SMALL)
                continue
            live = [self.expanded]

            def tick(function: Callable[..., Any], done: Any, live: list[int] = live) -> None:
                if function is tasks.expand_segment:
                    live[0] += done[0]
                    self._show("explore", self.found, live[0])

            self.runner.tick = tick
            try:
                result = (*tasks.explore_layer(self.job, number, layer, sizes, self.runner), layer + 1, None)
            finally:
                self.runner.tick = None
        if part_sizes is None:
            self.runner.doing = (label, "sorting", sum(s[4] - s[3] for s in segments) // self.job.parts)
            part_sizes = self._small_or_spread(sum(s[4] - s[3] for s in segments), tasks.finalize_tier, number,
                                               layer)
        _drop(self.job.tier(number), "in.*")  # merged into its first layer, which is kept
        self.sizes[number] = part_sizes
        self.plans[number] = tasks.TierPlan(number, segments, sorted(reaches), {})
        for other, count in reaches.items():
            self.waiting[other] = self.waiting.get(other, 0) + count

    def _small_or_spread(self, positions: int, step: Callable[..., Any], *args: Any) -> Any:
        """Run ``step`` as one task when ``positions`` is small, else spread its calls over the cluster."""
        if positions < SMALL:
            return self.runner.one(step, self.job, *args)
        return step(self.job, *args, self.runner)

    # -- solving -----------------------------------------------------------------------------------------

    def solve(self, root: int, done: dict[int, tuple[int, int]]) -> None:
        """Solve and store the explored tiers, fewest pieces first."""
        remoteness = {number: rem for number, (_, rem) in done.items()}
        needed = {other for plan in self.plans.values() for other in plan.reaches if other in done}
        if needed:
            self._restore(needed)
        total = sum(sum(s) for s in self.sizes.values())
        decided = 0
        for _, same in groupby(sorted(self.plans, key=self.tiers.total), key=self.tiers.total):
            group = list(same)
            for number in group:
                self.plans[number].lower_remoteness = {other: remoteness[other]
                                                       for other in self.plans[number].reaches}
            small = [n for n in group if sum(self.sizes[n]) < SMALL]
            self.runner.doing = ("/".join(map(self.tiers.label, small)), "solving", SMALL)
            results = self.runner.map(tasks.solve_small_tier, [(self.job, self.plans[n]) for n in small])
            for number, rem in zip(small, results):
                remoteness[number] = rem
            for number in group:
                if number in small:
                    continue
                self.runner.doing = (self.tiers.label(number), "solving", max(self.sizes[number]))
                running = [decided]

                def report(phase: str, fresh: int, running: list[int] = running) -> None:
                    running[0] += fresh
                    self._show(phase, total, running[0])

                remoteness[number] = tasks.solve_tier(self.job, self.plans[number], self.runner, report,
                                                      self._forgetter(self.plans[number]))
                decided += sum(self.sizes[number])
            self._store(root, group, remoteness)
            decided += sum(sum(self.sizes[n]) for n in small)
            self._show("retrograde", total, decided)

    def _forgetter(self, plan: tasks.TierPlan) -> Callable[[int, int], None]:
        """Removes the files of a tier that no later step reads (:func:`.cluster_tasks.solve_tier` says which)."""
        folder = self.job.tier(plan.number)

        def forget(level: int, generation: int) -> None:
            if level == 0:
                for pattern in ("r.*.child", "r.*.flip"):
                    _drop(folder, pattern)
                return
            _drop(folder, f"status.*.{level - 1}.*")
            for path in folder.glob("b.*"):
                _, other, _, _, at, made = path.name.split(".")
                live = level if int(other) == plan.number else min(level, plan.lower_remoteness[int(other)] + 1)
                if int(at) < live or int(made) < generation:
                    path.unlink(missing_ok=True)
            for path in [*folder.glob("r.*.parent.*"), *folder.glob("e.*")]:
                if int(path.name.rsplit(".", 1)[1]) < generation:
                    path.unlink(missing_ok=True)

        return forget

    def _store(self, root: int, numbers: list[int], remoteness: dict[int, int]) -> None:
        """Store solved tiers in one transaction, then drop their working files."""

        def rows(folder: Path) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
            for part in range(self.job.parts):
                yield (self.codec.ints(np.load(folder / f"keys.{part}.npy")), np.load(folder / f"value.{part}.npy"),
                       np.load(folder / f"remoteness.{part}.npy"))

        self.store.save_tiers(self.table, root, [(n, rows(self.job.tier(n)), remoteness[n]) for n in numbers],
                              self.codec.wide)
        for number in numbers:
            for path in self.job.tier(number).iterdir():
                if path.is_dir():
                    shutil.rmtree(path, ignore_errors=True)
                elif not path.name.startswith(("keys.", "value.", "remoteness.")):
                    path.unlink(missing_ok=True)
            self.solved += 1

    def _restore(self, needed: set[int]) -> None:
        """Write the partition files of tiers solved by an earlier run, from the database."""
        found: dict[tuple[int, int], list[tuple[np.ndarray, np.ndarray]]] = {}
        for keys, packed in self.store.rows(self.table):
            keys = self.codec.keys(keys)
            where = self.tiers.of(keys)
            owner = owners(keys, self.job.parts)
            for number in needed:
                for part in range(self.job.parts):
                    pick = (where == number) & (owner == part)
                    if pick.any():
                        found.setdefault((number, part), []).append((keys[pick], packed[pick]))
        for number in needed:
            folder = self.job.tier(number)
            folder.mkdir(exist_ok=True)
            for part in range(self.job.parts):
                pieces = found.get((number, part), [])
                keys = np.concatenate([k for k, _ in pieces]) if pieces else np.zeros(0, self.codec.key_dtype)
                packed = np.concatenate([p for _, p in pieces]) if pieces else np.zeros(0, np.int64)
                at = np.argsort(keys)
                save(folder / f"keys.{part}.npy", keys[at])
                save(folder / f"value.{part}.npy", (packed[at] % 4).astype(np.uint8))
                save(folder / f"remoteness.{part}.npy", (packed[at] // 4).astype(np.uint16))

    # -- progress ----------------------------------------------------------------------------------------

    def _show(self, phase: str, total: int, done: int) -> None:
        if self.progress:
            self.progress(phase, total, done)
        now = time.monotonic()
        if self.status and now - self.shown >= STATUS_EVERY:
            self.shown = now
            alive, memory = workers_status(self.client)
            each = "/".join(f"{mb:,.0f}" for mb in memory)
            self.status(f"tiers {self.solved}/{len(self.plans)} solved, {alive} workers alive, {each} MB each")


def _drop(folder: Path, pattern: str) -> None:
    """Remove the files of ``folder`` matching ``pattern``."""
    for path in folder.glob(pattern):
        path.unlink(missing_ok=True)


def _peak() -> float:
    from rulesdsl.interpreter.solver.memory import peak_mb

    return peak_mb()
