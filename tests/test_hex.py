"""Abalone on a hexagon of side 4 (GAMES.md §4), checked by hand.

Positions are ``(T A-row B-row ... G-row)``; each row lists its cells in
increasing diagonal number: A4..A7, B3..B7, C2..C7, D1..D7, E1..E6, F1..F5,
G1..G4. Cell (r, d) touches (r, d±1), (r-1, d), (r-1, d+1), (r+1, d-1),
(r+1, d). A move ``Ax By`` moves the pair one cell from Ax towards By.

Losses are counted from the start's 11 tokens a side, so small hand-made
positions raise ``losses`` to 11 (a side then loses only with no token left).
"""

from __future__ import annotations

import pytest
from helpers import after, moves_of

from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft

START = "(b bbbb bbbbb --bb-- ------- --rr-- rrrrr rrrr)"
ROW_LENGTHS = (4, 5, 6, 7, 6, 5, 4)


def pos(turn: str, **cells: str) -> str:
    """A position with ``cells`` (``A4="r"``) placed on an empty hexagon."""
    rows = [["-"] * n for n in ROW_LENGTHS]
    for name, symbol in cells.items():
        r = ord(name[0]) - ord("A")
        first = max(1, 4 - r)   # A starts at 4, B at 3, C at 2, D..G at 1
        rows[r][int(name[1]) - first] = symbol
    return f"({turn} {' '.join(''.join(row) for row in rows)})"


@pytest.fixture(scope="module")
def hexgame():
    return load_game("abalone-hex")


@pytest.fixture(scope="module")
def lenient():
    return load_game("abalone-hex", {"losses": "11"})






def test_the_helper_writes_positions_like_the_rules():
    assert pos("b", A4="b", A5="b", A6="b", A7="b", B3="b", B4="b", B5="b", B6="b", B7="b",
               C4="b", C5="b", E3="r", E4="r", F1="r", F2="r", F3="r", F4="r", F5="r",
               G1="r", G2="r", G3="r", G4="r") == START


def test_start(hexgame):
    assert hexgame.format_position(hexgame.initial_state()) == START


def test_perft(hexgame):
    state = hexgame.initial_state()
    assert [perft(hexgame, state, d) for d in (1, 2, 3, 4, 5)] == [10, 96, 1108, 12670, 150986]


def test_the_ten_first_moves(hexgame):
    # Down-left pairs need an empty cell two steps on: A4 B3 (C2), A5 B4 (C3),
    # B5 C4 (D3), B6 C5 (D4); down-right: A6 B6 (C6), A7 B7 (C7), B4 C4 (D4),
    # B5 C5 (D5); along row C: C4 C5 (C6), C5 C4 (C3). Everything else runs
    # into blue's own tokens or off the board.
    assert moves_of(hexgame, START) == {
        "A4 B3", "A5 B4", "A6 B6", "A7 B7", "B4 C4", "B5 C4", "B5 C5", "B6 C5", "C4 C5", "C5 C4"}


def test_move_notation_round_trip(hexgame):
    state = hexgame.initial_state()
    for move in hexgame.legal_moves(state):
        assert hexgame.parse_move(state, hexgame.format_move(state, move)) == move


# ---- pushes ------------------------------------------------------------------------


def test_corner_push_straight_out_is_illegal_sideways_is_legal(lenient):
    # Red on the corner A4. C4 B4 pushes it up-left, the direction from D4 to
    # A4: straight out, illegal. A6 A5 pushes it left, off the board: legal.
    position = pos("b", A4="r", A5="b", A6="b", B4="b", C4="b", G1="r", G2="r")
    moves = moves_of(lenient, position)
    assert "C4 B4" not in moves
    assert "A6 A5" in moves
    game, state = after(lenient, position, "A6 A5")
    assert game.format_position(state) == pos("r", A4="b", A5="b", B4="b", C4="b", G1="r", G2="r")
    assert game.outcome(state) is None   # red still has G1 G2 (to G3)


