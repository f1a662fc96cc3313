"""``rulesdsl analyze``: self-play statistics.

The Wilson interval is checked against the textbook figure for 5 of 10; the
win rate of random play is checked against the exact probability, computed
here by recursion over the game tree of the default Konane.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.measure.analyze import play_games, summarize, wilson


def test_wilson_interval_of_five_in_ten():
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)


def exact_random_play(game, state):
    """(probability that the first player wins under uniformly random moves, longest game in plies)."""
    moves, outcome = game.status(state)
    if outcome is not None:
        return Fraction(int(outcome.winner == 0)), 0
    results = [exact_random_play(game, game.apply(state, m)) for m in moves]
    return sum(p for p, _ in results) / len(moves), 1 + max(n for _, n in results)


def test_random_play_matches_the_exact_probability():
    game = load_game("konane", {})
    exact, longest = exact_random_play(game, game.initial_state())
    report = summarize(game, play_games(game, game.initial_state(), 400, seed=7, workers=2))
    white = report["results"]["white"]
    low, high = white["win"]["ci95"]
    assert low <= exact <= high
    assert white["wins"] + white["losses"] + white["draws"] == 400
    assert report["results"]["black"]["wins"] == white["losses"]
    assert report["plies"]["max"] <= longest
    assert report["cut"] == 0 and sum(report["end_rules"].values()) == 400


def test_the_same_seed_gives_the_same_games_on_any_number_of_workers():
    game = load_game("konane", {"rows": "4", "cols": "4"})
    one = play_games(game, game.initial_state(), 60, seed=3, workers=1)
    two = play_games(game, game.initial_state(), 60, seed=3, workers=2)
    assert one == two


def test_cli_json_and_ply_limit():
    result = CliRunner().invoke(cli, ["analyze", "abalone", "--games", "30", "--max-plies", "4", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 30 and report["cut"] + sum(report["end_rules"].values()) == 30
    assert report["cut"] > 0 and report["plies"]["max"] == 4
    assert set(report) >= {"games", "results", "plies", "branching", "end_rules"}
    assert report["branching"]["max"] >= 15  # the start alone has 15 moves (the rule file's perft)


@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_engines_finish_games(engine):
    result = CliRunner().invoke(cli, ["analyze", "konane", "--games", "4", "--engine", engine, "--time", "0.01",
                                      "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 4
