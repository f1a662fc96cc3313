"""``rulesdsl bench [GAME...] [--set NAME=VALUE] [--json] [--quick] [--solver]``: how fast the compiled rule files run.

For each case: perft generated nodes per second (perft(1) + ... + perft(d)
divided by the time of the perft(d) run, best of two) beside the hand-written baseline's
in the same run (``benchmarks/baselines/``, when the source tree is at hand)
and their ratio; random playouts per second and plies per playout on the
engine the game runs them on (``kernel``: ``native`` machine code, the
``python`` kernel or the ``generic`` path; the machine code is compiled or
loaded before the clock starts), beside the Python kernel's and, where the
case names one (``openspiel`` in ``rules/bench.yaml``), OpenSpiel's
implementation of the same game in the same run (a uniformly random loop over
``legal_actions``/``apply_action``) and the ratio; the depth the alpha-beta
engine finishes in one second from the start and its nodes per second; the peak memory
of the process that measured the case (each case runs in its own process
where the platform can fork). Progress goes to stderr. ``--solver`` measures
the strong solver instead (:mod:`rulesdsl.cli.bench_solver`).
"""

from __future__ import annotations

import importlib.util
import json
import multiprocessing
import sys
from pathlib import Path

import click
import yaml

from rulesdsl.cli.common import reports_errors
from rulesdsl.cli.progress import ProgressLine
from rulesdsl.errors import OptionError
from rulesdsl.extras import missing_extra
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.measure.bench import (
    adaptive_depth,
    deepest_within,
    kernel_playouts,
    openspiel_playouts,
    perft_nodes,
    python_kernel_playouts,
    search_depth,
    timed,
)
from rulesdsl.interpreter.parallel.processes import can_fork, fork_process, stop_process
from rulesdsl.interpreter.search.minimax import perft
from rulesdsl.loader import bundled_dir
from rulesdsl.options import parse_setting

BASELINES = Path(__file__).resolve().parent.parent / "benchmarks" / "baselines"
FIELDS = ("game", "settings", "kernel", "perft_depth", "perft_nodes_per_s", "baseline_nodes_per_s", "ratio",
          "playouts_per_s", "plies_per_playout", "python_playouts_per_s", "openspiel_playouts_per_s",
          "openspiel_ratio", "search_depth_1s", "search_nodes_per_s", "search_kernel", "peak_mb")


def default_cases() -> list[dict]:
    """The bundled case list (``rules/bench.yaml``)."""
    return yaml.safe_load((bundled_dir() / "bench.yaml").read_text(encoding="utf-8"))


