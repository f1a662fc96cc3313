"""rules/quoridor.rules against OpenSpiel's quoridor (two players): perft from the 5 x 5 start with 3 walls each (the
issue's published counts, and OpenSpiel's own in the same run) and seeded random games in which every position's
board (pawns and walls), player to move, legal moves and result agree.

Our board is the wall grid of 2n-1 x 2n-1 cells, a1 at the bottom left; OpenSpiel names squares a1 at the top left
and writes a wall by the square at its top left and ``h`` or ``v``. We write a pawn's move ``e1-e3`` (its squares)
and a wall by its two ends (``a8-c8``); the key below turns ours into OpenSpiel's.
"""

from __future__ import annotations

import os
import re

import pytest
from openspiel_side_by_side import Side, load, play, spiel_perft

from rulesdsl.interpreter.compile.load import load_game

GAMES = int(os.environ.get("RULESDSL_QUORIDOR_GAMES", "150"))


def lattice(name: str) -> tuple[int, int]:
    """Our cell name as 0-based (column, row from the bottom) on the wall grid."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def spiel_key(size: int):
    """Our move notation -> OpenSpiel's action string."""
    top = 2 * size - 2

    def key(text: str) -> str:
        (x1, y1), (x2, y2) = (lattice(n) for n in re.findall(r"[a-z]\d+", text))
        if x2 % 2 == 0 and y2 % 2 == 0 and x1 % 2 == 0 and y1 % 2 == 0:  # a pawn: to a square
            return f"{chr(ord('a') + x2 // 2)}{(top - y2) // 2 + 1}"
        if y1 == y2:  # horizontal: under the square at its left end
            return f"{chr(ord('a') + min(x1, x2) // 2)}{(top - y1 - 1) // 2 + 1}h"
        return f"{chr(ord('a') + (x1 - 1) // 2)}{(top - max(y1, y2)) // 2 + 1}v"

    return key


def spiel_board(size: int, pawns: dict[str, str] | None = None):
    """OpenSpiel's drawing as our cells: pawns where they stand, ``#`` wherever a wall is drawn, ``-`` elsewhere.
    ``pawns`` maps the symbols OpenSpiel draws pawns with to ours (by default ``0`` and ``@``, the same)."""
    pawns = pawns or {"0": "0", "@": "@"}
    width = 2 * size - 1

    def board(text: str) -> dict[str, str]:
        lines = text.split("\n")[2:2 + width]
        cells = {}
        for r, line in enumerate(lines):
            for k in range(width):
                ch = line[3 + 2 * k] if 3 + 2 * k < len(line) else " "
                sym = pawns[ch] if ch in pawns and k % 2 == 0 and r % 2 == 0 else "#" if ch in "|-+" else "-"
                cells[f"{chr(ord('a') + k)}{width - r}"] = sym
        return cells

    return board


def side(size: int = 5, walls: int = 3) -> Side:
    return Side(load_game("quoridor", {"size": str(size), "walls": str(walls)}),
                load("quoridor", {"board_size": size, "wall_count": walls}), lambda action: action,
                spiel_board(size), spiel_key(size), name=f"quoridor {size}x{size}, {walls} walls")


def test_perft_from_the_start():
    game = load_game("quoridor", {"size": "5", "walls": "3"})
    ours = [game.perft(game.initial_state(), d) for d in (1, 2, 3)]
    assert ours == [35, 1109, 31540]  # the published numbers
    spiel = load("quoridor", {"board_size": 5, "wall_count": 3}).new_initial_state()
    assert ours[:2] == [spiel_perft(spiel, d) for d in (1, 2)]


def test_random_games_agree():
    results = [play(side(), seed) for seed in range(GAMES)]
    assert {outcome.winner for _, outcome in results} >= {0, 1}  # both sides win some


@pytest.mark.parametrize("size, walls", [(3, 1), (4, 2), (7, 5)])
def test_random_games_agree_at_other_sizes(size, walls):
    for seed in range(max(2, GAMES // 10)):
        play(side(size, walls), seed)


@pytest.mark.deep
def test_a_thousand_random_games_agree():
    game = side()
    for seed in range(1000):
        play(game, 10_000 + seed)


def test_perft_at_the_default_size_is_openspiels():
    game = load_game("quoridor")  # 9 x 9 squares, 10 walls each: OpenSpiel's defaults
    spiel = load("quoridor", {}).new_initial_state()
    assert [game.perft(game.initial_state(), d) for d in (1, 2)] == [spiel_perft(spiel, d) for d in (1, 2)]
