"""``rulesdsl check``: every finding at its place, warnings apart from errors, output for machines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.checker import never_holds
from rulesdsl.cli.main import cli
from rulesdsl.loader import bundled_games
from rulesdsl.parser import parse_text
from rulesdsl.verify import check_file

FAST = ["--playouts", "3", "--max-plies", "40"]

GAME = """\
game "Tiny"
option rows = 3 in 1..26
option cols = 4 in 1..26
players white "w", black "b"
board grid cols x rows
cells column "a" row 1
position (turn last rows) top first
notation from "-" to
piece stone white "w", black "b"
start '(w "" wbwb bwb- w-wb)'
moves {
  stone jump orthogonal over enemy capture
}
again after jump with any piece or pass
end {
  mover wins if no moves
}
"""

WARNINGS = GAME.replace('piece stone white "w", black "b"\n',
                        'piece stone white "w", black "b"\npiece ghost white "g", black "h"\n'
                        'option speed = 2 in 1..5\ndirections slants = diagonal\n') \
               .replace("  mover wins if no moves\n",
                        "  mover wins if no moves\n  draw if count(mover) < 0\n  draw if 1 > 2\n")


def run(*args: str):
    return CliRunner().invoke(cli, ["check", *args])


def write(tmp_path: Path, text: str, name: str = "game.rules") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), start=1) if needle in line)


# ---- the bundled games --------------------------------------------------------------


@pytest.mark.parametrize("name", ["konane", "abalone", "capture-the-flag", "abalone-hex"])
def test_bundled_games_check_clean_with_their_suites(name):
    result = run(name, *FAST)
    assert result.exit_code == 0, result.stderr
    summary = result.stderr.strip().splitlines()[-1]
    # Three short playouts may all hit the ply cap (W200, a warning): that is not a finding about the file.
    short = "1 warning (" in summary and "may never end" in result.stderr
    assert summary.endswith(")") and (": ok (" in summary or short)
    cases = int(re.search(r"(\d+) suite cases", summary).group(1))
    assert cases >= 4, summary
    assert "3 playouts" in summary


@pytest.mark.parametrize("name", bundled_games())
def test_every_bundled_file_checks_strictly_clean_and_pins_its_meaning(name):
    # Without playouts: three short ones may hit the ply cap (W200); tests/test_selfcheck.py plays them.
    result = run(name, "--strict", "--playouts", "0")
    assert result.exit_code == 0, result.stderr
    examples = int(re.search(r"\((\d+) examples?", result.stderr).group(1))
    assert examples >= 1, result.stderr  # every bundled file carries examples


def test_a_clean_file_prints_ok_and_exits_0(tmp_path):
    path = write(tmp_path, GAME)
    result = run(str(path), *FAST)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.strip() == f"{path}: ok (0 examples, 3 playouts, {_plies(result.stderr)} plies in all)"
    assert result.stdout == ""


def _plies(text: str) -> str:
    return re.search(r", (\d+) plies in all", text).group(1)


# ---- errors ---------------------------------------------------------------------------


def test_every_error_of_a_file_at_once_sorted_with_caret_and_hint(tmp_path):
    text = GAME.replace("stone jump orthogonal", "stnoe jump orthogonl").replace("mover wins", "mover winz")
    path = write(tmp_path, text)
    result = run(str(path), *FAST)
    assert result.exit_code == 1
    # the syntax error stops parsing; fix it and the two semantic errors come together
    assert "syntax error" in result.stderr
    path = write(tmp_path, GAME.replace("stone jump orthogonal", "stnoe jump orthogonl"))
    result = run(str(path), *FAST)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    errors = [i for i, line in enumerate(lines) if ": error: " in line]
    assert len(errors) == 2
    row = line_of(GAME, "stone jump orthogonal")
    first, second = (lines[i] for i in errors)
    assert first.startswith(f"{path}:{row}:3: error: unknown piece kind 'stnoe'")
    assert "did you mean 'stone'?" in first
    assert second.startswith(f"{path}:{row}:14: error: unknown direction 'orthogonl'")
    assert "did you mean 'orthogonal'?" in second
    # the source line and a caret under the offending word follow each error
    assert lines[errors[1] + 1].strip() == "stnoe jump orthogonl over enemy capture"
    caret = lines[errors[1] + 2]
    assert caret.index("^") - 4 == 13 and caret.count("^") == len("orthogonl")


def test_a_start_position_that_does_not_fit_is_an_error_at_its_line_with_the_expected_shape(tmp_path):
    text = GAME.replace("w-wb)'", "w-w)'")
    path = write(tmp_path, text)
    found = check_file(str(path), playouts=0).diagnostics
    errors = [d for d in found if d.severity == "error"]
    assert len(errors) == 1
    assert errors[0].span.line == line_of(text, "start '")
    assert "does not fit" in errors[0].message
    assert errors[0].hint == 'a position for this board looks like (w "" ---- ---- ----)'


def test_an_example_option_out_of_range_names_the_range(tmp_path):
    text = GAME + 'example "big" start with rows = 40 perft 1\n'
    path = write(tmp_path, text)
    found = [d for d in check_file(str(path), playouts=0).diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["E024"]
    assert found[0].span.line == line_of(text, 'example "big"')
    assert found[0].hint == "rows is a whole number in 1..26"


def test_a_failing_example_is_reported_and_fails_the_run(tmp_path):
    path = write(tmp_path, GAME + 'example "wrong" start perft 2\n')
    result = run(str(path), *FAST)
    assert result.exit_code == 1
    assert "example 'wrong' fails: perft(1) is 1, expected 2" in result.stderr


def test_a_missing_file_is_an_error(tmp_path):
    result = run(str(tmp_path / "nothing.rules"))
    assert result.exit_code == 1
    assert "no such rule file or bundled game" in result.stderr


# ---- warnings ----------------------------------------------------------------------------


def test_warnings_do_not_fail_the_run_unless_strict(tmp_path):
    path = write(tmp_path, WARNINGS)
    result = run(str(path), *FAST)
    assert result.exit_code == 0, result.stderr
    codes = re.findall(r": warning: .*", result.stderr)
    assert len(codes) == 5, result.stderr
    assert run(str(path), "--strict", *FAST).exit_code == 1


def test_each_warning_is_at_its_declaration(tmp_path):
    path = write(tmp_path, WARNINGS)
    found = {d.code: d for d in check_file(str(path), playouts=0).diagnostics}
    assert all(d.severity == "warning" for d in found.values())
    assert found["W030"].span.line == line_of(WARNINGS, "piece ghost")
    assert "'ghost'" in found["W030"].message
    assert found["W031"].span.line == line_of(WARNINGS, "option speed")
    assert found["W032"].span.line == line_of(WARNINGS, "directions slants")
    never = [d for d in check_file(str(path), playouts=0).diagnostics if d.code == "W040"]
    assert [d.span.line for d in never] == [line_of(WARNINGS, "count(mover) < 0"), line_of(WARNINGS, "1 > 2")]


def test_used_declarations_give_no_warning(tmp_path):
    text = GAME.replace("option cols = 4 in 1..26", "option cols = 4 in 1..26\noption big = false") \
               .replace("again after jump", 'directions lines = orthogonal\nagain after jump') \
               .replace("stone jump orthogonal over", "stone jump lines over") \
               .replace("start '(w", "misere if big\nstart '(w")
    path = write(tmp_path, text)
    assert [d.code for d in check_file(str(path), playouts=0).diagnostics] == []


@pytest.mark.parametrize("condition, never", [
    ("count(mover) < 0", True),
    ("0 > count(opponent stone)", True),
    ("count(mover) <= -1", True),
    ("count(mover) == -2", True),
    ("1 > 2", True),
    ("no moves and 2 < 1", True),
    ("1 > 2 or count(mover) < 0", True),
    ("count(mover) <= 0", False),
    ("count(mover) == 0", False),
    ("lost(mover) < 0", False),  # a hand-entered position may have more pieces than the start
    ("no moves or 2 < 1", False),
    ("1 < 2", False),
    ("count(mover) < rows", False),
])
def test_never_holds_is_sound(condition, never):
    rule_file = parse_text(f"end {{ draw if {condition} }}")
    expr = rule_file.statements[0].rules[0].condition
    assert (never_holds(expr) is not None) == never


def test_a_parent_shared_by_two_files_is_reported_once(tmp_path):
    parent = write(tmp_path, WARNINGS, "parent.rules")
    child = write(tmp_path, 'extends "parent"\ngame "Child"\n', "child.rules")
    result = run(str(parent), str(child), *FAST)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("option 'speed' is declared but never used") == 1


# ---- output for machines ------------------------------------------------------------------


def test_json_lists_every_finding_on_stdout(tmp_path):
    path = write(tmp_path, WARNINGS.replace("stone jump orthogonal", "stnoe jump orthogonal"))
    result = run(str(path), "--format", "json", *FAST)
    assert result.exit_code == 1
    findings = json.loads(result.stdout)
    assert result.stderr == ""
    keys = {"file", "line", "column", "end_line", "end_column", "severity", "code", "message", "hint"}
    assert all(set(f) == keys for f in findings)
    errors = [f for f in findings if f["severity"] == "error"]
    assert [(e["code"], e["line"], e["column"]) for e in errors] == \
        [("E032", line_of(WARNINGS, "stone jump orthogonal"), 3)]
    assert errors[0]["hint"] == "did you mean 'stone'?" and errors[0]["file"] == str(path)
    assert errors[0]["end_line"] >= errors[0]["line"]
    assert {f["code"] for f in findings if f["severity"] == "warning"} >= {"W030", "W031", "W032", "W040"}
    lines = [(f["line"], f["column"]) for f in findings]
    assert lines == sorted(lines)


def test_json_of_a_clean_file_is_an_empty_list(tmp_path):
    result = run(str(write(tmp_path, GAME)), "--format", "json", *FAST)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


def test_github_annotations(tmp_path):
    path = write(tmp_path, WARNINGS.replace("stone jump orthogonal", "stnoe jump orthogonal"))
    result = run(str(path), "--format", "github", *FAST)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    row = line_of(WARNINGS, "stone jump orthogonal")
    error = next(line for line in lines if line.startswith("::error "))
    assert error.startswith(f"::error file={path},line={row},col=3,endLine={row},endColumn=8,title=E032::")
    assert error.endswith("unknown piece kind 'stnoe' (did you mean 'stone'?)")
    shape = re.compile(r"::(error|warning) file=[^,]+,line=\d+,col=\d+,.*title=[EW]\d{3}::.")
    assert all(shape.match(line) for line in lines)
    assert sum(li.startswith("::warning ") for li in lines) == 5


def test_github_escapes_newlines_and_percent_signs():
    from rulesdsl.cli.check_command import as_github
    from rulesdsl.errors import Diagnostic, Span

    line = as_github(Diagnostic(Span(0, 0, file="a,b.rules"), "50% done\nnext", "E203"))
    assert line == "::error file=a%2Cb.rules,title=E203::50%25 done%0Anext"


@pytest.mark.parametrize("args", [["--format", "xml"], ["--playouts", "-1"], ["--max-plies", "0"], []])
def test_usage_errors_exit_2(args):
    result = run(*args) if args else CliRunner().invoke(cli, ["check"])
    assert result.exit_code == 2


# ---- suites and playouts from the command line ----------------------------------------------


def test_the_suite_beside_a_file_runs(tmp_path):
    path = write(tmp_path, GAME)
    write(tmp_path, "- name: the start\n  moves: [b2-d2, a1-c1]\n", "game.tests.yaml")
    result = run(str(path), *FAST)
    assert result.exit_code == 1
    assert f"{tmp_path / 'game.tests.yaml'}:2:10: error: case 'the start': moves are b2-d2" in result.stderr
    assert run(str(path), "--no-suites", *FAST).exit_code == 0
    # naming the suite checks its rule file
    assert run(str(tmp_path / "game.tests.yaml"), *FAST).exit_code == 1


def test_malformed_yaml_is_one_line_not_a_traceback(tmp_path):
    path = write(tmp_path, GAME)
    write(tmp_path, "- name: x\n  moves: [b2-d2\n", "game.tests.yaml")
    result = run(str(path), *FAST)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    error = next(line for line in result.stderr.splitlines() if ": error: " in line)
    assert error.startswith(f"{tmp_path / 'game.tests.yaml'}:3:1: error: invalid YAML")


def test_playouts_can_be_turned_off_and_are_reproducible(tmp_path):
    path = write(tmp_path, GAME)
    off = run(str(path), "--playouts", "0")
    assert off.exit_code == 0 and "playouts," not in off.stderr
    once = run(str(path), "--playouts", "4", "--seed", "7")
    again = run(str(path), "--playouts", "4", "--seed", "7")
    assert "4 playouts" in once.stderr and once.stderr == again.stderr


def test_a_file_named_twice_or_by_its_suite_is_checked_once(tmp_path):
    path = write(tmp_path, GAME)
    write(tmp_path, "- moves: [b2-d2]\n", "game.tests.yaml")
    result = run(str(path), str(tmp_path / "game.tests.yaml"), str(path), *FAST)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count(": ok (") == 1
    assert "1 suite case" in result.stderr


def test_a_broken_suite_is_reported_even_when_the_rule_file_does_not_parse(tmp_path):
    path = write(tmp_path, GAME.replace("board grid cols x rows", "board grid cols x rows x"))
    write(tmp_path, "- moves: [b2-d2\n", "game.tests.yaml")
    found = check_file(str(path), playouts=0).diagnostics
    assert [(d.code, Path(d.span.file).name) for d in found] == [("E001", "game.rules"),
                                                                 ("E300", "game.tests.yaml")]
