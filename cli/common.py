"""What every command shares: options, loading, and errors as one line."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable

import click

from rulesdsl.errors import OptionError, RulesdslError, RulesError
from rulesdsl.interpreter.game import Game, State
from rulesdsl.interpreter.load import load_game, load_position
from rulesdsl.loader import parse_setting

EXIT_INVALID = 1
EXIT_USAGE = 2


def fail(message: str, code: int = EXIT_INVALID) -> None:
    """Print one line on stderr and exit."""
    click.echo(f"rulesdsl: {message}", err=True)
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

    return wrapper


def game_options(command: Callable) -> Callable:
    """``FILE``, ``--set`` (repeatable), ``--position`` and ``--history`` (repeatable)."""
    command = click.option("--history", "history", multiple=True, metavar="BOARD",
                           help="An earlier board, most recent first (games that forbid repetition).")(command)
    command = click.option("--position", "-p", metavar="POS", help="Start from this position string.")(command)
    command = click.option("--set", "-s", "settings", multiple=True, metavar="NAME=VALUE",
                           help="Set a rule-file option (repeatable).")(command)
    return click.argument("file")(command)


def prepare(file: str, settings: tuple[str, ...], position: str | None,
            history: tuple[str, ...] = ()) -> tuple[Game, State]:
    """Load the game with its options and the position to work from."""
    game = load_game(file, dict(parse_setting(s) for s in settings))
    if position is not None:
        game, state = load_position(game, position)
    else:
        state = game.initial_state()
    if history:
        state = game.with_history(state, list(history))
    return game, state
