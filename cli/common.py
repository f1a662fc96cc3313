"""What every command shares: options, loading, and errors as one line."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from rulesdsl.errors import OptionError, RulesdslError, RulesError
from rulesdsl.extras import missing_extra
from rulesdsl.limits import shown

if TYPE_CHECKING:  # the engine loads when a command runs, not when the command line starts
    from rulesdsl.interpreter.compile.game import Game, State


class Seconds(click.FloatRange):
    """A number of seconds in a range; ``nan`` (which compares false with every bound) is refused too."""

    name = "seconds"

    def convert(self, value, param, ctx):
        """The float, or click's usage error for nan, infinity or a value out of range."""
        number = super().convert(value, param, ctx)
        if number != number:  # nan
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return number


EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C


def fail(message: str, code: int = EXIT_INVALID) -> None:
    """Print one line on stderr and exit."""
    click.echo(f"rulesdsl: {shown(message)}", err=True)
    sys.exit(code)


def reports_errors(command: Callable) -> Callable:
    """Turn every user-facing error into one line and an exit code, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except OptionError as error:
            fail(str(error), EXIT_USAGE)
        except RulesError as error:
            for diagnostic in error.diagnostics:
                click.echo(diagnostic.one_line(), err=True)
            sys.exit(EXIT_INVALID)
        except RulesdslError as error:
            fail(str(error))
        except RecursionError:
            fail("the search went too deep for Python's stack; use a smaller depth")
        except KeyboardInterrupt:
            fail("interrupted", EXIT_INTERRUPTED)
        except ModuleNotFoundError as error:  # an optional dependency: name the extra that installs it
            said = missing_extra(error)
            if said is None:
                raise
            fail(said)

    return wrapper


def setting_text(value: object) -> str:
    """An option's value as ``--set NAME=VALUE`` takes it: ``6``, ``strict``, ``false``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def game_options(command: Callable, file_required: bool = True) -> Callable:
    """``FILE``, ``--set`` (repeatable), ``--position`` and ``--history`` (repeatable)."""
    command = click.option("--history", "history", multiple=True, metavar="BOARD",
                           help="An earlier board, most recent first (games that forbid repetition).")(command)
    command = click.option("--position", "-p", metavar="POS", help="Start from this position string.")(command)
    command = click.option("--set", "-s", "settings", multiple=True, metavar="NAME=VALUE",
                           help="Set a rule-file option (repeatable).")(command)
    return click.argument("file", required=file_required)(command)


def engine_options(command: Callable) -> Callable:
    """``--depth``, ``--time``, ``--engine`` and ``--verbose`` for the commands that let the engine move."""
    from rulesdsl.interpreter.search.engines import ENGINES

    command = click.option("--verbose", "-v", is_flag=True,
                           help="Print each iteration on stderr: depth, score, nodes, nodes/s, best line.")(command)
    command = click.option("--engine", "-e", type=click.Choice(ENGINES), default="alphabeta", show_default=True,
                           help="alphabeta (iterative deepening; max^n with 3 or more players), mcts (UCT with "
                           "random playouts), maxn or paranoid (searches for 3 or more players).")(command)
    command = click.option("--time", "-t", "seconds", type=Seconds(0, 3600, min_open=True),
                           help="Seconds to think per move (default 1 unless --depth is given).")(command)
    return click.option("--depth", "-d", type=click.IntRange(1, 64),
                        help="Search exactly this many plies (alphabeta), or at most this many with --time.")(command)


def run_engine(game: Game, state: State, engine: str, depth: int | None, seconds: float | None,
               verbose: bool):
    """The engine's choice (``None`` when the game is over), iterations on stderr when ``verbose``."""
    from rulesdsl.interpreter.search.engines import SEARCHES, choose, describe_choice, describe_iteration

    if engine == "mcts" and depth is not None:
        raise OptionError("--depth applies to the alphabeta engine; mcts thinks for --time seconds")

    def report(iteration) -> None:
        click.echo(describe_iteration(game, state, iteration), err=True)

    result = choose(game, state, engine, depth, seconds, on_iteration=report if verbose else None)
    if verbose and result is not None and engine in SEARCHES:
        click.echo(describe_choice(game, state, result), err=True)
    if verbose and result is not None and engine == "mcts":
        click.echo(f"mcts: {result.nodes:,} playouts in {result.seconds:.2f} s, "
                   f"best {game.format_move(state, result.move)} ({result.score + 0.0:+.2f})", err=True)
    return result


def prepare(file: str, settings: tuple[str, ...], position: str | None,
            history: tuple[str, ...] = ()) -> tuple[Game, State]:
    """Load the game with its options and the position to work from."""
    from rulesdsl.interpreter.compile.load import load_game, start_from
    from rulesdsl.loader import parse_setting

    return start_from(load_game(file, dict(parse_setting(s) for s in settings)), position, history)
