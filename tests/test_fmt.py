"""``rulesdsl fmt``: the canonical layout, comments and blank lines kept, meaning never changed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.errors import RulesError
from rulesdsl.fmt import _parse, _signature, _tokens, format_text
from rulesdsl.verify import check_file

RULES = Path(__file__).resolve().parent.parent / "rules"
BUNDLED = sorted(RULES.glob("*.rules"))


def run_fmt(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", "fmt", *args], input=stdin,
                          capture_output=True, text=True)


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_every_bundled_rule_file_is_formatted(path):
    text = path.read_text()
    assert format_text(text, str(path)) == text, f"run 'rulesdsl fmt {path.relative_to(RULES.parent)}'"


MESSY = """\


# the title
game   "X"    option rows=3 in 1 .. 26 "rows"   # trailing
option  n = - 2 in -5..rows+ 1
players a "a" ,b "b"
board grid rows x rows
piece p a "a", b "b"
moves if rows>2 { p step orthogonal
   # inside
  p jump   n,s
     over enemy    capture   # a jump
  place p     # p
   # before the brace
}



end
{  mover wins if lost ( opponent ) >= 2 }
again after jump with any piece or    pass
start { } example start perft 1 , 2
# the last word


"""

TIDY = """\
# the title
game "X"
option rows = 3 in 1..26 "rows"  # trailing
option n = -2 in -5..rows + 1
players a "a", b "b"
board grid rows x rows
piece p a "a", b "b"
moves if rows > 2 {
  p step orthogonal
  # inside
  p jump n, s
      over enemy capture  # a jump
  place p  # p
  # before the brace
}

end {
  mover wins if lost(opponent) >= 2
}
again after jump with any piece or pass
start {}
example start perft 1, 2
# the last word
"""


def test_the_canonical_layout():
    """Spacing, one statement a line, blocks, comments where they were, blank-line groups as one."""
    assert format_text(MESSY) == TIDY
    assert format_text(TIDY) == TIDY


def test_end_of_line_comments_align_within_a_group_of_lines():
    text = 'players a "a", b "b"  # first\nboard grid 3 x 3\nnotation to # last\n\ncells column "a" row 1 # alone\n'
    assert format_text(text) == ('players a "a", b "b"  # first\n'
                                 "board grid 3 x 3\n"
                                 "notation to           # last\n"
                                 "\n"
                                 'cells column "a" row 1  # alone\n')


def test_strings_and_their_quotes_are_kept_as_written():
    text = "game 'a  b # not a comment'\nnotation from \" - \" to\n"
    assert format_text(text) == text


def test_a_file_of_comments_only_and_an_empty_file():
    assert format_text("\n\n# one\n\n\n# two   \n\n") == "# one\n\n# two\n"
    assert format_text("") == ""
    assert format_text("\n \n") == ""


def test_a_syntax_error_is_reported_with_its_place():
    with pytest.raises(RulesError) as caught:
        format_text('game "x"\nmoves {\n', "broken.rules")
    first = caught.value.diagnostics[0]
    assert (first.span.file, first.code) == ("broken.rules", "E001")


def test_check_shows_a_diff_and_exits_1_and_changes_nothing(tmp_path):
    path = tmp_path / "messy.rules"
    path.write_text(MESSY)
    done = run_fmt("--check", str(path))
    assert done.returncode == 1
    assert "+moves if rows > 2 {" in done.stdout and "-moves if rows>2 { p step orthogonal" in done.stdout
    assert "1 file not formatted" in done.stderr
    assert path.read_text() == MESSY


def test_fmt_rewrites_the_file_then_check_passes(tmp_path):
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "messy.rules"
    path.write_text(MESSY)
    done = run_fmt(str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert path.read_text() == TIDY
    again = run_fmt("--check", str(path))
    assert (again.returncode, again.stdout) == (0, "")


def test_stdin_to_stdout():
    done = run_fmt(stdin=MESSY)
    assert (done.returncode, done.stdout) == (0, TIDY)


def test_a_broken_file_is_one_line_exit_1_and_untouched(tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text('game "x"\nmoves {\n  stone jump\n')
    done = run_fmt(str(path), str(tmp_path / "missing.rules"))
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0].startswith(f"{path}:") and "Traceback" not in done.stderr
    assert lines[-1].startswith(f"{tmp_path / 'missing.rules'}: cannot read the file")
    assert path.read_text() == 'game "x"\nmoves {\n  stone jump\n'


def test_the_formatted_game_is_the_same_game(tmp_path):
    """Konane squeezed onto a few lines, then formatted, still meets its hand-derived perft example."""
    squeezed = " ".join(line.split("#")[0] for line in (RULES / "konane.rules").read_text().splitlines())
    path = tmp_path / "konane.rules"
    path.write_text(format_text(squeezed))
    report = check_file(str(path), playouts=0, suites=False)
    assert report.diagnostics == [] and report.examples == 2


# ---- property: any layout of a bundled file formats to an idempotent file with the same tokens -------

SEPARATORS = [" ", "  ", "\n", "\n\n", "\t", " \n   ", "\n\n\n", " # note\n", "\n# note\n\n"]


def _relaid(text: str, choices: list[int]) -> str:
    """``text``'s tokens with other whitespace (and other comments) between them."""
    toks = _tokens(_parse(text, "<rules>"))
    out = [SEPARATORS[choices[0]]]
    for i, tok in enumerate(toks):
        out.append(str(tok.token))
        out.append(SEPARATORS[choices[i + 1]])
    return "".join(out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_any_layout_formats_idempotently_to_the_same_tokens(data):
    path = data.draw(st.sampled_from(BUNDLED))
    text = path.read_text()
    count = len(_tokens(_parse(text, "<rules>"))) + 1
    choices = data.draw(st.lists(st.integers(0, len(SEPARATORS) - 1), min_size=count, max_size=count))
    messy = _relaid(text, choices)
    tidy = format_text(messy)
    assert format_text(tidy) == tidy
    assert _signature(tidy, "<rules>")[0] == _signature(text, "<rules>")[0]
    assert _signature(tidy, "<rules>")[1] == _signature(messy, "<rules>")[1]
