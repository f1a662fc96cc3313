"""Counts in cells, regions, tracks, sowing, enclosing and scores: what they do, and what `check` says.

Positions and move lists here are worked out by hand from the rules stated in
docs/language.md (and OpenSpiel's kalah, which tests/test_openspiel_counting.py
plays side by side).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.cli.render import render
from rulesdsl.cli.svg import draw
from rulesdsl.cli.tally import tally_line
from rulesdsl.errors import PositionError
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.verify import check_file

KALAH = """
game "Little kalah"
players south "S", north "N"
forward south n, north s
board grid 4 x 2 where not (col == 1 and row == 1) and not (col == 4 and row == 2)
piece seed "o"
counts seed
region pit south b1 c1, north b2 c2
region store south d1, north a2
track round b1 c1 d1 c2 b2 a2
start {
  put 2 seed in pit
}
notation from
moves {
  sow seed from pit along round skipping store again in store capture forward into store
}
score south total(south pit) + total(south store), north total(north pit) + total(north store)
end {
  best score wins if total(south pit) == 0 or total(north pit) == 0
}
"""


def errors_of(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "game.rules"
    path.write_text(text)
    return [d.one_line() for d in check_file(str(path), playouts=0).diagnostics if d.severity == "error"]


def codes_of(tmp_path: Path, text: str) -> set[str]:
    path = tmp_path / "game.rules"
    path.write_text(text)
    return {d.code for d in check_file(str(path), playouts=0).diagnostics if d.severity == "error"}


def test_the_little_kalah_checks_clean(tmp_path):
    assert errors_of(tmp_path, KALAH) == []


def test_a_track_that_does_not_close_is_an_error_that_says_what_to_write(tmp_path):
    text = KALAH.replace("track round b1 c1 d1 c2 b2 a2", "track round b1 c1 d1")
    found = errors_of(tmp_path, text)
    assert len(found) == 1 and "track round does not close: its last cell d1 is not next to its first, b1" in \
        found[0] and "list the cells in order around the board" in found[0]


def test_a_track_that_jumps_names_both_cells(tmp_path):
    found = errors_of(tmp_path, KALAH.replace("track round b1 c1 d1 c2 b2 a2", "track round b1 d1 c1 c2 b2 a2"))
    assert any("track round jumps from b1 to d1, which are not neighbours" in f for f in found)


def test_a_track_that_passes_a_cell_twice(tmp_path):
    text = KALAH.replace("track round b1 c1 d1 c2 b2 a2", "track round b1 c1 d1 c2 b2 a2 b1")
    assert "E131" in codes_of(tmp_path, text)


def test_a_region_that_names_no_cells(tmp_path):
    text = KALAH.replace('region store south d1, north a2', 'region store south d1, north a2\n'
                         'region nowhere where col > 10\nscore south 0, north 0')
    text = text.replace("score south total(south pit) + total(south store), north total(north pit) + "
                        "total(north store)\n", "")
    text = text.replace("capture forward into store", "capture forward into store again in nowhere")
    found = errors_of(tmp_path, text)
    assert any("region nowhere names no cells" in f for f in found), found


def test_a_region_cell_off_the_board(tmp_path):
    found = errors_of(tmp_path, KALAH.replace("north b2 c2", "north b2 c9"))
    assert any("'c9' is not a cell of this board" in f for f in found), found


def test_an_unknown_region_or_track_has_a_did_you_mean(tmp_path):
    found = errors_of(tmp_path, KALAH.replace("skipping store", "skipping stor").replace("along round", "along rund"))
    assert any("unknown region 'stor'" in f and "did you mean 'store'" in f for f in found), found
    assert any("unknown track 'rund'" in f and "did you mean 'round'" in f for f in found), found


def test_sowing_or_putting_a_kind_that_is_not_counted(tmp_path):
    found = errors_of(tmp_path, KALAH.replace("counts seed\n", ""))
    assert sum("add 'counts seed'" in f for f in found) == 2, found


def test_best_score_needs_a_score_for_every_player(tmp_path):
    no_score = KALAH.replace("score south total(south pit) + total(south store), north total(north pit) + "
                             "total(north store)\n", "")
    assert any("'best score' needs a 'score' statement" in f for f in errors_of(tmp_path, no_score))
    half = KALAH.replace(", north total(north pit) + total(north store)", "")
    assert any("score gives no score for north" in f for f in errors_of(tmp_path, half))


def test_total_takes_a_player_and_a_region(tmp_path):
    found = errors_of(tmp_path, KALAH.replace("total(south pit) == 0", "total(south) == 0"))
    assert any("total() takes a player and a region" in f for f in found), found


def game_of(tmp_path: Path, text: str = KALAH):
    path = tmp_path / "game.rules"
    path.write_text(text)
    return load_game(str(path))


def test_sowing_goes_round_the_track_skipping_the_other_store(tmp_path):
    game = game_of(tmp_path)
    # North sows 5 from b2: a2 (its store), then b1 c1 (d1, south's store, is skipped), c2, and b2
    # again: the last seed lies alone in north's own pit, with b1's seed across: both join the one
    # sown into a2 (1 + 2).
    state = game.parse_position("(N -,5,- -,1,-)")
    after = game.apply(state, game.parse_move(state, "b2"))
    assert game.format_position(after) == "(S 3,-,1 -,2,-)"


def test_the_last_seed_in_the_own_store_keeps_the_turn_and_a_capture_takes_the_pit_across(tmp_path):
    game = game_of(tmp_path)
    start = game.initial_state()
    again = game.apply(start, game.parse_move(start, "b1"))  # c1, d1: the store
    assert game.format_position(again) == "(S -,2,2 -,3,1)" and again.turn == 0
    state = game.parse_position("(S -,-,3 1,-,-)")
    taken = game.apply(state, game.parse_move(state, "b1"))
    assert game.format_position(taken) == "(N -,-,- -,-,4)"
    assert game.scores(taken) == (4, 0) and game.outcome(taken).winner == 0


def test_the_board_shows_counts_and_the_scores(tmp_path):
    game = game_of(tmp_path)
    state = game.parse_position("(N 12,2,- 3,-,1)")
    text = render(game, state)
    assert "12" in text and " 3 " in text
    assert tally_line(game, state) == "south score 4; north score 14"
    assert 'data-count="12"' in draw(game, state)


def test_a_counting_position_with_a_bad_cell_is_one_line(tmp_path):
    game = game_of(tmp_path)
    with pytest.raises(PositionError) as caught:
        game.parse_position("(S -,2,xy 2,2,-)")
    assert "'xy' is neither a number nor one piece symbol" in str(caught.value)


def test_moves_json_carries_the_scores():
    result = CliRunner().invoke(cli, ["moves", "dots-and-boxes", "--json", "--position", "(2 | |-- |)",
                                      "--set", "rows=1", "--set", "cols=1"])
    answer = json.loads(result.output)
    assert answer["scores"] == {"first": 0, "second": 0} and [m["move"] for m in answer["moves"]] == ["c2"]
    assert answer["moves"][0]["position"] == "(2 | |B| |)"


def test_closing_a_box_keeps_the_turn_and_an_ordinary_line_passes_it():
    game = load_game("dots-and-boxes")
    start = game.initial_state()
    first = game.apply(start, game.parse_move(start, "b5"))
    assert first.turn == 1
    # 2 x 2: three sides of the bottom-left box (b1, a2, c2); the fourth (b3) closes it for the mover.
    state = game.parse_position("(1 -- ----- -- |-|-- |-)")
    after = game.apply(state, game.parse_move(state, "b3"))
    assert after.turn == 0 and game.scores(after) == (1, 0)


def test_the_solver_solves_one_box_exactly():
    """1 x 1: four lines; the second player draws the fourth and takes the box: the first loses in 4."""
    result = CliRunner().invoke(cli, ["solve", "dots-and-boxes", "--set", "rows=1", "--set", "cols=1",
                                      "--db", ":memory:"])
    assert "lose in 4" in result.output, result.output


def test_why_names_the_region_and_the_empty_pit():
    from rulesdsl.interpreter.explain.reasons import explain_move

    game = load_game("mancala")
    state = game.parse_position("(S -,4,4,4,4,4,4 -,4,4,4,4,4,-)")
    assert explain_move(game, state, "h1").text().splitlines()[1].strip() == "h1 is not one of south's pit cells"
    assert explain_move(game, state, "b1").text().splitlines()[1].strip() == "b1 holds no seed"
    assert "the rule 'sow seed' makes this move" in explain_move(game, state, "c1").text()
    boxes = load_game("dots-and-boxes")
    assert "b4 is not one of first's edges cells" in explain_move(boxes, boxes.initial_state(), "b4").text()


def test_the_score_feature_needs_a_score(tmp_path):
    text = KALAH.replace("score south total(south pit) + total(south store), north total(north pit) + "
                         "total(north store)\n", "").replace("best score wins if", "draw if")
    found = errors_of(tmp_path, text + "evaluate {\n  score 1\n}\n")
    assert any("the feature 'score' needs a 'score' statement" in f for f in found), found


def test_a_sowing_from_cells_off_its_track(tmp_path):
    text = KALAH.replace("track round b1 c1 d1 c2 b2 a2", "track round b1 c1 d1 c2 b2 a2\ntrack short b1 c1")
    found = errors_of(tmp_path, text.replace("along round", "along short"))
    assert any("b2, c2 of north's pit are not on track short" in f for f in found), found


def test_score_in_an_end_rule_a_race_to_points(tmp_path):
    """One box, first to a box wins: score() in an end rule; the second player draws the fourth line."""
    text = (Path(__file__).resolve().parent.parent / "rules" / "dots-and-boxes.rules").read_text()
    text = text.replace("  best score wins if no moves", "  first wins if score(first) >= 1\n"
                        "  second wins if score(second) >= 1")
    text = text.split("example start perft 12")[0] + "example start with rows = 1, cols = 1 perft 4, 12, 24, 24\n"
    (tmp_path / "game.rules").write_text(text)
    game = load_game(str(tmp_path / "game.rules"), {"rows": "1", "cols": "1"})
    state = game.parse_position("(2 | |B| |)")
    assert game.outcome(state).winner == 1
    assert errors_of(tmp_path, text) == []
    broken = text.replace("score first count(first box), second count(second box)\n", "")
    assert any("score() needs a 'score' statement" in f for f in errors_of(tmp_path, broken))
    loop = text.replace("score first count(first box)", "score first score(second)")
    assert any("a score cannot be made of scores" in f for f in errors_of(tmp_path, loop))


def test_analyze_reports_the_scores_at_the_end():
    """One box: the lines alternate until the fourth, always the second player's, which takes the box."""
    result = CliRunner().invoke(cli, ["analyze", "dots-and-boxes", "--set", "rows=1", "--set", "cols=1",
                                      "--games", "6", "--json"])
    report = json.loads(result.output)
    assert report["scores"] == {"first": {"mean": 0.0, "max": 0}, "second": {"mean": 1.0, "max": 1}}
    assert report["results"]["second"]["wins"] == 6
