"""``rulesdsl capture``: the Capture the Flag seed's ``capture`` function on the command line."""

from __future__ import annotations

import click

from rulesdsl.cli.common import reports_errors
from rulesdsl.interpreter.capture import capture as capture_function


# Boards often start with "-" (an empty cell): let click keep them as arguments
# instead of reading them as unknown options. No option letter is a board symbol.
@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("boards", nargs=-1, required=True, metavar="BOARD...")
@click.option("--player", "-p", type=click.Choice(["w", "b"]), required=True,
              help="The player to move: w (white) or b (black).")
@click.option("--depth", "-d", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Search depth in plies (never exceeded).")
@reports_errors
def capture(boards: tuple[str, ...], player: str, depth: int) -> None:
    """Print the Capture the Flag board after the engine's move.

    BOARD... is the game's history, most recent board first: each board is
    N*N characters of w W b B -, row by row from the top. No move repeats a
    board of the history. Boards that start with "-" may be given as they
    are, or after "--".
    """
    click.echo(capture_function(list(boards), player, depth))
