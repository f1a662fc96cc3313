"""Benchmark: perft and search speed of every bundled seed game.

Run: ``.venv/bin/python scripts/bench.py``. Prints one line per game with the
nodes counted and nodes per second. Figures go in the README; tests never time.
"""

from __future__ import annotations

import sys
import time

from rulesdsl.interpreter.load import load_game
from rulesdsl.interpreter.search import best_move, perft

CASES = [
    ("konane", {"rows": "6", "cols": "6"}, 6),
    ("abalone", {}, 5),
    ("capture-the-flag", {}, 5),
    ("abalone-hex", {}, 5),
]


def main(argv: list[str]) -> None:
    """Time perft and a depth-4 search for each case."""
    print(f"{'game':<22}{'options':<18}{'depth':>5}{'perft':>10}{'seconds':>9}{'leaves/s':>11}{'search 4 s':>11}")
    for name, settings, depth in CASES:
        game = load_game(name, settings)
        state = game.initial_state()
        start = time.perf_counter()
        count = perft(game, state, depth)
        elapsed = time.perf_counter() - start
        start = time.perf_counter()
        best_move(game, state, 4)
        search = time.perf_counter() - start
        opts = ",".join(f"{k}={v}" for k, v in settings.items()) or "default"
        print(f"{name:<22}{opts:<18}{depth:>5}{count:>10}{elapsed:>9.2f}{count / elapsed:>11.0f}{search:>11.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
