"""Nine Men's Morris (rules/nine-mens-morris.rules): a board of points and lines, men in hand, mills, flying.

The perft counts are OpenSpiel's (quoted in issue 11): 24, 552, 12144, 255024,
5100480, 96223680; the removal after a mill is its own ply, as there. Other
figures are worked out by hand from the rules. Position strings list the rows
top first, each with its own points: a7 d7 g7 / b6 d6 f6 / c5 d5 e5 /
a4 b4 c4 e4 f4 g4 / c3 d3 e3 / b2 d2 f2 / a1 d1 g1, after the hands.
"""

from __future__ import annotations

import pytest
from helpers import after, moves_of

from rulesdsl.cli.render import render
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft
from rulesdsl.interpreter.solver.encoding import SolveError, check_solvable
from rulesdsl.verify import check_file

OPENSPIEL = [24, 552, 12144, 255024, 5100480, 96223680]


@pytest.fixture(scope="module")
def game():
    return load_game("nine-mens-morris")


@pytest.mark.parametrize("depth", range(1, 6))
def test_openspiel_perft(game, depth):
    assert perft(game, game.initial_state(), depth) == OPENSPIEL[depth - 1]


@pytest.mark.deep
def test_openspiel_perft_deep(game):
    assert perft(game, game.initial_state(), 6) == OPENSPIEL[5]


def test_the_board_has_24_points_on_16_lines(game):
    geometry = game.geometry
    assert len(geometry.cells) == 24
    assert [len(row) for row in geometry.rows_listed] == [3, 3, 3, 6, 3, 3, 3]
    segments = {(a, b) for (a, _), b in geometry.links.items()}
    assert len(segments) == 2 * 16 * 2  # 16 lines of two segments, each written both ways


def test_the_start_is_empty_with_nine_men_in_each_hand(game):
    assert game.format_position(game.initial_state()) == '(W "" 9/9 --- --- --- ------ --- --- ---)'


def test_a_placement_comes_out_of_the_hand(game):
    _, state = after(game, '(W "" 9/9 --- --- --- ------ --- --- ---)', "d6")
    assert game.format_position(state) == '(B "" 8/9 --- -W- --- ------ --- --- ---)'


def test_men_move_only_along_the_lines(game):
    # White: c4 (up c5, down c3, left b4; no line to e4), d3 (c3, e3, d2; no line to d5),
    # a1 (up a4; d1 is taken) and d1 (d2, g1).
    assert moves_of(game, '(W "" 0/0 --- BBB --- --W--- -W- --- WW-)') == {
        "c4-c5", "c4-c3", "c4-b4", "d3-c3", "d3-e3", "d3-d2", "a1-a4", "d1-d2", "d1-g1"}


def test_a_player_still_placing_cannot_move(game):
    # White has a man in hand: its only moves are the 24 - 7 empty points.
    assert len(moves_of(game, '(W "" 1/0 --- BBB --- --W--- -W- --- WW-)')) == 17


def test_three_men_fly(game):
    # White's three men (a7, a1, g1) each fly to any of the 18 empty points.
    found = moves_of(game, '(W "" 0/0 W-- BBB --- ------ --- --- W-W)')
    assert len(found) == 3 * 18 and "a7-e3" in found


def test_a_mill_removes_a_man_outside_mills(game):
    # g4-g7 closes a7 d7 g7; black's a1 d1 g1 is a mill, so only c3 and e5 may go.
    _, state = after(game, '(W "" 0/0 WW- --- --B -----W B-- W-- BBB)', "g4-g7")
    assert game.format_position(state) == '(W g7 0/0 WWW --- --B ------ B-- W-- BBB)'
    assert {game.format_move(state, mv) for mv in game.legal_moves(state)} == {"xc3", "xe5"}
    _, removed = after(game, game.format_position(state), "xe5")
    assert game.format_position(removed) == '(B "" 0/0 WWW --- --- ------ B-- W-- BBB)'


def test_when_every_man_stands_in_a_mill_any_may_go(game):
    assert moves_of(game, '(W g7 0/0 WWW --- --- ------ --- W-- BBB)') == {"xa1", "xd1", "xg1"}


def test_a_move_that_makes_no_mill_passes_the_turn(game):
    _, state = after(game, '(W "" 0/0 WW- --- --B -----W B-- W-- BBB)', "g4-f4")
    assert game.format_position(state).startswith('(B "" ')


def test_two_men_lose(game):
    _, state = load_position(game, '(W g7 0/0 WWW --- --- ------ --- W-- BBB)')
    state = game.apply(state, game.parse_move(state, "xd1"))
    outcome = game.outcome(state)
    assert outcome is not None and game.players[outcome.winner].name == "white"