def test_corner_push_up_and_right_is_sideways(lenient):
    # C2 B3 pushes A4 towards (r-1, d+1): off the board, not straight out.
    game, state = after(lenient, pos("b", A4="r", B3="b", C2="b", G1="r"), "C2 B3")
    assert game.format_position(state) == pos("r", A4="b", B3="b", G1="r")


def test_another_corner_straight_out(lenient):
    # D7: straight out of it is along row D, to the right. D5 D6 may not push it;
    # B7 C7 pushes it down-right (towards (r+1, d)), off the board: legal.
    position = pos("b", D5="b", D6="b", D7="r", B7="b", C7="b", G1="r")
    moves = moves_of(lenient, position)
    assert "D5 D6" not in moves
    assert "B7 C7" in moves


def test_pushing_a_token_off_an_edge_eliminates_it(lenient):
    # C5 B5 pushes A5 (not a corner) straight up off the board.
    game, state = after(lenient, pos("b", A5="r", B5="b", C5="b", G1="r", G2="r"), "C5 B5")
    assert game.format_position(state) == pos("r", A5="b", B5="b", G1="r", G2="r")
    assert state.board.count("r") == 2
    assert game.outcome(state) is None


def test_a_pair_may_not_push_itself_off(lenient):
    # A5 A4 would move A4 off the board; A4 A5 moves into A6.
    assert moves_of(lenient, pos("b", A4="b", A5="b", G1="r")) >= {"A4 A5"}
    assert "A5 A4" not in moves_of(lenient, pos("b", A4="b", A5="b", G1="r"))


def test_two_against_two_and_sandwich_are_illegal(lenient):
    # C4 D4 moves down-right onto E4 (red); the cell after it is F4.
    assert "C4 D4" not in moves_of(lenient, pos("b", C4="b", D4="b", E4="r", F4="r"))   # two against two
    assert "C4 D4" not in moves_of(lenient, pos("b", C4="b", D4="b", E4="r", F4="b", G1="r"))   # sandwich
    game, state = after(lenient, pos("b", C4="b", D4="b", E4="r", G1="r"), "C4 D4")
    assert game.format_position(state) == pos("r", D4="b", E4="b", F4="r", G1="r")


# ---- the end -------------------------------------------------------------------------


def test_blocked_player_draws(lenient):
    # Blue's pair A4 A5: A5 A4 leaves the board, A4 A5 meets A6 A7 (two red).
    game, state = load_position(lenient, pos("b", A4="b", A5="b", A6="r", A7="r"))
    assert game.legal_moves(state) == []
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner is None


def test_isolated_tokens_draw(lenient):
    game, state = load_position(lenient, pos("b", D4="b", G1="r", G2="r"))
    assert game.legal_moves(state) == []
    assert game.outcome(state).winner is None


def test_the_fourth_elimination_wins(hexgame):
    # Both sides have 8 of 11 tokens (3 lost each). C5 B5 pushes A5 off: red
    # has lost 4, blue wins.
    position = pos("b", B5="b", C5="b", D1="b", D2="b", E1="b", E2="b", F1="b", F2="b",
                   A5="r", D5="r", D6="r", D7="r", E5="r", E6="r", F4="r", F5="r")
    game, state = load_position(hexgame, position)
    assert game.outcome(state) is None
    state = game.apply(state, game.parse_move(state, "C5 B5"))
    outcome = game.outcome(state)
    assert outcome is not None
    assert game.players[outcome.winner].name == "blue"


def test_a_side_that_has_lost_four_has_lost(hexgame):
    # Red has 7 tokens (4 lost), blue 11: over, blue wins, whoever is to move.
    position = pos("r", A4="b", A5="b", A6="b", A7="b", B3="b", B4="b", B5="b", B6="b", B7="b",
                   C4="b", C5="b", F1="r", F2="r", F3="r", F4="r", F5="r", G1="r", G2="r")
    game, state = load_position(hexgame, position)
    assert game.legal_moves(state) == []
    assert game.players[game.outcome(state).winner].name == "blue"
