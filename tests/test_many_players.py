"""Games of three or more players: seats, the paranoid search, MCTS per player, the solver's refusal.

Counts come from the hand derivation in rules/three-way-race.rules.
"""

from __future__ import annotations

from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.search.engines import choose

RACE = "three-way-race"


def test_three_seats_move_in_turn():
    game = load_game(RACE)
    state = game.initial_state()
    turns = []
    for text in ("a1-a2", "b1-b2", "c1-c2"):
        turns.append(game.to_move(state))
        state = game.apply(state, game.parse_move(state, text))
    assert turns == [0, 1, 2] and game.to_move(state) == 0
    assert [game.perft(game.initial_state(), d) for d in (1, 2, 3, 4)] == [2, 4, 3, 7]


def test_paranoid_search_takes_the_win():
    game = load_game(RACE)
    # red to move on row 2: any step reaches row 3 and wins
    state = game.parse_position("(r --- R-- -GB)")
    result = choose(game, state, "paranoid", depth=3)
    assert result is not None and result.engine == "paranoid"
    after = game.apply(state, result.move)
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winner == 0


def test_mcts_credits_the_player_who_wins():
    game = load_game(RACE)
    # green to move: a green step to row 3 wins for green, not for red or blue
    state = game.parse_position("(g --- RG- --B)")
    result = choose(game, state, "mcts", seconds=0.3, seed=1)
    assert result is not None
    outcome = game.outcome(game.apply(state, result.move))
    assert outcome is not None and outcome.winner == 1 and result.score > 0.9


def test_the_solver_refuses_in_one_line():
    out = CliRunner().invoke(cli, ["solve", RACE])
    assert out.exit_code != 0
    lines = [line for line in out.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "3 players" in lines[0] and "two-player games only" in lines[0]


def test_analyze_reports_every_player():
    out = CliRunner().invoke(cli, ["analyze", RACE, "--games", "12", "--seed", "3"])
    assert out.exit_code == 0, out.output
    for name in ("red", "green", "blue"):
        assert f"  {name}: wins" in out.output


def test_the_web_board_shows_every_seat(monkeypatch):
    from rulesdsl.cli.web_api import Api, entries_for

    monkeypatch.setenv("RULESDSL_NATIVE", "0")  # what is shown, not the engine: no compile in the background

    api = Api(entries_for(["chinese-checkers"]))
    six = api.state({"game": "chinese-checkers", "options": {"players": "6"}})
    assert six["players"] == ["north", "northeast", "southeast", "south", "southwest", "northwest"]
    assert [t["onBoard"] for t in six["tallies"]] == [10] * 6  # ten marbles in each point of the star
    assert len(set(six["colours"])) == 6
    three = api.engine({"game": "chinese-checkers", "options": {"players": "3"}, "seconds": 0.2})
    assert three["turn"] == "southeast" and three["mover"] == "north"


def test_the_repl_plays_any_seat():
    # red (the engine) steps first; c2 is free whichever step it took, and then blue is to move
    out = CliRunner().invoke(cli, ["play", RACE, "--as", "green", "--depth", "2"], input="b1-c2\nquit\n")
    assert out.exit_code == 0, out.output
    assert "you play green" in out.output and "red plays" in out.output and "green> " in out.output
    assert "position: (b " in out.output.split("green> ")[-1]


def test_the_solver_refuses_a_chain_that_remembers_its_cells(tmp_path):
    from rulesdsl.interpreter.solver import SolveError, solve

    path = tmp_path / "hops.rules"
    path.write_text("""players white "w", black "b"
board grid 5 x 1
position (turn last rows)
piece man white "w", black "b"
start '(w "" wb-b-)'
moves {
  man jump e, w over any
}
again after jump with same piece to new cells or pass
end { mover wins if no moves }
""")
    game = load_game(str(path))
    try:
        solve(game, game.initial_state())
    except SolveError as error:
        assert "the cells a hop chain has stood on" in str(error)
    else:
        raise AssertionError("the solver solved a game whose key lacks the visited cells")


def plain_paranoid(game, state, depth: int, me: int, ply: int = 0) -> float:
    """Paranoid minimax without pruning, written out here: the value the search must reproduce."""
    from rulesdsl.interpreter.search.minimax import WIN, static_score

    moves, outcome = game.status(state)
    if outcome is not None:
        return 0.0 if outcome.winner is None else (WIN - ply) * (1 if outcome.winner == me else -1)
    if depth == 0:
        return static_score(game, state, me)
    values = [plain_paranoid(game, game.apply(state, m), depth - 1, me, ply + 1) for m in moves]
    return max(values) if game.to_move(state) == me else min(values)


def test_paranoid_pruning_keeps_the_minimax_value():
    import random

    from rulesdsl.interpreter.search.paranoid import Paranoid

    for spec, settings, depth in ((RACE, None, 5), ("chinese-checkers", {"players": "3"}, 3)):
        game = load_game(spec, settings)
        rng = random.Random(7)
        state = game.initial_state()
        for _ in range(4):
            me = game.to_move(state)
            pruned = Paranoid(game, me, float("inf")).value(state, depth, -float("inf"), float("inf"), 0)
            assert pruned == plain_paranoid(game, state, depth, me)
            moves, outcome = game.status(state)
            if outcome is not None:
                break
            state = game.apply(state, moves[rng.randrange(len(moves))])


def test_options_that_seat_nobody_get_one_line(tmp_path):
    path = tmp_path / "seats.rules"
    path.write_text("""option players = 3 in 2..4 "how many play"
players red "r", blue "b" if players == 2
players red "r", green "g", blue "b" if players == 3
board grid 3 x 3
piece pawn red "R", green "G", blue "B"
start { pawn red at a1  pawn green at b1  pawn blue at c1 }
moves { pawn step n }
end { draw if no moves }
""")
    two = CliRunner().invoke(cli, ["perft", str(path), "-d", "1", "--set", "players=2"])
    assert two.exit_code == 0 and two.output.split() == ["1", "1"]  # red's a1-a2 only; green is not seated
    out = CliRunner().invoke(cli, ["perft", str(path), "-d", "1", "--set", "players=4"])
    assert out.exit_code != 0 and "Traceback" not in out.output
    assert [line for line in out.output.splitlines() if line.strip()] == [
        "rulesdsl: no 'players' statement holds for these options"]
