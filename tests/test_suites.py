"""Suites beside rule files (``NAME.tests.yaml``): loading, places of problems, running."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.loader import bundled_dir, resolve
from rulesdsl.verify.suites import check_suite, load_suite, rules_for, suite_for

GAME = """\
game "Tiny"
option rows = 3 in 1..26
option cols = 4 in 1..26
option misere = false
option mode = "strict" in "strict", "off"
players white "w", black "b"
board grid cols x rows
cells column "a" row 1
position (turn last rows) top first
notation from "-" to
piece stone white "w", black "b"
start '(w "" wbwb bwb- w-wb)' if rows == 3 and cols == 4
start {
  stone white where (col + row) % 2 == 0
  stone black where (col + row) % 2 == 1
  empty at ((cols + 1) / 2, (rows + 1) / 2), ((cols + 1) / 2 + 1, (rows + 1) / 2)
}
moves {
  stone jump orthogonal over enemy capture
}
again after jump with any piece or pass
freeze strict if mode == "off" and 1 == 2
end {
  mover wins if no moves
}
misere if misere
"""


@pytest.fixture()
def game(tmp_path: Path):
    path = tmp_path / "tiny.rules"
    path.write_text(GAME, encoding="utf-8")
    return path


def run(game: Path, text: str):
    """Write the suite beside ``game``, run it: its diagnostics and result."""
    suite = suite_for(game)
    suite.write_text(text, encoding="utf-8")
    return check_suite(suite, resolve(game))


def test_a_suite_lives_beside_its_rule_file():
    assert suite_for(Path("rules/konane.rules")) == Path("rules/konane.tests.yaml")
    assert rules_for(Path("x/abalone-hex.tests.yaml")) == Path("x/abalone-hex.rules")


def test_passing_cases_give_no_diagnostics(game):
    result = run(game, """\
- name: the start
  moves: [b2-d2]
  perft: [1, 1, 2]
  result: none
- name: after b2-d2
  position: '(b "" wbwb b--w w-wb)'
  moves: [d1-b1]
- name: the loser
  position: '(b "" wb-- ---- ---- ----)'
  result: white wins
- name: the loser in misere
  options: {misere: true}
  position: '(b "" wb-- ---- ---- ----)'
  result: white loses
- name: a 4 x 4 board
  options: {rows: 4, cols: 4}
  moves: [B4-B2]
""")
    assert result.diagnostics == []
    assert (result.cases, result.passed) == (5, 5)


def test_failures_are_at_the_expectation_they_break(game):
    result = run(game, """\
- name: wrong moves
  moves: [b2-d2, a1-c1]
- name: wrong perft
  perft: [1, 2]
- name: wrong result
  result: white wins
""")
    found = [(d.code, d.span.line, d.span.column) for d in result.diagnostics]
    assert found == [("E310", 2, 10), ("E310", 4, 10), ("E310", 6, 11)]
    messages = [d.message for d in result.diagnostics]
    assert messages[0] == ("case 'wrong moves': moves are b2-d2; expected a1-c1, b2-d2 (missing a1-c1)")
    assert messages[1] == "case 'wrong perft': perft(2) is 1, expected 2"
    assert messages[2] == "case 'wrong result': the game is not over; expected a result"
    assert result.diagnostics[0].source_line == "  moves: [b2-d2, a1-c1]"
    assert result.passed == 0


def test_options_are_checked_by_name_and_range(game):
    result = run(game, """\
- options: {rowz: 3}
  perft: [1]
- options: {rows: 30}
  perft: [1]
- options: {mode: fast}
  perft: [1]
""")
    by_line = {d.span.line: d for d in result.diagnostics}
    assert by_line[1].code == "E302" and by_line[1].span.column == 13
    assert by_line[1].hint == "did you mean 'rows'?"
    assert by_line[3].span.column == 19 and by_line[3].hint == "rows is a whole number in 1..26"
    assert "must be between 1 and 26" in by_line[3].message
    assert by_line[5].hint == "mode is one of strict, off"
    assert len(result.diagnostics) == 3


def test_option_values_are_read_as_written(game):
    # YAML 1.1 reads a bare off as false; the suite keeps the text as written.
    result = run(game, "- options: {mode: off, misere: yes}\n  perft: [1]\n")
    assert result.diagnostics == [] and result.passed == 1


def test_a_position_that_does_not_fit_says_what_fits(game):
    result = run(game, "- position: '(w \"\" wbwb bwb- w-w)'\n  moves: []\n")
    (problem,) = result.diagnostics
    assert (problem.code, problem.span.line, problem.span.column) == ("E303", 1, 13)
    assert problem.hint == 'a position for this board looks like (w "" ---- ---- ----)'


def test_history_needs_a_game_that_keeps_one(game):
    result = run(game, "- history: [wbwb bwb- w-wb]\n  result: none\n")
    (problem,) = result.diagnostics
    assert (problem.code, problem.span.line, problem.span.column) == ("E303", 1, 12)
    assert "does not forbid repetition" in problem.message


def test_history_forbids_a_repeated_board(tmp_path):
    rules = tmp_path / "ctf.rules"
    rules.write_text((bundled_dir() / "capture-the-flag.rules").read_text(encoding="utf-8"), encoding="utf-8")
    # w---- / ----- / ----- / --W-- / b---B: the flag on c2 may step to c1, c3, b2 or d2,
    # the pawn on a5 to a4 or b5; a board seen before may not come back.
    position = "(w w----------------W--b---B)"
    assert len(position) == 29
    result = run(rules, f"""\
