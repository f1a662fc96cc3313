"""Shogi (rules/shogi.rules) against OpenSpiel's ``shogi``: perft, and seeded random games side by side.

At every position of a random game both must agree on the board (OpenSpiel's
SFEN writes a promoted piece as ``+`` and its base letter; ours gives it a
letter of its own), each player's hand (compared as a multiset), the player to
move, the set of legal moves and, at the end, the result. Moves are compared
by the position each leads to, and the counts must match (a promotion choice
and a drop are single actions in OpenSpiel too). OpenSpiel's player 0 is
black (sente), as ours. Perft figures are the issue's published ones, and
OpenSpiel's own perft is counted in the same run.
"""

from __future__ import annotations

import os
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")

from openspiel_side_by_side import Side, fen_row, play, spiel_perft  # noqa: E402

from rulesdsl.interpreter.compile.load import load_game  # noqa: E402

GAMES = int(os.environ.get("RULESDSL_SHOGI_GAMES", "10"))  # the default run; 1,000 under -m deep
DEEP_GAMES = 1000
PROMOTED = {"D": "+R", "H": "+B", "A": "+S", "M": "+N", "O": "+L", "T": "+P"}  # our letter -> SFEN's


@pytest.fixture(scope="module")
def shogi():
    return load_game("shogi")


@pytest.mark.parametrize("depth, count", [(1, 30), (2, 900), (3, 25470)])
def test_perft_from_the_start(shogi, depth, count):
    assert shogi.perft(shogi.initial_state(), depth) == count


def test_openspiel_counts_the_same_perft():
    assert spiel_perft(pyspiel.load_game("shogi").new_initial_state(), 3) == 25470


@pytest.mark.deep
def test_perft_4(shogi):
    assert shogi.perft(shogi.initial_state(), 4) == 719731


def _sfen_cell(symbol: str) -> str:
    if symbol.upper() in PROMOTED:
        text = PROMOTED[symbol.upper()]
        return text if symbol.isupper() else text.lower()
    return symbol


def our_sfen(game, state) -> str:
    """Our position as OpenSpiel's SFEN without its move number, the hand's letters sorted."""
    turn, hand, *rows = game.format_position(state)[1:-1].split()
    placement = [fen_row(row, _sfen_cell) for row in rows]
    pocket = "".join(sorted(hand.replace("/", "").replace("-", "")))
    return f"{'/'.join(placement)} {turn} {pocket or '-'}"


def spiel_sfen(text: str) -> str:
    """OpenSpiel's SFEN without its move number, the hand written out letter by letter and sorted."""
    placement, turn, hand = text.split()[:3]
    letters = "".join(ch * int(n or 1) for n, ch in re.findall(r"(\d*)([A-Za-z])", hand)) if hand != "-" else ""
    return f"{placement} {turn} {''.join(sorted(letters)) or '-'}"


def side(game) -> Side:
    return Side(game, pyspiel.load_game("shogi"), move_of=str, position_of=our_sfen, spiel_key=spiel_sfen,
                name="shogi")


def test_the_start_reads_as_openspiels(shogi):
    assert our_sfen(shogi, shogi.initial_state()) == spiel_sfen(str(pyspiel.load_game("shogi").new_initial_state()))


def test_random_games_agree_with_openspiel(shogi):
    """RULESDSL_SHOGI_GAMES seeded games (10 by default)."""
    lengths = [play(side(shogi), seed)[0] for seed in range(GAMES)]
    assert min(lengths) > 0


@pytest.mark.deep
def test_a_thousand_random_games_agree_with_openspiel(shogi):
    lengths = [play(side(shogi), seed)[0] for seed in range(DEEP_GAMES)]
    assert len(lengths) == DEEP_GAMES


@pytest.mark.parametrize("sfen, ours", [
    # black (who just moved) has its king in white's camp and 5 + 5 + 2 + 2 + 2 + 2 + 10 = 28 points in hand
    ("9/4K4/9/9/k8/9/9/9/9 w RB2G2S2N2L10P 1",
     "(w PPPPPPPPPPLLNNSSGGBR/- --------- ----K---- --------- --------- k-------- --------- --------- --------- "
     "---------)"),
    # 27 points: the game goes on
    ("9/4K4/9/9/k8/9/9/9/9 w RB2G2S2N2L9P 1",
     "(w PPPPPPPPPLLNNSSGGBR/- --------- ----K---- --------- --------- k-------- --------- --------- --------- "
     "---------)"),
    # 27 points, both kings in the other's camp: a draw
    ("9/4K4/9/9/9/9/9/9/4k4 w RB2G2S2N2L9P 1",
     "(w PPPPPPPPPLLNNSSGGBR/- --------- ----K---- --------- --------- --------- --------- --------- --------- "
     "----k----)"),
])
def test_the_entering_king_rules_agree_with_openspiel(shogi, sfen, ours):
    theirs = pyspiel.load_game("shogi").new_initial_state(sfen)
    state = shogi.parse_position(ours)
    assert our_sfen(shogi, state) == spiel_sfen(str(theirs))
    outcome = shogi.outcome(state)
    assert (outcome is not None) == theirs.is_terminal()
    if outcome is not None:
        returns = theirs.returns()
        assert outcome.winner == (None if returns[0] == returns[1] else 0 if returns[0] > returns[1] else 1)
