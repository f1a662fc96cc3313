"""Engine against engine: win counts over a fixed number of games (README, "The engine").

Run: ``.venv/bin/python benchmarks/match.py GAME [NAME=VALUE...] --games N --first E --second E [budget]``.

The engines (``--first``, ``--second``):

- ``kernel``: alpha-beta on the compiled kernel, in machine code where numba imports
  (:mod:`rulesdsl.interpreter.search.kernel_search`; the compile is waited for before the first game);
- ``generic``: the same alpha-beta on the generic reference path (the engine before the kernel search);
- ``mcts``: UCT with random playouts (on the kernel where the game has one).

The budget is either time (``--seconds S`` a move for both) or fixed effort (``--depth D`` for the
alpha-beta engines, ``--iterations I`` for MCTS), which makes a run repeatable. The engines swap sides
every game. So that the games differ, game g opens with ``--opening`` uniformly random plies drawn
from seed g (the same opening for both colour assignments of a pair of games). A game longer than
300 plies counts as a draw.
"""

from __future__ import annotations

import argparse
import random
import time

from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.search.engine import think
from rulesdsl.interpreter.search.mcts import mcts

PLY_CAP = 300
ENGINES = ("kernel", "generic", "mcts")


def pick(game: Game, state: State, engine: str, args: argparse.Namespace, seed: int):
    """One engine's move under the match's budget."""
    if engine == "mcts":
        if args.seconds is not None:
            return mcts(game, state, args.seconds, seed=seed)
        return mcts(game, state, iterations=args.iterations, seed=seed)
    depth = None if args.seconds is not None else args.depth
    return think(game, state, depth, args.seconds, kernel=engine == "kernel")


def play_one(game: Game, engines: tuple[str, str], args: argparse.Namespace, g: int) -> int | None:
    """The winner's index (or None for a draw) of game ``g``; ``engines[i]`` plays seat ``i``."""
    state = game.initial_state()
    opening = random.Random(g // 2)
    for ply in range(PLY_CAP):
        moves, outcome = game.status(state)
        if outcome is not None:
            return outcome.winner
        if ply < args.opening:
            move = moves[opening.randrange(len(moves))]
        else:
            move = pick(game, state, engines[game.to_move(state)], args, g * 1000 + ply).move
        state = game.apply(state, move)
    return None


def main() -> None:
    """Play the match and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("settings", nargs="*", help="rule-file options, NAME=VALUE")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first", choices=ENGINES, default="mcts")
    parser.add_argument("--second", choices=ENGINES, default="generic")
    parser.add_argument("--seconds", type=float, help="a move's time for every engine (else fixed effort)")
    parser.add_argument("--iterations", type=int, default=300, help="MCTS iterations a move, without --seconds")
    parser.add_argument("--depth", type=int, default=2, help="alpha-beta depth, without --seconds")
    parser.add_argument("--opening", type=int, default=0, help="random plies that open each pair of games")
    args = parser.parse_args()
    game = load_game(args.game, dict(s.split("=", 1) for s in args.settings))
    if "kernel" in (args.first, args.second) and game.native_kernel(wait=True) is None:
        print(f"{args.game}: no kernel in machine code; 'kernel' searches on the Python kernel if any")
    names = (args.first, args.second)
    tally = {"first": 0, "second": 0, "draw": 0}
    started = time.perf_counter()
    for g in range(args.games):
        first_seat = g % 2
        seats = (names[0], names[1]) if first_seat == 0 else (names[1], names[0])
        winner = play_one(game, seats, args, g)
        key = "draw" if winner is None else "first" if winner == first_seat else "second"
        tally[key] += 1
        print(f"game {g + 1}: {names[0]} plays {game.players[first_seat].name}: "
              f"{'draw' if key == 'draw' else names[0 if key == 'first' else 1] + ' wins'}", flush=True)
    budget = (f"{args.seconds} s a move" if args.seconds is not None
              else f"depth {args.depth}, {args.iterations} MCTS iterations")
    print(f"{args.game} {' '.join(args.settings)} ({budget}, {args.opening} random opening plies, "
          f"{time.perf_counter() - started:.0f} s): {names[0]} {tally['first']}, {names[1]} {tally['second']}, "
          f"draws {tally['draw']}")


if __name__ == "__main__":
    main()
