"""Walls on the kernel (``walk``, ``build ... from hand``, ``keep ... can reach far row``) play what the generic
path plays.

Quoridor compiles to the kernel for 2, 3 and 4 players. On positions of random
games played to the end on 3 x 3 to 5 x 5 squares (walls enough to shut paths,
leaps straight and to the sides, blocked players passing), the kernel's
children and outcomes are the generic path's (as many times each), each ply of
a seeded playout is a legal move, and perft to depth 3 counts what the generic
path counts. The rule file's hand-checked positions give their move counts
(derived by hand there), its start counts (OpenSpiel's) come from the kernel,
and on 4 x 4 squares (a 7 x 7 grid, one machine word) the machine code's
children are the Python kernel's.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import kernel_children, random_positions

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.kernel import native as native_module

SETTINGS = [{"size": "3", "walls": "2"}, {"size": "4", "walls": "3", "players": "3"},
            {"size": "5", "walls": "4", "players": "4"}, {"size": "5", "walls": "6"}]
IDS = ["3", "4-three", "5-four", "5"]



@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
def test_children_and_outcomes_are_the_generic_ones(settings):
    game = load_game("quoridor", settings)
    assert game.has_fast_playout
    seen = Counter()
    for state in random_positions(game, seed=7, count=150, every=1, cap=150):
        moves, outcome = game.status(state)
        got, children = kernel_children(game, state)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, mv) for mv in moves), game.format_position(state)
        seen["over" if outcome else "walls" if any(state.hand) else "no walls"] += 1
    assert seen["over"] and seen["walls"], seen


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
def test_every_ply_of_a_seeded_playout_is_a_legal_move(settings):
    game = load_game("quoridor", settings)
    for seed in range(2):
        rng, state = random.Random(seed), game.initial_state()
        for _ in range(60):
            moves, outcome = game.status(state)
            step = game.playout(state, rng, 1)
            if outcome is not None:
                assert step.outcome == outcome and step.plies == 0
                break
            assert step.state in {game.apply(state, mv) for mv in moves}, game.format_position(state)
            state = step.state


@pytest.mark.parametrize("settings", SETTINGS[:3], ids=IDS[:3])
def test_perft_to_depth_3_counts_what_the_generic_path_counts(settings):
    game = load_game("quoridor", settings)
    for state in random_positions(game, seed=8, count=40, every=1, cap=150)[::10]:
        for depth in (1, 2, 3):
            assert game._compiled.perft(state, depth) == generic_perft(game, state, depth), game.format_position(state)


@pytest.mark.parametrize("position,settings,count", [
    ("(0 0/0 ----- ----- --@-- ----- --0--)", {"size": "3", "walls": "1"}, 3),  # a leap
    ("(0 0/0 ----- -###- --@-- ----- --0--)", {"size": "3", "walls": "1"}, 4),  # a wall behind: to the sides
    ("(@ 0/1 ----@ ----- -#--- -#--- 0#---)", {"size": "3", "walls": "1"}, 6),  # a4-c4 would shut white in
    ("(% 0/0/0/0 @---- --### 0-X-% --### -----)", {"size": "3", "walls": "0", "players": "4"}, 1),  # it passes
])
def test_the_hand_checked_positions(position, settings, count):
    game = load_game("quoridor", settings)
    state = load_position(game, position)[1]
    assert game._compiled.perft(state, 1) == count


def test_the_start_counts_and_a_win_come_from_the_kernel():
    for players in ("2", "4"):
        game = load_game("quoridor", {"size": "5", "walls": "3", "players": players})
        assert [game._compiled.perft(game.initial_state(), d) for d in (1, 2)] == [35, 1109]  # OpenSpiel's
    game = load_game("quoridor", {"size": "3", "walls": "0", "players": "4"})
    state = load_position(game, "(@ 0/0/0/0 @---- ----- ----0 ----- --%-X)")[1]
    outcome, children = kernel_children(game, state)
    assert children == [] and outcome.winner == 1  # red reaches the east edge (by hand)


def test_the_machine_code_expands_as_the_python_kernel():
    if not (native_module.enabled() and native_module.numba_available()):
        pytest.skip("numba is not installed or RULESDSL_NATIVE=0")
    game = load_game("quoridor", {"size": "4", "walls": "3"})
    native = game._compiled.native(wait=True)
    assert native is not None
    for state in random_positions(game, seed=9, count=60, every=1, cap=150)[::3]:
        assert game._compiled.children(state, native) == kernel_children(game, state)
