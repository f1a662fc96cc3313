"""The Python API: ``docs/api.md`` runs as a doctest, and the API stays small.

(That ``import rulesdsl`` loads no engine is tested in ``tests/test_layers.py``.)
"""

from __future__ import annotations

import doctest
from pathlib import Path

import rulesdsl

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def test_the_api_page_runs():
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


def test_the_public_names():
    assert sorted(rulesdsl.__all__) == ["Game", "Outcome", "Position", "Value", "capture", "load"]
    assert callable(rulesdsl.load) and callable(rulesdsl.capture)


def test_a_game_without_an_end_rule_that_fires_has_no_rule(tmp_path):
    path = tmp_path / "stuck.rules"
    path.write_text('game "Stuck"\nplayers white "w", black "b"\nboard grid 2 x 1\nposition (turn rows)\n'
                    'piece king white "w", black "b"\nstart "(w wb)"\nmoves { king step orthogonal }\n'
                    'end { }\n', encoding="utf-8")
    outcome = rulesdsl.load(str(path)).start().outcome
    assert (outcome.winner, outcome.rule, outcome.span) == (None, None, None)


def test_repr_is_the_position_string_and_short():
    position = rulesdsl.load("konane", rows=6, cols=6).start()
    assert repr(position) == str(position) == '(w "" bwbwbw wbwbwb bwbwbw wb--wb bwbwbw wbwbwb)'


def test_a_notebook_draws_the_board():
    svg = rulesdsl.load("tic-tac-toe").position("(o x-- --- ---)")._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 1  # one stone on the board


def test_value_keeps_its_answer_in_the_database(tmp_path):
    db = tmp_path / "solutions.sqlite"
    position = rulesdsl.load("tic-tac-toe").position("(o xx- oo- x--)")
    # nought to move (by hand): c2 completes noughts on row 2 at once
    first = position.value(db=db)
    assert (first.value, first.remoteness) == ("win", 1) and db.exists()
    again = position.value(db=db)
    assert (again.value, again.remoteness) == ("win", 1)
    assert rulesdsl.load("tic-tac-toe").solve(db=db).value == "draw"


def test_value_of_a_game_the_solver_cannot_hold_is_one_line():
    import pytest

    from rulesdsl.errors import RulesdslError

    with pytest.raises(RulesdslError) as raised:
        rulesdsl.load("capture-the-flag").start().value(store=False)
    assert "\n" not in str(raised.value)
