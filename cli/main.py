"""The ``rulesdsl`` command line: check, fmt, lsp, moves, perft, move, play, capture.

Exit codes: 0 success, 1 invalid rule file / position / move (or check found
errors), 2 usage error (unknown command or option, bad ``--set``), 74 the
output could not be written (stdout closed, disk full), 130 interrupted
(Ctrl-C), 141 the reader of the output went away (a closed pipe).
"""

from __future__ import annotations

import functools
import io
import json
import sys

import click

from rulesdsl.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    engine_options,
    fail,
    game_options,
    prepare,
    reports_errors,
    run_engine,
    setting_text,
)
from rulesdsl.cli.lazy import LazyGroup
from rulesdsl.cli.output import ClosedStream, OutputFailed
from rulesdsl.limits import shown

# The commands in modules of their own, imported only when one runs (so that `rulesdsl --version` is quick).
COMMAND_MODULES = {
    "analyze": "rulesdsl.cli.analyze_command:analyze",
    "bench": "rulesdsl.cli.bench_command:bench",
    "capture": "rulesdsl.cli.capture_command:capture",
    "check": "rulesdsl.cli.check_command:check",
    "db": "rulesdsl.cli.db_command:db",
    "fmt": "rulesdsl.cli.fmt_command:fmt",
    "lsp": "rulesdsl.cli.lsp_command:lsp",
    "serve": "rulesdsl.cli.serve:serve",
    "show": "rulesdsl.cli.show_command:show",
    "solve": "rulesdsl.cli.solve_command:solve_command",
}


def wants_json(args: list[str]) -> bool:
    """Whether the command line asks for JSON output (``--json`` or ``--format json``)."""
    return "--json" in args or "--format=json" in args or any(
        a == "--format" and b == "json" for a, b in zip(args, args[1:]))


class OneLineErrors(LazyGroup):
    """A command group whose usage errors are one line on stderr (exit 2), not click's three.

    Under ``--json`` a usage error is also a JSON object on stdout, so a
    program reading the output always gets JSON.
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        argv = list(sys.argv[1:] if args is None else args)
        try:
            super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx else "rulesdsl"
            # click lists choices one per line ("Choose from:\n\tw,\n\tb"): one line of them
            message = error.format_message().replace("\n\t", " ")
            if wants_json(argv):
                click.echo(json.dumps({"error": message, "exit": EXIT_USAGE}))
            click.echo(f"{where}: {shown(message)} (see '{where} --help')", err=True)
            sys.exit(EXIT_USAGE)
        except OutputFailed as error:
            error.finish()
        except click.ClickException as error:
            click.echo(f"rulesdsl: {shown(error.format_message())}", err=True)
            sys.exit(error.exit_code)
        except click.exceptions.Abort:
            click.echo("rulesdsl: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        sys.exit(0)

    def invoke(self, ctx: click.Context):
        """Run the command; a failed write is :class:`OutputFailed`, not click's silent exit 1."""
        try:
            return super().invoke(ctx)
        except OSError as error:
            raise OutputFailed(error) from None


def show_version(context: click.Context, _parameter: click.Parameter, asked: bool) -> None:
    """``--version``: the installed version, read without ``importlib.metadata`` (:mod:`rulesdsl.versions`)."""
    if not asked or context.resilient_parsing:
        return
    from rulesdsl.versions import installed_version

    click.echo(f"rulesdsl, version {installed_version('rulesdsl') or 'unknown'}")
    context.exit()


@click.group(cls=OneLineErrors, lazy_subcommands=COMMAND_MODULES,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=show_version,
              help="Show the version and exit.")
def cli() -> None:
    """Board games as rule files: check them, explore them, play them."""


@cli.command()
@game_options
@click.option("--json", "as_json", is_flag=True,
              help='Print one object: "over", "moves" [{move, position}], and "winner", "reason" (with 3 or more '
                   'players "places", "returns") once over.')
@click.option("--why", "why", metavar="MOVE",
              help="Instead, say whether MOVE is legal and which rule-file line allows or stops it.")
@reports_errors
def moves(file, settings, position, history, as_json, why) -> None:
    """List the legal moves: notation, a tab, the resulting position.

    On a finished game, print the result instead ('game over: white wins
    (no moves)'). With --json the answer is always one object: "over" and
    "moves", plus "winner" and "reason" once the game is over.
    """
    game, state = prepare(file, settings, position, history)
    if why is not None:
        from rulesdsl.interpreter.explain.reasons import explain_move

        answer = explain_move(game, state, why)
        click.echo(json.dumps(answer.as_dict()) if as_json else answer.text())
        return
    found, outcome = game.status(state)
    scores = game.scores(state)
    scored = {"scores": {p.name: n for p, n in zip(game.players, scores)}} if scores is not None else {}
    if outcome is not None:  # a finished game has no moves: say how it ended
        from rulesdsl.cli.results import result_fields, result_text

        if as_json:
            click.echo(json.dumps({"over": True, "moves": [], **result_fields(game, outcome), **scored}))
        else:
            click.echo(f"game over: {result_text(game, outcome)}")
        return
    rows = [(game.format_move(state, mv), game.format_position(game.apply(state, mv))) for mv in found]
    if as_json:
        click.echo(json.dumps({"over": False, "moves": [{"move": mv, "position": pos} for mv, pos in rows],
                               **scored}))
    else:
        for mv, pos in rows:
            click.echo(f"{mv}\t{pos}")


