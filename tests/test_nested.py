"""Small boards inside a big one (``boards``, ``in sent board``, ``in a row of boards``), by hand-worked positions.

Ultimate tic-tac-toe's rows are listed from the top (row 9); a1 is the bottom-left cell.
"""

from __future__ import annotations

import pytest
from helpers import after, moves_of

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.compile.trial import check_all
from rulesdsl.loader import resolve

EMPTY = "---------"


def rows(marks: dict[str, str]) -> str:
    """Nine rows, top first, with the given cells marked."""
    grid = [["-"] * 9 for _ in range(9)]
    for cell, mark in marks.items():
        grid[9 - int(cell[1])][ord(cell[0]) - ord("a")] = mark
    return " ".join("".join(row) for row in grid)


@pytest.fixture(scope="module")
def uttt():
    return load_game("ultimate-tic-tac-toe")


def test_the_corner_of_a_small_board_sends_to_the_corner_board(uttt):
    # c9 is the top-right cell of the top-left board: it sends to the top-right board, g7..i9
    assert moves_of(uttt, f"(o c9 {rows({'c9': 'x'})})") == {f"{c}{r}" for c in "ghi" for r in (7, 8, 9)}


def test_a_free_choice_at_the_start_and_after_a_decided_board(uttt):
    assert len(moves_of(uttt, f'(x "" {rows({})})')) == 81
    # x won the bottom-left board (a1 b1 c1); x's last mark a1 sends o there: any empty cell of the others
    found = moves_of(uttt, f"(o a1 {rows({'a1': 'x', 'b1': 'x', 'c1': 'x', 'b2': 'o', 'e5': 'o'})})")
    assert len(found) == 81 - 9 - 1 and "a2" not in found and "d1" in found


def test_winning_a_small_board_marks_the_big_board(uttt):
    # x's d4 (bottom-left of the middle board) sends o to the bottom-left board, where c3 completes a1 b2 c3
    marks = {**dict.fromkeys(("a1", "b2", "d1", "e2", "f3"), "o"), **dict.fromkeys(("d4", "e5", "f4"), "x")}
    game, state = after(uttt, f"(o d4 {rows(marks)})", "c3")
    assert game.outcome(state) is None  # o has won two boards side by side (a1..c3, d1..f3): three are needed
    won = f"(x i3 {rows(dict.fromkeys(('a1', 'b2', 'c3', 'd1', 'e2', 'f3', 'g1', 'h2', 'i3'), 'o'))})"
    outcome = uttt.outcome(uttt.parse_position(won))
    assert outcome is not None and outcome.winner == 1  # three boards in a row along the bottom: nought wins


SMALL = """
game "t"
players cross "x", nought "o"
board {board}
{boards}
position {fmt}
piece mark cross "x", nought "o"
start {{}}
moves {{ place mark {sent} }}
end {{ mover wins if mover has 2 in a row of boards }}
"""


def codes(tmp_path, board="grid 4 x 4", boards="boards 2 x 2 won by 2 in a row", fmt="(turn last rows)",
          sent="in sent board") -> dict[str, str]:
    path = tmp_path / "t.rules"
    path.write_text(SMALL.format(board=board, boards=boards, fmt=fmt, sent=sent), encoding="utf-8")
    return {d.code: d.message for d in check_all(resolve(path))}


def test_check_names_the_mistakes(tmp_path):
    assert codes(tmp_path) == {}
    assert "needs small boards" in codes(tmp_path, boards="").get("E153", "")
    assert "'last'" in codes(tmp_path, fmt="(turn rows)").get("E153", "")
    assert "not a grid" in codes(tmp_path, board="hexagon 3").get("E153", "") or \
        "this board is a hexagon" in codes(tmp_path, board="hexagon 3").get("E153", "")
    assert "do not tile" in codes(tmp_path, board="grid 5 x 5").get("E090", "")


def test_the_picture_outlines_the_nine_small_boards(uttt):
    from rulesdsl.cli.svg import draw

    picture = draw(uttt, uttt.initial_state())
    assert picture.split('stroke-width="4" fill="none"')[1].split("</g>")[0].count("<rect") == 9
