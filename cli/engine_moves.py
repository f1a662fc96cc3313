"""``rulesdsl move``: the engine's move, or (``--as PLAYER``) every move until PLAYER is to move."""

from __future__ import annotations

import json
from collections.abc import Callable

import click

from rulesdsl.cli.common import fail
from rulesdsl.cli.results import result_fields
from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.search.engine import Result
from rulesdsl.limits import MAX_GO_AGAIN


def engine_moves(game: Game, state: State, think: Callable[[State], Result | None], as_player: str | None,
                 as_json: bool) -> None:
    """Let ``think`` move once, or until ``as_player`` is to move; print the position (or one JSON object)."""
    seat = None
    if as_player is not None:
        player = game.player_named(as_player)
        if player is None:
            choices = ", ".join(f"{p.name} ({p.symbol}, {p.index + 1})" for p in game.players)
            fail(f"--as: unknown player {as_player.strip()!r}: choose {choices}")
        seat = player.index
    played = []
    outcome = game.outcome(state)
    # with --as, a turn comes back to the player within one round; a round of go-again turns is capped
    limit = 1 if seat is None else len(game.players) * MAX_GO_AGAIN
    while outcome is None and len(played) < limit:
        if seat is not None and (game.to_move(state) == seat or state.places is not None and state.places[seat]):
            break  # PLAYER's turn, or PLAYER has finished or is out: its turn will not come
        mover = game.players[game.to_move(state)].name
        choice = think(state)
        if choice is None:
            break
        text = game.format_move(state, choice.move)
        state = game.apply(state, choice.move)
        played.append({"player": mover, "move": text, "position": game.format_position(state)})
        outcome = game.outcome(state)
    if not played and seat is None:
        fail(f"the game is over in {game.format_position(state)}: there is no move to make")
    if as_json:
        answer: dict[str, object] = {"moves": played, "position": game.format_position(state),
                                     "over": outcome is not None}
        if outcome is not None:
            answer.update(result_fields(game, outcome))
        click.echo(json.dumps(answer))
    else:
        click.echo(game.format_position(state))
