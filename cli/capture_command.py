"""``rulesdsl capture``: the Capture the Flag seed's ``capture`` function on the command line."""

from __future__ import annotations

import click

from rulesdsl.cli.common import reports_errors
from rulesdsl.interpreter.reference.capture import capture as capture_function


class BoardsCommand(click.Command):
    """Boards often start with "-" (an empty cell): click keeps them as arguments.

    No option letter is a board symbol, so a ``--`` (which would make the
    options after it boards) is dropped: options may come before or after the
    boards, with or without ``--``.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Read the command line with every ``--`` left out."""
        return super().parse_args(ctx, [arg for arg in args if arg != "--"])


@click.command(cls=BoardsCommand, context_settings={"ignore_unknown_options": True})
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
    are, or after "--"; the options may come before or after the boards.
    """
    click.echo(capture_function(list(boards), player, depth))
