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
    assert sorted(rulesdsl.__all__) == ["Game", "Outcome", "Position", "capture", "load"]
    assert callable(rulesdsl.load) and callable(rulesdsl.capture)


def test_a_game_without_an_end_rule_that_fires_has_no_rule(tmp_path):
    path = tmp_path / "stuck.rules"
    path.write_text('game "Stuck"\nplayers white "w", black "b"\nboard grid 2 x 1\nposition (turn rows)\n'
                    'piece king white "w", black "b"\nstart "(w wb)"\nmoves { king step orthogonal }\n'
                    'end { }\n', encoding="utf-8")
    outcome = rulesdsl.load(str(path)).start().outcome
    assert (outcome.winner, outcome.rule, outcome.span) == (None, None, None)
