"""The OpenSpiel adapter (rulesdsl.openspiel): OpenSpiel's own conformance test and MCTS bot accept rule files.

``pyspiel.random_sim_test`` is OpenSpiel's random simulation test (it plays
random games and checks the interface's invariants: legal actions sorted and
in range, clones, returns, observation tensors and strings). Tic-tac-toe and
Connect Four are also played side by side with OpenSpiel's own
implementations, which are the independent source of the legal moves and
results.
"""

from __future__ import annotations

import random
import sys

import pytest

from rulesdsl.errors import OptionError, RulesdslError

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel (the test extra) is not installed")
ros = pytest.importorskip("rulesdsl.openspiel")


@pytest.mark.parametrize("name, options", [
    ("tic-tac-toe", {}), ("konane", {"rows": 6, "cols": 6}), ("breakthrough", {}), ("connect-four", {}),
    ("abalone", {}),
])
def test_openspiels_random_simulation_test_passes(name, options):
    game = ros.game(name, **options)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_openspiels_mcts_bot_finishes_a_game_of_konane_6x6():
    import numpy as np
    from open_spiel.python.algorithms import mcts

    game = ros.game("konane", rows=6, cols=6)
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        state.apply_action(bot.step(state))
        plies += 1
    # Konane has no draw: the player to move at the end has no jump and loses
    loser = state.position.turn
    assert state.returns()[loser] == -1.0 and state.returns()[1 - loser] == 1.0
    konane = state.rules.engine
    assert konane.legal_moves(state.position) == []
    assert 2 <= plies < 36  # at least one jump each; every jump removes a stone from 34


def _cell_of(name: str, rows: int) -> tuple[int, int]:
    """``a3`` -> (row from the top, column): OpenSpiel's boards list the top row first."""
    return rows - int(name[1:]), ord(name[0]) - ord("a")


@pytest.mark.parametrize("seed", range(8))
def test_tic_tac_toe_plays_like_openspiels(seed):
    ours, theirs = ros.game("tic-tac-toe").new_initial_state(), pyspiel.load_game("tic_tac_toe").new_initial_state()
    rng = random.Random(seed)
    while not theirs.is_terminal():
        assert not ours.is_terminal()
        mapped = {}
        for action in ours.legal_actions():
            row, col = _cell_of(ours.action_to_string(action), 3)
            mapped[row * 3 + col] = action
        assert sorted(mapped) == theirs.legal_actions()
        choice = rng.choice(theirs.legal_actions())
        theirs.apply_action(choice)
        ours.apply_action(mapped[choice])
    assert ours.is_terminal() and ours.returns() == theirs.returns()


@pytest.mark.parametrize("seed", range(4))
def test_connect_four_plays_like_openspiels(seed):
    ours, theirs = ros.game("connect-four").new_initial_state(), pyspiel.load_game("connect_four").new_initial_state()
    rng = random.Random(seed)
    while not theirs.is_terminal():
        assert not ours.is_terminal()
        mapped = {_cell_of(ours.action_to_string(a), 6)[1]: a for a in ours.legal_actions()}
        assert sorted(mapped) == theirs.legal_actions()
        choice = rng.choice(theirs.legal_actions())
        theirs.apply_action(choice)
        ours.apply_action(mapped[choice])
    assert ours.is_terminal() and ours.returns() == theirs.returns()


def test_action_ids_and_the_observation_tensor():
    game = ros.game("tic-tac-toe")
    state = game.new_initial_state()
    # 9 cells: a placement on cell i (a3 b3 c3 a2 ... in the board's cell order) is ((0 * 10) + i + 1) * 16
    assert game.num_distinct_actions() == 10 * 10 * ros.SAME_ENDS
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == sorted(
        f"{c}{r}" for c in "abc" for r in "123")
    a1 = next(a for a in state.legal_actions() if state.action_to_string(a) == "a1")
    state.apply_action(a1)
    assert game.observation_tensor_shape() == [2, 3, 3]  # one plane per symbol: o, x
    planes = [state.observation_tensor()[i * 9:(i + 1) * 9] for i in range(2)]
    assert planes[0] == [0.0] * 9
    assert planes[1] == [0, 0, 0, 0, 0, 0, 1, 0, 0]  # x on a1: the bottom row (listed last), first column
    assert state.observation_string(0) == str(state)


def test_options_are_openspiel_parameters():
    game = ros.game("konane", rows=4, cols=4, max_plies=7)
    assert game.get_parameters() == {"rows": 4, "cols": 4, "misere": False, "max_plies": 7}
    assert game.max_game_length() == 7
    same = pyspiel.load_game("rulesdsl_konane(rows=4,cols=4)")
    assert str(same.new_initial_state()) == str(game.new_initial_state())


def test_a_game_cut_at_max_plies_is_a_draw():
    state = ros.game("konane", rows=6, cols=6, max_plies=2).new_initial_state()
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


@pytest.mark.parametrize("options, error", [
    ({"rows": 99}, OptionError), ({"nosuch": 1}, OptionError), ({"max_plies": 0}, RulesdslError),
])
def test_bad_options_are_one_line_errors(options, error):
    with pytest.raises(error) as raised:
        ros.game("konane", **options)
    assert "\n" not in str(raised.value)


def test_without_openspiel_the_adapter_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(RulesdslError, match="pip install open-spiel"):
        ros.game("konane")


def test_short_names():
    assert ros.short_name("tic-tac-toe") == "rulesdsl_tic_tac_toe"
    assert ros.short_name("some/where/My Game.rules") == "rulesdsl_my_game"


def test_states_serialize_and_come_back():
    game = ros.game("konane", rows=4, cols=4)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()
