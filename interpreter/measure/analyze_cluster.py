"""Self-play games spread over a Dask cluster's workers (``analyze --cluster``).

The games are cut into the same chunks as on one machine, each chunk a task;
every worker compiles the game once from its rule file and options
(:func:`rulesdsl.interpreter.parallel.cluster.recipe`). Game i still uses seed
``S * 1000003 + i`` and the records come back in game order, so the report is
the one a local run with the same ``--seed`` gives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.measure.analyze import CHUNK, Record, play_game
from rulesdsl.interpreter.parallel.cluster import ClusterError, load_recipe, lost_scheduler, recipe


def play_chunk(rules: str, settings: tuple[tuple[str, str], ...], start: State, engine: str, seconds: float,
               max_plies: int, seeds: list[int]) -> list[Record]:
    """A worker's task: the games of ``seeds``."""
    game = load_recipe(rules, settings)
    return [play_game(game, start, engine, seconds, seed, max_plies) for seed in seeds]


def play_on_cluster(client: Any, game: Game, start: State, games: int, engine: str = "random", seconds: float = 0.1,
                    seed: int = 0, max_plies: int = 500,
                    progress: Callable[[str, int, int], None] | None = None) -> list[Record]:
    """Play ``games`` games on the cluster of ``client``; game i uses seed ``seed * 1_000_003 + i``."""
    from distributed import as_completed

    rules, settings = recipe(game)
    seeds = [seed * 1_000_003 + i for i in range(games)]
    chunks = [seeds[i:i + CHUNK] for i in range(0, games, CHUNK)]
    futures = [client.submit(play_chunk, rules, settings, start, engine, seconds, max_plies, chunk, pure=False)
               for chunk in chunks]
    try:
        done = 0
        for future in as_completed(futures):
            done += len(future.result())
            if progress:
                progress("games", games, done)
        return [record for future in futures for record in future.result()]
    except RulesdslError:
        raise
    except Exception as error:
        if lost_scheduler(error):
            raise ClusterError("lost the Dask scheduler while playing the games") from None
        raise ClusterError(f"a game failed on a worker: {type(error).__name__}: {error}") from None
