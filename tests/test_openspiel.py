"""Conformance with OpenSpiel: seeded random games of every bundled game OpenSpiel also has, side by side.

At every step both implementations must agree on the set of legal moves, on
whether the game is over and on the winner. The first divergence is reported
with both positions. Moves are compared through each game's conventions
(stated in its rule file): OpenSpiel's first player is always our first
player; Breakthrough is mirrored top to bottom (OpenSpiel's first player
starts at the top) and checkers turned half a turn (OpenSpiel's first player
starts at the bottom, ours at the top), which leaves both games unchanged.

Checkers is compared with ``chains = "jump"``: OpenSpiel plays each jump of a
capture chain as its own action, with the same player to move. In nine men's
morris, the removal after a mill is its own ply in both, by the same player;
both draw after 200 turns.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pyspiel
import pytest
from openspiel_side_by_side import Divergence, Side, play

from rulesdsl.interpreter.compile.load import load_game

GAMES_PER_GAME = int(os.environ.get("RULESDSL_OPENSPIEL_GAMES", "300"))


def _cell(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row}"


def ttt(action: str) -> str:
    """``x(0,2)``: row 0 is the top row; ours counts rows from the bottom."""
    row, col = map(int, re.findall(r"\d+", action))
    return _cell(col, 3 - row)


def connect_four(action: str) -> str:
    """``x3``: a column; ours writes the cell the disc lands on, so only its column letter is compared."""
    return chr(ord("a") + int(action[1:]))


def breakthrough(action: str) -> str:
    """``a7a6`` (``*`` marks a capture), mirrored top to bottom."""
    a = action.rstrip("*")
    return f"{a[0]}{9 - int(a[1])}-{a[2]}{9 - int(a[3])}"


def checkers(action: str) -> str:
    """``a3b4``, turned half a turn: column a <-> h, row r <-> 9 - r."""
    def turn(col: str, row: str) -> str:
        return f"{chr(ord('h') - (ord(col) - ord('a')))}{9 - int(row)}"
    return f"{turn(action[0], action[1])}-{turn(action[2], action[3])}"


# OpenSpiel's nine men's morris numbers its 24 points row by row from the top-left corner.
MORRIS_POINTS = ["a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
                 "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"]


def morris(action: str) -> str:
    """``Point 5`` (a placement, or a removal after a mill) or ``Move 3 -> 4``."""
    numbers = [MORRIS_POINTS[int(n)] for n in re.findall(r"\d+", action)]
    return "-".join(numbers)


def same(action: str) -> str:
    """Othello and Hex name cells as we do (``d3``, ``pass``)."""
    return action


@dataclass
class Pairing:
    """One game in both worlds, and how a move of one is written in the other."""

    ours: str
    theirs: str
    to_ours: Callable[[str], str]
    options: dict[str, str] = field(default_factory=dict)
    ours_key: Callable[[str], str] = staticmethod(lambda text: text)  # type: ignore[assignment]


PAIRINGS = [
    Pairing("tic-tac-toe", "tic_tac_toe", ttt),
    Pairing("connect-four", "connect_four", connect_four, ours_key=lambda text: text[0]),
    Pairing("breakthrough", "breakthrough", breakthrough),
    Pairing("checkers", "checkers", checkers, {"chains": "jump"}),
    Pairing("othello", "othello", same),
    Pairing("hex", "hex", same),
    # A removal is written xd2 here and "Point 19" there: compared by its cell.
    Pairing("nine-mens-morris", "nine_mens_morris", morris, ours_key=lambda text: text.removeprefix("x")),
]


def play_side_by_side(pair: Pairing, seed: int) -> int:
    """One random game played in both; returns its length. Raises :class:`Divergence`."""
    side = Side(load_game(pair.ours, pair.options), pyspiel.load_game(pair.theirs), pair.to_ours,
                key=pair.ours_key, name=pair.ours)
    return play(side, seed)[0]


@pytest.mark.parametrize("pair", PAIRINGS, ids=lambda p: p.ours)
def test_random_games_agree_with_openspiel(pair):
    lengths = [play_side_by_side(pair, seed) for seed in range(GAMES_PER_GAME)]
    assert len(lengths) == GAMES_PER_GAME and min(lengths) > 0


def test_a_divergence_names_both_positions():
    wrong = Pairing("tic-tac-toe", "tic_tac_toe", lambda action: ttt(action).replace("a", "c", 1))
    with pytest.raises(Divergence) as caught:
        play_side_by_side(wrong, 0)
    text = str(caught.value)
    assert "tic-tac-toe, seed 0" in text and "ours: (x --- --- ---)" in text and "OpenSpiel:" in text
