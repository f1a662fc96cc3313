"""docs/tutorial.md shows real output: every command in it is run and compared.

Each ``console`` block runs in a folder whose ``breakthrough.rules`` is the
file as the tutorial last showed it (empty before the first ``rules`` block);
a chapter that writes another game names its file after the game's title
(``game "Chess"``: ``chess.rules``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial.md"
BLOCK = re.compile(r"```(rules|console)\n(.*?)```", re.S)


def sessions() -> list[tuple[str, str, str]]:
    """``(label, rule file text, console block)`` for every console block."""
    text = TUTORIAL.read_text()
    current, found = "", []
    for match in BLOCK.finditer(text):
        kind, body = match.groups()
        if kind == "rules":
            current = body
        else:
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"line {line}", current, body))
    return found


def commands(block: str) -> list[tuple[str, str]]:
    """``(command, expected output)`` pairs of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    for line in block.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        else:
            pairs[-1][1].append(line)
    return [(command, "\n".join(out)) for command, out in pairs]


@pytest.mark.parametrize("label, rules, block", sessions(), ids=[s[0] for s in sessions()])
def test_console_block_shows_real_output(tmp_path, label, rules, block):
    title = re.search(r'^game "([^"]+)"', rules, re.M)
    name = title.group(1).lower().replace(" ", "-") if title else "breakthrough"
    (tmp_path / f"{name}.rules").write_text(rules)
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"],
               COLUMNS="200")
    status = 0
    for command, expected in commands(block):
        if command == "echo $?":
            assert expected == str(status), label
            continue
        done = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120)
        status = done.returncode
        shown = (done.stdout + done.stderr).rstrip("\n")
        assert shown == expected, f"{label}: {command}"
