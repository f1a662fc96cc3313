"""The solver refuses, in one line, the new games it cannot key (their boards are too big for its 128-bit key).

A 6x6 board of three symbols fits two 64-bit words, so the solver takes it on (and Ctrl-C stops it).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli


@pytest.mark.parametrize("game, cells", [("havannah", 169), ("ultimate-tic-tac-toe", 81)])
def test_the_solver_refuses_in_one_line(game, cells):
    result = CliRunner().invoke(cli, ["solve", game])
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and f"a board of {cells} cells" in lines[0] and "Traceback" not in result.output
