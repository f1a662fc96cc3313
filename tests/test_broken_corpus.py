"""Broken rule files get one clear error each: the right code, at the right place, in one line.

Every file under ``tests/broken/`` holds one mistake a newcomer makes and
starts with its expectation::

    # expect: E001 14:9          the first error's code, line and column
    # mistake: 'step' misspelt   what is wrong (for people)
    # hint: did you mean 'step'? (optional) text the one-line error contains

``rulesdsl check`` must exit 1 without a traceback, and its first error must be
exactly the expected one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.verify import check_file

BROKEN = Path(__file__).resolve().parent / "broken"
FILES = sorted(BROKEN.rglob("*.rules"))
EXPECT = re.compile(r"#\s*expect:\s*(?P<code>[EW]\d{3})\s+(?P<line>\d+):(?P<column>\d+)\s*$")
HINT = re.compile(r"#\s*hint:\s*(?P<hint>.+?)\s*$")


def header(path: Path) -> dict:
    """The expectation in a corpus file's leading comment lines."""
    lines = path.read_bytes().decode("utf-8", errors="replace").split("\n")
    match = EXPECT.match(lines[0])
    assert match, f"{path.name}: the first line must be '# expect: CODE LINE:COL'"
    found = {"code": match["code"], "line": int(match["line"]), "column": int(match["column"]), "hints": []}
    for line in lines[1:]:
        if not line.startswith("#"):
            break
        hint = HINT.match(line)
        if hint:
            found["hints"].append(hint["hint"])
    return found


def name_of(path: Path) -> str:
    return str(path.relative_to(BROKEN))


def diagnostics(path: Path) -> list:
    """What ``rulesdsl check`` finds in one file, in its order."""
    report = check_file(str(path))
    return list(getattr(report, "diagnostics", report))


def first_error(path: Path):
    errors = [d for d in diagnostics(path) if d.severity == "error"]
    assert errors, f"{name_of(path)}: no error found"
    return errors[0]


@pytest.mark.parametrize("path", FILES, ids=name_of)
def test_check_reports_the_mistake_at_its_place(path):
    want = header(path)
    error = first_error(path)
    got = f"{error.code} {error.span.line}:{error.span.column}"
    assert got == f"{want['code']} {want['line']}:{want['column']}", error.with_caret()
    assert error.span.file == str(path), "the error is placed in the file that was checked"


@pytest.mark.parametrize("path", FILES, ids=name_of)
def test_the_message_is_one_clear_line(path):
    error = first_error(path)
    line = error.one_line()
    assert "\n" not in line
    assert line.startswith(f"{path}:{error.span.line}:{error.span.column}: error: "), line
    assert error.message.strip() and "internal error" not in line and "Traceback" not in line
    for hint in header(path)["hints"]:
        assert hint in line, f"{name_of(path)}: {hint!r} not in {line!r}"


@pytest.mark.parametrize("path", FILES, ids=name_of)
def test_rulesdsl_check_exits_1_without_a_traceback(path):
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    error = first_error(path)
    assert error.one_line() in result.output


# ---- the corpus itself -------------------------------------------------------------------


def test_the_corpus_covers_syntax_and_semantics():
    assert len(FILES) >= 45
    codes = {header(p)["code"] for p in FILES}
    folders = {p.parent.name for p in FILES}
    assert {"syntax", "semantics", "extends-cycle"} <= folders
    assert sum(header(p)["code"] == "E001" for p in FILES) >= 15  # syntax errors
    # unknown names, duplicates, ranges, start positions, extends, relative directions, misplaced options
    assert {"E002", "E003", "E004", "E010", "E011", "E020", "E021", "E030", "E032", "E050", "E051",
            "E061", "E062", "E090"} <= codes


@pytest.mark.parametrize("name, hint", [
    ("syntax/misspelt-keyword.rules", "did you mean 'piece'?"),
    ("syntax/misspelt-action.rules", "did you mean 'step'?"),
    ("semantics/misspelt-direction.rules", "did you mean 'orthogonal'?"),
    ("semantics/misspelt-piece-in-move.rules", "did you mean 'stone'?"),
    ("semantics/unknown-player-in-piece.rules", "did you mean 'black'?"),
    ("semantics/unknown-option.rules", "did you mean 'size'?"),
    ("semantics/unknown-option-in-example.rules", "did you mean 'size'?"),
    ("semantics/option-default-out-of-range.rules", "the allowed range is 3..8"),
])
def test_hints_name_the_fix(name, hint):
    error = first_error(BROKEN / name)
    assert hint in error.hint
    assert hint in error.one_line()


def test_an_unknown_name_without_a_close_match_lists_the_known_ones():
    error = first_error(BROKEN / "semantics/unknown-direction.rules")
    assert error.hint.startswith("known: ") and "orthogonal" in error.hint


def test_the_out_of_range_default_names_value_and_range():
    error = first_error(BROKEN / "semantics/option-default-out-of-range.rules")
    assert "9" in error.message and "3..8" in error.message