def load_baseline(name: str | None):
    """A baseline module from ``benchmarks/baselines`` by file path, or ``None`` if it is not there."""
    path = BASELINES / f"{name}.py"
    if not name or not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"baseline_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def peak_mb() -> float:
    """This process's peak resident memory in MB."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def say(text: str) -> None:
    """Progress on stderr."""
    click.echo(text, err=True)


def measure(case: dict, quick: bool) -> dict:
    """Every figure of one case."""
    settings = {k: str(v) for k, v in (case.get("settings") or {}).items()}
    label = " ".join([case["game"], *(f"{k}={v}" for k, v in settings.items())])
    game = load_game(case["game"], settings)
    state = game.initial_state()
    game.native_kernel(wait=True, search=True)  # compiled (or loaded from the cache) before any clock starts
    perft(game, state, 1)  # a cached function loads at its first call: that too before the clock
    engine = game.kernel_engine()
    depth = case.get("quick" if quick else "perft")
    baseline = load_baseline(case.get("baseline"))
    if depth is None:
        budget = 0.5 if quick else 3.0
        depth = adaptive_depth(game, state, budget)
        if baseline is not None:  # the hand-written program is the slow one: the depth it counts within the budget
            depth = min(depth, deepest_within(lambda d: baseline.perft(baseline.start(settings), d), budget))
    say(f"{label}: perft {depth}")
    below = perft_nodes(game, state, depth - 1)  # generated on the way to perft(depth)
    rounds = 1 if quick else 2  # best of two, taken in turns with the baseline: a busy machine is fairer
    seconds = base_seconds = float("inf")
    for _ in range(rounds):
        count, elapsed = timed(perft, game, state, depth)
        seconds = min(seconds, elapsed)
        if baseline is not None:
            say(f"{label}: baseline perft {depth}")
            base_count, elapsed = timed(baseline.perft, baseline.start(settings), depth)
            base_seconds = min(base_seconds, elapsed)
    nodes_per_s = (below + count) / seconds
    base_per_s = ratio = None
    if baseline is not None:
        base_per_s = (below + base_count) / base_seconds
        ratio = round(nodes_per_s / base_per_s, 2)
    say(f"{label}: random playouts ({engine})")
    games, plies, elapsed, engine = kernel_playouts(game, state, 0.5 if quick else 2.0)
    per_s = games / elapsed
    python_per_s = None
    if engine == "native":
        say(f"{label}: random playouts (python kernel)")
        python_games, _, python_elapsed = python_kernel_playouts(game, state, 0.5 if quick else 2.0)
        python_per_s = python_games / python_elapsed
    spiel_per_s = spiel_ratio = None
    spiel = case.get("openspiel")
    if spiel is not None:
        say(f"{label}: OpenSpiel's {spiel['game']}")
        params = {k: int(game.options[v]) if isinstance(v, str) else v for k, v in (spiel.get("params") or {}).items()}
        spiel_games, _, spiel_elapsed = openspiel_playouts(spiel["game"], params, 0.5 if quick else 2.0)
        spiel_per_s = spiel_games / spiel_elapsed
        spiel_ratio = round(per_s / spiel_per_s, 2)
    say(f"{label}: alpha-beta for 1 s")
    reached, search_rate, search_kernel = search_depth(game, state, 1.0)
    return {
        "game": case["game"], "settings": settings, "kernel": engine, "perft_depth": depth,
        "perft_nodes_per_s": round(nodes_per_s), "baseline_nodes_per_s": None if base_per_s is None
        else round(base_per_s), "ratio": ratio, "playouts_per_s": round(per_s, 1),
        "plies_per_playout": round(plies / games, 1),
        "python_playouts_per_s": None if python_per_s is None else round(python_per_s, 1),
        "openspiel_playouts_per_s": None if spiel_per_s is None else round(spiel_per_s, 1),
        "openspiel_ratio": spiel_ratio, "search_depth_1s": reached, "search_nodes_per_s": round(search_rate),
        "search_kernel": search_kernel, "peak_mb": peak_mb(),
    }


def _child(case: dict, quick: bool, pipe, how=None) -> None:
    """Measure in a forked process and send the figures back."""
    try:
        pipe.send(("ok", (how or measure)(case, quick)))
    except ModuleNotFoundError as error:  # an optional dependency: the extra that installs it
        pipe.send(("error", missing_extra(error) or str(error)))
    except Exception as error:  # reported by the parent as one line
        pipe.send(("error", str(error)))


def run_case(case: dict, quick: bool, how=None) -> dict:
    """One case in its own process (so that its peak memory is its own) where fork exists.

    ``how(case, quick)`` measures it (default: :func:`measure`).
    """
    if not can_fork():
        return (how or measure)(case, quick)
    parent, child = multiprocessing.Pipe(duplex=False)
    worker = fork_process(_child, case, quick, child, how)
    child.close()  # the parent's copy: so that a measuring process that dies gives EOFError, not a wait
    try:
        status, payload = parent.recv()
    except EOFError:
        status, payload = "error", "the measuring process died"
    except BaseException:  # Ctrl-C: the measuring process ignores it, so it is ended here
        stop_process(worker)
        raise
    worker.join()
    if status != "ok":
        raise OptionError(f"bench {case['game']}: {payload}")
    return payload


def run_cases(cases: list[dict], quick: bool, how=None) -> list[dict]:
    """Every case in turn, with a progress line after each (cases done, percentage, ETA) on stderr."""
    bar = ProgressLine(noun="cases", every=0.0, lines=True)
    results = []
    for case in cases:
        results.append(run_case(case, quick, how))
        bar("bench", len(cases), len(results))
    return results


def table(results: list[dict]) -> str:
    """The figures as an aligned text table."""
    head = ("game", "settings", "kernel", "perft d", "nodes/s", "baseline/s", "ratio", "playouts/s", "plies",
            "python/s", "OpenSpiel/s", "vs OpenSpiel", "depth 1 s", "search nodes/s", "peak MB")
    rows = [head]
    for r in results:
        def fmt(value, pattern="{:,}"):
            return "-" if value is None else pattern.format(value)
        rows.append((r["game"], " ".join(f"{k}={v}" for k, v in r["settings"].items()) or "default", r["kernel"],
                     str(r["perft_depth"]), fmt(r["perft_nodes_per_s"]), fmt(r["baseline_nodes_per_s"]),
                     fmt(r["ratio"], "{:.2f}x"), fmt(r["playouts_per_s"], "{:,.0f}"),
                     fmt(r["plies_per_playout"], "{:.0f}"), fmt(r["python_playouts_per_s"], "{:,.0f}"),
                     fmt(r["openspiel_playouts_per_s"], "{:,.0f}"), fmt(r["openspiel_ratio"], "{:.2f}x"),
                     str(r["search_depth_1s"]), fmt(r["search_nodes_per_s"]), fmt(r["peak_mb"], "{:.0f}")))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) if i < 3 else cell.rjust(w) for i, (cell, w)
                               in enumerate(zip(row, widths))).rstrip() for row in rows)


def chosen_cases(games: tuple[str, ...], settings: dict[str, str]) -> list[dict]:
    """The bundled cases of the GAMEs named (all of them when none is), a GAME without one as a case of its own;
    ``--set`` options replace a case's settings (one case per game then)."""
    cases = default_cases()
    if games:
        chosen = [c for c in cases if c["game"] in games]
        chosen += [{"game": g} for g in games if not any(c["game"] == g for c in cases)]
        cases = chosen
    if settings:
        once = {}
        for case in cases:
            once.setdefault(case["game"], {**case, "settings": {**(case.get("settings") or {}), **settings},
                                           "perft": None, "quick": None})
        cases = list(once.values())
    return cases


