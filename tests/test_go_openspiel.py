"""rules/go.rules against OpenSpiel's go(board_size=9, komi=7.5): perft, and seeded random games in which every
position's board, player to move, legal moves and result agree.

OpenSpiel writes a point as column letter (skipping i) and row number from the
bottom (``B j9``), a pass as ``PASS``; we write ``j9`` and ``pass``. Its game
ends after two passes in a row, after 2 x 81 plies, or in a draw after a move
that repeats an earlier board (positional superko ends the game; simple ko is
a forbidden move); the rule file says the same in its own words.
"""

from __future__ import annotations

import os
import re

import pytest
from openspiel_side_by_side import Divergence, Side, load, play

from rulesdsl.interpreter.compile.load import load_game

GAMES = int(os.environ.get("RULESDSL_GO_GAMES", "120"))  # about 8 s at 9 x 9 on a quiet machine


def go_move(action: str) -> str:
    """``B j9`` -> ``j9``; ``W PASS`` -> ``pass``."""
    return action.split()[-1].lower()


def go_board(text: str) -> dict[str, str]:
    """OpenSpiel's drawing (`` 9 +++++++++`` rows, X black, O white) as our cells and symbols."""
    letters = "abcdefghjklmnopqrst"  # a goban's columns, without i
    cells = {}
    for row, stones in re.findall(r"^\s*(\d+) ([+XO]+)$", text, re.M):
        for col, ch in enumerate(stones):
            cells[f"{letters[col]}{row}"] = {"+": "-", "X": "x", "O": "o"}[ch]
    return cells


def side(size: int = 9) -> Side:
    return Side(load_game("go", {"size": str(size)}), load("go", {"board_size": size, "komi": 7.5}), go_move,
                go_board)


def test_perft_at_9x9_is_openspiels():
    game = load_game("go", {"size": "9"})
    spiel = load("go", {"board_size": 9, "komi": 7.5})

    def perft(state, depth):
        if state.is_terminal():
            return 0
        if depth == 1:
            return len(state.legal_actions())
        return sum(perft(state.child(a), depth - 1) for a in state.legal_actions())

    theirs = [perft(spiel.new_initial_state(), d) for d in (1, 2, 3)]
    assert theirs[:2] == [82, 6643]  # the published numbers
    assert [game.perft(game.initial_state(), d) for d in (1, 2, 3)] == theirs


def test_random_games_agree():
    results = [play(side(), seed) for seed in range(GAMES)]
    assert min(length for length, _ in results) > 0


def test_small_boards_agree():
    """On boards of 3 x 3 to 5 x 5 games are short, and captures, ko, suicide and repeated boards come often."""
    reasons = [outcome.reason for size in (3, 4, 5) for _, outcome in (play(side(size), seed) for seed in range(GAMES))]
    assert "board repeated" in reasons  # a repetition ended some game in a draw, in both


@pytest.mark.parametrize("size, games", [(13, 5), (19, 3)])
def test_the_larger_boards_agree(size, games):
    """13 x 13 and 19 x 19 (the full game: up to 722 plies), a few games each."""
    for seed in range(games):
        play(side(size), seed)


@pytest.mark.deep
@pytest.mark.parametrize("size", [13, 19])
def test_more_games_on_the_larger_boards_agree(size):
    for seed in range(50):
        play(side(size), 10_000 + seed)


@pytest.mark.deep
def test_a_thousand_random_games_agree():
    game = side()
    for seed in range(1000):
        play(game, 10_000 + seed)


def test_a_different_komi_is_caught():
    """The comparison looks at results: against komi 0.5 some small game must come out differently."""
    other = Side(load_game("go", {"size": "3"}), load("go", {"board_size": 3, "komi": 0.5}), go_move, go_board)
    with pytest.raises(Divergence, match="winner here"):
        for seed in range(200):
            play(other, seed)


def test_komi_is_an_option_with_a_decimal_part():
    game = load_game("go", {"komi": "6.5", "size": "13"})
    assert game.options["komi"] == 6.5 and len(game.legal_moves(game.initial_state())) == 13 * 13 + 1
