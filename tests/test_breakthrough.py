"""Breakthrough as a rule file: move counts and results checked against numbers found by hand.

Boards are written as in the game's position strings: the turn, then the rows
from row 8 (black's home row) down to row 1, columns a..h left to right.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import moves_of

from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft

EMPTY_ROW = "--------"


def position(turn: str, **rows: str) -> str:
    """A position string with the given rows (``r8=...``) and the others empty."""
    listed = [rows.get(f"r{n}", EMPTY_ROW) for n in range(8, 0, -1)]
    return f"({turn} {' '.join(listed)})"


@pytest.fixture(scope="module")
def game():
    return load_game("breakthrough")




def test_the_rule_file_checks_clean():
    # The command a user runs: syntax, names, the inline examples, random playouts.
    done = subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", "check", "--strict", "breakthrough"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_start_position(game):
    state = game.initial_state()
    assert game.format_position(state) == position("w", r8="bbbbbbbb", r7="bbbbbbbb",
                                                   r2="wwwwwwww", r1="wwwwwwww")
    assert game.players[state.turn].name == "white"


def test_perft_from_the_start(game):
    # Depth 1 by hand: the two edge pawns of row 2 have two moves (straight,
    # one diagonal), the six others three: 2 * 2 + 6 * 3 = 22. Depth 2: the
    # armies are still three rows apart, so black has 22 replies to each: 484.
    # Depths 3 and 4 are reference numbers computed independently of this project.
    state = game.initial_state()
    assert [perft(game, state, d) for d in (1, 2, 3, 4)] == [22, 484, 11132, 256036]


def test_edge_pawns_have_one_diagonal(game):
    text = position("w", r8="-------b", r2="w------w")
    assert moves_of(game, text) == {"a2-a3", "a2-b3", "h2-h3", "h2-g3"}


def test_a_blocked_pawn_has_no_straight_move(game):
    # d5 holds a black pawn: white's d4 may only go diagonally.
    text = position("w", r8="-------b", r5="---b----", r4="---w----")
    assert moves_of(game, text) == {"d4-c5", "d4-e5"}


def test_a_pawn_blocked_by_its_own_side_cannot_move_straight(game):
    # d3 is behind d4; c4 and e4 are empty, so d3 steps diagonally only.
    text = position("w", r8="-------b", r4="---w----", r3="---w----")
    assert moves_of(game, text) == {"d4-d5", "d4-c5", "d4-e5", "d3-c4", "d3-e4"}


def test_black_moves_down_the_board(game):
    # Black's forward is south: d5 may go to d4, c4 or e4, and takes on c4.
    text = position("b", r5="---b----", r4="--w-----", r1="w-------")
    assert moves_of(game, text) == {"d5-d4", "d5-c4", "d5-e4"}


def test_a_diagonal_step_captures(game):
    text = position("w", r8="-------b", r5="----b---", r4="---w----")
    game, state = load_position(game, text)
    assert {game.format_move(state, mv) for mv in game.legal_moves(state)} == {"d4-d5", "d4-c5", "d4-e5"}
    after = game.apply(state, game.parse_move(state, "d4-e5"))
    # The white pawn stands on e5, d4 is empty, and only h8 is left of black's pawns.
    assert game.format_position(after) == position("b", r8="-------b", r5="----w---")
    assert game.outcome(after) is None


def test_a_straight_step_never_captures(game):
    text = position("w", r8="-------b", r5="---b----", r4="---w----")
    game, state = load_position(game, text)
    with pytest.raises(ValueError, match="not a legal move"):
        game.parse_move(state, "d4-d5")


def test_a_pawn_on_the_far_row_means_the_mover_won(game):
    # Black to move, so white made the last move: white's pawn on d8 has won.
    game, state = load_position(game, position("b", r8="---w----", r2="b-------"))
    outcome = game.outcome(state)
    assert outcome is not None and game.players[outcome.winner].name == "white"
    assert game.legal_moves(state) == []


def test_black_wins_on_row_one(game):
    game, state = load_position(game, position("w", r7="w-------", r1="----b---"))
    outcome = game.outcome(state)
    assert outcome is not None and game.players[outcome.winner].name == "black"


def test_stepping_onto_the_far_row_ends_the_game(game):
    game, state = load_position(game, position("w", r8="-------b", r7="--w-----"))
    after = game.apply(state, game.parse_move(state, "c7-c8"))
    outcome = game.outcome(after)
    assert outcome is not None and game.players[outcome.winner].name == "white"


def test_taking_the_last_pawn_wins(game):
    game, state = load_position(game, position("w", r5="----b---", r4="---w----"))
    after = game.apply(state, game.parse_move(state, "d4-e5"))
    outcome = game.outcome(after)
    assert outcome is not None and game.players[outcome.winner].name == "white"
    assert game.legal_moves(after) == []


def test_a_player_without_moves_loses():
    # One column, four rows: white's a2 faces black's a3 and a1 is behind a2,
    # so white cannot move at all and black wins before a move is made.
    game = load_game("breakthrough", {"cols": "1", "rows": "4"})
    state = game.initial_state()
    assert game.format_position(state) == "(w b b w w)"
    outcome = game.outcome(state)
    assert outcome is not None and game.players[outcome.winner].name == "black"


def test_one_column_five_rows():
    # White's only move is a2-a3; then black's a4 faces a3 and a5 is behind it.
    game = load_game("breakthrough", {"cols": "1", "rows": "5"})
    state = game.initial_state()
    assert [perft(game, state, d) for d in (1, 2)] == [1, 0]
    after = game.apply(state, game.parse_move(state, "a2-a3"))
    outcome = game.outcome(after)
    assert outcome is not None and game.players[outcome.winner].name == "white"


def test_a_small_board_by_hand():
    # Three columns, four rows: the armies touch. Every white move is a
    # diagonal capture from row 2 (a2xb3, b2xa3, b2xc3, c2xb3); row 1 is
    # hemmed in by row 2. Black has five replies to each (counted square by
    # square, the four cases being two mirrored pairs): 4 * 5 = 20.
    game = load_game("breakthrough", {"cols": "3", "rows": "4"})
    state = game.initial_state()
    assert {game.format_move(state, mv) for mv in game.legal_moves(state)} == {
        "a2-b3", "b2-a3", "b2-c3", "c2-b3"}
    assert [perft(game, state, d) for d in (1, 2)] == [4, 20]


def test_a_position_of_another_size_sets_the_options(game):
    resized, state = load_position(game, "(w bbb bbb www www)")
    assert (resized.options["cols"], resized.options["rows"]) == (3, 4)
    assert len(resized.legal_moves(state)) == 4