@click.command()
@click.argument("games", nargs=-1, metavar="[GAME...]")
@click.option("--set", "-s", "settings", multiple=True, metavar="NAME=VALUE",
              help="Set a rule-file option of the games measured (repeatable).")
@click.option("--json", "as_json", is_flag=True, help='Print {"results": [...]} instead of a table.')
@click.option("--quick", is_flag=True, help="Shallower perft and shorter playouts (a smoke run).")
@click.option("--solver", is_flag=True,
              help="Measure the strong solver instead: positions/s and bytes per position (rules/bench-solver.yaml).")
@click.option("--workers", "-j", type=click.IntRange(1, 256), default=2, show_default=True,
              help="Worker processes for --solver.")
@reports_errors
def bench(games: tuple[str, ...], settings: tuple[str, ...], as_json: bool, quick: bool, solver: bool,
          workers: int) -> None:
    """Measure perft, playouts and search speed (the bundled cases, or the GAMEs named)."""
    if solver:
        from rulesdsl.cli.bench_solver import chosen_solver_cases, echo_results, measure_solve

        how = lambda case, _quick: measure_solve(case, workers)  # noqa: E731
        chosen = chosen_solver_cases(games, quick, dict(parse_setting(s) for s in settings))
        echo_results(run_cases(chosen, quick, how), as_json)
        return
    cases = chosen_cases(games, dict(parse_setting(s) for s in settings))
    results = run_cases(cases, quick)
    if as_json:
        click.echo(json.dumps({"results": [{k: r[k] for k in FIELDS} for r in results]}, indent=1))
    else:
        click.echo(table(results))
