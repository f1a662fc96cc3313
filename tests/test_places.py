"""End rules that rank or eliminate players (``finishes``, ``is out``): places, skipped turns, results.

Every sequence and place below is derived by hand in the comments beside it.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.game import Outcome, rank_returns
from rulesdsl.interpreter.compile.load import load_game

# Each pawn steps straight ahead. Red starts a row ahead, so it finishes first; the turn then skips it.
RACE = """game "Finishing race"
players red "r", green "g", blue "b"
forward red n, green n, blue n
board grid 3 x 3
position (turn places rows)
piece pawn red "R", green "G", blue "B"
start {
  pawn red at a2
  pawn green at b1
  pawn blue at c1
}
moves { pawn step forward }
end {
  player finishes if player has pawn on far row
}
"""

# A pawn that cannot step is out. Green starts under blue's pawn.
STUCK = """game "Stuck is out"
players red "r", green "g", blue "b"
forward red n, green n, blue n
board grid 3 x 3
position (turn places rows)
piece pawn red "R", green "G", blue "B"
start {
  pawn red at a1
  pawn green at b1
  pawn blue at b2
}
moves { pawn step forward }
end {
  opponent is out if no moves
}
"""


@pytest.fixture
def rules(tmp_path):
    def write(text: str, name: str = "game.rules") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return write


def play(game, state, *moves):
    for text in moves:
        state = game.apply(state, game.parse_move(state, text))
    return state


def test_the_first_home_is_first_and_the_turn_skips_it(rules):
    game = load_game(rules(RACE))
    state = play(game, game.initial_state(), "a2-a3")
    # red is on the far row: first place; green moves next
    assert state.places == (1, 0, 0) and game.to_move(state) == 1
    assert game.format_position(state) == "(g 1/-/- R-- --- -GB)"
    state = play(game, state, "b1-b2", "c1-c2")
    assert game.to_move(state) == 1  # red has finished: after blue comes green again
    state = play(game, state, "b2-b3")
    # green second; blue is the only one left and takes third place
    outcome = game.outcome(state)
    assert outcome is not None and outcome.places == (1, 2, 3) and outcome.winner == 0
    assert outcome.returns(3) == (1.0, 0.0, -1.0)
    # one move a ply: a2-a3, b1-b2, c1-c2, b2-b3, and then the game is over
    assert [game.perft(game.initial_state(), d) for d in range(1, 6)] == [1, 1, 1, 1, 0]


def test_a_stuck_player_is_out_and_the_last_one_left_wins(rules):
    game = load_game(rules(STUCK))
    start = game.initial_state()
    state = play(game, start, "a1-a2")
    # green (b1) is under blue's pawn: out, last place; blue is to move
    assert state.places == (0, 3, 0) and game.to_move(state) == 2
    state = play(game, state, "b2-b3", "a2-a3")
    # blue on the top row cannot step: out, second place; red is left and first
    outcome = game.outcome(state)
    assert outcome is not None and outcome.places == (1, 3, 2) and outcome.winner == 0
    assert [game.perft(start, d) for d in range(1, 5)] == [1, 1, 1, 0]


def test_positions_carry_the_places(rules):
    game = load_game(rules(RACE))
    state = game.parse_position("(b 1/-/- R-- -G- --B)")
    assert state.places == (1, 0, 0) and game.format_position(state) == "(b 1/-/- R-- -G- --B)"
    # written without the places: every seat plays
    assert game.parse_position("(r --- R-- -GB)").places == (0, 0, 0)
    # to move with a place; two seats sharing first place also hold second; a fourth place of three
    for bad in ("(r 1/-/- R-- --- -GB)", "(b 1/2/1 R-- -G- --B)", "(b 4/-/- R-- -G- --B)"):
        out = CliRunner().invoke(cli, ["move", rules(RACE, "race.rules"), "--position", bad])
        assert out.exit_code != 0 and "bad position" in out.output and len(out.output.strip().splitlines()) == 1


def test_another_end_rule_ranks_the_seats_still_playing(rules):
    # a draw after two turns: red has finished, green and blue share second place
    text = RACE.replace("end {", "end {\n  draw if turns played >= 2")
    game = load_game(rules(text))
    state = play(game, game.initial_state(), "a2-a3", "b1-b2")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.places == (1, 2, 2) and outcome.winner == 0
    assert outcome.returns(3) == (1.0, -0.5, -0.5)


def test_rewards_from_places():
    # n = 3: first +1, second 0, third -1; two seats sharing second cover places 2 and 3 (mean 2.5)
    assert rank_returns((1, 2, 3)) == (1.0, 0.0, -1.0)
    assert rank_returns((2, 1, 2)) == (-0.5, 1.0, -0.5)
    assert Outcome(None, "draw").returns(2) == (0.0, 0.0)
    assert Outcome(1, "won").returns(2) == (-1.0, 1.0)
    assert Outcome(2, "won").ranking(4) == (2, 2, 1, 2)


def test_check_catches_placing_mistakes(rules):
    text = RACE.replace("player finishes if player has pawn on far row", "red finishes if player has pawn on far row")
    out = CliRunner().invoke(cli, ["check", rules(text)])
    assert out.exit_code != 0 and "unknown player 'player'" in out.output
    text = RACE.replace("player finishes if player has pawn on far row", "mover wins if mover has pawn on far row")
    out = CliRunner().invoke(cli, ["check", rules(text)])
    assert out.exit_code != 0 and "the position field 'places'" in out.output


def test_json_and_the_repl_give_every_place(rules):
    path = rules(RACE)
    # green b2-b3 finishes second; blue is left, third
    out = CliRunner().invoke(cli, ["moves", path, "--position", "(b 1/2/3 RG- --- --B)", "--json"])
    import json

    answer = json.loads(out.output)
    assert answer["winner"] == "red" and answer["places"] == {"red": 1, "green": 2, "blue": 3}
    assert answer["returns"] == {"red": 1.0, "green": 0.0, "blue": -1.0}
    out = CliRunner().invoke(cli, ["move", path, "--position", "(g 1/-/- R-- -G- --B)", "--depth", "1", "--json"])
    answer = json.loads(out.output)
    assert answer["moves"] == [{"player": "green", "move": "b2-b3", "position": "(b 1/2/3 RG- --- --B)"}]
    assert answer["over"] and answer["places"] == {"red": 1, "green": 2, "blue": 3}
    # the engine plays green's only move, and the REPL says every place
    out = CliRunner().invoke(cli, ["play", path, "--position", "(g 1/-/- R-- -G- --B)", "--as", "none",
                                   "--depth", "1"], input="")
    assert "red wins (every player has a place); places: 1 red, 2 green, 3 blue" in out.output, out.output


def test_the_web_board_gives_every_place(rules):
    from rulesdsl.cli.web_api import Api, entries_for

    api = Api(entries_for([rules(RACE, "race.rules")]))
    data = api.state({"game": "race", "position": "(b 1/2/3 RG- --- --B)"})
    assert data["over"]["places"] == {"red": 1, "green": 2, "blue": 3}


def test_move_as_plays_until_the_seat_is_to_move(rules):
    import json

    path = rules(RACE)
    # red, then green, have one move each (a2-a3, b1-b2); then blue is to move
    out = CliRunner().invoke(cli, ["move", path, "--as", "blue", "--depth", "1", "--json"])
    answer = json.loads(out.output)
    assert [m["move"] for m in answer["moves"]] == ["a2-a3", "b1-b2"] and answer["position"] == "(b 1/-/- R-- -G- --B)"
    # red has finished: its turn will not come, so nothing is played
    out = CliRunner().invoke(cli, ["move", path, "--as", "red", "--position", "(g 1/-/- R-- -G- --B)", "--json"])
    assert json.loads(out.output) == {"moves": [], "position": "(g 1/-/- R-- -G- --B)", "over": False}
    out = CliRunner().invoke(cli, ["move", path, "--as", "purple"])
    assert out.exit_code != 0 and "unknown player 'purple'" in out.output and len(out.output.strip().splitlines()) == 1
    out = CliRunner().invoke(cli, ["play", path, "--as", "purple"])
    assert out.exit_code != 0 and "unknown player 'purple'" in out.output


LINE = """game "Jump line"
players red "r", green "g", blue "b"
board grid 5 x 1
position (turn places rows)
piece man red "R", green "G", blue "B"
start '(r -/-/- -RG-B)'
moves {
  man step e, w
  man jump e, w over enemy capture
}
end {
  player is out if player has no pieces
  opponent is out if no moves
}
"""


def test_a_player_who_loses_its_last_piece_is_out_whoever_moved(rules):
    game = load_game(rules(LINE))
    start = game.initial_state()
    # red on b1 steps to a1 or jumps green (c1) to d1; e1 is blue's
    assert sorted(game.format_move(start, m) for m in game.legal_moves(start)) == ["b1-a1", "b1-d1"]
    state = play(game, start, "b1-d1")
    # green has no piece: out, third; its turn is skipped: blue is to move
    assert state.places == (0, 3, 0) and game.to_move(state) == 2
    assert sorted(game.format_move(state, m) for m in game.legal_moves(state)) == ["e1-c1"]
    state = play(game, state, "e1-c1")  # blue jumps red: red is out, second; blue is left, first
    outcome = game.outcome(state)
    assert outcome is not None and outcome.places == (2, 3, 1) and outcome.winner == 2


def test_with_two_players_the_first_out_loses(rules):
    text = LINE.replace('players red "r", green "g", blue "b"', 'players red "r", blue "b"').replace(
        'piece man red "R", green "G", blue "B"', 'piece man red "R", blue "B"').replace(
        "'(r -/-/- -RG-B)'", "'(r -/- -RB--)'")
    game = load_game(rules(text))
    state = play(game, game.initial_state(), "b1-d1")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.places == (1, 2) and outcome.winner == 0
    assert outcome.returns(2) == (1.0, -1.0)
    out = CliRunner().invoke(cli, ["solve", rules(text, "two.rules")])
    assert out.exit_code != 0 and "places" in out.output and len(out.output.strip().splitlines()) == 1


def test_the_repl_says_who_is_placed(rules):
    # red's a2-a3 reaches the far row at once: first; green and blue then race on
    out = CliRunner().invoke(cli, ["play", rules(RACE), "--as", "none", "--depth", "1"], input="")
    assert "red plays a2-a3\nred is placed 1st\ngreen plays b1-b2" in out.output, out.output
    assert "places: 1 red, 2 green, 3 blue" in out.output


def test_the_front_door_gives_the_places(rules):
    import rulesdsl

    game = rulesdsl.load(rules(RACE))
    # a2-a3 (red first), b1-b2, c1-c2, b2-b3 (green second, blue third)
    end = game.start().play("a2-a3").play("b1-b2").play("c1-c2").play("b2-b3").outcome
    assert end is not None and end.winner == "red" and end.places == {"red": 1, "green": 2, "blue": 3}


def test_the_tallies_show_each_place(rules):
    from rulesdsl.cli.tally import tally_line

    game = load_game(rules(RACE))
    state = game.parse_position("(b 1/-/- R-- -G- --B)")
    assert tally_line(game, state).startswith("red placed 1st, 1 on the board; green 1 on the board")


def test_analyze_counts_each_place(rules):
    import json

    # one move a ply: every game is a2-a3, b1-b2, c1-c2, b2-b3, with red first, green second, blue third
    out = CliRunner().invoke(cli, ["analyze", rules(RACE), "--games", "4", "--seed", "1", "--json"])
    report = json.loads(out.output)
    assert report["places"]["red"] == {"1": 4, "2": 0, "3": 0, "mean": 1.0}
    assert report["places"]["blue"] == {"1": 0, "2": 0, "3": 4, "mean": 3.0}
    out = CliRunner().invoke(cli, ["analyze", rules(RACE), "--games", "4", "--seed", "1"])
    assert "places: green 1 0, 2 4, 3 0 (mean 2.00)" in out.output


def test_the_openspiel_adapter_pays_by_place(rules):
    pytest.importorskip("pyspiel")
    from rulesdsl.openspiel import game as spiel_game

    game = spiel_game(rules(RACE))
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])  # one move a ply: red first, green second, blue third
    assert state.returns() == [1.0, 0.0, -1.0]


FLANK = """game "Flank"
players red "r", green "g", blue "b", yellow "y"
board grid 5 x 2
position (turn places rows)
piece man red "R", green "G", blue "B", yellow "Y"
start '(r -/-/-/- --R-Y RG-BR)'
moves { man step orthogonal custodial e, w }
end {
  player is out if player has no pieces
  opponent is out if no moves
}
"""


def test_players_out_at_once_share_a_place(rules):
    game = load_game(rules(FLANK))
    # red c2-c1 lands between green (b1, red a1 beyond) and blue (d1, red e1 beyond): both are taken
    state = play(game, game.initial_state(), "c2-c1")
    # green and blue are out together: they share third place (covering third and fourth); yellow moves
    assert state.places == (0, 3, 3, 0) and game.to_move(state) == 3
    # yellow e2 steps to d2 (its only other step, e2-e1, is red's cell): then red is to move
    state = play(game, state, "e2-d2")
    assert game.to_move(state) == 0 and game.outcome(state) is None
    outcome = game.status(game.parse_position("(y -/3/3/- ----Y RRR-R)"))[1]
    assert outcome is None  # yellow can still step to d2
    # a position where yellow is out too: red takes first place alone, the two that went out share third
    end = game.outcome(game.parse_position("(r -/3/3/2 ----- RRR-R)"))
    assert end is not None and end.places == (1, 3, 3, 2) and end.winner == 0
    assert end.returns(4) == pytest.approx((1.0, -2 / 3, -2 / 3, 1 / 3))


def test_chinese_checkers_plays_on_for_every_place():
    game = load_game("chinese-checkers-places", {"players": "3"})
    # north's ten marbles: nine in the south point (row N's N8 empty) and one on M9, next to N8
    before = game.parse_position('(1 -/-/- "" - -- --- ---- ------------- ------------ ----------- ---------- '
                                 'd-------w ---------- ----------- ------------ --------n---- nnn- nnn nn n)')
    after = play(game, before, "M9-N8")
    # north fills its goal: first; the game goes on, southeast to move, and north's turns are skipped
    assert after.places == (1, 0, 0) and game.to_move(after) == 1 and game.outcome(after) is None
    after = game.apply(after, game.legal_moves(after)[0])  # any move of southeast's
    assert game.to_move(after) == 2
    after = game.apply(after, game.legal_moves(after)[0])  # any move of southwest's
    assert game.to_move(after) == 1  # after southwest comes southeast again, not north


def test_check_warns_of_a_rule_for_every_player_that_never_names_one(rules):
    text = RACE.replace("player finishes if player has pawn on far row", "player finishes if mover has pawn on far row")
    out = CliRunner().invoke(cli, ["check", rules(text)])
    assert "warning: 'player finishes' is tried for every player, but this condition never says 'player'" in out.output
    out = CliRunner().invoke(cli, ["check", rules(STUCK, "stuck.rules")])
    assert out.exit_code == 0 and "warning" not in out.output, out.output


def test_examples_pin_the_places(rules):
    # red (first) and green (second) have places: blue, left alone, is third
    good = RACE + "example \"blue is left\" position '(b 1/2/- R-- -G- --B)' result places red 1, green 2, blue 3\n"
    out = CliRunner().invoke(cli, ["check", rules(good), "--playouts", "0"])
    assert out.exit_code == 0, out.output
    bad = good.replace("green 2, blue 3", "green 3, blue 2")
    out = CliRunner().invoke(cli, ["check", rules(bad, "bad.rules"), "--playouts", "0"])
    assert out.exit_code != 0
    assert "places are red 1, green 2, blue 3 (green 2, expected 3; blue 3, expected 2)" in out.output
