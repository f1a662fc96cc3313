"""``rulesdsl bench --solver``: how fast the strong solver runs and how much memory it needs per position.

Each case (``rules/bench-solver.yaml``, or the games named) is solved from its
start in memory (no database), in a forked process of its own so that the
peak memory is the case's. Figures: positions, seconds end to end (exploring
and retrograde analysis), positions per second, peak memory of the solving
process (the workers it forks are separate processes and not counted), and
bytes per position: that peak over the positions, and the growth of the peak
during the solve over the positions (what the solver itself holds, without
the interpreter's fixed size). Nothing here asserts a speed.
"""

from __future__ import annotations

import time

import click
import yaml

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.loader import bundled_dir

SOLVER_FIELDS = ("game", "settings", "workers", "value", "remoteness", "positions", "seconds", "positions_per_s",
                 "peak_mb", "bytes_per_position", "solver_bytes_per_position")


def solver_cases() -> list[dict]:
    """The bundled solver case list (``rules/bench-solver.yaml``)."""
    return yaml.safe_load((bundled_dir() / "bench-solver.yaml").read_text(encoding="utf-8"))


def measure_solve(case: dict, workers: int) -> dict:
    """Solve one case from its start and return its figures."""
    from rulesdsl.cli.bench_command import peak_mb, say
    from rulesdsl.interpreter.solver import solve

    settings = {k: str(v) for k, v in (case.get("settings") or {}).items()}
    game = load_game(case["game"], settings)
    label = " ".join([case["game"], *(f"{k}={v}" for k, v in settings.items())])
    say(f"{label}: solving with {workers} worker(s)")
    before = peak_mb()
    started = time.perf_counter()
    result = solve(game, game.initial_state(), use_db=False, workers=workers)
    seconds = time.perf_counter() - started
    peak = peak_mb()
    positions = result.positions or 0
    return {
        "game": case["game"], "settings": settings, "workers": workers, "value": result.value,
        "remoteness": result.remoteness, "positions": positions, "seconds": round(seconds, 1),
        "positions_per_s": round(positions / seconds), "peak_mb": peak,
        "bytes_per_position": round(peak * 2**20 / positions, 1),
        "solver_bytes_per_position": round((peak - before) * 2**20 / positions, 1),
    }


def solver_table(results: list[dict]) -> str:
    """The solver figures as an aligned text table."""
    head = ("game", "settings", "value", "positions", "seconds", "positions/s", "peak MB", "bytes/pos",
            "solver bytes/pos")
    rows = [head]
    for r in results:
        value = r["value"] if r["remoteness"] is None else f"{r['value']} {r['remoteness']}"
        rows.append((r["game"], " ".join(f"{k}={v}" for k, v in r["settings"].items()) or "default", value,
                     f"{r['positions']:,}", f"{r['seconds']:,.1f}", f"{r['positions_per_s']:,}",
                     f"{r['peak_mb']:,.0f}", f"{r['bytes_per_position']:,.1f}",
                     f"{r['solver_bytes_per_position']:,.1f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) if i < 3 else cell.rjust(w) for i, (cell, w)
                               in enumerate(zip(row, widths))).rstrip() for row in rows)


def chosen_solver_cases(games: tuple[str, ...], quick: bool, settings: dict[str, str] | None = None) -> list[dict]:
    """The bundled cases (the quick ones with ``quick``), or those of the games named; ``--set`` options
    replace a case's settings (one case per game then)."""
    cases = solver_cases()
    if games:
        cases = [c for c in cases if c["game"] in games and (c.get("quick") or not quick or settings)] + \
            [{"game": g} for g in games if not any(c["game"] == g for c in cases)]
    else:
        cases = [c for c in cases if c.get("quick") or not quick]
    if not settings:
        return cases
    once: dict[str, dict] = {}
    for case in cases:
        once.setdefault(case["game"], {**case, "settings": {**(case.get("settings") or {}), **settings}})
    return list(once.values())


def echo_results(results: list[dict], as_json: bool) -> None:
    """Print the figures as JSON or as a table."""
    import json

    if as_json:
        click.echo(json.dumps({"solver": [{k: r[k] for k in SOLVER_FIELDS} for r in results]}, indent=1))
    else:
        click.echo(solver_table(results))
