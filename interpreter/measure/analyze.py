"""Balance statistics from self-play: who wins, how long games last, how they end.

:func:`play_games` plays games from the start across worker processes (each
game seeded on its own, so the figures do not depend on the number of
workers); :func:`summarize` turns the records into counts with Wilson 95%
intervals, the first player's advantage, lengths, branching and end rules.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.pool import Pool

from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.interpreter.parallel.processes import can_fork, fork_pool, stop_pool
from rulesdsl.interpreter.search.engines import choose

CUT = "ply limit"
CHUNK = 20


@dataclass(frozen=True)
class Record:
    """One game: the winner (``None`` for a draw or a cut game), length, branching, how it ended."""

    winner: int | None
    plies: int
    branching_sum: int
    branching_max: int
    end_rule: str
    scores: tuple[int, ...] | None = None  # each player's score at the end (games with ``score``)
    places: tuple[int, ...] | None = None  # each player's place (3 or more players, or places kept); None if cut


def play_game(game: Game, start: State, engine: str, seconds: float, seed: int, max_plies: int,
              trail: list[Move] | None = None) -> Record:
    """Play one game from ``start`` with ``engine`` on every side (its moves appended to ``trail`` when given)."""
    rng = random.Random(seed)
    state, plies, total, widest = start, 0, 0, 0
    while True:
        moves, outcome = game.status(state)
        if outcome is not None:
            ranked = len(game.players) > 2 or outcome.places is not None
            return Record(outcome.winner, plies, total, widest, outcome.reason, game.scores(state),
                          outcome.ranking(len(game.players)) if ranked else None)
        if plies >= max_plies:
            return Record(None, plies, total, widest, CUT, game.scores(state))
        total += len(moves)
        widest = max(widest, len(moves))
        choice = choose(game, state, engine, seconds=seconds, rng=rng)
        assert choice is not None  # the game is not over
        state = game.apply(state, choice.move)
        plies += 1
        if trail is not None:
            trail.append(choice.move)


def game_seed(seed: int, number: int) -> int:
    """The seed of game ``number`` (from 0) of a run seeded ``seed``."""
    return seed * 1_000_003 + number


_JOB: tuple | None = None


def _play_chunk(seeds: list[int]) -> list[Record]:
    assert _JOB is not None
    game, start, engine, seconds, max_plies = _JOB
    return [play_game(game, start, engine, seconds, s, max_plies) for s in seeds]


def play_games(game: Game, start: State, games: int, engine: str = "random", seconds: float = 0.1, seed: int = 0,
               max_plies: int = 500, workers: int = 1,
               progress: Callable[[str, int, int], None] | None = None) -> list[Record]:
    """Play ``games`` games; game i uses seed :func:`game_seed` ``(seed, i)``."""
    global _JOB
    seeds = [game_seed(seed, i) for i in range(games)]
    chunks = [seeds[i:i + CHUNK] for i in range(0, games, CHUNK)]
    records: list[Record] = []
    _JOB = (game, start, engine, seconds, max_plies)
    pools: list[Pool] = []
    try:
        if workers > 1 and len(chunks) > 1 and can_fork():
            results: Iterator[list[Record]] = fork_pool(workers, pools.append).imap(_play_chunk, chunks)
        else:
            results = map(_play_chunk, chunks)
        for done in results:
            records.extend(done)
            if progress:
                progress("games", games, len(records))
    finally:
        for pool in pools:
            stop_pool(pool)
    return records


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _share(count: int, games: int) -> dict[str, object]:
    low, high = wilson(count, games)
    return {"count": count, "rate": count / games if games else 0.0, "ci95": [round(low, 4), round(high, 4)]}


def summarize(game: Game, records: list[Record]) -> dict[str, object]:
    """The report: per-player results, first player's advantage, lengths, branching, end rules, cuts."""
    n = len(records)
    results: dict[str, object] = {}
    for player in game.players:
        wins = sum(r.winner == player.index for r in records)
        losses = sum(r.winner is not None and r.winner != player.index for r in records)
        draws = n - wins - losses
        results[player.name] = {"wins": wins, "losses": losses, "draws": draws,
                                "win": _share(wins, n), "loss": _share(losses, n), "draw": _share(draws, n)}
    first, second = game.players[0].index, game.players[1].index if len(game.players) > 1 else None
    first_wins = sum(r.winner == first for r in records)
    second_wins = sum(r.winner == second for r in records) if second is not None else 0
    decided = first_wins + second_wins
    low, high = wilson(first_wins, decided)
    plies = [r.plies for r in records] or [0]
    positions = sum(r.plies for r in records)
    cut = sum(r.end_rule == CUT for r in records)
    return {
        "games": n,
        "results": results,
        "first_player": {"player": game.players[0].name, "advantage": (first_wins - second_wins) / n if n else 0.0,
                         "wins_among_decided": first_wins / decided if decided else None,
                         "ci95": [round(low, 4), round(high, 4)]},
        "plies": {"mean": statistics.fmean(plies), "median": statistics.median(plies), "max": max(plies)},
        "branching": {"mean": sum(r.branching_sum for r in records) / positions if positions else 0.0,
                      "max": max((r.branching_max for r in records), default=0)},
        "end_rules": dict(Counter(r.end_rule for r in records if r.end_rule != CUT).most_common()),
        "cut": cut,
        **_final_scores(game, records),
        **_places(game, records),
    }


def _places(game: Game, records: list[Record]) -> dict[str, object]:
    """``{"places": {player: {"1": games, "2": games, ..., "mean": place}}}`` over the games that ended, for games
    that rank every player (three or more, or places kept); else nothing. Players sharing a place both count it."""
    ranked = [r.places for r in records if r.places is not None]
    if not ranked:
        return {}
    count = len(game.players)
    out: dict[str, object] = {}
    for p in game.players:
        row: dict[str, object] = {str(k): sum(places[p.index] == k for places in ranked) for k in range(1, count + 1)}
        row["mean"] = statistics.fmean(places[p.index] for places in ranked)
        out[p.name] = row
    return {"places": out}


def _final_scores(game: Game, records: list[Record]) -> dict[str, object]:
    """``{"scores": {player: {"mean", "max"}}}`` at the games' ends, for games that keep scores (else nothing)."""
    kept = [r.scores for r in records if r.scores is not None]
    if not kept:
        return {}
    return {"scores": {p.name: {"mean": statistics.fmean(s[p.index] for s in kept),
                                "max": max(s[p.index] for s in kept)} for p in game.players}}
