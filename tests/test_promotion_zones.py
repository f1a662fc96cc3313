"""Promotion by choice in a zone, vectors toward a direction, and the checker's words on them.

``promote KIND to KIND2 in REGION [forced in REGION2]`` and ``forward (1, 2)``
(interpreter/reference/promotion_zones.py, interpreter/compile/tables.py). The counts are
worked out by hand on a 5 x 5 board.
"""

from __future__ import annotations

import pytest
from helpers import moves_of

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.verify import check_file

RULES = """game "zones"
players white "w", black "b"
forward white n, black s
board grid 5 x 5
position (turn rows) top first
notation from to
piece pawn white "P", black "p"
piece gold white "G", black "g"
piece horse white "N", black "n"
region far where rank >= 4
region last where rank == 5
start {
  pawn white at a1
  pawn black at e5
}
moves {
  pawn step forward
  gold step all
  horse step forward (1, 2)
}
promote pawn to gold in far forced in last
"""


@pytest.fixture()
def game(tmp_path):
    path = tmp_path / "zones.rules"
    path.write_text(RULES)
    return load_game(str(path))


def test_outside_the_zone_no_choice(game):
    assert moves_of(game, "(w ----p ----- ----- P---- -----)") == {"a2a3"}


def test_into_the_zone_both(game):
    # a3 to a4 enters the far rows (ranks 4 and 5 for white): plain or promoted.
    assert moves_of(game, "(w ----p ----- P---- ----- -----)") == {"a3a4", "a3a4G"}


def test_onto_the_last_row_only_promoted(game):
    assert moves_of(game, "(w ----p P---- ----- ----- -----)") == {"a4a5G"}


def test_the_zone_is_each_players_own(game):
    # black's far rows are ranks 4 and 5 counted from its side: rows 2 and 1.
    assert moves_of(game, "(b ----- ----p ----- ----- P----)") == {"e4e3"}
    assert moves_of(game, "(b ----- ----- ----- ----p P----)") == {"e2e1g"}


def test_a_vector_toward_forward_keeps_the_leaps_furthest_that_way(game):
    # (1, 2)'s eight images; forward for white is north: (1, 2) and (-1, 2) only.
    assert moves_of(game, "(w ----p ----- ----- ----- --N--)") == {"c1b3", "c1d3"}
    assert moves_of(game, "(b --n-- ----- ----- ----- P----)") == {"c5b3", "c5d3"}


@pytest.mark.parametrize("change, code, message", [
    ("forced in last", "forced in lastt", "unknown region 'lastt'"),
    ("forward (1, 2)", "ahead (1, 2)", "'ahead' before a vector must be one of forward, backward, left, right"),
])
def test_mistakes(tmp_path, change, code, message):
    path = tmp_path / "bad.rules"
    path.write_text(RULES.replace(change, code))
    errors = [d for d in check_file(str(path), playouts=0).diagnostics if d.severity == "error"]
    assert errors and any(message in d.message for d in errors), errors
