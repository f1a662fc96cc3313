"""``rulesdsl solve``: the exact value and remoteness of a position."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import click

from rulesdsl.cli.common import fail, game_options, prepare, reports_errors
from rulesdsl.cli.progress import ProgressLine, memory_mb
from rulesdsl.interpreter.compile.game import Game, State

if TYPE_CHECKING:
    from rulesdsl.interpreter.solver import Solution


@click.command(name="solve")
@game_options
@click.option("--moves", "with_moves", is_flag=True, help="Also give the value after every move.")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"value", "remoteness", "positions"} (and "moves" with --moves).')
@click.option("--db", "db", metavar="PATH",
              help="The solution database (default: solutions.sqlite in the user's cache folder).")
@click.option("--workers", "-j", type=click.IntRange(1, 256), help="Worker processes (default: all cores).")
@click.option("--stats", is_flag=True, help="Also print time, peak memory and database size on stderr.")
@click.option("--draw", "draw_text", is_flag=True, help="Draw the boards as text, beside the moves (with --moves).")
@click.option("--svg", "svg_dir", metavar="DIR",
              help="Write the boards as SVG to DIR (DIR/index.html shows them beside the moves).")
@click.option("--cluster", metavar="ADDRESS",
              help="Solve on a Dask cluster: a scheduler's address (tcp://host:8786) or local:N (N local workers).")
@click.option("--scratch", metavar="PATH",
              help="With --cluster: the work folder, which every worker must read (default: the temporary folder).")
@reports_errors
def solve_command(file, settings, position, history, with_moves, as_json, db, workers, stats, draw_text,
                  svg_dir, cluster, scratch) -> None:
    """Solve a position exactly: win, lose or draw for the player to move, and in how many plies."""
    from rulesdsl.interpreter.solver import best_first  # numpy loads only when solving
    from rulesdsl.interpreter.solver.store import default_path

    if scratch and not cluster:
        raise click.UsageError("--scratch goes with --cluster")
    game, state = prepare(file, settings, position, history)
    started = time.monotonic()
    result = _solve(game, state, db, workers, with_moves, cluster, scratch)
    mover = state.turn
    if stats:
        path = db or str(default_path())
        size = _size(path)
        click.echo(f"solved in {time.monotonic() - started:.1f} s, {memory_mb():,.0f} MB resident, "
                   f"database {size / 1e6:,.1f} MB ({path})", err=True)
        if result.cluster is not None:
            for worker, peak in sorted(result.cluster.peak.items()):
                idle = result.cluster.idle.get(worker, 0.0)
                click.echo(f"worker {worker}: peak {peak:,.0f} MB, {peak - idle:,.0f} MB above its idle "
                           f"{idle:,.0f} MB", err=True)
    if as_json:
        out: dict[str, object] = {"value": result.value, "remoteness": result.remoteness,
                                  "positions": result.positions}
        if with_moves:
            out["moves"] = [{"move": game.format_move(state, e.move), "position": game.format_position(e.state),
                             "value": e.value, "remoteness": e.remoteness} for e in best_first(result.moves, mover)]
        click.echo(json.dumps(out))
        if svg_dir:
            _draw(game, state, result, svg_dir, False)
        return
    who = game.players[mover].name
    value = "draw" if result.value == "draw" else f"{result.value} in {result.remoteness}"
    line = f"{who} to move: {value}"
    if result.positions is not None:
        line += f" ({result.positions:,} positions)"
    click.echo(line + (" [stored]" if result.stored else ""))
    for entry in best_first(result.moves, mover):
        said = _said(*entry.for_mover(mover))
        click.echo(f"{game.format_move(state, entry.move)}\t{said}\t"
                   f"{game.format_position(entry.state)}")
    if draw_text or svg_dir:
        _draw(game, state, result, svg_dir, draw_text)


def _said(value: str, plies: int | None) -> str:
    """``win in 3``, ``lose in 2``, ``draw``."""
    return value if plies is None or value == "draw" else f"{value} in {plies}"


def _draw(game: Game, state: State, result: Solution, svg_dir: str | None, as_text: bool) -> None:
    """The position and the position after every move (values for the player to move now), as SVG or text."""
    from pathlib import Path

    from rulesdsl.cli.boards import Step, text_steps, write_steps
    from rulesdsl.interpreter.solver import best_first

    mover = state.turn
    steps = [Step(f"{game.players[mover].name} to move: {_said(result.value, result.remoteness)}", state)]
    for entry in best_first(result.moves, mover):
        steps.append(Step(f"{game.format_move(state, entry.move)}: {_said(*entry.for_mover(mover))}",
                          entry.state, entry.move, state))
    if as_text:
        click.echo()
        click.echo(text_steps(game, steps))
    if svg_dir:
        try:
            index = write_steps(game, steps, Path(svg_dir), f"{game.title}: {game.format_position(state)}")
        except OSError as error:
            fail(f"{svg_dir}: cannot write: {error.strerror or error}")
        click.echo(f"boards written to {index}", err=True)


def _solve(game, state, db, workers, with_moves, cluster, scratch):
    """The solution, embedded or on the cluster ``cluster`` (its dashboard's address printed on stderr)."""
    from rulesdsl.interpreter.solver import solve

    bar = ProgressLine()
    try:
        if not cluster:
            return solve(game, state, db=db, workers=workers, with_moves=with_moves, progress=bar)
        from rulesdsl.interpreter.parallel.cluster import dashboard, open_client

        with open_client(cluster) as client:
            link = dashboard(client)
            if link:
                click.echo(f"Dask dashboard: {link}", err=True)
            return solve(game, state, db=db, with_moves=with_moves, progress=bar, client=client, scratch=scratch,
                         status=bar.note)
    finally:
        bar.close()


def _size(path: str) -> int:
    from pathlib import Path

    file = Path(path)
    return file.stat().st_size if file.exists() else 0