def test_men_in_hand_count(game):
    # Black has two men on the board and one in hand: not lost.
    _, state = load_position(game, '(B "" 0/1 WWW --- --- ------ --- W-- B-B)')
    assert game.outcome(state) is None


def test_no_moves_loses(game):
    # White's a7 d7 g7 d1 are all blocked by black men.
    _, state = load_position(game, '(W "" 0/0 WWW -B- --- B----B --- -B- BWB)')
    outcome = game.outcome(state)
    assert outcome is not None and game.players[outcome.winner].name == "black"


def test_two_hundred_turns_draw_and_a_mill_is_one_turn(game):
    _, state = load_position(game, '(W "" 0/0 WW- --- --B -----W B-- W-- BBB)')
    state = state._replace(turns=199)
    mill = game.apply(state, game.parse_move(state, "g4-g7"))
    assert mill.turns == 199 and game.outcome(mill) is None
    done = game.apply(mill, game.parse_move(mill, "xc3"))
    assert done.turns == 200
    outcome = game.outcome(done)
    assert outcome is not None and outcome.winner is None


def test_the_solver_refuses_a_game_with_hands_in_one_line(game):
    with pytest.raises(SolveError, match="in hand"):
        check_solvable(game, game.initial_state())


def test_the_drawing_shows_the_lines(game):
    _, state = after(game, '(W "" 9/9 --- --- --- ------ --- --- ---)', "a7")
    assert render(game, state).split("\n") == [
        "7 W-----.-----.",
        "6 | .---.---. |",
        "5 | | .-.-. | |",
        "4 .-.-.   .-.-.",
        "3 | | .-.-. | |",
        "2 | .---.---. |",
        "1 .-----.-----.",
        "  a b c d e f g",
    ]


BASE = """game "lines"
players white "w", black "b"
board grid 3 x 3 where col != 2 or row != 2
piece man white "w", black "b"
start {}
moves { place man }
end { opponent loses if no moves }
"""


@pytest.mark.parametrize("lines, message", [
    ("lines a1 h9", "'h9' is not a point of this board"),
    ("lines a1 b3", "a1 and b3 are not along a direction of the board"),
    ("lines a1 c1", "the line from a1 to c1 passes point b1: list it"),
    ("lines a2 c2 a2", "point 'a2' is already on this line"),
    ("lines a1 b1 a1", "point 'a1' is already on this line"),
])
def test_a_bad_line_is_one_error_at_its_place(tmp_path, lines, message):
    path = tmp_path / "lines.rules"
    path.write_text(BASE + lines + "\n")
    errors = [d for d in check_file(str(path), playouts=0).diagnostics if d.severity == "error"]
    assert len(errors) == 1 and message in errors[0].message
    assert errors[0].span.line == 8


@pytest.mark.parametrize("extra, code, message", [
    ("moves { place man from hand }", "E064", "'from hand' needs a 'hand' statement"),
    ("hand man 3\nposition (turn rows)\nmoves { place man from hand }", "E045", "needs the 'hand' field"),
    ("position (turn hand rows)\nmoves { place man }", "E040", "the position field 'hand' needs a 'hand' statement"),
    ("moves { fly man when no moves }", "E075", "cannot ask about the moves themselves"),
])
def test_hand_and_when_mistakes(tmp_path, extra, code, message):
    path = tmp_path / "hand.rules"
    path.write_text(BASE.replace("moves { place man }\n", "") + extra + "\n")
    errors = [d for d in check_file(str(path), playouts=0).diagnostics if d.severity == "error"]
    assert [(d.code, message in d.message) for d in errors] == [(code, True)], errors


ROW = """game "a row of four"
players white "w", black "b"
board grid 4 x 1
position (turn last hand rows)
piece man white "w", black "b"
hand man 3
start {}
moves {
  place man from hand when count(opponent) >= 2
  man step orthogonal
}
then {
  remove man when count(opponent) > 2
}
end {
  opponent loses if no moves
}
"""


def test_conditions_on_hand_and_second_part_rules(tmp_path):
    path = tmp_path / "row.rules"
    path.write_text(ROW)
    game = load_game(str(path))
    # 'opponent' in a rule's condition is the other player of the one to move; pieces in hand count.
    assert moves_of(game, '(w "" 3/3 ----)') == {"a1", "b1", "c1", "d1"}
    # Black has one man left in all: white, still holding a man, may not place and cannot move.
    _, state = load_position(game, '(w "" 1/1 ----)')
    assert game.legal_moves(state) == [] and game.players[game.outcome(state).winner].name == "black"
    # The second part: removing needs the opponent to have more than two men (board and hand).
    assert moves_of(game, '(w a1 1/2 wb--)') == {"xb1"}
    _, state = after(game, '(w "" 2/1 -b--)', "a1")
    assert game.format_position(state) == '(b "" 1/1 wb--)'  # black holds 2 in all: no removal