- position: '{position}'
  moves: [a5-a4, a5-b5, c2-c1, c2-c3, c2-b2, c2-d2]
- position: '{position}'
  history: [w-----------W-------b---B]
  moves: [a5-a4, a5-b5, c2-c1, c2-b2, c2-d2]
""")
    assert [d.one_line() for d in result.diagnostics] == []
    assert result.passed == 2


@pytest.mark.parametrize("text, line, column, words", [
    ("a: 1\n", 1, 1, "a suite is a list of cases, not a mapping"),
    ("- 3\n", 1, 3, "case 1 must be a mapping"),
    ("- name: x\n", 1, 3, "case 'x' expects nothing"),
    ("- nmae: x\n  perft: [1]\n", 1, 3, "unknown key 'nmae'"),
    ("- perft: [1, -2]\n", 1, 14, "a perft count is a whole number >= 0"),
    ("- perft: 3\n", 1, 10, "perft must be a list"),
    ("- moves: pass\n", 1, 10, "case 1: moves must be a list"),
    ("- result: white winz\n", 1, 11, "is not a result"),
    ("- result: green wins\n", 1, 11, "'green' is not a player"),
    ("- position: [1]\n  result: none\n", 1, 13, "position must be a string"),
    ("- options: [rows]\n  result: none\n", 1, 12, "options must be a mapping"),
    ("- moves: [a1\n", 2, 1, "invalid YAML"),
    ("- 1\n---\n- 2\n", 2, 1, "invalid YAML"),
    ("- name: 'x\n", 2, 1, "invalid YAML"),
])
def test_malformed_suites_are_reported_at_their_place(game, text, line, column, words):
    result = run(game, text)
    assert result.diagnostics, text
    first = result.diagnostics[0]
    assert (first.span.line, first.span.column) == (line, column), first.one_line()
    assert words in first.message
    assert first.span.file == str(suite_for(game))
    assert "\n" not in first.one_line()


def test_unknown_key_suggests_the_right_one(game):
    (problem,) = run(game, "- nmae: x\n  perft: [1]\n").diagnostics
    assert problem.hint == "did you mean 'name'?"


def test_every_case_is_checked_even_after_a_bad_one(game):
    result = run(game, "- perft: x\n- moves: [b2-d2]\n- perft: [2]\n")
    assert [(d.span.line, d.code) for d in result.diagnostics] == [(1, "E301"), (3, "E310")]


def test_an_empty_suite_is_fine(game):
    result = run(game, "# nothing yet\n")
    assert result.diagnostics == [] and result.cases == 0


def test_results_read_every_way(game):
    suite = suite_for(game)
    suite.write_text("- result: White Wins\n- result: b loses\n- result: draw\n- result: none\n")
    loaded, found = load_suite(suite)
    assert found == []
    assert [(c.expectations[0].kind, c.expectations[0].values) for c in loaded.cases] == [
        ("win", ("White", "wins")), ("win", ("b", "loses")), ("draw", ()), ("ongoing", ())]


BUNDLED = ["konane", "konane-misere", "konane-same-stone", "abalone", "abalone-hex6", "capture-the-flag",
           "abalone-hex"]


@pytest.mark.parametrize("name", BUNDLED)
def test_the_bundled_suites_pass(name):
    rules = bundled_dir() / f"{name}.rules"
    result = check_suite(suite_for(rules), resolve(rules))
    assert [d.one_line() for d in result.diagnostics] == []
    assert result.passed == result.cases >= 2


@pytest.mark.parametrize("name", BUNDLED)
def test_the_bundled_suites_check_something_beyond_the_start(name):
    suite, found = load_suite(suite_for(bundled_dir() / f"{name}.rules"))
    assert found == []
    assert any(case.position is not None for case in suite.cases)
    assert any(e.kind == "moves" for case in suite.cases for e in case.expectations)
