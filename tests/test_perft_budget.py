"""A deep perft on the Python kernel for as long as loading the machine code would take, then the machine code
(interpreter/kernel/compiled.py, perft_table.within): the count is the same whichever finishes it."""

from __future__ import annotations

import pytest

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import compiled, perft_table
from rulesdsl.interpreter.kernel.perft_table import OverBudget, with_table, within


def stand_in_kernel(calls: list) -> tuple[dict, object]:
    """A stand-in kernel: two moves a position, to two different positions (a binary tree, 2**depth leaves)."""
    namespace: dict = {}

    def perft(a, turn, last, hist, depth):
        calls.append((a, depth))
        if depth == 1:
            return 2
        return namespace["perft"](2 * a, turn, last, hist, depth - 1) + namespace["perft"](2 * a + 1, turn, last,
                                                                                            hist, depth - 1)

    namespace["perft"] = perft
    return namespace, with_table(namespace)


def test_a_spent_budget_stops_the_count_and_what_was_counted_stays(monkeypatch):
    monkeypatch.setattr(perft_table, "CHECK_EVERY", 64)
    calls: list = []
    _, counted = stand_in_kernel(calls)
    with pytest.raises(OverBudget), within(0.0):
        counted(1, 0, 0, None, 10)
    kept = dict(counted.table)
    assert kept and all(count == 2 ** depth for (_, _, _, _, depth), count in kept.items())
    calls.clear()
    assert counted(1, 0, 0, None, 10) == 2 ** 10  # no budget now: counted to the end, the kept part not again
    assert not set(kept) & {(a, 0, 0, None, d) for a, d in calls}


def test_a_count_within_its_budget_is_not_stopped():
    _, counted = stand_in_kernel([])
    with within(60.0):
        assert counted(1, 0, 0, None, 12) == 2 ** 12


def test_a_deep_perft_over_budget_without_machine_code_is_counted_in_python(monkeypatch):
    """Grid Abalone's perft 4 (tests/test_perft_table.py, the issue: 37,082) with every perft from depth 3 on
    given no time at all, and no machine code to load: the Python kernel counts it to the end."""
    game = load_game("abalone", {"captures": "2"})
    monkeypatch.setenv("RULESDSL_NATIVE", "1")  # (machine code allowed; none is loaded: ``native`` is replaced)
    monkeypatch.setattr(compiled, "NATIVE_PERFT_DEPTH", 3)
    monkeypatch.setattr(compiled, "NATIVE_PERFT_BUDGET", 0.0)
    monkeypatch.setattr(perft_table, "CHECK_EVERY", 1)
    play = game._compiled
    loads = []
    monkeypatch.setattr(play, "native", lambda wait=False, start=True, load=True: loads.append(load))
    play.kernel().perft.table.clear()
    play._may_load = True
    assert game.perft(game.initial_state(), 4) == 37082
    assert True in loads  # it asked for the machine code once the budget was spent
    assert play._may_load is False  # and, finding none, counts in Python from now on
    assert game.perft(game.initial_state(), 3) == 2971


def test_counts_one_and_two_plies_shallower_predict_a_long_count(monkeypatch):
    """``rulesdsl perft GAME --depth 6`` counts perft 5 below each first move right after perft 4 below each:
    when the time those took, grown once more as it grew, is over the budget, the first count of 5 plies asks
    for the machine code at once (the prediction alone is checked here: no machine code is loaded)."""
    game = load_game("abalone")
    play = game._compiled
    loads = []
    monkeypatch.setattr(play, "native", lambda wait=False, start=True, load=True: loads.append(load))
    monkeypatch.setattr(play, "_seconds_at", {3: 0.01, 4: 0.2})  # 0.2 * 0.2 / 0.01 = 4 s predicted for 5 plies
    assert play._predicts_long(5) and not play._predicts_long(4) and not play._predicts_long(6)
    state = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[0])
    game.perft(state, 5)
    assert loads[0] is True
    monkeypatch.setattr(play, "_seconds_at", {3: 0.1, 4: 0.2})  # 0.4 s predicted: the Python kernel counts
    assert not play._predicts_long(5)
