"""The steps of a solve on a cluster: each one a task that reads and writes files in the work folder.

A tier's positions are split into ``parts`` partitions by key (:mod:`.partition`);
partition p's files hold only keys it owns, sorted. The steps:

- exploring a breadth-first layer: ``expand_segment`` expands a segment of a
  partition's frontier (the moves go to that segment's files; children in the
  tier go to ``next`` files per owner, children in lower tiers to that tier's
  ``in`` files per owner), then ``merge_layer`` builds each partition's next
  frontier from the files addressed to it, dropping keys it already has;
- ``finalize_part``: a partition's sorted keys (the frontiers are then dropped);
- retrograde analysis: ``route_part`` expands the partition's positions again
  (keeping a tier's moves from exploring to here would cost 9 bytes a move of
  scratch; README, *On a cluster*), saves their outcomes and move counts, and
  sends each move to the partition owning its
  child (``r`` files: parent index, child key, flip), ``lookup_part`` turns child
  keys into indices in the owner's keys (``e`` files); then for r = 1, 2, ...
  ``answer`` reads one owner's values and writes, per move, whether the child
  counts as bad or good for the opponent at level r (``b`` files), and
  ``decide`` adds them up per parent and decides its partition's positions
  (``status`` files, one per level); ``finish_part`` turns the undecided into draws.

Every task writes its outputs under new names only (:mod:`.partition`), so the
scheduler can run any of them again when its worker dies. ``explore_layer`` and
``solve_tier`` drive the steps through a runner: the cluster, or this process
when the tier is too small to be worth spreading.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from rulesdsl.interpreter.compile.game import Game
from rulesdsl.interpreter.solver import encoding
from rulesdsl.interpreter.solver.encoding import PositionCodec, SolveError
from rulesdsl.interpreter.solver.explore import CHUNK, _member, unique
from rulesdsl.interpreter.solver.partition import Outputs, blocks, index_dtype, owners, save
from rulesdsl.interpreter.solver.successors import DRAW, LOSE, OPEN, WIN, Expander
from rulesdsl.interpreter.solver.tiers import TierMap

SEGMENT = 1 << 16  # positions of a frontier per expanding task
BLOCK = 1 << 20  # moves per block read back from a file
MERGE_EVERY = 32  # incoming files merged when this many pile up
COMPACT_ABOVE = 1 << 20  # a tier's moves files are compacted only when it has more moves than this

Segment = tuple[int, int, int, int, int]  # layer, partition, segment, first, last (into the layer's frontier)


@dataclass(frozen=True)
class Job:
    """What every task needs: the rules to load, the work folder and the number of partitions."""

    rules: str
    settings: tuple[tuple[str, str], ...]
    table: str
    folder: str
    parts: int
    narrow_limit: int = encoding.NARROW_LIMIT

    def tier(self, number: int) -> Path:
        """The folder of one tier's files."""
        return Path(self.folder) / f"t{number}"


@dataclass
class Context:
    """A worker's compiled game for a job, loaded once per process."""

    game: Game
    codec: PositionCodec
    tiers: TierMap
    expander: Expander


_CONTEXTS: dict[tuple, Context] = {}


def context(job: Job) -> Context:
    """The compiled game of ``job`` in this process (loaded on first use)."""
    key = (job.rules, job.settings, job.narrow_limit)
    if key not in _CONTEXTS:
        from rulesdsl.interpreter.parallel.cluster import load_recipe
        from rulesdsl.interpreter.solver.store import table_name

        encoding.NARROW_LIMIT = job.narrow_limit
        game = load_recipe(job.rules, job.settings)
        codec = PositionCodec(game)
        if table_name(game, codec) != job.table:
            raise SolveError(f"a worker compiled {job.rules} differently from the client (another version of "
                             "the rules or of rulesdsl?)")
        _CONTEXTS[key] = Context(game, codec, TierMap(game, codec), Expander(game, codec))
    return _CONTEXTS[key]


def warm(job: Job) -> float:
    """Load the game, then reset this process's peak memory; returns its resident MB (the idle baseline)."""
    context(job)
    from rulesdsl.interpreter.solver.memory import reset_peak, resident_mb

    reset_peak()
    return resident_mb()


# -- exploring -----------------------------------------------------------------------------------------------


