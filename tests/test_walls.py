"""Walls and paths (interpreter/reference/walls.py) on hand-checked positions of rules/quoridor.rules at 3 x 3 squares.

The wall grid is 5 x 5 cells: squares a1, c1, e1, a3, ... e5; a wall is written by its two ends. Every count and
move list below is worked out by hand from the rules (see docs/language.md, 'Walls and paths').
"""

from __future__ import annotations

import pytest

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.explain.reasons import explain_move


@pytest.fixture(scope="module")
def game():
    return load_game("quoridor", {"size": "3", "walls": "1"})


def moves(game, position: str) -> set[str]:
    state = game.parse_position(position)
    return {game.format_move(state, mv) for mv in game.legal_moves(state)}


def test_the_start_walks_three_ways_and_builds_eight_walls(game):
    found = moves(game, "(0 1/1 --@-- ----- ----- ----- --0--)")
    assert {m for m in found if m.startswith("c1-")} == {"c1-a1", "c1-e1", "c1-c3"}
    walls = found - {"c1-a1", "c1-e1", "c1-c3"}
    assert walls == {"a2-c2", "b1-b3", "c2-e2", "d1-d3", "a4-c4", "b3-b5", "c4-e4", "d3-d5"}


def test_a_pawn_in_the_way_is_leapt_straight_on(game):
    assert moves(game, "(0 0/0 ----- ----- --@-- ----- --0--)") == {"c1-a1", "c1-e1", "c1-c5"}


def test_a_wall_behind_the_pawn_sends_the_leap_to_its_sides(game):
    assert moves(game, "(0 0/0 ----- -###- --@-- ----- --0--)") == {"c1-a1", "c1-e1", "c1-a3", "c1-e3"}


def test_the_edge_behind_the_pawn_sends_the_leap_to_its_sides(game):
    # white on c3 faces black on c5 at the top edge: c5 cannot be passed, so a5 and e5 (and the plain walks)
    assert moves(game, "(0 0/0 --@-- ----- --0-- ----- -----)") == {"c3-a3", "c3-e3", "c3-c1", "c3-a5", "c3-e5"}


def test_a_wall_may_not_cut_the_last_path(game):
    # white on a1 is walled off on its right (b1-b3); a4-c4 would close column a above a3
    found = moves(game, "(@ 0/1 ----@ ----- -#--- -#--- 0#---)")
    assert "a4-c4" not in found
    assert found == {"e5-c5", "e5-e3", "c2-e2", "d1-d3", "c4-e4", "d3-d5"}


def test_walls_are_a_choice_and_run_out(game):
    state = game.parse_position("(0 1/1 --@-- ----- ----- ----- --0--)")
    after = game.apply(state, game.parse_move(state, "a2-c2"))
    assert after.hand == (0, 1)
    walk = game.apply(after, game.parse_move(after, "c5-a5"))
    # a2-c2 lies above a1 and c1: white walks sideways only, and has no wall left to build
    assert moves(game, game.format_position(walk)) == {"c1-a1", "c1-e1"}


@pytest.mark.parametrize("position, move, words", [
    ("(@ 0/1 ----@ ----- -#--- -#--- 0#---)", "a4-c4", "'keep' condition"),
    ("(@ 0/1 ----@ ----- -#--- -#--- 0#---)", "a2-c2", "b2 is taken"),
    ("(@ 0/0 ----@ ----- ----- ----- 0----)", "c2-e2", "no wall left in hand"),
    ("(0 0/0 ----- -###- --@-- ----- --0--)", "c1-c5", "is no walk"),
])
def test_why_a_wall_move_is_not_legal(game, position, move, words):
    answer = explain_move(game, game.parse_position(position), move).text()
    assert "is not legal" in answer and words in answer
