"""The examples in docs/language.md parse and check, as the page promises.

A snippet marked ``<!-- check: complete -->`` is a whole game; ``grid`` and
``hex`` snippets are parts of a game, checked inside a small base game that
they extend; ``parse`` snippets only have to parse.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.parser import parse_text
from rulesdsl.verify import check_file

DOCS = Path(__file__).resolve().parent.parent / "docs"
SNIPPET = re.compile(r"<!-- check: (\w+)( expect (\w+))? -->\s*```rules\n(.*?)```", re.S)

BASES = {
    "grid": """
game "grid base"
option rows = 8 in 4..26
option cols = 8 in 4..26
option size = 8 in 4..26
players white "w", black "b"
forward white n, black s
board grid cols x rows
position (turn last rows) top first
piece pawn white "w", black "b"
piece king white "K", black "k"
start {
  pawn white where row == 2
  pawn black where row == rows - 1
}
moves {
  pawn step forward
  king step all
}
end { mover wins if no moves }
""",
    "hex": """
game "hex base"
players blue "b", red "r"
board hexagon 4
cells row "A" from top, column 1
piece token blue "b", red "r"
start '(b bbbb bbbbb --bb-- ------- --rr-- rrrrr rrrr)'
moves { token push all line 2 }
end { draw if no moves }
""",
}


def snippets() -> list[tuple[str, str, str | None, str]]:
    text = (DOCS / "language.md").read_text()
    found = []
    for match in SNIPPET.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append((f"line {line}", match.group(1), match.group(3), match.group(4)))
    return found


def test_the_page_has_checked_snippets():
    kinds = {kind for _, kind, _, _ in snippets()}
    assert len(snippets()) >= 25 and {"complete", "grid", "hex"} <= kinds


@pytest.mark.parametrize("where, kind, expected, body", snippets(), ids=[s[0] for s in snippets()])
def test_snippet(tmp_path, where, kind, expected, body):
    if kind == "parse":
        parse_text(body, where)
        return
    path = tmp_path / "snippet.rules"
    if kind in BASES:
        (tmp_path / "base.rules").write_text(BASES[kind])
        body = 'extends "base.rules"\n' + body
    path.write_text(body)
    report = check_file(str(path), playouts=2)
    errors = [d.one_line() for d in report.diagnostics if d.severity == "error"]
    assert errors == [], f"{where}: {errors}"
    if expected:
        assert expected in {d.code for d in report.diagnostics}


def test_the_readme_session_is_real():
    import os
    import subprocess
    import sys

    readme = (DOCS.parent / "README.md").read_text()
    block = readme.split("## A Konane session", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    command, *shown = block.rstrip("\n").split("\n")
    assert command.startswith("$ rulesdsl play")
    # Every line typed follows a prompt the transcript shows: the menu's, then white's (no hidden question).
    typed = [line.split("> ", 1)[1] for line in shown if line.startswith(("white> ", "game [1]> "))]
    # The README's first command is the same play, with no game named: the menu, Enter for its first entry.
    first = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    assert first.rstrip().endswith("rulesdsl play") and command == "$ rulesdsl play --depth 4"
    assert shown[shown.index("game [1]> 1") + 1].startswith("Konane (rows=6, cols=6): ")
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    done = subprocess.run(command[2:], shell=True, env=env, input="\n".join(typed) + "\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert done.stdout.rstrip("\n").split("\n") == shown
