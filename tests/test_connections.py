"""Corners, edges and rings (``joins N corners``, ``joins N edges``, ``forms a ring``), counted by hand."""

from __future__ import annotations

import pytest

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.compile.trial import check_all
from rulesdsl.interpreter.reference.connections import board_outline
from rulesdsl.loader import resolve

GAME = """
game "t"
players white "o", black "x"
board {board}
position (turn rows) top first
piece stone white "o", black "x"
start {{}}
moves {{ place stone }}
end {{
  mover wins if {condition}
  draw if no moves
}}
"""


def write(tmp_path, board="hexagon 4", condition="mover joins 3 edges"):
    path = tmp_path / "t.rules"
    path.write_text(GAME.format(board=board, condition=condition), encoding="utf-8")
    return path


@pytest.mark.parametrize("board, corners, edge_cells", [
    ("hexagon 4", 6, [2] * 6),  # each side: 4 cells, its two ends corners
    ("hexagon 2", 6, []),  # the six outer cells are all corners
    ("grid 3 x 3", 4, [1] * 4),
    ("rhombus 4 x 4", 4, [2] * 4),
])
def test_the_corners_and_edges_of_a_board(tmp_path, board, corners, edge_cells):
    game = load_game(str(write(tmp_path, board, "mover forms a ring")))
    outline = board_outline(game.geometry)
    assert sum(outline.corner) == corners
    assert sorted(outline.edge_of.count(e) for e in range(outline.edges)) == edge_cells


def test_joining_no_corner_is_refused(tmp_path):
    found = {d.code: d.message for d in check_all(resolve(write(tmp_path, condition="mover joins 0 corners")))}
    assert "E152" in found


def test_joining_more_edges_than_the_board_has_is_refused(tmp_path):
    found = {d.code: d.message for d in check_all(resolve(write(tmp_path, condition="mover joins 7 edges")))}
    assert "this board has 6 edges" in found.get("E152", "")


def test_a_ring_on_the_border_needs_a_cell_inside(tmp_path):
    # hexagon 2 (rows from the top, default names A1 A2 / B1 B2 B3 / C1 C2): the six outer cells ring B2
    game = load_game(str(write(tmp_path, "hexagon 2", "mover forms a ring")))
    assert game.outcome(game.parse_position('(x oo o-o oo)')).winner == 0
    assert game.outcome(game.parse_position('(x oo o-o o-)')) is None
    assert game.outcome(game.parse_position('(x oo ooo o-)')) is None  # B2 touches the empty C2
