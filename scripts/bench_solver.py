"""Benchmark: the strong solver and self-play statistics.

Run: ``.venv/bin/python scripts/bench_solver.py [--workers N]``. The solver
part is ``rulesdsl bench --solver --quick`` (positions per second and bytes
per position of the quick cases in ``rules/bench-solver.yaml``; run
``rulesdsl bench --solver`` for all of them); then the seconds taken by
``analyze`` for 1,000 random games of each seed game. Figures go in the
README; tests never time.
"""

from __future__ import annotations

import argparse
import time

from rulesdsl.cli.bench_command import run_case
from rulesdsl.cli.bench_solver import chosen_solver_cases, echo_results, measure_solve
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.measure.analyze import play_games

PLAY_CASES = ["konane", "abalone", "capture-the-flag", "abalone-hex"]


def main() -> None:
    """The quick solver cases, then 1,000 random games of each seed game."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    workers = parser.parse_args().workers
    cases = chosen_solver_cases((), quick=True)
    echo_results([run_case(case, True, lambda c, _q: measure_solve(c, workers)) for case in cases], False)
    print(f"\n{'analyze (1,000 random games)':<30}{'seconds':>9}")
    for name in PLAY_CASES:
        game = load_game(name, {})
        start = time.perf_counter()
        play_games(game, game.initial_state(), 1000, workers=workers)
        print(f"{name:<30}{time.perf_counter() - start:>9.1f}")


if __name__ == "__main__":
    main()
