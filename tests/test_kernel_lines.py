"""Slides by the pieces in line, ``forms one group`` and go-again turns ``in same direction`` on the kernel.

Lines of Action (``slide all by pieces in line over friend to empty or
enemy``, ``mover/opponent forms one group``) and straight Konane (``again after
jump with same piece in same direction or pass``: the kernel keeps the last
jump's direction in one more word) compile to the kernel. On positions reached
by seeded random play, the kernel must reach exactly the positions the
reference (generic) path's legal moves reach, end finished games with the same
outcome, play every ply of a seeded playout as a legal move of the reference,
and count perft to depth 3 as the reference does. The independent numbers are
OpenSpiel's lines_of_action, played in the same run where ``open_spiel`` is
installed (its perft from the start, 36, 1,244 and 44,952, is also the one the
rule file quotes, and 36 is counted by hand there), and the straight Konane
counts the rule file derives by hand.
"""

from __future__ import annotations

import random

import pytest
from helpers import Chosen, kernel_plies_are_reference_moves

from rulesdsl.interpreter.compile.load import load_game, load_position

CASES = [("lines-of-action", {}), ("konane-straight", {"rows": "8", "cols": "8"}),
         ("konane-straight", {"rows": "6", "cols": "6"}), ("konane-straight", {})]
IDS = [f"{n}-{'-'.join(s.values())}" for n, s in CASES]


@pytest.mark.parametrize("name,settings", CASES, ids=IDS)
def test_the_kernel_reaches_the_reference_moves_and_outcomes(name, settings):
    game = load_game(name, settings)
    assert game.has_fast_playout
    kernel_plies_are_reference_moves(game, games=4, seed=11, cap=120, perft_every=15)


@pytest.mark.parametrize("name,settings", CASES, ids=IDS)
def test_every_ply_of_a_seeded_kernel_playout_is_a_reference_move(name, settings):
    game = load_game(name, settings)
    for seed in range(4):
        state, rng = game.initial_state(), random.Random(seed)
        for _ in range(300):
            step = game.playout(state, rng, 1)
            moves, outcome = game.status(state)
            if step.plies == 0:
                assert step.outcome == outcome is not None
                break
            assert outcome is None
            assert step.state in {game.apply(state, move) for move in moves}, game.format_position(state)
            state = step.state
        whole = game.playout(game.initial_state(), random.Random(seed))
        if whole.outcome is not None:
            assert whole.outcome == game.status(whole.state)[1]


def test_lines_of_action_perft_from_the_start_is_openspiels():
    game = load_game("lines-of-action")
    counts = [game.perft(game.initial_state(), depth) for depth in (1, 2, 3)]
    assert counts == [36, 1244, 44952]  # the published figures the rule file quotes (36 by hand there)
    pyspiel = pytest.importorskip("pyspiel")

    def spiel_perft(state, depth: int) -> int:
        if depth == 1:
            return len(state.legal_actions())
        return sum(spiel_perft(state.child(a), depth - 1) for a in state.legal_actions())

    start = pyspiel.load_game("lines_of_action").new_initial_state()
    assert counts == [spiel_perft(start, depth) for depth in (1, 2, 3)]


@pytest.mark.parametrize("seed", range(4))
def test_lines_of_action_kernel_counts_openspiels_moves_in_random_games(seed):
    pyspiel = pytest.importorskip("pyspiel")
    game = load_game("lines-of-action")
    rng = random.Random(seed)
    ours = game.initial_state()
    theirs = pyspiel.load_game("lines_of_action").new_initial_state()
    while not theirs.is_terminal():
        assert game.perft(ours, 1) == len(theirs.legal_actions()), game.format_position(ours)
        assert game.playout(ours, Chosen(0), 0).outcome is None
        mine = {game.format_move(ours, mv): mv for mv in game.legal_moves(ours)}
        spiel = {theirs.action_to_string(theirs.current_player(), a).replace("x", "-"): a
                 for a in theirs.legal_actions()}
        move = rng.choice(sorted(mine))
        ours, theirs = game.apply(ours, mine[move]), theirs.child(spiel[move])
    returns = theirs.returns()
    if returns[0] != 0:  # OpenSpiel's draws (a repeated board, its ply cap) are no rule of the file
        end = game.playout(ours, Chosen(0), 1)
        assert end.plies == 0 and end.outcome is not None, game.format_position(ours)
        assert end.outcome.winner == (0 if returns[0] > 0 else 1)


def test_a_move_that_makes_both_groups_wins_for_the_mover():
    game = load_game("lines-of-action")
    # White: a8, b7 and a stray f2; black: f4 and g1. Column f holds f4 and f2, so f4 moves two cells south and
    # takes f2: black's f2 and g1 touch, and white's a8 and b7 are now one group too. The mover's rule comes
    # first: black wins.
    game, state = load_position(game, "(x o------- -o------ -------- -------- -----x-- -------- -----o-- ------x-)")
    assert game.playout(state, Chosen(0), 0).outcome is None
    move = next(mv for mv in game.legal_moves(state) if game.format_move(state, mv) == "f4-f2")
    child = game.apply(state, move)
    end = game.playout(child, Chosen(0), 1)
    assert end.plies == 0 and end.outcome is not None and end.outcome.winner == 0
    assert end.outcome == game.status(child)[1]


def test_straight_konane_counts_of_the_rule_file_on_the_kernel():
    game = load_game("konane-straight")
    assert game.has_fast_playout and "heading" in game._compiled.kernel().words
    # From the start: b2-d2; d1-b1; a1-c1; d3-d1 (south), then d1 could only go west: the turn passes, and
    # white has one jump. Any direction would give ply 5 two moves.
    assert [game.perft(game.initial_state(), depth) for depth in range(1, 6)] == [1, 1, 1, 1, 1]
    # a1-c1; then c1-e1 or stop; after the stop black jumps d1-b1 and white has no stone left.
    game, state = load_position(game, '(w "" wb-b-)')
    assert [game.perft(state, depth) for depth in range(1, 5)] == [1, 2, 1, 0]
    # A go-again stone read from a string may go on in any direction: c1-c3 or a pass.
    game, state = load_position(game, "(w c1 --- --b --w)")
    assert game.perft(state, 1) == 2


def test_the_kernel_keeps_the_jumps_direction_in_the_state():
    game = load_game("konane-straight")
    game, state = load_position(game, '(w "" wb-b-)')
    child = game.playout(state, Chosen(0), 1).state  # a1-c1, going east; c1 may go on east
    assert child == game.apply(state, game.legal_moves(state)[0])
    assert child.last >= 0 and child.heading >= 0
    assert child.heading == game._compiled.tables.heading((1, 0))
