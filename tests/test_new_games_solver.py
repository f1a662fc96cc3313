"""The solver refuses, in one line, the new games it cannot key (their boards are too big for its key)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli


@pytest.mark.parametrize("game, cells", [("pentago", 36), ("havannah", 169), ("ultimate-tic-tac-toe", 81)])
def test_the_solver_refuses_in_one_line(game, cells):
    result = CliRunner().invoke(cli, ["solve", game])
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and f"a board of {cells} cells" in lines[0] and "Traceback" not in result.output
