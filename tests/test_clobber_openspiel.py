"""rules/clobber.rules against OpenSpiel's clobber: perft from the 5 x 6 start (the issue's published counts, and
OpenSpiel's own in the same run) and seeded random games in which every position's board, player to move, legal
moves and result agree, at 5 x 6 and at other sizes.

OpenSpiel writes a move ``a5b5`` and an empty cell ``.``; we write ``a5-b5`` and ``-``.
"""

from __future__ import annotations

import os
import re

import pytest
from openspiel_side_by_side import Side, load, play, spiel_perft

from rulesdsl.interpreter.compile.load import load_game

GAMES = int(os.environ.get("RULESDSL_CLOBBER_GAMES", "300"))


def clobber_move(action: str) -> str:
    """``a5b5`` -> ``a5-b5``."""
    first, second = re.findall(r"[a-z]\d+", action)
    return f"{first}-{second}"


def clobber_board(text: str) -> dict[str, str]:
    """OpenSpiel's drawing (``5oxoxox`` rows, ``.`` for empty) as our cells and symbols."""
    cells = {}
    for row, stones in re.findall(r"^(\d+)([ox.]+)$", text, re.M):
        for col, ch in enumerate(stones):
            cells[f"{chr(ord('a') + col)}{row}"] = "-" if ch == "." else ch
    return cells


def side(rows: int = 5, cols: int = 6) -> Side:
    return Side(load_game("clobber", {"rows": str(rows), "cols": str(cols)}),
                load("clobber", {"rows": rows, "columns": cols}), clobber_move, clobber_board)


def test_perft_from_the_start():
    game = load_game("clobber")
    ours = [game.perft(game.initial_state(), d) for d in (1, 2, 3)]
    assert ours == [49, 2116, 80063]  # the published numbers
    assert ours == [spiel_perft(load("clobber", {}).new_initial_state(), d) for d in (1, 2, 3)]


@pytest.mark.deep
def test_perft_4_from_the_start():
    game = load_game("clobber")
    assert game.perft(game.initial_state(), 4) == 2630382  # the published number


def test_random_games_agree():
    results = [play(side(), seed) for seed in range(GAMES)]
    assert {outcome.winner for _, outcome in results} == {0, 1}  # both sides win some


@pytest.mark.parametrize("rows, cols", [(4, 4), (3, 7), (6, 5)])
def test_random_games_agree_at_other_sizes(rows, cols):
    for seed in range(GAMES // 6):
        play(side(rows, cols), seed)


@pytest.mark.deep
def test_a_thousand_random_games_agree():
    game = side()
    for seed in range(1000):
        play(game, 10_000 + seed)
