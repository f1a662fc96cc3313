"""Small helpers shared by the game tests."""

from __future__ import annotations

from rulesdsl.interpreter.load import load_position


def moves_of(game, position: str) -> set[str]:
    """The notations of the legal moves in a position string (the game resizes if needed)."""
    game, state = load_position(game, position)
    return {game.format_move(state, mv) for mv in game.legal_moves(state)}


def after(game, position: str, move: str):
    """``(game, state)`` after playing ``move`` from a position string."""
    game, state = load_position(game, position)
    return game, game.apply(state, game.parse_move(state, move))