def perft(game, state, depth: int) -> int:
    """The perft count (the engine is imported when a count is asked for)."""
    from rulesdsl.interpreter.search.minimax import perft as count

    return count(game, state, depth)


@cli.command(name="perft")
@game_options
@click.option("--depth", "-d", type=click.IntRange(0, 64), required=True, help="Plies to count.")
@click.option("--json", "as_json", is_flag=True, help='Print {"counts": [...]}.')
@click.option("--divide", is_flag=True, help="Also print the count below each first move.")
@reports_errors
def perft_command(file, settings, position, history, depth, as_json, divide) -> None:
    """Count move sequences of exactly 1..DEPTH plies.

    Each depth is printed as soon as it is counted, so a long run shows its
    progress and Ctrl-C keeps what was finished (with --json: the counts so
    far and "interrupted": true; exit 130).
    """
    from rulesdsl.cli.progress import ProgressLine, perft_with_progress

    game, state = prepare(file, settings, position, history)
    counts: list[int] = []
    bar = ProgressLine(noun="first moves")
    try:
        for d in range(1, depth + 1):
            counts.append(perft_with_progress(game, state, d, bar, perft))
            bar.close()
            if not as_json:
                click.echo(f"{d}\t{counts[-1]}")
                sys.stdout.flush()
    except KeyboardInterrupt:
        bar.close()
        if as_json:
            click.echo(json.dumps({"counts": counts, "interrupted": True}))
        click.echo(f"rulesdsl: interrupted after depth {len(counts)}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if as_json:
        click.echo(json.dumps({"counts": counts}))
        return
    if divide and depth >= 1:
        for mv in game.legal_moves(state):
            click.echo(f"{game.format_move(state, mv)}\t{perft(game, game.apply(state, mv), depth - 1)}")


@cli.command(name="move")
@game_options
@engine_options
@click.option("--as", "as_player", metavar="PLAYER",
              help="Play every other player's moves until PLAYER (name, symbol or number) is to move.")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"moves": [{player, move, position}], "position", "over"}, with the result once over.')
@reports_errors
def move_command(file, settings, position, history, depth, seconds, engine, verbose, as_player, as_json) -> None:
    """Print the position after the engine's move (1 s of thought unless --depth or --time)."""
    from rulesdsl.cli.engine_moves import engine_moves

    game, state = prepare(file, settings, position, history)
    engine_moves(game, state, lambda s: run_engine(game, s, engine, depth, seconds, verbose), as_player, as_json)


@cli.command()
@functools.partial(game_options, file_required=False)
@click.option("--as", "as_player", metavar="PLAYER",
              help="The human's side: a player's name, symbol or number; 'all' or 'none'.")
@engine_options
@reports_errors
def play(file, settings, position, history, as_player, depth, seconds, engine, verbose) -> None:
    """Play against the engine in a REPL (type 'help' there); with no FILE, choose from a short menu."""
    from rulesdsl.cli.repl import make_reader, run_repl

    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if engine == "mcts" and depth is not None:
        fail("--depth applies to the alphabeta engine; mcts thinks for --time seconds", EXIT_USAGE)
    if file is None:
        if position or history:
            fail("--position and --history need a game: rulesdsl play NAME --position POS", EXIT_USAGE)
        from rulesdsl.cli import menu  # (reads the menu's YAML: only when no game is named)

        choice = menu.ask(make_reader(interactive, sys.stdin, sys.stdout), sys.stdout)
        if choice is None:
            sys.exit(0)
        file, settings = choice.game, (*choice.settings, *settings)
    game, state = prepare(file, settings, position, history)
    code = run_repl(game, state, as_player=as_player, depth=depth, seconds=seconds, engine=engine,
                    verbose=verbose, stdin=sys.stdin, stdout=sys.stdout, interactive=interactive)
    sys.exit(code)


@cli.command()
@reports_errors
def games() -> None:
    """List the bundled games: name, title and options with their defaults (set one with --set NAME=VALUE)."""
    from rulesdsl import model as m
    from rulesdsl.loader import bundled_dir, bundled_games, resolve
    from rulesdsl.options import option_values

    names = bundled_games()
    width = max((len(name) + 2 for name in names), default=20)  # the longest name, and two spaces
    for name in names:
        resolved = resolve(bundled_dir() / f"{name}.rules")
        titles = resolved.of(m.GameTitle)
        defaults = option_values(resolved)
        options = " ".join(f"{o.name}={setting_text(defaults[o.name])}" for o in resolved.of(m.OptionDecl))
        line = f"{name:<{max(width, 20)}}{titles[-1].title if titles else name}"
        click.echo(f"{line:<56}{'options: ' + options if options else ''}".rstrip())



def main() -> None:
    """Console entry point: exit codes 74 (output not written), 130 (Ctrl-C) and 141 (closed pipe) included."""
    if sys.stdin is None:  # started with stdin closed (<&-): reading it is reading an empty stream
        sys.stdin = io.StringIO("")
    if sys.stdout is None:  # started with stdout closed (>&-): writing fails loudly, never silently
        sys.stdout = ClosedStream()
    try:
        try:
            cli(standalone_mode=True)
        finally:
            sys.stdout.flush()  # a pipe or a full disk fails here, after the command's last write
    except KeyboardInterrupt:
        click.echo("rulesdsl: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except OSError as error:
        OutputFailed(error).finish()


if __name__ == "__main__":
    main()
