"""Checkers-style blocks: ``promote KIND to KIND2 on far row`` and ``must capture``.

Perft counts are the widely published English draughts numbers; they agree
with this model (a multi-jump is one ply per jump) up to depth 6, before the
first double jump. Positions list the rows top first; black moves down.
"""

from __future__ import annotations

from helpers import after, moves_of

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.search.minimax import perft
from rulesdsl.verify import check_file

CHECKERS = [7, 49, 302, 1469, 7361, 36768]


def test_checkers_perft():
    game = load_game("checkers")
    state = game.initial_state()
    assert [perft(game, state, d) for d in range(1, len(CHECKERS) + 1)] == CHECKERS


def test_a_capture_is_compulsory_and_the_far_row_crowns():
    game = load_game("checkers")
    position = '(b "" ---- -b-- --w- ----)'
    # b3 could step to a2, but it can jump c2 into d1, so it must.
    assert moves_of(game, position) == {"b3-d1"}
    game, state = after(game, position, "b3-d1")
    # The man lands on black's far row as a king, and the turn is over.
    assert game.format_position(state) == '(w "" ---- ---- ---- ---B)'


def test_a_whole_chain_is_one_move_by_default():
    game = load_game("checkers")
    start = '(b "" ------ -b---- --w--- ------ w---w- ------)'
    assert moves_of(game, start) == {"b5-d3-f1"}
    game, state = after(game, start, "b5-d3-f1")
    assert game.format_position(state) == '(w "" ------ ------ ------ ------ w----- -----B)'


def test_a_jump_goes_on_with_the_same_piece_until_it_crowns():
    game = load_game("checkers", {"chains": "jump"})  # one ply per jump
    start = '(b "" ------ -b---- --w--- ------ w---w- ------)'
    assert moves_of(game, start) == {"b5-d3"}
    game, state = after(game, start, "b5-d3")
    middle = game.format_position(state)
    assert middle == '(b d3 ------ ------ ------ ---b-- w---w- ------)'
    assert moves_of(game, middle) == {"d3-f1"}  # no pass: the jump must go on
    game, state = after(game, middle, "d3-f1")
    assert game.format_position(state) == '(w "" ------ ------ ------ ------ w----- -----B)'


def test_crowning_ends_the_turn_even_when_the_king_could_jump_on():
    game = load_game("checkers")
    # b3 jumps c2 into d1 and is crowned there; as a king on d1 it could jump e2
    # into f3, but crowning ends the turn.
    position = '(b "" ------ ------ ------ -b---- --w-w- ------)'
    assert moves_of(game, position) == {"b3-d1"}
    game, state = after(game, position, "b3-d1")
    assert game.format_position(state) == '(w "" ------ ------ ------ ------ ----w- ---B--)'


def test_a_king_moves_both_ways():
    game = load_game("checkers")
    assert moves_of(game, '(w "" ---- ---- -W-- ----)') == {"b2-a1", "b2-c1", "b2-a3", "b2-c3"}


def test_the_rule_file_checks_clean():
    report = check_file("checkers")
    assert [d.one_line() for d in report.diagnostics] == []
