"""Turning and reflecting blocks (``block``, ``turn``), by hand-worked positions, and their checks.

Pentago's cells are named with a1 at the top left (rows counted from the
top), so "clockwise" moves a1 to c1 within the top-left block nw (a1..c3).
"""

from __future__ import annotations

import pytest
from helpers import after, moves_of

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.compile.trial import check_all
from rulesdsl.loader import resolve

EMPTY_ROWS = " ------" * 6


@pytest.fixture(scope="module")
def pentago():
    return load_game("pentago")


def test_a_quarter_turn_each_way_and_the_turn_passes(pentago):
    start = '(o a1 o----- ------ ------ ------ ------ ------)'
    game, state = after(pentago, start, "nw+")
    assert game.format_position(state) == '(x "" --o--- ------ ------ ------ ------ ------)'
    game, state = after(pentago, start, "nw-")
    assert game.format_position(state) == '(x "" ------ ------ o----- ------ ------ ------)'
    # the bottom-right block: d4 (its top-left corner) goes to f4 clockwise, to d6 anticlockwise
    game, state = after(pentago, '(o d4 ------ ------ ------ ---o-- ------ ------)', "se+")
    assert game.format_position(state) == '(x "" ------ ------ ------ -----o ------ ------)'


def test_the_second_part_is_eight_turns_even_of_empty_blocks(pentago):
    assert moves_of(pentago, '(o a1 o----- ------ ------ ------ ------ ------)') == {
        f"{block}{mark}" for block in ("nw", "ne", "sw", "se") for mark in "+-"}


# White holds a1 a2 a3 d1 e1, black c1 c2 c3 d3 e3; black placed e3. Turning nw clockwise takes
# the left column (a3 a2 a1) to the top row and the right column (c1 c2 c3) to the bottom row.
BOTH = '(x e3 o-xoo- o-x--- o-xxx- ------ ------ ------)'


def test_a_turn_that_makes_five_for_both_is_a_draw(pentago):
    game, state = after(pentago, BOTH, "nw+")
    assert game.format_position(state) == '(o "" ooooo- ------ xxxxx- ------ ------ ------)'
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner is None


def test_a_turn_that_makes_five_for_the_opponent_only_loses(pentago):
    # the same, with black's d3 on f6: only white's row is made, by black's turn
    game, state = after(pentago, '(x e3 o-xoo- o-x--- o-x-x- ------ ------ -----x)', "nw+")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == 0


def test_five_made_by_the_placement_and_broken_by_the_turn_does_not_end_the_game(pentago):
    # white placed e1, making a1..e1; the end rules wait for the second part
    game, state = pentago, pentago.parse_position('(o e1 ooooo- xxxx-- ------ ------ ------ ------)')
    assert game.outcome(state) is None and len(game.legal_moves(state)) == 8
    game, broken = after(pentago, '(o e1 ooooo- xxxx-- ------ ------ ------ ------)', "nw+")
    assert game.outcome(broken) is None  # a1 b1 c1 now hold x x o: no row of five
    game, kept = after(pentago, '(o e1 ooooo- xxxx-- ------ ------ ------ ------)', "sw+")  # row 1 untouched
    assert game.outcome(kept).winner == 0


SMALL = """
game "t"
players white "o", black "x"
board {board}
position (turn last rows) top first
{blocks}
piece marble white "o", black "x"
start {{}}
moves {{ place marble }}
then {{ {turn} }}
end {{ draw if no moves }}
"""


def write(tmp_path, board="grid 3 x 3", blocks="rectangle all a1..c3", turn="turn all either way"):
    path = tmp_path / "t.rules"
    path.write_text(SMALL.format(board=board, blocks=blocks, turn=turn), encoding="utf-8")
    return path


@pytest.mark.parametrize("way, mark, where", [
    ("half round", "*", '(x "" --------o)'),  # a3 -> c1
    ("over", "|", '(x "" --o------)'),  # a3 -> c3 (mirrored left to right)
])
def test_half_round_and_over(tmp_path, way, mark, where):
    game = load_game(str(write(tmp_path, turn=f"turn all {way}")))
    game, state = after(game, '(o a3 o-- --- ---)', "all" + mark)
    assert game.format_position(state).replace(" ", "") == where.replace(" ", "")


def codes(path) -> dict[str, str]:
    return {d.code: d.message for d in check_all(resolve(path))}


def test_check_names_the_mistakes(tmp_path):
    found = codes(write(tmp_path, turn="turn al either way"))
    assert "E151" in found and "'al'" in found["E151"]
    assert "W150" in found  # block all is never turned
    assert "E151" in codes(write(tmp_path, turn="turn all, all clockwise"))
    assert "E150" in codes(write(tmp_path, board="hexagon 3", blocks="rectangle all A3..C3"))


def test_the_trial_compile_finds_bad_corners_and_shapes(tmp_path):
    found = codes(write(tmp_path, blocks="rectangle all a1..c2", turn="turn all clockwise"))
    assert "not square" in found.get("E090", "")
    found = codes(write(tmp_path, blocks="rectangle all a1..d3"))
    assert "'d3' is not a cell" in found.get("E090", "")
    assert "E090" not in codes(write(tmp_path, blocks="rectangle all a1..c2", turn="turn all half round"))


def test_the_picture_outlines_the_four_blocks(pentago):
    from rulesdsl.cli.svg import draw

    picture = draw(pentago, pentago.initial_state())
    outlines = picture.split('stroke-width="4" fill="none"')[1].split("</g>")[0]
    assert outlines.count("<rect") == 4 and 'width="120"' in outlines  # 3 cells of 40 units
