"""``rulesdsl db list|info|prune``: what the solver's database holds, and removing part of it.

The database is one SQLite file for every game (``--db PATH``, default
``solutions.sqlite`` in the user's cache folder): one table per game and option
set. One file, because a later solve of the same game and options from another
position answers from the same table, and there is one file to find, copy or
delete; ``db list`` says what each game and option set costs in it, and ``db
prune`` removes what is no longer wanted.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from rulesdsl.cli.common import game_options, prepare, reports_errors
from rulesdsl.errors import OptionError

DB_HELP = "The solution database (default: solutions.sqlite in the user's cache folder)."


def _path(db: str | None) -> Path:
    from rulesdsl.interpreter.solver.store import default_path

    return Path(db) if db else default_path()


def _as_dict(info) -> dict[str, object]:
    return {"table": info.table, "title": info.title, "options": info.options, "positions": info.positions,
            "starts": info.starts, "bytes": info.size}


@click.group(name="db")
def db() -> None:
    """The solver's database: list what it holds, show one game, prune it."""


@db.command(name="list")
@click.option("--db", "db_path", metavar="PATH", help=DB_HELP)
@click.option("--json", "as_json", is_flag=True, help='Print {"path", "bytes", "tables": [...]}.')
@reports_errors
def list_command(db_path: str | None, as_json: bool) -> None:
    """Every game and option set stored, largest first: positions, solved starts, size; then the file's size."""
    from rulesdsl.interpreter.solver.inventory import inventory, megabytes

    path = _path(db_path)
    infos = inventory(path)
    size = path.stat().st_size
    if as_json:
        click.echo(json.dumps({"path": str(path), "bytes": size, "tables": [_as_dict(i) for i in infos]}))
        return
    width = max([len(i.describe()) for i in infos] + [4])
    for info in infos:
        starts = f"{info.starts} start{'s' if info.starts != 1 else ''}"
        click.echo(f"{info.describe():<{width}}  {info.positions:>12,} positions  {starts:>9}  "
                   f"{megabytes(info.size):>11}")
    total = sum(i.positions for i in infos)
    click.echo(f"{len(infos)} game and option set{'s' if len(infos) != 1 else ''}, {total:,} positions; "
               f"{megabytes(size)} in {path}")


@db.command(name="info")
@game_options
@click.option("--db", "db_path", metavar="PATH", help=DB_HELP)
@click.option("--json", "as_json", is_flag=True,
              help='Print {"stored", "table", "positions", "starts", "bytes", "value", "remoteness"}.')
@reports_errors
def info_command(file, settings, position, history, db_path: str | None, as_json: bool) -> None:
    """What the database holds for FILE with these options: positions, size, and the value of the start
    (or of --position)."""
    from rulesdsl.interpreter.solver import VALUE_NAMES
    from rulesdsl.interpreter.solver.encoding import PositionCodec, check_solvable
    from rulesdsl.interpreter.solver.inventory import inventory, megabytes
    from rulesdsl.interpreter.solver.store import Store, table_name

    game, state = prepare(file, settings, position, history)
    check_solvable(game, state)
    codec = PositionCodec(game)
    table = table_name(game, codec)
    path = _path(db_path)
    found = [i for i in inventory(path) if i.table == table]
    value = remoteness = None
    if found:
        store = Store(path)
        try:
            known = store.lookup(table, codec.encode(state))
        finally:
            store.close()
        if known is not None:
            value, remoteness = VALUE_NAMES[known[0]], known[1]
    info = found[0] if found else None
    if as_json:
        out: dict[str, object] = {"stored": info is not None, "table": table, "value": value,
                                  "remoteness": remoteness}
        if info is not None:
            out.update(positions=info.positions, starts=info.starts, bytes=info.size)
        click.echo(json.dumps(out))
        return
    label = " ".join([game.title, *settings])
    if info is None:
        click.echo(f"{label}: not in {path} (rulesdsl solve fills it)")
        return
    click.echo(f"{label}: {info.positions:,} positions, {info.starts} solved start{'s' if info.starts != 1 else ''}, "
               f"{megabytes(info.size)} of the {megabytes(path.stat().st_size)} file {path} (table {table})")
    who = game.players[state.turn].name
    where = "this position" if position else "the start"
    if value is None:
        click.echo(f"{where}: not stored")
    else:
        click.echo(f"{where}: {who} to move: {value if remoteness is None else f'{value} in {remoteness}'}")


@db.command(name="prune")
@click.option("--game", "game_name", metavar="FILE",
              help="Remove this game's tables: every option set, or the one --set names.")
@click.option("--set", "-s", "settings", multiple=True, metavar="NAME=VALUE",
              help="With --game: only this option set (repeatable).")
@click.option("--larger-than", "larger", metavar="SIZE", help="Remove every game and option set larger than SIZE "
              "(e.g. 50MB, 1.5G).")
@click.option("--all", "everything", is_flag=True, help="Remove everything.")
@click.option("--dry-run", is_flag=True, help="Only say what would be removed.")
@click.option("--db", "db_path", metavar="PATH", help=DB_HELP)
@reports_errors
def prune_command(game_name: str | None, settings: tuple[str, ...], larger: str | None, everything: bool,
                  dry_run: bool, db_path: str | None) -> None:
    """Remove solved games from the database and shrink the file (choose with --game, --larger-than or --all;
    given together, a table must match all of them)."""
    from rulesdsl.interpreter.solver.inventory import drop, inventory, megabytes, parse_size

    if not (game_name or larger or everything):
        raise OptionError("say what to remove: --game FILE [--set NAME=VALUE], --larger-than SIZE or --all")
    if settings and not game_name:
        raise OptionError("--set chooses an option set of the game given with --game")
    path = _path(db_path)
    chosen = inventory(path)
    if larger is not None:
        try:
            limit = parse_size(larger)
        except ValueError as error:
            raise OptionError(f"--larger-than: {error}") from None
        chosen = [i for i in chosen if i.size > limit]
    if game_name:
        belongs = _matcher(game_name, settings)
        chosen = [i for i in chosen if belongs(i)]
    if not chosen:
        click.echo(f"nothing to remove from {path}")
        return
    for info in chosen:
        click.echo(f"{'would remove' if dry_run else 'removed'} {info.describe()} "
                   f"({info.positions:,} positions, {megabytes(info.size)})")
    if dry_run:
        return
    freed = drop(path, [i.table for i in chosen])
    click.echo(f"freed {megabytes(freed)}; {path} is now {megabytes(path.stat().st_size)}")


def _matcher(game_name: str, settings: tuple[str, ...]):
    """Whether a stored table is the game's: its exact option set with --set, else any set with its title."""
    from rulesdsl.interpreter.compile.load import load_game
    from rulesdsl.interpreter.solver.encoding import PositionCodec
    from rulesdsl.interpreter.solver.store import table_name
    from rulesdsl.loader import parse_setting

    game = load_game(game_name, dict(parse_setting(s) for s in settings))
    if settings:
        table = table_name(game, PositionCodec(game))
        return lambda info: info.table == table
    return lambda info: info.title == game.title
