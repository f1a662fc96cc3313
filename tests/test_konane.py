"""Konane (GAMES.md §1) and its variants: counts and positions worked out by hand.

Positions are written as the rule file declares them: ``(T L row row ...)``,
rows listed top row first, so the last word is row 1; cells are column letter
plus row number (a1 bottom left). The perft numbers are the independent
reference counts for Konane with the sheet's go-again rule (GAMES.md §1).
"""

from __future__ import annotations

import pytest
from helpers import moves_of

from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft

START = '(w "" wbwb bwb- w-wb)'
BOARD_4 = "(b d1 wbw- b--- --wb)"


@pytest.fixture(scope="module")
def konane():
    return load_game("konane")




def play(game, position: str, *moves: str) -> str:
    """The position after playing ``moves`` (each must be legal)."""
    game, state = load_position(game, position)
    for text in moves:
        state = game.apply(state, game.parse_move(state, text))
    return game.format_position(state)


def winner(game, position: str) -> str | None:
    game, state = load_position(game, position)
    outcome = game.outcome(state)
    assert outcome is not None, f"{position} is not over"
    return None if outcome.winner is None else game.players[outcome.winner].name


# ---- move counts ---------------------------------------------------------------------


def test_perft_default_board(konane):
    state = konane.initial_state()
    assert konane.format_position(state) == START
    expected = [1, 1, 2, 3, 4, 7, 11, 19, 23, 28, 26, 10, 4, 1]
    assert [perft(konane, state, d) for d in range(1, 15)] == expected
    assert perft(konane, state, 15) == 0


def test_perft_4x4():
    game = load_game("konane", {"rows": "4", "cols": "4"})
    state = game.initial_state()
    assert [perft(game, state, d) for d in range(1, 9)] == [1, 2, 6, 18, 56, 150, 409, 1134]


def test_perft_6x6():
    game = load_game("konane", {"rows": "6", "cols": "6"})
    state = game.initial_state()
    assert [perft(game, state, d) for d in range(1, 7)] == [3, 9, 31, 173, 898, 4682]


def test_the_sheets_board_4_has_three_moves(konane):
    # Black to move, going again after landing on d1: d1 jumps c1 into b1,
    # b3 jumps c3 into d3, or pass. (a2 over a3 and b3 over a3 would leave the board.)
    assert moves_of(konane, BOARD_4) == {"d1-b1", "b3-d3", "pass"}


# ---- starts ------------------------------------------------------------------------


def test_sized_start_4x4():
    # Checkerboard with a1 white (c + r even); the pieces removed are at column
    # (4+1)//2 = 2, row (4+1)//2 = 2, i.e. b2, and its right neighbour c2.
    # Row 4: a4 (1+4 odd) b, b4 w, c4 b, d4 w; row 3: w b w b;
    # row 2: a2 b, b2 -, c2 -, d2 w; row 1: w b w b.
    game = load_game("konane", {"rows": "4", "cols": "4"})
    assert game.format_position(game.initial_state()) == '(w "" bwbw wbwb b--w wbwb)'


def test_sized_start_5_rows_3_columns():
    # Removed: column (3+1)//2 = 2, row (5+1)//2 = 3: b3 and c3.
    # Row 5: a5 (1+5 even) w, b5 b, c5 w; row 4: b w b; row 3: a3 w, then the gap.
    game = load_game("konane", {"rows": "5", "cols": "3"})
    assert game.format_position(game.initial_state()) == '(w "" wbw bwb w-- bwb wbw)'


def test_sized_start_one_row_white_cannot_move():
    # 1 x 4: w b w b, minus b1 and c1: "w--b". White moves first, has no jump, and loses.
    game = load_game("konane", {"rows": "1", "cols": "4"})
    state = game.initial_state()
    assert game.format_position(state) == '(w "" w--b)'
    assert game.legal_moves(state) == []
    assert game.players[game.outcome(state).winner].name == "black"


def test_explicit_default_size_keeps_the_sheets_start():
    game = load_game("konane", {"rows": "3", "cols": "4"})
    assert game.format_position(game.initial_state()) == START


# ---- positions ---------------------------------------------------------------------


@pytest.mark.parametrize("position", [
    START,
    BOARD_4,
    '(w c1 wbwb b--w --w-)',
    '(b "" ---- ---- ----)',
    '(w "" bwbw wbwb b--w wbwb)',
])
def test_position_round_trip(konane, position):
    game, state = load_position(konane, position)
    assert game.format_position(state) == position
    assert game.parse_position(game.format_position(state)) == state


def test_position_names_cells_from_the_bottom_row(konane):
    # '(b d1 ...)': d1 must be in the last listed row, where black has a stone.
    state = konane.parse_position(BOARD_4)
    d1 = konane.geometry.index_of("d1")
    assert state.last == d1
    assert state.board[d1] == "b"


