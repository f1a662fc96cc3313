"""A finished game's result for people and for programs: the winner, and with more than two players
(or where players take places) every player's place and reward."""

from __future__ import annotations

from rulesdsl.interpreter.compile.game import Game, Outcome, State


def per_player(game: Game, outcome: Outcome) -> bool:
    """True when the result names a place for each player (three or more players, or places kept)."""
    return len(game.players) > 2 or outcome.places is not None


def result_fields(game: Game, outcome: Outcome) -> dict[str, object]:
    """``{"winner", "reason"}``, and ``"places"`` and ``"returns"`` by player name where :func:`per_player`."""
    fields: dict[str, object] = {
        "winner": game.players[outcome.winner].name if outcome.winner is not None else None,
        "reason": outcome.reason,
    }
    if per_player(game, outcome):
        count = len(game.players)
        fields["places"] = {p.name: place for p, place in zip(game.players, outcome.ranking(count))}
        fields["returns"] = {p.name: value for p, value in zip(game.players, outcome.returns(count))}
    return fields


def places_text(game: Game, outcome: Outcome) -> str:
    """``1 red, 2 green and blue``: the players by place, those sharing a place together."""
    ranking = outcome.ranking(len(game.players))
    parts = []
    for place in sorted(set(ranking)):
        names = [p.name for p, at in zip(game.players, ranking) if at == place]
        parts.append(f"{place} {' and '.join(names)}")
    return ", ".join(parts)


def result_text(game: Game, outcome: Outcome, name=None) -> str:
    """``red wins (reason)``, ``draw (reason)``; with places, ``... places: 1 red, 2 blue, 3 green``."""
    name = name or (lambda index: game.players[index].name)
    text = "draw" if outcome.winner is None else f"{name(outcome.winner)} wins"
    if outcome.reason:
        text += f" ({outcome.reason})"
    if per_player(game, outcome):
        text += f"; places: {places_text(game, outcome)}"
    return text


def new_places(game: Game, before: State, after: State) -> list[str]:
    """``green is placed 3rd``: a line for each player a ply gave a place to, in games that keep places."""
    if before.places is None or after.places is None or after.places.count(0) == 0:
        return []  # the game is over: the result says every place
    return [f"{p.name} is placed {ordinal(after.places[p.index])}" for p in game.players
            if after.places[p.index] and not before.places[p.index]]


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``..."""
    return f"{place}{'st' if place == 1 else 'nd' if place == 2 else 'rd' if place == 3 else 'th'}"
