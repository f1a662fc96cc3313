"""``rulesdsl show``: an SVG picture of any position of any game."""

from __future__ import annotations

from pathlib import Path

import click

from rulesdsl.cli.common import fail, game_options, prepare, reports_errors
from rulesdsl.cli.svg import draw


@click.command()
@game_options
@click.option("--move", "move_text", metavar="MOVE", help="Play MOVE first and mark it on the picture.")
@click.option("--svg", "out", metavar="OUT", help="Write the SVG to this file (default: standard output).")
@reports_errors
def show(file, settings, position, history, move_text, out) -> None:
    """Draw a position as SVG: the board, its coordinates, the pieces, the last move."""
    game, state = prepare(file, settings, position, history)
    move = before = None
    if move_text is not None:
        before = state
        move = game.parse_move(state, move_text)
        state = game.apply(state, move)
    picture = draw(game, state, move=move, before=before)
    if out is None:
        click.echo(picture, nl=False)
        return
    try:
        Path(out).write_text(picture, encoding="utf-8")
    except OSError as error:
        fail(f"{out}: cannot write: {error.strerror or error}")
