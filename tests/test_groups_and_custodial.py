"""Groups and liberties, passes, ko and area scoring; custodian capture; the solver's refusals. Expected moves and
boards are worked out by hand in the comments."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import moves_of

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.solver import SolveError, solve

STONES = """
players black "x", white "o"
board grid 4 x 3
position (turn rows) top first
notation to
piece stone black "x", white "o"
start {}
"""

GROUPS = STONES + """
moves {
  place stone enclosing orthogonal
  pass
}
SUICIDE
end {
  black wins if passes in a row >= 2 and area(black) > area(white) + 0.5
  white wins if passes in a row >= 2
}
"""


def after(game, position: str, *moves: str):
    """The state after playing ``moves`` from a position string."""
    state = game.parse_position(position)
    for move in moves:
        state = game.apply(state, game.parse_move(state, move))
    return state


def game_of(tmp_path, text: str, name: str = "g"):
    path = tmp_path / f"{name}.rules"
    path.write_text(text)
    return load_game(str(path))


def test_a_placement_takes_every_group_it_leaves_without_liberties(tmp_path):
    game = game_of(tmp_path, GROUPS.replace("SUICIDE", "forbid suicide"))
    # Black b2 takes a2 (its other neighbours a3 and a1 are black) and c2 (c3 and c1 black, d2 white but
    # joined to c2, and d3, d1 black): both white groups lose their last liberty.
    state = after(game, "(x x-xx o-oo x-xx)", "b2")
    assert game.format_position(state) == "(o x-xx -x-- x-xx)"


def test_suicide_forbidden_or_removing_the_own_group(tmp_path):
    forbidden = game_of(tmp_path, GROUPS.replace("SUICIDE", "forbid suicide"), "f")
    allowed = game_of(tmp_path, GROUPS.replace("SUICIDE", ""), "a")
    # a3 touches only white stones with other liberties: no capture, no liberty.
    position = "(x -o-- o--- ----)"
    assert "a3" not in moves_of(forbidden, position)
    assert "a3" in moves_of(allowed, position)
    assert allowed.format_position(after(allowed, position, "a3")) == "(o -o-- o--- ----)"


def test_two_passes_end_and_area_scores(tmp_path):
    game = game_of(tmp_path, GROUPS.replace("SUICIDE", "forbid suicide"))
    assert game.outcome(after(game, "(x -x-- x--o --o-)", "pass")) is None  # one pass: the game goes on
    # Black b3, a2 and the region {a3}: 3. White d2, c1 and the region {d1}: 3, plus 0.5. The region
    # {c3, d3, c2, b2, b1, a1} reaches both colours and counts for neither. White wins.
    assert game.outcome(after(game, "(x -x-- x--o --o-)", "pass", "pass")).winner == 1
    # Without d2, d1 joins the big region: white has 1, black still 3. Black wins.
    assert game.outcome(after(game, "(x -x-- x--- --o-)", "pass", "pass")).winner == 0


KO = STONES + """
moves {
  place stone enclosing orthogonal
}
forbid suicide
forbid immediate repetition
end { draw if no moves }
"""


def test_ko_forbids_retaking_at_once_but_not_later(tmp_path):
    game = game_of(tmp_path, KO)
    # Black c2 takes b2; white may not retake on b2 at once (the board would be as before black's move).
    state = after(game, "(x -xo- xo-o -xo-)", "c2")
    assert game.format_position(state) == "(o -xo- x-xo -xo-)"
    assert "b2" not in {game.format_move(state, m) for m in game.legal_moves(state)}
    state = after(game, "(x -xo- xo-o -xo-)", "c2", "d3", "a1")
    assert "b2" in {game.format_move(state, m) for m in game.legal_moves(state)}  # one move later it may


CUSTODIAL = """
players white "w", black "b"
board grid 5 x 5
piece man white "w", black "b"
start '(w ----- ----- ----- ----- -----)'
moves { man slide orthogonal custodial orthogonal against c3 }
end { opponent loses if no moves }
"""


def test_custodian_capture_takes_the_piece_between(tmp_path):
    game = game_of(tmp_path, CUSTODIAL)
    # White a1 slides to a3: b3 is black with white c3 beyond it: taken. a4 black, a5 white beyond: taken too.
    state = after(game, "(w w---- b---- -bw-- ----- w----)", "a1-a3")
    assert game.format_position(state) == "(b w---- ----- w-w-- ----- -----)"


def test_an_empty_hostile_cell_captures_and_moving_between_is_safe(tmp_path):
    game = game_of(tmp_path, CUSTODIAL)
    # b3 between a3 (the white piece that lands) and the empty hostile c3: taken.
    assert after(game, "(w ----- ----- -b--- ----- w----)", "a1-a3").board.count("b") == 0
    # Black moving between two white pieces is not taken.
    state = after(game, "(b ----- ----- w-w-- ----- -b---)", "b1-b3")
    assert game.format_position(state) == "(w ----- ----- wbw-- ----- -----)"


def test_custodial_belongs_to_moving_actions(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(CUSTODIAL.replace("man slide orthogonal custodial", "man push orthogonal custodial"))
    result = CliRunner().invoke(cli, ["check", str(path), "--playouts", "0"])
    assert result.exit_code == 1 and "'custodial' belongs to step, jump and slide, not push" in result.output


@pytest.mark.parametrize("text, said", [
    (GROUPS.replace("SUICIDE", ""), "passes played in a row"),
    (KO, "the board before the last move"),
])
def test_the_solver_refuses_what_its_key_does_not_hold(tmp_path, text, said):
    game = game_of(tmp_path, text)
    with pytest.raises(SolveError, match=said):
        solve(game, game.initial_state(), use_db=False)


def test_the_solver_refuses_go_in_one_line():
    result = CliRunner().invoke(cli, ["solve", "go", "--set", "size=3"])
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1
    assert "ends when a board repeats" in result.stderr and "history" in result.stderr


def test_style_points_draws_a_goban():
    from rulesdsl.cli.svg import draw

    game = load_game("go", {"size": "5"})
    state = game.parse_position("(x 0 - ----- --x-- -o--- ----- -----)")
    svg = draw(game, state)
    # 5 rows and 5 columns of 4 segments each: 40 lines joining the points; two stones; no square cells.
    assert svg.count("<line ") == 40
    assert svg.count('r="14.4"') == 2 and "<rect x=" in svg and 'width="40" height="40"' not in svg


def test_the_web_board_carries_passes_and_ko_between_requests():
    from rulesdsl.cli.web_api import Api, ApiError, entries_for

    api = Api(entries_for(["go"]))
    base = {"game": "go", "options": {"size": 3}}
    data = api.move({**base, "move": "pass"})
    assert data["memory"]["passes"] == 1 and data["over"] is None
    data = api.move({**base, "position": data["position"], "memory": data["memory"], "move": "pass"})
    assert data["over"] is not None  # two passes in a row end the game, as in the REPL
    # Ko (as in the test above, a row higher): black c2 takes b2; white may not retake at once.
    ko = {"game": "go", "options": {"size": 4}}
    data = api.move({**ko, "position": "(x 0 - ---- -xo- xo-o -xo-)", "move": "c2"})
    assert "b2" not in [m["text"] for m in data["moves"]]
    # The position string itself now carries the board before black's move (the field 'before').
    assert data["position"] == "(o 0 -----xo-xo-o-xo- ---- -xo- x-xo -xo-)"
    data = api.state({**ko, "position": data["position"], "memory": data["memory"]})
    assert "b2" not in [m["text"] for m in data["moves"]]
    fresh = api.state({**ko, "position": data["position"]})  # the position string alone keeps the ko
    assert "b2" not in [m["text"] for m in fresh["moves"]]
    without = api.state({**ko, "position": "(o 0 - ---- -xo- x-xo -xo-)"})  # no board before: b2 retakes
    assert "b2" in [m["text"] for m in without["moves"]]
    with pytest.raises(ApiError, match="memory.before"):
        api.state({**ko, "position": data["position"], "memory": {"before": "xx"}})


def test_why_names_the_suicide_and_the_ko_rule(tmp_path):
    from rulesdsl.interpreter.explain.reasons import explain_move

    game = game_of(tmp_path, KO)
    state = after(game, "(x -xo- xo-o -xo-)", "c2")
    answer = explain_move(game, state, "b2")
    assert "before the opponent's last move" in answer.text() and "forbid immediate repetition" in answer.text()
    suicide = explain_move(game, game.parse_position("(x -o-- o--- ----)"), "a3")
    assert "no liberty" in suicide.text() and "forbid suicide" in suicide.text()


def test_a_letter_axis_may_skip_a_letter(tmp_path):
    game = load_game("go", {"size": "19"})
    names = [c.name for c in game.geometry.cells if c.y == 1]
    assert names == [f"{letter}1" for letter in "abcdefghjklmnopqrst"]  # a goban's 19 columns, no i
    path = tmp_path / "bad.rules"
    cells = 'notation to\ncells column "a" skipping "A" row 1'
    path.write_text(GROUPS.replace("SUICIDE", "").replace("notation to", cells))
    result = CliRunner().invoke(cli, ["check", str(path), "--playouts", "0"])
    assert result.exit_code == 1 and "'skipping A' leaves out one letter after the first" in result.output


@pytest.mark.parametrize("line, said", [
    ("start { stone black at (1.5, 2) }", "a cell's coordinates are whole numbers"),
    ("start {}\nend { draw if count(black) / komi > 1 }", "'/' divides whole numbers only"),
    ("option size = 2.5\nstart {}\nboard grid size x size", "sizes are whole numbers"),
])
def test_a_number_with_a_decimal_part_where_a_whole_number_is_needed(tmp_path, line, said):
    text = ('players black "x", white "o"\noption komi = 0.5\npiece stone black "x", white "o"\n'
            'moves { place stone }\n' + line + ("\nboard grid 3 x 3" if "board" not in line else ""))
    path = tmp_path / "bad.rules"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 1 and said in result.output, result.output


def test_the_area_feature_scores_as_the_end_rule_counts():
    game = load_game("go", {"size": "3"})
    # Black a3, b3, a2: 3 stones; white c2: 1. The one empty region (b2, c3, a1, b1, c1) touches both
    # colours and counts for neither. With 'area 1' the evaluation is 3 - 1 for black.
    state = game.parse_position("(o 0 - xx- x-o ---)")
    assert game.evaluate(state, 0) == 2 and game.evaluate(state, 1) == -2


def test_a_run_of_any_length_is_caught_only_when_asked(tmp_path):
    runs = game_of(tmp_path, CUSTODIAL.replace("custodial orthogonal", "custodial orthogonal of any length"), "r")
    single = game_of(tmp_path, CUSTODIAL, "s")
    # White a1 slides to a2: b2, c2, d2 are black and e2 white: the run of three is caught with 'of any length'.
    position = "(w ----- ----- ----- -bbbw w----)"
    assert runs.format_position(after(runs, position, "a1-a2")) == "(b ----- ----- ----- w---w -----)"
    assert single.format_position(after(single, position, "a1-a2")) == "(b ----- ----- ----- wbbbw -----)"
    # A run that reaches the edge is not caught.
    edge = "(w ----- ----- ----- -bbbb w----)"
    assert runs.format_position(after(runs, edge, "a1-a2")).count("b") == 5
