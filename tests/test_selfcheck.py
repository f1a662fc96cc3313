"""Random playouts hold a compiled game to the Game interface's promises.

A correct game passes; a game with one promise broken (by replacing one of its
closures) is caught with the right code.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from rulesdsl.interpreter.compile.game import Outcome
from rulesdsl.interpreter.compile.load import load_game, load_rules
from rulesdsl.loader import resolve
from rulesdsl.verify.selfcheck import CODES, run_playouts, selfcheck


@pytest.fixture(scope="module")
def abalone():
    return load_game("abalone")


@pytest.fixture(scope="module")
def konane():
    return load_game("konane")


def codes(game, **settings) -> list[str]:
    settings = {"playouts": 3, "max_plies": 30, **settings}
    return [p.code for p in run_playouts(game, **settings).problems]


GAMES = ["konane", "konane-same-stone", "abalone", "capture-the-flag", "abalone-hex"]


@pytest.mark.parametrize("name", GAMES)
def test_bundled_games_keep_every_promise(name):
    report = run_playouts(load_game(name), playouts=5, max_plies=60)
    assert report.problems == ()
    assert report.playouts == 5 and report.plies > 5


def test_playouts_are_reproducible_and_depend_on_the_seed(abalone):
    one = run_playouts(abalone, playouts=4, seed=3, max_plies=50)
    assert one == run_playouts(abalone, playouts=4, seed=3, max_plies=50)
    others = {run_playouts(abalone, playouts=4, seed=s, max_plies=50).plies for s in range(6)}
    assert len(others) > 1


def test_the_ply_cap_stops_long_games(abalone):
    report = run_playouts(abalone, playouts=2, max_plies=3)
    assert report.plies <= 6


def test_konane_games_end(konane):
    report = run_playouts(konane, playouts=10, max_plies=200)
    assert report.finished == 10  # a 3 x 4 Konane game is short


def test_an_unfinished_position_without_moves(abalone):
    status = abalone._status
    broken = dataclasses.replace(abalone, _status=lambda s: ([], None) if s != abalone.initial_state()
                                 else status(s))
    assert codes(broken) == ["E201"]


def test_a_finished_position_with_moves(konane):
    status = konane._status

    def over_with_moves(state):
        moves, outcome = status(state)
        return (moves, Outcome(0, "made up")) if moves else (moves, outcome)

    assert codes(dataclasses.replace(konane, _status=over_with_moves)) == ["E202"]


def test_an_outcome_naming_no_player(konane):
    status = konane._status

    def ghost_wins(state):
        moves, outcome = status(state)
        return (moves, Outcome(7, "ghost")) if outcome is not None else (moves, outcome)

    assert codes(dataclasses.replace(konane, _status=ghost_wins), max_plies=200) == ["E202"]


def test_an_exception_is_a_finding_not_a_crash(abalone):
    def explode(state, move):
        raise KeyError("boom")

    report = run_playouts(dataclasses.replace(abalone, _apply=explode), playouts=2)
    assert [p.code for p in report.problems] == ["E203"]
    assert "apply(" in report.problems[0].message and "KeyError" in report.problems[0].message


def test_a_position_that_does_not_read_back(abalone):
    parse = abalone._parse_position
    broken = dataclasses.replace(abalone, _parse_position=lambda text: parse(text)._replace(turn=1))
    problems = run_playouts(broken, playouts=2).problems
    assert [p.code for p in problems] == ["E204"]
    assert "reads back as (w " in problems[0].message


def test_a_lost_go_again_cell_does_not_read_back(konane):
    parse = konane._parse_position
    broken = dataclasses.replace(konane, _parse_position=lambda text: parse(text)._replace(last=-1))
    assert codes(broken, playouts=10, max_plies=200) == ["E204"]


def test_two_moves_with_one_notation(abalone):
    assert codes(dataclasses.replace(abalone, _format_move=lambda state, move: "a1-a2")) == ["E205"]


def test_a_move_that_reads_back_as_another(abalone):
    parse = abalone._parse_move

    def first_move(state, text):
        parse(state, text)
        return abalone.legal_moves(state)[0]

    problems = run_playouts(dataclasses.replace(abalone, _parse_move=first_move), playouts=3).problems
    assert [p.code for p in problems] == ["E205"]
    assert "a different move" in problems[0].message


def test_a_move_listed_twice(abalone):
    status = abalone._status

    def twice(state):
        moves, outcome = status(state)
        return moves + moves[:1], outcome

    assert codes(dataclasses.replace(abalone, _status=twice)) == ["E207"]


def test_applying_must_not_change_the_parent(abalone):
    applied = []
    fmt, apply = abalone._format_position, abalone._apply

    def leaky_format(state):  # stands in for a game whose apply changes shared data
        text = fmt(state)
        return text + " " if applied and state == applied[-1] else text

    def remember(state, move):
        applied.append(state)
        return apply(state, move)

    broken = dataclasses.replace(abalone, _format_position=leaky_format, _apply=remember)
    assert "E206" in codes(broken)


def test_an_evaluation_that_is_not_a_number(abalone):
    assert codes(dataclasses.replace(abalone, _evaluate=lambda state, player: math.nan)) == ["E208"]
    assert codes(dataclasses.replace(abalone, _evaluate=lambda state, player: "good")) == ["E208"]


def test_one_problem_per_kind_and_playouts_go_on(abalone):
    report = run_playouts(dataclasses.replace(abalone, _evaluate=lambda s, p: math.inf), playouts=5)
    assert len(report.problems) == 1
    assert report.problems[0].message.startswith("playout 1 (seed 0), ply 0, at (b ")


def test_selfcheck_reports_diagnostics_at_the_file(tmp_path):
    resolved = load_rules("konane")
    found, report = selfcheck(resolved, playouts=4, seed=1, max_plies=50)
    assert found == [] and report is not None and report.playouts == 4


def test_selfcheck_without_a_start_is_one_finding(tmp_path):
    path = tmp_path / "nostart.rules"
    path.write_text('extends "konane"\nstart \'(w "" wbwb bwb- w-wb)\' if rows == 5\n', encoding="utf-8")
    found, report = selfcheck(resolve(path))
    assert report is None
    assert [(d.code, d.span.line, d.span.file) for d in found] == [("E200", 0, str(path))]
    assert "default options" in found[0].message


def test_every_code_is_explained():
    assert set(CODES) == {f"E20{i}" for i in range(9)}
    assert all(text and not text.endswith(".") for text in CODES.values())


def test_a_game_that_never_ends_in_the_playouts_is_a_warning():
    # Konane's default game lasts at most 7 plies (8 stones, one taken per jump): a cap of 3 stops every game.
    found, report = selfcheck(load_rules("konane"), playouts=4, max_plies=3)
    assert report.finished == 0
    assert [(d.code, d.severity) for d in found] == [("W200", "warning")]
    assert "may never end" in found[0].message


def test_no_warning_when_some_playout_ends():
    found, report = selfcheck(load_rules("konane"), playouts=4, max_plies=200)
    assert report.finished == 4 and found == []
