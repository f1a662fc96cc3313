"""Benchmark: the strong solver and self-play statistics.

Run: ``.venv/bin/python scripts/bench_solver.py [--workers N]``. Prints the
positions solved per second (in memory, no database) for small Konane and
grid Abalone boards, then the seconds taken by ``analyze`` for 1,000 random
games of each seed game. Figures go in the README; tests never time.
"""

from __future__ import annotations

import argparse
import resource
import time

from rulesdsl.interpreter.analyze import play_games
from rulesdsl.interpreter.load import load_game
from rulesdsl.interpreter.solver import solve

SOLVE_CASES = [
    ("konane", {"rows": "4", "cols": "5"}),
    ("abalone", {"rows": "3", "cols": "4", "captures": "1"}),
]
PLAY_CASES = ["konane", "abalone", "capture-the-flag", "abalone-hex"]


def main() -> None:
    """Time the solver cases, then 1,000 random games of each seed game."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    workers = parser.parse_args().workers
    print(f"{'solve':<10}{'options':<36}{'value':>8}{'positions':>11}{'seconds':>9}{'positions/s':>13}")
    for name, settings in SOLVE_CASES:
        game = load_game(name, settings)
        start = time.perf_counter()
        result = solve(game, game.initial_state(), use_db=False, workers=workers)
        elapsed = time.perf_counter() - start
        opts = ",".join(f"{k}={v}" for k, v in settings.items())
        value, count = f"{result.value} {result.remoteness}", result.positions
        print(f"{name:<10}{opts:<36}{value:>8}{count:>11,}{elapsed:>9.1f}{count / elapsed:>13,.0f}")
    print(f"peak memory of the main process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB")
    print(f"\n{'analyze (1,000 random games)':<30}{'seconds':>9}")
    for name in PLAY_CASES:
        game = load_game(name, {})
        start = time.perf_counter()
        play_games(game, game.initial_state(), 1000, workers=workers)
        print(f"{name:<30}{time.perf_counter() - start:>9.1f}")


if __name__ == "__main__":
    main()
