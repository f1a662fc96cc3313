"""``rulesdsl analyze``: balance statistics from many self-played games."""

from __future__ import annotations

import json
import os

import click

from rulesdsl.cli.common import game_options, prepare, reports_errors
from rulesdsl.cli.progress import ProgressLine
from rulesdsl.interpreter.analyze import play_games, summarize
from rulesdsl.interpreter.engines import SELF_PLAY


@click.command(name="analyze")
@game_options
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=1000, show_default=True,
              help="Games to play.")
@click.option("--engine", type=click.Choice(SELF_PLAY), default="random", show_default=True,
              help="Who plays every side.")
@click.option("--time", "seconds", type=click.FloatRange(0, 3600), default=0.05, show_default=True,
              help="Seconds per move (alphabeta and mcts).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option("--max-plies", type=click.IntRange(1, 1_000_000), default=500, show_default=True,
              help="Cut a game after this many plies (counted apart, as a draw).")
@click.option("--workers", "-j", type=click.IntRange(1, 256), help="Worker processes (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--cluster", metavar="ADDRESS",
              help="Play the games on a Dask cluster: a scheduler's address (tcp://host:8786) or local:N.")
@reports_errors
def analyze(file, settings, position, history, games, engine, seconds, seed, max_plies, workers, as_json,
            cluster) -> None:
    """Play many games and report who wins, with 95% intervals, how long they last and how they end."""
    game, state = prepare(file, settings, position, history)
    bar = ProgressLine(noun="games")
    try:
        if cluster:
            records = _on_cluster(cluster, game, state, games, engine, seconds, seed, max_plies, bar)
        else:
            records = play_games(game, state, games, engine, seconds, seed, max_plies, workers or os.cpu_count() or 1,
                                 bar)
    finally:
        bar.close()
    report = summarize(game, records)
    if as_json:
        click.echo(json.dumps(report))
        return
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
    for rule, count in report["end_rules"].items():
        click.echo(f"ended by '{rule}': {count:,}")
    click.echo(f"cut at {max_plies} plies: {report['cut']:,}")


def _on_cluster(cluster, game, state, games, engine, seconds, seed, max_plies, bar):
    """The games played on the Dask cluster ``cluster`` (its dashboard's address printed on stderr)."""
    from rulesdsl.interpreter.analyze_cluster import play_on_cluster
    from rulesdsl.interpreter.cluster import dashboard, open_client

    with open_client(cluster) as client:
        link = dashboard(client)
        if link:
            click.echo(f"Dask dashboard: {link}", err=True)
        return play_on_cluster(client, game, state, games, engine, seconds, seed, max_plies, bar)
