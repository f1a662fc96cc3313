"""The one region block: its three forms give each player a cell set, and every form serves every use.

The cells below are read off a 3 x 3 board by hand (row 1 is the bottom row).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.interpreter.compile.load import load_game

GAME = """game "Regions"
players red "r", blue "b"
forward red n, blue s
board grid 3 x 3
position (turn rows)
piece pawn red "R", blue "B"
REGIONS
start {
  pawn red in home
  pawn blue in home
}
moves {
  pawn step forward from home
}
end {
  mover wins if mover fills goal
  draw if no moves
}
"""

FORMS = {
    "where": "region home where rank == 1\nregion goal where rank == 3",
    "cells": "region home red a1 b1 c1, blue a3 b3 c3\nregion goal red a3 b3 c3, blue a1 b1 c1",
    "per-player where": "region home red where row == 1, blue where row == 3\n"
                        "region goal red where row == 3, blue where row == 1",
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_form_gives_the_same_cells_and_serves_start_from_and_fills(form, tmp_path: Path):
    path = tmp_path / "regions.rules"
    path.write_text(GAME.replace("REGIONS", FORMS[form]))
    game = load_game(str(path))
    state = game.initial_state()
    assert game.format_position(state) == "(r BBB --- RRR)"
    # only pieces on the home row step forward: three moves, none from row 2 once a pawn has left
    assert len(game.legal_moves(state)) == 3
    after = game.parse_position("(r --- RRR ---)")
    assert game.legal_moves(after) == []  # no red pawn stands in red's home
    won = game.parse_position("(b RRR --- BBB)")
    outcome = game.outcome(won)
    assert outcome is not None and outcome.winner == 0  # red's goal is full after red's turn
