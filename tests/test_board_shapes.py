"""Boards of any shape: ``board grid C x R where EXPR`` (the Fox and Geese cross)."""

from __future__ import annotations

from rulesdsl.cli.render import render
from rulesdsl.interpreter.compile.load import load_game


def test_the_cross_has_33_points_named_from_the_whole_grid():
    game = load_game("fox-and-geese")
    names = {c.name for c in game.geometry.cells}
    assert len(names) == 33  # 7 x 7 less four 2 x 2 corners
    assert {"c1", "d1", "e1", "a3", "g5", "c7", "e7"} <= names
    assert not names & {"a1", "b2", "f6", "g7", "a7"}
    assert [len(row) for row in game.geometry.rows_listed] == [3, 3, 7, 7, 7, 3, 3]


def test_a_step_towards_a_missing_corner_leaves_the_board():
    game = load_game("fox-and-geese")
    c2 = game.geometry.index_of("c2")
    assert game.geometry.step(c2, (-1, 0)) == -1  # b2 is not a point
    assert game.geometry.step(c2, (0, 1)) == game.geometry.index_of("c3")


def test_the_drawing_keeps_labels_on_the_edges():
    game = load_game("fox-and-geese")
    lines = render(game, game.initial_state()).split("\n")
    assert lines[0] == "7     g g g"
    assert lines[3] == "4 . . . f . . ."
    assert lines[-1] == "  a b c d e f g"
