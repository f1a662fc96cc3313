"""``rulesdsl analyze``: balance statistics from many self-played games, with pictures on request."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from rulesdsl.cli.analyze_pictures import parse_sweep, write_pictures
from rulesdsl.cli.common import Seconds, fail, game_options, prepare, reports_errors
from rulesdsl.cli.progress import ProgressLine
from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.measure.analyze import Record, play_games, summarize
from rulesdsl.interpreter.search.engines import SELF_PLAY


@click.command(name="analyze")
@game_options
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=1000, show_default=True,
              help="Games to play.")
@click.option("--engine", type=click.Choice(SELF_PLAY), default="random", show_default=True,
              help="Who plays every side.")
@click.option("--time", "seconds", type=Seconds(0, 3600), default=0.05, show_default=True,
              help="Seconds per move (alphabeta and mcts).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option("--max-plies", type=click.IntRange(1, 1_000_000), default=500, show_default=True,
              help="Cut a game after this many plies (counted apart, as a draw).")
@click.option("--workers", "-j", type=click.IntRange(1, 256), help="Worker processes (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--sweep", metavar="NAME=A..B",
              help="Play --games games for each value of an option (A..B, or a list A,B,C) and compare win rates.")
@click.option("--draw", "draw_text", is_flag=True,
              help="Draw as text: a histogram of game lengths, win rates against the swept option, "
                   "and the first game's boards beside its moves.")
@click.option("--svg", "svg_dir", metavar="DIR",
              help="Write the same pictures to DIR: lengths.svg, sweep.svg, and the first game's boards (index.html).")
@click.option("--png", is_flag=True, help="With --svg, also write the charts as PNG (needs the 'plot' extra).")
@click.option("--cluster", metavar="ADDRESS",
              help="Play the games on a Dask cluster: a scheduler's address (tcp://host:8786) or local:N.")
@reports_errors
def analyze(file, settings, position, history, games, engine, seconds, seed, max_plies, workers, as_json,
            sweep, draw_text, svg_dir, png, cluster) -> None:
    """Play many games and report who wins, with 95% intervals, how long they last and how they end."""
    if png and not svg_dir:
        fail("--png needs --svg DIR (the folder for the pictures)")
    workers = workers or os.cpu_count() or 1
    runs = []  # (label, game, state, records)
    name = ""
    if sweep:
        name, values = parse_sweep(sweep)
        if position is not None:
            fail("--sweep cannot be used with --position: each value of the option has its own start")
        for value in values:
            game, state = prepare(file, (*settings, f"{name}={value}"), None, history)
            runs.append((f"{name}={value}", game, state, _play(game, state, f"{name}={value}", games, engine,
                                                               seconds, seed, max_plies, workers, cluster)))
    else:
        game, state = prepare(file, settings, position, history)
        runs.append(("", game, state, _play(game, state, "games", games, engine, seconds, seed, max_plies, workers,
                                           cluster)))
    reports = [(label, summarize(game, records)) for label, game, _, records in runs]
    if as_json:
        click.echo(json.dumps(reports[0][1] if not sweep else
                              {"sweep": {"option": name,
                                         "reports": [{"value": label.split("=", 1)[1], **report}
                                                     for label, report in reports]}}))
    else:
        for label, report in reports:
            if label:
                click.echo(f"== {label}")
            _echo_report(report, engine, max_plies)
    if draw_text or svg_dir:
        where = write_pictures(runs, engine, seconds, seed, max_plies, Path(svg_dir) if svg_dir else None,
                               png, draw_text and not as_json)
        if where:
            click.echo(f"pictures written to {where}", err=True)


def _play(game: Game, state: State, phase: str, games: int, engine: str, seconds: float, seed: int,
          max_plies: int, workers: int, cluster: str | None = None) -> list[Record]:
    """Play the games with a progress line named ``phase`` (on the Dask cluster ``cluster`` when given)."""
    bar = ProgressLine(noun="games")

    def report(_phase: str, total: int, done: int) -> None:
        bar(phase, total, done)

    try:
        if cluster:
            return _on_cluster(cluster, game, state, games, engine, seconds, seed, max_plies, report)
        return play_games(game, state, games, engine, seconds, seed, max_plies, workers, report)
    finally:
        bar.close()


def _echo_report(report: dict, engine: str, max_plies: int) -> None:
    """The report as text."""
    click.echo(f"{report['games']:,} games, {engine} against {engine}")
    for name, row in report["results"].items():
        parts = []
        for word, key in (("wins", "win"), ("losses", "loss"), ("draws", "draw")):
            share = row[key]
            low, high = share["ci95"]
            parts.append(f"{word} {share['count']:,} ({share['rate']:.1%}, {low:.1%}-{high:.1%})")
        click.echo(f"  {name}: " + ", ".join(parts))
    first = report["first_player"]
    among = first["wins_among_decided"]
    click.echo(f"first player ({first['player']}) advantage {first['advantage']:+.1%}"
               + ("" if among is None else f"; wins {among:.1%} of decided games "
                  f"({first['ci95'][0]:.1%}-{first['ci95'][1]:.1%})"))
    plies = report["plies"]
    click.echo(f"plies: mean {plies['mean']:.1f}, median {plies['median']:g}, max {plies['max']}")
    click.echo(f"branching: mean {report['branching']['mean']:.1f}, max {report['branching']['max']}")
    for name, score in report.get("scores", {}).items():
        click.echo(f"score at the end: {name} mean {score['mean']:.1f}, max {score['max']}")
    for name, row in report.get("places", {}).items():
        counts = ", ".join(f"{place} {n:,}" for place, n in row.items() if place != "mean")
        click.echo(f"places: {name} {counts} (mean {row['mean']:.2f})")
    for rule, count in report["end_rules"].items():
        click.echo(f"ended by '{rule}': {count:,}")
    click.echo(f"cut at {max_plies} plies: {report['cut']:,}")


def _on_cluster(cluster, game, state, games, engine, seconds, seed, max_plies, bar):
    """The games played on the Dask cluster ``cluster`` (its dashboard's address printed on stderr)."""
    from rulesdsl.interpreter.measure.analyze_cluster import play_on_cluster
    from rulesdsl.interpreter.parallel.cluster import dashboard, open_client

    with open_client(cluster) as client:
        link = dashboard(client)
        if link:
            click.echo(f"Dask dashboard: {link}", err=True)
        return play_on_cluster(client, game, state, games, engine, seconds, seed, max_plies, bar)
