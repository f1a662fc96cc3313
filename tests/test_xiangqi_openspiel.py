"""rules/xiangqi.rules against OpenSpiel's ``xiangqi``: perft, and seeded random games in which every position's
board, player to move, legal moves and result agree.

OpenSpiel writes a move as the piece's letter and the two cells as (row, column), rows counted from the top
from 0 (``S(6,0)-(5,0)``: red's soldier from a4 to a5); we write ``a4-a5``. Its board string lists the rows
from the top, ``.`` for an empty cell, with the same letters as ours. A player with no legal move loses;
the game is drawn after 500 plies. The perft figures are the issue's published ones, and OpenSpiel's perft
from the start is counted in the same run.
"""

from __future__ import annotations

import os
import re

import pytest

pytest.importorskip("pyspiel")

from openspiel_side_by_side import Side, load, play, spiel_perft  # noqa: E402

from rulesdsl.interpreter.compile.load import load_game  # noqa: E402

GAMES = int(os.environ.get("RULESDSL_XIANGQI_GAMES", "50"))  # about 8 s of one core
DEEP_GAMES = 1000
ROWS = 10


def cell(row: str, col: str) -> str:
    """OpenSpiel's (row from the top, column) as our cell name."""
    return f"{'abcdefghi'[int(col)]}{ROWS - int(row)}"


def xiangqi_move(action: str) -> str:
    """``S(6,0)-(5,0)`` -> ``a4-a5``."""
    match = re.fullmatch(r"[A-Za-z]\((\d+),(\d+)\)-\((\d+),(\d+)\)", action)
    assert match, action
    a, b, c, d = match.groups()
    return f"{cell(a, b)}-{cell(c, d)}"


def xiangqi_board(text: str) -> dict[str, str]:
    """OpenSpiel's ten rows of nine as our cells and symbols (``.`` is our ``-``)."""
    rows = text.strip().splitlines()
    assert len(rows) == ROWS, text
    return {cell(str(r), str(c)): "-" if ch == "." else ch for r, line in enumerate(rows) for c, ch in enumerate(line)}


@pytest.fixture(scope="module")
def side() -> Side:
    return Side(load_game("xiangqi"), load("xiangqi", {}), xiangqi_move, xiangqi_board, name="xiangqi")


@pytest.mark.parametrize("depth, count", [(1, 44), (2, 1920), (3, 79666)])
def test_perft_from_the_start(side, depth, count):
    assert side.game.perft(side.game.initial_state(), depth) == count


def test_openspiel_counts_the_same_perft():
    assert [spiel_perft(load("xiangqi", {}).new_initial_state(), d) for d in (1, 2, 3)] == [44, 1920, 79666]


def test_the_move_and_board_readers():
    assert xiangqi_move("C(7,1)-(0,1)") == "b3-b10"
    board = xiangqi_board("rheagaehr\n.........\n.c.....c.\ns.s.s.s.s\n.........\n"
                          ".........\nS.S.S.S.S\n.C.....C.\n.........\nRHEAGAEHR")
    assert (board["e1"], board["e10"], board["b3"], board["a4"], board["e5"]) == ("G", "g", "C", "S", "-")


def test_random_games_agree(side):
    results = [play(side, seed) for seed in range(GAMES)]
    assert min(length for length, _ in results) > 0


@pytest.mark.deep
def test_a_thousand_random_games_agree(side):
    results = [play(side, seed) for seed in range(DEEP_GAMES)]
    reasons = {outcome.reason for _, outcome in results}
    assert len(results) == DEEP_GAMES and len(reasons) >= 2  # games end both by a player stuck and by the ply limit
