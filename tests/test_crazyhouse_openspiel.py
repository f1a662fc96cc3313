"""Crazyhouse (rules/crazyhouse.rules) against OpenSpiel's ``crazyhouse``: perft, and seeded random games.

At every position of a random game both must agree on the board (OpenSpiel's
own letters for promoted pieces: E, C, A, H), each player's hand (its FEN's
``[...]`` pocket, compared as a multiset), the player to move, the castling
rights, the en passant cell, the set of legal moves and, at the end, the
result. OpenSpiel writes moves in SAN, which needs its board to read, so moves
are compared by the position each leads to (one action each in both: a drop
and a promotion choice are single actions in OpenSpiel too), and the counts
must match. OpenSpiel seats black as player 0. Perft figures are the issue's
published ones, and OpenSpiel's own perft is counted in the same run.
"""

from __future__ import annotations

import os

import pytest

pyspiel = pytest.importorskip("pyspiel")

from openspiel_side_by_side import Side, castling_rights, fen_row, play, spiel_perft  # noqa: E402

from rulesdsl.interpreter.compile.load import load_game  # noqa: E402

GAMES = int(os.environ.get("RULESDSL_CRAZYHOUSE_GAMES", "20"))  # the default run; 1,000 under -m deep
DEEP_GAMES = 1000


@pytest.fixture(scope="module")
def crazyhouse():
    return load_game("crazyhouse")


@pytest.mark.parametrize("depth, count", [(1, 20), (2, 400), (3, 8902)])
def test_perft_from_the_start(crazyhouse, depth, count):
    assert crazyhouse.perft(crazyhouse.initial_state(), depth) == count


def test_openspiel_counts_the_same_perft():
    assert spiel_perft(pyspiel.load_game("crazyhouse").new_initial_state(), 3) == 8902


def our_fen(game, state) -> str:
    """Our position as OpenSpiel's FEN without its clocks, the pocket's letters sorted."""
    turn, unmoved, passed, hand, *rows = game.format_position(state)[1:-1].split()
    unmoved = unmoved.split(",")
    rights = castling_rights(unmoved)
    pocket = "".join(sorted(hand.replace("/", "").replace("-", "")))
    placement = "/".join(fen_row(row) for row in rows)
    return f"{placement}[{pocket}] {turn} {rights} {passed}"


def spiel_fen(text: str) -> str:
    """OpenSpiel's FEN without its clocks, a pocket always written (``[]`` when empty) and sorted."""
    placement, turn, rights, passed = text.split()[:4]
    board, _, pocket = placement.partition("[")
    return f"{board}[{''.join(sorted(pocket.rstrip(']')))}] {turn} {rights} {passed}"


def side(game) -> Side:
    return Side(game, pyspiel.load_game("crazyhouse"), move_of=str, position_of=our_fen, spiel_key=spiel_fen,
                seat_of=lambda player: 1 - player, name="crazyhouse")


def test_the_start_reads_as_openspiels(crazyhouse):
    spiel = pyspiel.load_game("crazyhouse").new_initial_state()
    assert our_fen(crazyhouse, crazyhouse.initial_state()) == spiel_fen(str(spiel))


def test_a_capture_fills_the_hand_and_a_drop_empties_it(crazyhouse):
    """By hand: after 1. e4 d5 2. exd5 Qxd5 each side holds one pawn. White may drop it on the empty cells
    of rows 2 to 7: e2, the 8 + 8 + 8 of rows 3, 4 and 6, the 7 of row 5 (the queen is on d5), and d7."""
    state = crazyhouse.initial_state()
    for text in ("e2e4", "d7d5", "e4d5", "d8d5"):
        state = crazyhouse.apply(state, crazyhouse.parse_move(state, text))
    assert crazyhouse.format_position(state).split()[3] == "P/p"
    drops = [mv for mv in crazyhouse.legal_moves(state) if crazyhouse.format_move(state, mv).startswith("P@")]
    assert len(drops) == 1 + 8 + 8 + 7 + 8 + 1
    after = crazyhouse.apply(state, crazyhouse.parse_move(state, "P@e2"))
    assert crazyhouse.format_position(after).split()[3] == "-/p"


def test_a_promoted_piece_returns_to_hand_as_a_pawn(crazyhouse):
    """A promoted queen (E) taken by the black king joins black's hand as a pawn."""
    state = crazyhouse.parse_position("(b - - -/- ----k--- ----E--- -------- -------- -------- -------- "
                                      "-------- ----K---)")
    after = crazyhouse.apply(state, crazyhouse.parse_move(state, "e8e7"))
    assert crazyhouse.format_position(after).split()[3] == "-/p"


def test_random_games_agree_with_openspiel(crazyhouse):
    """RULESDSL_CRAZYHOUSE_GAMES seeded games (20 by default)."""
    lengths = [play(side(crazyhouse), seed)[0] for seed in range(GAMES)]
    assert min(lengths) > 0


@pytest.mark.deep
def test_a_thousand_random_games_agree_with_openspiel(crazyhouse):
    lengths = [play(side(crazyhouse), seed)[0] for seed in range(DEEP_GAMES)]
    assert len(lengths) == DEEP_GAMES
