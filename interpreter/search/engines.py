"""The engines by name, behind one call: ``choose(game, state, engine, depth, seconds)``.

Every caller that lets a program move (``move``, ``hint``, ``play``, the REPL,
``analyze``'s self-play, the benchmarks) goes through :func:`choose`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.interpreter.search.engine import Iteration, Result, think
from rulesdsl.interpreter.search.maxn import think_maxn
from rulesdsl.interpreter.search.mcts import mcts
from rulesdsl.interpreter.search.paranoid import think_paranoid

ENGINES = ("alphabeta", "mcts", "maxn", "paranoid")
SEARCHES = ("alphabeta", "maxn", "paranoid")  # the engines that search to a depth
SELF_PLAY = ("random", *ENGINES)  # ``analyze`` may also let every side play uniformly random moves
DEFAULT_SECONDS = 1.0


def choose(
    game: Game,
    state: State,
    engine: str = "alphabeta",
    depth: int | None = None,
    seconds: float | None = None,
    *,
    on_iteration: Callable[[Iteration], None] | None = None,
    catch_interrupt: bool = False,
    seed: int | None = None,
    rng: random.Random | None = None,
) -> Result | None:
    """The engine's move (``None`` when the game is over).

    ``alphabeta``: iterative deepening to ``depth`` plies and/or for
    ``seconds`` (with three or more players, max^n). ``maxn``: max^n
    (:mod:`rulesdsl.interpreter.search.maxn`), each player maximising its own
    reward; ``paranoid``: alpha-beta with every other player against the
    mover (:mod:`rulesdsl.interpreter.search.paranoid`); both search to
    ``depth`` and/or for ``seconds``. Under a clock every search runs on the native kernel once its
    machine code is ready (:mod:`~rulesdsl.interpreter.search.kernel_search`,
    :mod:`~rulesdsl.interpreter.search.kernel_players`), as :func:`think` decides.
    ``mcts``: UCT for ``seconds`` (``depth`` does not apply).
    ``random``: any legal move, uniformly. With neither limit,
    ``DEFAULT_SECONDS``. ``rng`` (for self-play, so that games differ):
    alpha-beta tries the root moves in a shuffled order (so equal moves are
    picked at random), MCTS and ``random`` draw from it; otherwise ``seed``
    seeds MCTS.
    """
    if depth is None and seconds is None:
        seconds = DEFAULT_SECONDS
    if engine == "random":
        moves = game.legal_moves(state)
        if not moves:
            return None
        draw = rng or random.Random(seed)
        return Result(moves[draw.randrange(len(moves))], 0.0, 0, 0, 0.0, engine="random")
    if engine == "mcts":
        if rng is not None:
            seed = rng.randrange(2**32)
        return mcts(game, state, seconds, seed=seed, catch_interrupt=catch_interrupt)
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: choose {', '.join(SELF_PLAY)}")
    if engine == "paranoid":
        return think_paranoid(game, state, depth, seconds, on_iteration=on_iteration,
                              catch_interrupt=catch_interrupt, shuffle=rng)
    if engine == "maxn" or len(game.players) > 2:
        return think_maxn(game, state, depth, seconds, on_iteration=on_iteration,
                          catch_interrupt=catch_interrupt, shuffle=rng)
    return think(game, state, depth, seconds, on_iteration=on_iteration, catch_interrupt=catch_interrupt,
                 shuffle=rng)


def describe_iteration(game: Game, state: State, iteration: Iteration) -> str:
    """``depth 4  score +1.00  nodes 5,120  nodes/s 48,000  pv b2-d2 d1-b1``.

    An iteration that narrowed its candidates (see :mod:`rulesdsl.interpreter.search.ordering`) ends with
    ``(selective: placements near pieces)``.
    """
    line = principal_moves(game, state, iteration.pv)
    rate = iteration.nodes / iteration.seconds if iteration.seconds > 0 else 0.0
    return (f"depth {iteration.depth}  score {iteration.score + 0.0:+.2f}  nodes {iteration.nodes:,}  "
            f"nodes/s {rate:,.0f}  pv {' '.join(line)}" + ("  (selective: placements near pieces)"
                                                          if iteration.selective else ""))


def describe_choice(game: Game, state: State, result: Result) -> str:
    """The move played and where it comes from: ``plays j10 (depth 2, score +1.00)``, or, when an unfinished
    iteration's best move replaced the last finished one's, ``plays b19 from the unfinished depth 3 iteration
    (score -6.00; depth 2 chose j10)``."""
    move = game.format_move(state, result.move)
    where = "native kernel" if result.kernel == "native" else ""
    if result.partial:
        finished = result.iterations[-1].pv[:1] if result.iterations else ()
        before = f"; depth {result.depth} chose {game.format_move(state, finished[0])}" if finished else ""
        text = f"plays {move} from the unfinished depth {result.partial} iteration (score {result.score + 0.0:+.2f}" \
               f"{before})"
    else:
        text = f"plays {move} (depth {result.depth}, score {result.score + 0.0:+.2f})"
    return text + (f"  [{where}]" if where else "")


def principal_moves(game: Game, state: State, moves: tuple[Move, ...]) -> list[str]:
    """A line of moves in notation, each in the position it is played in."""
    out = []
    for move in moves:
        out.append(game.format_move(state, move))
        state = game.apply(state, move)
    return out
