"""What the web board's API says beside the board: the rules text, players' counts, the last move, values."""

from __future__ import annotations

import pytest

from rulesdsl.cli.tally import opening_comment, takes_pieces, tallies
from rulesdsl.cli.web_api import Api, entries_for
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.loader import bundled_dir


@pytest.fixture(scope="module")
def api():
    return Api(entries_for(()))


def test_games_carry_the_rule_files_opening_comment(api):
    by_name = {g["name"]: g for g in api.games()["games"]}
    # rules/konane.rules opens with three comment lines: one paragraph.
    assert by_name["konane"]["about"] == (
        "Konane, as GAMES.md §1 reads the rule sheet. Jump an enemy stone orthogonally and remove it. "
        "After a jump, if you can jump again (with any stone) you may, or pass. Who cannot move loses.")
    assert by_name["konane-misere"]["about"] == "Misere Konane: the player who cannot move wins."


def test_an_empty_comment_line_starts_a_paragraph_and_code_ends_the_comment(tmp_path):
    path = tmp_path / "x.rules"
    path.write_text("# One.\n# Two.\n#\n# Three.\ngame \"X\"\n# not read\n", encoding="utf-8")
    assert opening_comment(path) == "One. Two.\nThree."
    path.write_text('game "X"\n', encoding="utf-8")
    assert opening_comment(path) == ""


def test_abalone_counts_the_marble_pushed_off(api):
    # By hand (tests/test_browser.py's script): black's fifth move pushes white's c4 marble off the board.
    position = ""
    for move in ["a3-b3", "b4-a3", "a1-a2", "d3-d2", "a2-b3"]:
        data = api.move({"game": "abalone", "position": position, "move": move})
        position = data["position"]
    counts = {t["player"]: (t["onBoard"], t["captured"]) for t in data["tallies"]}
    assert counts == {"black": (5, 1), "white": (4, 0)}
    assert data["lastMove"] == {"from": "a2", "to": "b3"}
    assert 'data-last="a2"' in data["svg"] and 'data-last="b3"' in data["svg"]


def test_placement_games_show_pieces_but_no_captures():
    othello = load_game("othello")
    assert not takes_pieces(othello)
    # The standard start: two discs each in the centre.
    assert [(t.on_board, t.captured) for t in tallies(othello, othello.initial_state())] == [(2, None), (2, None)]
    morris = load_game("nine-mens-morris")
    assert takes_pieces(morris)  # a mill removes an enemy man
    assert [(t.on_board, t.in_hand, t.captured) for t in tallies(morris, morris.initial_state())] == [
        (0, 9, 0), (0, 9, 0)]


def test_konane_jump_captures_one(api):
    data = api.move({"game": "konane", "move": "b2-d2"})  # GAMES.md §1: white jumps black's c2
    assert [(t["player"], t["onBoard"], t["captured"]) for t in data["tallies"]] == [
        ("white", 5, 1), ("black", 4, 0)]


def test_the_position_value_is_its_best_move_and_the_end_is_remoteness_zero():
    def values(game, state):  # a stand-in database for (b d1 wbw- b--- --wb)
        if game.format_position(state) == "(b d1 wbw- b--- --wb)":
            return {"d1-b1": ("lose", 4), "b3-d3": ("lose", 2), "pass": ("draw", None)}
        return None

    api = Api(entries_for(("konane",)), values)
    data = api.state({"game": "konane", "position": "(b d1 wbw- b--- --wb)"})
    assert data["value"] == {"value": "draw", "remoteness": None, "player": "black", "winner": None}
    # Without the draw, the slowest loss is the best: lose in 4, and white is the winner.
    def losing(game, state):
        return {"d1-b1": ("lose", 4), "b3-d3": ("lose", 2), "pass": ("lose", 6)}

    data = Api(entries_for(("konane",)), losing).state({"game": "konane", "position": "(b d1 wbw- b--- --wb)"})
    assert data["value"] == {"value": "lose", "remoteness": 6, "player": "black", "winner": "white"}
    # Black to move with no stone has lost: the end, remoteness 0, white the winner.
    over = api.state({"game": "konane", "position": '(b "" w--- ---- ----)'})
    assert over["over"]["winner"] == "white"
    assert over["value"] == {"value": "lose", "remoteness": 0, "player": "black", "winner": "white"}


def test_no_value_without_a_source_or_with_a_move_unknown(api):
    assert api.state({"game": "konane"})["value"] is None
    partial = Api(entries_for(("konane",)), lambda game, state: {"d1-b1": ("win", 3)})
    assert partial.state({"game": "konane", "position": "(b d1 wbw- b--- --wb)"})["value"] is None


def test_the_hint_says_what_its_score_means(api):
    hint = api.hint({"game": "konane", "seconds": 0.2})
    assert hint["move"] == "b2-d2"  # the only move (GAMES.md §1)
    score = hint["score"]
    # a forced result, or the evaluation (konane.rules has no evaluate block: mobility) from white's view
    assert score.startswith("white wins in ") or score.startswith("white loses in ") or (
        "from white's view: mobility 1, each white's minus black's" in score), score


def test_every_bundled_game_is_described_with_tallies_and_colours(api):
    for name in api.entries:
        data = api.state({"game": name})
        assert len(data["tallies"]) == len(data["players"]) == len(data["colours"])
        assert (bundled_dir() / f"{name}.rules").is_file()