def _expand(ctx: Context, front: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Expand positions: (outcome, move count, child keys, flips), the moves of each position one after another."""
    key_dtype = ctx.codec.key_dtype
    outcomes, degrees, children, flips = [], [], [], []
    for start in range(0, len(front), CHUNK):
        outcome, degree, child, flip = ctx.expander.expand(front[start:start + CHUNK])
        outcomes.append(np.frombuffer(outcome, dtype=np.uint8))
        degrees.append(np.frombuffer(degree, dtype=np.uint32))
        children.append(np.frombuffer(child, dtype=key_dtype))
        flips.append(np.frombuffer(flip, dtype=np.uint8))
    degree = np.concatenate(degrees) if degrees else np.zeros(0, dtype=np.uint32)
    if len(degree) and degree.max() >= 2**16:
        raise SolveError("a position with 65,536 moves or more is beyond the solver")
    return (np.concatenate(outcomes) if outcomes else np.zeros(0, dtype=np.uint8), degree.astype(np.uint16),
            np.concatenate(children) if children else np.zeros(0, dtype=key_dtype),
            np.concatenate(flips) if flips else np.zeros(0, dtype=np.uint8))


def expand_segment(job: Job, number: int, layer: int, part: int, segment: int, first: int, last: int
                   ) -> tuple[int, int, dict[int, int]]:
    """Expand positions ``first:last`` of a partition's frontier; (positions, moves, children per lower tier).

    Only the children's keys are kept (as the next frontiers and the lower
    tiers' seeds): the retrograde phase expands the positions again (:func:`route_part`).
    """
    ctx = context(job)
    folder = job.tier(number)
    front = np.array(np.load(folder / f"front.{layer}.{part}.npy", mmap_mode="r")[first:last])
    _, _, child, _ = _expand(ctx, front)
    distinct = unique(child)
    where = ctx.tiers.of(distinct)
    owner = owners(distinct, job.parts)
    total = ctx.tiers.total(number)
    reached: dict[int, int] = {}
    for other in unique(where).tolist():
        pick = where == other
        if other == number:
            target, name = folder, f"next.{layer}.{part}.{segment}"
        else:
            if ctx.tiers.total(other) >= total:
                raise SolveError("a move added a piece although no rule places one (a solver bug)")
            reached[other] = int(np.count_nonzero(pick))
            target, name = job.tier(other), f"in.{number}.{layer}.{part}.{segment}"
            target.mkdir(exist_ok=True)
        for q in range(job.parts):
            mine = distinct[pick & (owner == q)]
            if len(mine):
                save(target / f"{name}.{q}.npy", mine)
    return len(front), len(child), reached


def merge_layer(job: Job, number: int, layer: int, part: int) -> int:
    """Partition ``part``'s frontier of ``layer``: the keys sent to it that it does not have yet; their count."""
    ctx = context(job)
    folder = job.tier(number)
    pattern = f"in.*.{part}.npy" if layer == 0 else f"next.{layer - 1}.*.{part}.npy"
    piles: list[np.ndarray] = []
    for path in sorted(folder.glob(pattern)):
        piles.append(np.load(path))
        if len(piles) >= MERGE_EVERY:
            piles = [unique(np.concatenate(piles))]
    fresh = unique(np.concatenate(piles)) if piles else np.zeros(0, dtype=ctx.codec.key_dtype)
    del piles
    for earlier in range(layer):
        fresh = fresh[~_member(np.load(folder / f"front.{earlier}.{part}.npy"), fresh)]
    save(folder / f"front.{layer}.{part}.npy", fresh)
    return len(fresh)


def finalize_part(job: Job, number: int, part: int, layers: int) -> int:
    """Partition ``part``'s sorted keys; its size."""
    folder = job.tier(number)
    keys = np.concatenate([np.load(folder / f"front.{layer}.{part}.npy") for layer in range(layers)])
    keys.sort()
    save(folder / f"keys.{part}.npy", keys)
    return len(keys)


# -- retrograde analysis -------------------------------------------------------------------------------------


def route_part(job: Job, number: int, part: int) -> dict[tuple[int, int], int]:
    """Expand partition ``part``'s positions again: save their outcomes (the values at level 0) and move
    counts, and send their moves to the partitions owning the children; moves per (tier, owner)."""
    ctx = context(job)
    folder = job.tier(number)
    keys = np.load(folder / f"keys.{part}.npy")
    kind = index_dtype(len(keys))
    counts: dict[tuple[int, int], int] = {}
    outcomes, degrees = [], []
    with Outputs() as out:
        for first in range(0, len(keys), SEGMENT):
            outcome, degree, child, flip = _expand(ctx, keys[first:first + SEGMENT])
            outcomes.append(outcome)
            degrees.append(degree)
            parent = np.repeat(np.arange(first, first + len(degree), dtype=kind), degree)
            destination = ctx.tiers.of(child) * job.parts + owners(child, job.parts)
            for code in unique(destination).tolist():
                pick = destination == code
                other, owner = divmod(code, job.parts)
                base = f"r.{other}.{owner}.{part}"
                out.file(moves_paths(folder, other, owner, part, 0)[0]).write(parent[pick].tobytes())
                out.file(folder / f"{base}.child").write(child[pick].tobytes())
                out.file(folder / f"{base}.flip").write(flip[pick].tobytes())
                counts[other, owner] = counts.get((other, owner), 0) + int(np.count_nonzero(pick))
    save(folder / f"degree.{part}.npy", np.concatenate(degrees) if degrees else np.zeros(0, dtype=np.uint16))
    save(folder / f"status.{part}.0.value.npy", np.concatenate(outcomes) if outcomes else np.zeros(0, np.uint8))
    save(folder / f"status.{part}.0.rem.npy", np.zeros(len(keys), dtype=np.uint16))
    return counts


def lookup_part(job: Job, number: int, part: int, other: int, owner: int) -> None:
    """Turn the child keys partition ``part`` sent to (``other`` tier, ``owner``) into indices there."""
    ctx = context(job)
    folder = job.tier(number)
    keys = np.load(job.tier(other) / f"keys.{owner}.npy")
    kind = index_dtype(len(keys))
    base = folder / f"r.{other}.{owner}.{part}"
    with Outputs() as out:
        edges = out.file(moves_paths(folder, other, owner, part, 0)[1])
        for child, flip in zip(blocks(Path(f"{base}.child"), ctx.codec.key_dtype, BLOCK),
                               blocks(Path(f"{base}.flip"), np.uint8, BLOCK)):
            at = np.searchsorted(keys, child)
            if not len(keys) or (at >= len(keys)).any() or (keys[np.minimum(at, len(keys) - 1)] != child).any():
                raise SolveError("a move leads to a position its tier does not hold (a solver bug)")
            ((at.astype(np.int64) << 1) | flip).astype(kind).tofile(edges)


def moves_paths(folder: Path, other: int, owner: int, part: int, generation: int) -> tuple[Path, Path]:
    """The parent-index and edge files of partition ``part``'s moves into (``other`` tier, ``owner``), as
    left by ``generation`` compactions (:func:`compact`)."""
    return (folder / f"r.{other}.{owner}.{part}.parent.{generation}",
            folder / f"e.{other}.{owner}.{part}.{generation}")


def answers_path(folder: Path, other: int, owner: int, part: int, level: int, generation: int) -> Path:
    """The ``b`` file of partition ``part``'s moves into (``other``, ``owner``) at ``level``."""
    return folder / f"b.{other}.{owner}.{part}.{level}.{generation}"


def status_paths(folder: Path, part: int, level: int) -> tuple[Path, Path]:
    """The value and remoteness files of a partition after ``level``."""
    return folder / f"status.{part}.{level}.value.npy", folder / f"status.{part}.{level}.rem.npy"


def answer(job: Job, number: int, other: int, owner: int, part: int, level: int, generation: int) -> None:
    """Per move of ``part`` into (``other``, ``owner``): 1 when the child is bad for the opponent, 2 when it
    is good for the opponent, counting only children decided below ``level``."""
    folder = job.tier(number)
    if other == number:
        value_path, rem_path = status_paths(folder, owner, level - 1)
    else:
        value_path, rem_path = job.tier(other) / f"value.{owner}.npy", job.tier(other) / f"remoteness.{owner}.npy"
    value, remoteness = np.load(value_path), np.load(rem_path)
    with Outputs() as out:
        bits = out.file(answers_path(folder, other, owner, part, level, generation))
        for edge in blocks(moves_paths(folder, other, owner, part, generation)[1], index_dtype(len(value)), BLOCK):
            child = edge >> 1
            flip = (edge & 1).astype(np.uint8)
            seen = value[child]
            counts = remoteness[child] < level
            bad = counts & (seen == WIN + flip)  # LOSE for the opponent, or WIN when the same player moves again
            good = counts & (seen == LOSE - flip)
            (bad.astype(np.uint8) | (good.astype(np.uint8) << 1)).tofile(bits)


def decide(job: Job, number: int, part: int, level: int, sources: Sequence[tuple[int, int, int]],
           generation: int = 0) -> tuple[int, int]:
    """Decide partition ``part``'s positions at ``level`` from the ``b`` files of ``sources`` (tier, owner,
    level of the file); (positions decided now, positions still open)."""
    folder = job.tier(number)
    value_path, rem_path = status_paths(folder, part, level - 1)
    value, remoteness = np.load(value_path), np.load(rem_path)
    degree = np.load(folder / f"degree.{part}.npy")
    kind = index_dtype(len(value))
    won = np.zeros(len(value), dtype=np.bool_)
    good = np.zeros(len(value), dtype=np.uint16)
    for other, owner, at in sources:
        for parent, bits in zip(blocks(moves_paths(folder, other, owner, part, generation)[0], kind, BLOCK),
                                blocks(answers_path(folder, other, owner, part, at, generation), np.uint8, BLOCK)):
            won[parent[(bits & 1).astype(np.bool_)]] = True
            # a parent's moves are consecutive in the file, so each run of one parent is summed once
            starts = np.flatnonzero(np.concatenate(([True], parent[1:] != parent[:-1])))
            good[parent[starts]] += np.add.reduceat((bits >> 1).astype(np.uint16), starts)
    open_ = value == OPEN
    won &= open_
    lost = open_ & ~won & (good == degree) & (degree > 0)
    value[won] = WIN
    value[lost] = LOSE
    remoteness[won | lost] = level
    value_path, rem_path = status_paths(folder, part, level)
    save(value_path, value)
    save(rem_path, remoteness)
    fresh = int(np.count_nonzero(won | lost))
    return fresh, int(np.count_nonzero(open_)) - fresh


def compact(job: Job, number: int, other: int, owner: int, part: int, level: int, generation: int) -> int:
    """Keep only the moves of partition ``part``'s positions still open after ``level``: the files of
    ``generation`` + 1 from those of ``generation``; the moves kept.

    A decided position's moves are never read again, so later levels read
    only the open positions' moves, as the embedded solver skips decided blocks.
    """
    folder = job.tier(number)
    value = np.load(status_paths(folder, part, level)[0])
    kind = index_dtype(len(value))
    edge_kind = index_dtype(len(np.load(job.tier(other) / f"keys.{owner}.npy", mmap_mode="r")))
    parents, edges = moves_paths(folder, other, owner, part, generation)
    kept = 0
    with Outputs() as out:
        new_parents, new_edges = (out.file(path) for path in moves_paths(folder, other, owner, part, generation + 1))
        for parent, edge in zip(blocks(parents, kind, BLOCK), blocks(edges, edge_kind, BLOCK)):
            keep = value[parent] == OPEN
            parent[keep].tofile(new_parents)
            edge[keep].tofile(new_edges)
            kept += int(np.count_nonzero(keep))
    return kept


def finish_part(job: Job, number: int, part: int, level: int) -> int:
    """Save partition ``part``'s final value (the undecided are draws) and remoteness; its largest remoteness."""
    folder = job.tier(number)
    value_path, rem_path = status_paths(folder, part, level)
    value, remoteness = np.load(value_path), np.load(rem_path)
    value[value == OPEN] = DRAW
    save(folder / f"value.{part}.npy", value)
    save(folder / f"remoteness.{part}.npy", remoteness)
    return int(remoteness[(value == WIN) | (value == LOSE)].max(initial=0))


# -- driving the steps ---------------------------------------------------------------------------------------


class Runner(Protocol):
    """Runs a batch of calls of one step: on the cluster, or one after another in this process."""

    def map(self, function: Callable[..., Any], calls: list[tuple]) -> list[Any]: ...


class InProcess:
    """The calls one after another, here."""

    def map(self, function: Callable[..., Any], calls: list[tuple]) -> list[Any]:
        """Each call's result, in order."""
        return [function(*call) for call in calls]


Report = Callable[[str, int], None]


def explore_layer(job: Job, number: int, layer: int, sizes: list[int], runner: Runner | None = None
                  ) -> tuple[list[tuple[int, int, dict[int, int]]], list[int], list[Segment]]:
    """Expand one layer of a tier (``sizes``: each partition's frontier); (each segment's expansion figures,
    each partition's next frontier size, the segments)."""
    runner = runner or InProcess()
    segments = [(layer, part, index, first, min(size, first + SEGMENT))
                for part, size in enumerate(sizes) for index, first in enumerate(range(0, size, SEGMENT))]
    expanded = runner.map(expand_segment, [(job, number, *segment) for segment in segments])
    fresh = runner.map(merge_layer, [(job, number, layer + 1, part) for part in range(job.parts)])
    for path in job.tier(number).glob(f"next.{layer}.*"):  # merged: every merging task has returned
        path.unlink(missing_ok=True)
    return expanded, fresh, segments


def seed_tier(job: Job, number: int, runner: Runner | None = None) -> list[int]:
    """Each partition's first layer, from the keys sent to the tier; their sizes."""
    runner = runner or InProcess()
    return runner.map(merge_layer, [(job, number, 0, part) for part in range(job.parts)])


def finalize_tier(job: Job, number: int, layers: int, runner: Runner | None = None) -> list[int]:
    """Each partition's sorted keys; their sizes. The frontiers are dropped once every partition is sorted."""
    runner = runner or InProcess()
    sizes = runner.map(finalize_part, [(job, number, part, layers) for part in range(job.parts)])
    for path in job.tier(number).glob("front.*"):
        path.unlink(missing_ok=True)
    return sizes


def explore_here(job: Job, number: int, sizes: list[int] | None = None, layer: int = 0, below: int = 1 << 15
                 ) -> tuple[list[tuple[int, int, dict[int, int]]], list[int], list[Segment], int, list[int] | None]:
    """Explore a tier in this process (seeding it first when ``sizes`` is None) while its frontier stays below
    ``below`` positions, and sort it when it is finished and small; (expansion figures, frontier sizes left,
    segments, next layer, each partition's size when sorted here, else None)."""
    whole = sizes is None  # the tier from its seeds, so every segment of it is here
    if whole:
        sizes = seed_tier(job, number)
    expanded: list[tuple[int, int, dict[int, int]]] = []
    segments: list[Segment] = []
    while sum(sizes) and sum(sizes) < below:
        more, sizes, new = explore_layer(job, number, layer, sizes)
        expanded += more
        segments += new
        layer += 1
    finished = whole and not sum(sizes) and sum(s[4] - s[3] for s in segments) < below
    return expanded, sizes, segments, layer, finalize_tier(job, number, layer) if finished else None


@dataclass
class TierPlan:
    """What solving a tier needs to know: its segments, the tiers it reaches, their largest remoteness."""

    number: int
    segments: list[Segment]
    reaches: list[int]
    lower_remoteness: dict[int, int]


def solve_small_tier(job: Job, plan: TierPlan) -> int:
    """Solve a small tier in this process with the embedded solver's retrograde analysis; its largest remoteness.

    Its partitions are put together in the embedded layout (:class:`.explore.Tier`), and each tier it
    reaches is stood in for by only the children its moves lead to, read from that tier's partitions one at
    a time. The values are then split back into the partitions' files.
    """
    from rulesdsl.interpreter.solver.explore import Tier
    from rulesdsl.interpreter.solver.retrograde import solve_tier as solve_embedded

    ctx = context(job)
    folder = job.tier(plan.number)
    work = folder / "embedded"
    work.mkdir(exist_ok=True)
    parts = [np.load(folder / f"keys.{part}.npy") for part in range(job.parts)]
    joined = np.concatenate(parts)
    placed = np.argsort(joined, kind="stable")  # sorted position -> place in the partitions, one after another
    keys = joined[placed]
    tier = Tier(plan.number, work, size=len(keys), reaches=set(plan.reaches))
    tier.save("keys", keys)
    outcomes, children = [], []
    with open(tier.path("degree"), "wb") as degrees, open(tier.path("child"), "wb") as kids, \
            open(tier.path("flip"), "wb") as flips:
        for first in range(0, len(keys), SEGMENT):
            outcome, degree, child, flip = _expand(ctx, keys[first:first + SEGMENT])
            outcomes.append(outcome)
            children.append(child)
            degree.tofile(degrees)
            child.tofile(kids)
            flip.tofile(flips)
    tier.save("outcome", np.concatenate(outcomes) if outcomes else np.zeros(0, dtype=np.uint8))
    tier.save("order", np.arange(len(keys), dtype=index_dtype(len(keys))))  # expanded in key order
    lower = _reached_children(job, ctx.tiers, np.concatenate(children) if children else keys[:0], plan, work)
    solve_embedded(tier, lower, ctx.tiers)
    value, remoteness = np.empty_like(tier.load("value")), np.empty_like(tier.load("remoteness"))
    value[placed], remoteness[placed] = tier.load("value"), tier.load("remoteness")
    start = 0
    for part, mine in enumerate(parts):
        save(folder / f"value.{part}.npy", value[start:start + len(mine)])
        save(folder / f"remoteness.{part}.npy", remoteness[start:start + len(mine)])
        start += len(mine)
    shutil.rmtree(work)
    decided = (value == WIN) | (value == LOSE)
    return int(remoteness[decided].max(initial=0))


def _reached_children(job: Job, tiers: TierMap, children: np.ndarray, plan: TierPlan, work: Path) -> dict:
    """A stand-in tier for each tier ``children`` reach: just those children, with their values."""
    from rulesdsl.interpreter.solver.explore import Tier

    distinct = unique(children)
    where = tiers.of(distinct)
    owner = owners(distinct, job.parts)
    lower = {}
    for other in plan.reaches:
        mine = distinct[where == other]
        value = np.zeros(len(mine), dtype=np.uint8)
        remoteness = np.zeros(len(mine), dtype=np.uint16)
        for part in range(job.parts):
            pick = owner[where == other] == part
            keys = np.load(job.tier(other) / f"keys.{part}.npy")
            at = np.searchsorted(keys, mine[pick])
            value[pick] = np.load(job.tier(other) / f"value.{part}.npy")[at]
            remoteness[pick] = np.load(job.tier(other) / f"remoteness.{part}.npy")[at]
        stand_in = lower[other] = Tier(other, work)
        stand_in.save("keys", mine)
        stand_in.save("value", value)
        stand_in.save("remoteness", remoteness)
    return lower


def solve_tier(job: Job, plan: TierPlan, runner: Runner | None = None, report: Report | None = None,
               forget: Callable[[int, int], None] | None = None) -> int:
    """Retrograde analysis of one tier (the tiers it reaches already solved); its largest remoteness.

    ``report(phase, decided)`` hears of each level; ``forget(level, generation)`` may remove the files no
    later step reads: with level 0, the exploring and routing files once the moves are indexed; after
    that, the ``status`` files of the level before, the ``b`` files no longer read and the moves files of
    generations before ``generation``. Once fewer than half the positions open at the last compaction
    are still open, the moves are compacted (:func:`compact`) so later levels read only the open ones'.
    """
    runner = runner or InProcess()
    number = plan.number
    routed = runner.map(route_part, [(job, number, part) for part in range(job.parts)])
    moves = sorted({(other, owner, part) for part, counts in enumerate(routed) for other, owner in counts})
    runner.map(lookup_part, [(job, number, part, other, owner) for other, owner, part in moves])
    if forget:
        forget(0, 0)
    last_fixed = max((plan.lower_remoteness[other] for other in plan.reaches), default=0)
    level = generation = 0
    answered: set[tuple[int, int]] = set()  # (tier, level) whose b files of this generation exist
    open_then = None  # positions open at the last compaction
    while True:
        level += 1
        # a lower tier's answers stop changing after its largest remoteness + 1: that level's file serves on
        at = {other: level if other == number else min(level, plan.lower_remoteness[other] + 1)
              for other in {m[0] for m in moves}}
        runner.map(answer, [(job, number, other, owner, part, at[other], generation)
                            for other, owner, part in moves if (other, at[other]) not in answered])
        answered |= set(at.items())
        sources = [[(other, owner, at[other]) for other, owner, p in moves if p == part] for part in range(job.parts)]
        results = runner.map(decide, [(job, number, part, level, sources[part], generation)
                                      for part in range(job.parts)])
        fresh, still = sum(r[0] for r in results), sum(r[1] for r in results)
        open_then = fresh + still if open_then is None else open_then
        if report:
            report("retrograde", fresh)
        if not still or (not fresh and level > last_fixed):
            break
        if 2 * still < open_then and sum(sum(counts.values()) for counts in routed) > COMPACT_ABOVE:
            runner.map(compact, [(job, number, other, owner, part, level, generation) for other, owner, part in moves])
            generation += 1
            answered = set()
            open_then = still
        if forget:
            forget(level, generation)
    return max(runner.map(finish_part, [(job, number, part, level) for part in range(job.parts)]))
