"""Several syntax errors in one file are reported in one run, one per statement."""

from __future__ import annotations

import pytest

from rulesdsl.errors import RulesError
from rulesdsl.parser import parse_text

MANY = '''game "many mistakes"
players white "w" black "b"
board grid 3 x 3
piece stone white "w", black "b"
moves {
  stone steps orthogonal
}
end { mover wins if no moves; }
example start perft 1,
'''


def test_each_broken_statement_is_reported_once():
    with pytest.raises(RulesError) as caught:
        parse_text(MANY, "many.rules")
    found = [(d.span.line, d.span.column, d.code) for d in caught.value.diagnostics]
    assert found == [(2, 19, "E001"), (6, 9, "E001"), (8, 29, "E001"), (9, 23, "E001")]
    messages = [d.message for d in caught.value.diagnostics]
    assert "'black'" in messages[0] and "'steps'" in messages[1] and "';'" in messages[2]
    assert "end of file" in messages[3]


def test_an_unclosed_block_gives_one_error_not_a_cascade():
    text = 'game "g"\nmoves {\n  stone step n\nend { mover wins if no moves }\noption rows = 3\n'
    with pytest.raises(RulesError) as caught:
        parse_text(text, "g.rules")
    assert [d.span.line for d in caught.value.diagnostics] == [4]