# ---- go-again -----------------------------------------------------------------------


def test_a_jump_with_no_jump_to_follow_hands_the_turn_over(konane):
    # From the start white's only move is b2-d2; afterwards white has no jump
    # (b1, b2, c2 are the empty cells and no white stone is two cells from one
    # across a black stone), so black moves with L empty.
    assert moves_of(konane, START) == {"b2-d2"}
    assert play(konane, START, "b2-d2") == '(b "" wbwb b--w w-wb)'


def test_go_again_keeps_the_turn_and_sets_l(konane):
    # After b2-d2, black's only jump is d1 over c1 into b1. Then d3 can jump d2
    # into d1, so black goes again from b1 (any stone may jump, or pass).
    after = play(konane, START, "b2-d2", "d1-b1")
    assert after == "(b b1 wbwb b--w wb--)"
    assert moves_of(konane, after) == {"d3-d1", "pass"}


def test_pass_in_a_go_again_turn_clears_l(konane):
    assert play(konane, "(b b1 wbwb b--w wb--)", "pass") == '(w "" wbwb b--w wb--)'


def test_go_again_with_l_set_allows_any_stone(konane):
    # White just landed on c1; a3 can jump a2 into a1 (c1 itself cannot jump).
    assert moves_of(konane, "(w c1 wbwb b--w --w-)") == {"a3-a1", "pass"}
    # After a3-a1, c3 can jump b3 into a3: white goes again, now from a1.
    assert play(konane, "(w c1 wbwb b--w --w-)", "a3-a1") == "(w a1 -bwb ---w w-w-)"


def test_a_go_again_turn_is_never_over(konane):
    game, state = load_position(konane, "(w c1 ---- ---- --w-)")
    assert game.outcome(state) is None
    assert {game.format_move(state, mv) for mv in game.legal_moves(state)} == {"pass"}


def test_the_sheets_game_reaches_board_4(konane):
    # b2xc2-d2 (white); d1xc1-b1 (black, who could go on with d3-d1, passes);
    # a1xb1-c1 (white, who could go on with a3-a1, passes); d3xd2-d1 (black,
    # who can go on with d1-b1 or b3-d3): the sheet's board #4, black to move from d1.
    steps = [
        ("b2-d2", '(b "" wbwb b--w w-wb)'),
        ("d1-b1", "(b b1 wbwb b--w wb--)"),
        ("pass", '(w "" wbwb b--w wb--)'),
        ("a1-c1", "(w c1 wbwb b--w --w-)"),
        ("pass", '(b "" wbwb b--w --w-)'),
        ("d3-d1", BOARD_4),
    ]
    position = START
    for move, expected in steps:
        position = play(konane, position, move)
        assert position == expected, move


# ---- the end and the variants ------------------------------------------------------


def test_player_without_a_jump_loses(konane):
    # White to move, L empty: w on a3 has no black neighbour; black wins.
    assert winner(konane, '(w "" w--- ---- ---b)') == "black"


def test_misere_flips_the_result():
    position = '(w "" w--- ---- ---b)'
    assert winner(load_game("konane-misere"), position) == "white"
    assert winner(load_game("konane", {"misere": "true"}), position) == "white"
    # After white's last jump black cannot move: black wins the misere game.
    misere = load_game("konane-misere")
    game, state = load_position(misere, '(w "" wb-- ---- ----)')
    state = game.apply(state, game.parse_move(state, "a3-c3"))
    assert game.format_position(state) == '(b "" --w- ---- ----)'
    assert game.players[game.outcome(state).winner].name == "black"


def test_same_stone_variant_restricts_the_continuation(konane):
    same = load_game("konane-same-stone")
    # Board 4: only the stone on d1 may go on (b3-d3 is another stone's jump).
    assert moves_of(same, BOARD_4) == {"d1-b1", "pass"}
    assert moves_of(konane, BOARD_4) == {"d1-b1", "b3-d3", "pass"}
    # Given by hand: from b1 no jump, so pass is all (the default allows d3-d1).
    assert moves_of(same, "(b b1 wbwb b--w wb--)") == {"pass"}
    assert moves_of(konane, "(b b1 wbwb b--w wb--)") == {"d3-d1", "pass"}


def test_same_stone_variant_hands_over_when_the_stone_cannot_go_on(konane):
    # In the sheet's game, after b2-d2 d1-b1 the stone on b1 has no jump: the
    # turn passes to white at once (the default keeps black on because of d3-d1).
    same = load_game("konane-same-stone")
    assert play(same, START, "b2-d2", "d1-b1") == '(w "" wbwb b--w wb--)'
    assert play(konane, START, "b2-d2", "d1-b1") == "(b b1 wbwb b--w wb--)"
