"""MCTS against alpha-beta: win counts over a fixed number of games (README, "The engine").

Run: ``.venv/bin/python benchmarks/match.py GAME [NAME=VALUE...] --games N --iterations I --depth D``.
Both engines get fixed budgets (MCTS a number of iterations, alpha-beta a
depth), so a run is repeatable: game g uses MCTS seed g, and the engines
swap sides every game. A game longer than 300 plies counts as a draw.
"""

from __future__ import annotations

import argparse

from rulesdsl.interpreter.engine import think
from rulesdsl.interpreter.load import load_game
from rulesdsl.interpreter.mcts import mcts

PLY_CAP = 300


def play_one(game, mcts_side: int, iterations: int, depth: int, seed: int) -> int | None:
    """The winner's index (or None for a draw) of one game."""
    state = game.initial_state()
    for ply in range(PLY_CAP):
        moves, outcome = game.status(state)
        if outcome is not None:
            return outcome.winner
        if game.to_move(state) == mcts_side:
            choice = mcts(game, state, iterations=iterations, seed=seed * 1000 + ply)
        else:
            choice = think(game, state, depth)
        state = game.apply(state, choice.move)
    return None


def main() -> None:
    """Play the match and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("settings", nargs="*", help="rule-file options, NAME=VALUE")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--depth", type=int, default=2)
    args = parser.parse_args()
    game = load_game(args.game, dict(s.split("=", 1) for s in args.settings))
    tally = {"mcts": 0, "alphabeta": 0, "draw": 0}
    for g in range(args.games):
        mcts_side = g % 2
        winner = play_one(game, mcts_side, args.iterations, args.depth, g)
        key = "draw" if winner is None else "mcts" if winner == mcts_side else "alphabeta"
        tally[key] += 1
        print(f"game {g + 1}: mcts plays {game.players[mcts_side].name}: {key}", flush=True)
    print(f"{args.game} {' '.join(args.settings)}: mcts ({args.iterations} iterations) {tally['mcts']}, "
          f"alpha-beta (depth {args.depth}) {tally['alphabeta']}, draws {tally['draw']}")


if __name__ == "__main__":
    main()
