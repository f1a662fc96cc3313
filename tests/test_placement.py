"""Placement games: ``place KIND [falling DIR]`` and ``PLAYER has N in a row``.

The perft numbers are the well-known counts of tic-tac-toe and Connect Four
games by length (a game stops at a win), not this program's output.
"""

from __future__ import annotations

import io

import pytest

from rulesdsl.cli.repl import run_repl
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import best_move, perft
from rulesdsl.verify import check_file

# Tic-tac-toe games of each length: no win before ply 5; 1440 games end at
# ply 5, so ply 6 has (15120 - 1440) * 4 = 54720 sequences, and so on.
TIC_TAC_TOE = [9, 72, 504, 3024, 15120, 54720, 148176, 200448]
# Connect Four on 7 x 6: 7 ** n until the first win is possible at ply 7.
CONNECT_FOUR = [7, 49, 343, 2401, 16807]


def test_tic_tac_toe_perft():
    game = load_game("tic-tac-toe")
    state = game.initial_state()
    assert [perft(game, state, d) for d in range(1, len(TIC_TAC_TOE) + 1)] == TIC_TAC_TOE


def test_connect_four_perft():
    game = load_game("connect-four")
    state = game.initial_state()
    assert [perft(game, state, d) for d in range(1, len(CONNECT_FOUR) + 1)] == CONNECT_FOUR


def test_a_disc_comes_to_rest_on_the_disc_below():
    game, state = load_position(load_game("connect-four"),
                                "(y ------- ------- ------- ------- ---r--- ---r---)")
    moves = sorted(game.format_move(state, m) for m in game.legal_moves(state))
    assert moves == ["a1", "b1", "c1", "d3", "e1", "f1", "g1"]


def test_a_full_column_takes_no_more_discs():
    game = load_game("connect-four", {"rows": "4", "cols": "4"})
    game, state = load_position(game, "(r r--- y--- r--- y---)")
    moves = sorted(game.format_move(state, m) for m in game.legal_moves(state))
    assert moves == ["b1", "c1", "d1"]


@pytest.mark.parametrize("position, winner", [
    ("(o xxx oo- ---)", "cross"),       # a row
    ("(o x-- xo- xo-)", "cross"),       # a column
    ("(o x-o -xo --x)", "cross"),       # the main diagonal
    ("(x oox -o- xxo)", "nought"),      # the other diagonal: c3, b2, a1
])
def test_three_in_a_row_wins(position, winner):
    game, state = load_position(load_game("tic-tac-toe"), position)
    outcome = game.outcome(state)
    assert outcome is not None and game.players[outcome.winner].name == winner
    assert game.legal_moves(state) == []


def test_two_in_a_row_is_not_a_win_and_a_full_board_draws():
    game, state = load_position(load_game("tic-tac-toe"), "(o xx- o-- ---)")
    assert game.outcome(state) is None
    game, state = load_position(game, "(x xox xoo oxx)")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner is None


def test_the_line_option_changes_the_goal():
    game = load_game("tic-tac-toe", {"size": "4", "line": "4"})
    game, state = load_position(game, "(o xxx- oo-- ---- ----)")
    assert game.outcome(state) is None  # three of four is not enough
    game, state = load_position(game, "(o xxxx ooo- ---- ----)")
    assert game.players[game.outcome(state).winner].name == "cross"


def test_the_engine_completes_a_line_and_blocks_one():
    game, state = load_position(load_game("tic-tac-toe"), "(x xx- oo- ---)")
    assert game.format_move(state, best_move(game, state, 1).move) == "c3"
    game, state = load_position(game, "(o xx- o-- ---)")
    assert game.format_move(state, best_move(game, state, 2).move) == "c3"


def test_placement_moves_are_typed_as_a_cell_in_the_repl():
    game = load_game("tic-tac-toe")
    out = io.StringIO()
    code = run_repl(game, game.initial_state(), as_player="all", depth=1,
                    stdin=io.StringIO("b2\nposition\nquit\n"), stdout=out, interactive=False)
    assert code == 0
    assert "(o --- -x- ---)" in out.getvalue()


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_the_rule_files_check_clean(name):
    report = check_file(name)
    assert [d.one_line() for d in report.diagnostics] == []
    assert report.examples >= 3


def test_a_misspelt_falling_direction_is_an_error(tmp_path):
    path = tmp_path / "drop.rules"
    path.write_text('extends "connect-four"\nmoves {\n  place disc falling sout\n}\n')
    report = check_file(str(path))
    first = report.diagnostics[0]
    assert (first.code, first.span.line, first.span.column) == ("E050", 3, 22)
    assert first.hint.startswith("known:") and " s," in first.hint
