"""The pictures of ``rulesdsl analyze``: a histogram of game lengths, a sweep of win rates, a sample game.

``--sweep NAME=A..B`` (or ``NAME=A,B,C``) is read by :func:`parse_sweep`;
:func:`write_pictures` turns the played games into charts
(:mod:`rulesdsl.cli.plots`) and replays the first game for its boards
(:mod:`rulesdsl.cli.boards`), as text, as files, or both.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from rulesdsl.cli.boards import Step, text_steps, write_steps
from rulesdsl.cli.plots import Histogram, Point, Sweep, histogram_text, sweep_text, write_chart
from rulesdsl.errors import OptionError, RulesdslError
from rulesdsl.interpreter.compile.game import Game, Move, State
from rulesdsl.interpreter.measure.analyze import Record, game_seed, play_game, wilson

MOST_VALUES = 64
_RANGE = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*=\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
_LIST = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*=\s*([^,=\s]+(\s*,\s*[^,=\s]+)*)\s*$")


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """``"rows=4..8"`` -> ``("rows", ["4", ..., "8"])``; ``"misere=false,true"`` -> its list of values."""
    found = _RANGE.match(text)
    if found:
        name, low, high = found.group(1), int(found.group(2)), int(found.group(3))
        if high < low:
            raise OptionError(f"--sweep {text!r}: the range {low}..{high} is empty (write the smaller value first)")
        if high - low + 1 > MOST_VALUES:
            raise OptionError(f"--sweep {text!r}: {high - low + 1} values; at most {MOST_VALUES}")
        return name, [str(v) for v in range(low, high + 1)]
    found = _LIST.match(text)
    if found:
        values = [v.strip() for v in found.group(2).split(",")]
        if len(values) > MOST_VALUES:
            raise OptionError(f"--sweep {text!r}: {len(values)} values; at most {MOST_VALUES}")
        return found.group(1), values
    raise OptionError(f"--sweep {text!r}: write NAME=A..B (whole numbers) or NAME=A,B,C")


def lengths_chart(game: Game, label: str, records: list[Record]) -> Histogram:
    """The histogram of the games' lengths in plies."""
    what = f"{game.title} {label}".strip()
    return Histogram(f"{what}: lengths of {len(records):,} games", tuple(r.plies for r in records))


def sweep_chart(option: str, runs: list[tuple[str, Game, State, list[Record]]]) -> Sweep:
    """Each player's share of wins (and of draws, when there are any) at each value, with Wilson intervals."""
    game = runs[0][1]
    series: dict[str, list[Point]] = {f"{p.name} wins": [] for p in game.players}
    draws: list[Point] = []
    for _, played, _, records in runs:
        n = len(records)
        for player in played.players:
            wins = sum(r.winner == player.index for r in records)
            series[f"{player.name} wins"].append(Point(wins / n, *wilson(wins, n)))
        undecided = sum(r.winner is None for r in records)
        draws.append(Point(undecided / n, *wilson(undecided, n)))
    if any(p.rate for p in draws):
        series["draws"] = draws
    values = tuple(label.split("=", 1)[1] for label, *_ in runs)
    return Sweep(f"{game.title}: win rates against {option} ({len(runs[0][3]):,} games each)", option, values,
                 {name: tuple(points) for name, points in series.items()})


def sample_steps(game: Game, start: State, engine: str, seconds: float, seed: int, max_plies: int) -> list[Step]:
    """The first game of the run (seed :func:`game_seed` ``(seed, 0)``), replayed: every board after every move."""
    trail: list[Move] = []
    play_game(game, start, engine, seconds, game_seed(seed, 0), max_plies, trail)
    steps = [Step("start", start)]
    state = start
    for ply, move in enumerate(trail, start=1):
        after = game.apply(state, move)
        steps.append(Step(f"{ply}. {game.format_move(state, move)}", after, move, state))
        state = after
    return steps


def write_pictures(runs: list[tuple[str, Game, State, list[Record]]], engine: str, seconds: float, seed: int,
                   max_plies: int, folder: Path | None, png: bool, as_text: bool) -> Path | None:
    """Draw the runs' charts (and, without a sweep, the first game's boards) as text and/or files in ``folder``."""
    swept = len(runs) > 1 or bool(runs[0][0])
    charts: list[tuple[str, Histogram | Sweep]] = [
        (f"lengths-{label}" if label else "lengths", lengths_chart(game, label, records))
        for label, game, _, records in runs]
    if swept:
        charts.append(("sweep", sweep_chart(runs[0][0].split("=", 1)[0], runs)))
    steps = None if swept else sample_steps(runs[0][1], runs[0][2], engine, seconds, seed, max_plies)
    if as_text:
        for _, chart in charts:
            click.echo()
            click.echo(histogram_text(chart) if isinstance(chart, Histogram) else sweep_text(chart))
        if steps:
            click.echo(f"\nthe first game ({engine} against {engine}, seed {game_seed(seed, 0)}):")
            click.echo(text_steps(runs[0][1], steps))
    if folder is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, chart in charts:
            write_chart(chart, folder, name)
            if png:
                write_chart(chart, folder, name, "png")
        if steps:
            game = runs[0][1]
            write_steps(game, steps, folder / "game", f"{game.title}: the first game, {engine} against {engine}")
    except OSError as error:
        raise RulesdslError(f"{folder}: cannot write: {error.strerror or error}") from None
    return folder
