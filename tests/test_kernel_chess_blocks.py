"""The chess family's building blocks on the kernel play exactly what the generic path plays.

Promotion choices (one move per kind), ``slide ... exactly 2 ... passing`` and
``step ... to passed`` (en passant, in two words after the bitboards),
``must capture by landing`` (a capture in passing does not oblige), ``plies
since KIND move or capture`` and ``repetitions`` (the earlier positions' keys).
Perft from the start is the published figure; the hand-made positions'
counts are worked out by hand (their comments say how); on random positions
the kernel's plies, outcomes and perft are the generic path's.
"""

from __future__ import annotations

import random

import pytest
from helpers import Chosen, kernel_plies_are_reference_moves

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game


@pytest.fixture(scope="module")
def antichess():
    game = load_game("antichess")
    assert game.has_fast_playout
    return game


def successors(game, state) -> set:
    """The positions one kernel ply reaches (one per index the kernel is asked for)."""
    count = game.perft(state, 1)
    return {game.playout(state, Chosen(i), 1).state for i in range(count)}


def reference(game, state) -> set:
    return {game.apply(state, move) for move in game.legal_moves(state)}


@pytest.mark.parametrize("depth, count", [(1, 20), (2, 400), (3, 8067), (4, 153299)])
def test_antichess_perft_from_the_start_is_the_published_figure(antichess, depth, count):
    assert antichess.perft(antichess.initial_state(), depth) == count


def test_a_pawn_on_the_far_row_may_become_any_of_five_kinds(antichess):
    # a white pawn on e7, a black king on a1 out of reach: e7e8 as Q, R, B, N or K (5); nothing to take
    state = antichess.parse_position("(w - 0 -------- ----P--- -------- -------- -------- -------- -------- k-------)")
    assert antichess.perft(state, 1) == 5
    assert successors(antichess, state) == reference(antichess, state)
    rows = {antichess.format_position(s).split()[3] for s in successors(antichess, state)}
    assert rows == {"----Q---", "----R---", "----B---", "----N---", "----K---"}


def test_a_capture_onto_the_far_row_is_five_moves_and_compulsory(antichess):
    # pawn e7 takes d8 (five kinds) or steps to e8 (five); taking is compulsory: 5
    state = antichess.parse_position("(w - 0 ---r---- ----P--- -------- -------- -------- -------- -------- k-------)")
    assert antichess.perft(state, 1) == 5
    assert successors(antichess, state) == reference(antichess, state)


def test_a_double_step_opens_the_cell_for_one_ply(antichess):
    # black d7d5 beside a white pawn on e5: white may take on d6 in passing, or not (no capture obliges):
    # e5e6, e5d6 (taking d5) and the king's three moves from h1 (g1, g2, h2): 5
    state = antichess.parse_position("(b - 0 -------k ---p---- -------- ----P--- -------- -------- -------- -------K)")
    assert successors(antichess, state) == reference(antichess, state)  # the kernel's d7d5 opens d6 too
    after = antichess.apply(state, antichess.parse_move(state, "d7d5"))
    assert antichess.format_position(after).split()[1] == "d6"
    assert antichess.perft(after, 1) == 5
    assert successors(antichess, after) == reference(antichess, after)
    taken = [s for s in successors(antichess, after) if antichess.format_position(s).split()[5] == "---P----"]
    assert len(taken) == 1 and "p" not in antichess.format_position(taken[0]).split()[6]


def test_a_capture_in_passing_does_not_oblige_but_a_landing_capture_drops_it(antichess):
    # d6 open (black just played d7d5) and a black knight on g2: Kh1xg2 is the only capture by landing,
    # so it is the only move (e5xd6 in passing is dropped with the rest)
    state = antichess.parse_position("(w d6 0 -------k -------- -------- ---pP--- -------- -------- ------n- -------K)")
    assert antichess.perft(state, 1) == 1
    assert successors(antichess, state) == reference(antichess, state)


def test_nobody_can_take_in_passing_so_nothing_opens(antichess):
    # white e2e4 with no black pawn beside e4: the passed field stays empty, as in the reference
    state = antichess.parse_position("(w - 0 -------k -------- -------- -------- -------- -------- ----P--- -------K)")
    double = [s for s in successors(antichess, state) if antichess.format_position(s).split()[7] == "----P---"]
    assert len(double) == 1 and antichess.format_position(double[0]).split()[1] == "-"


def test_the_clock_counts_plies_since_a_pawn_move_or_capture(antichess):
    # clock 99: a king move makes it 100, a draw; a pawn move resets it
    state = antichess.parse_position("(w - 99 -------k -------- -------- -------- -------- -------- P------- -------K)")
    ends = {antichess.format_position(s).split()[2]: antichess.outcome(s) for s in successors(antichess, state)}
    assert set(ends) == {"0", "100"}
    assert ends["100"] is not None and ends["100"].winner is None and ends["0"] is None
    assert successors(antichess, state) == reference(antichess, state)


def test_the_third_repetition_is_a_draw_on_the_kernel(antichess):
    state = antichess.parse_position("(w - 0 -------k -------- -------- -------- -------- -------- -------- K-------)")
    shuffle = ("a1b1", "h8g8", "b1a1", "g8h8")
    for number in range(8):
        assert antichess.playout(state, Chosen(0), 0).outcome is None
        if number == 7:  # one ply before the third time: the kernel counts the positions before it
            assert successors(antichess, state) == reference(antichess, state)
            assert antichess.perft(state, 2) == generic_perft(antichess, state, 2)
        state = antichess.apply(state, antichess.parse_move(state, shuffle[number % 4]))
    end = antichess.playout(state, Chosen(0), 1)
    assert end.plies == 0 and end.outcome is not None and end.outcome.winner is None
    assert end.outcome == antichess.status(state)[1]


def test_antichess_kernel_plies_are_the_reference_moves(antichess):
    kernel_plies_are_reference_moves(antichess, games=3, seed=5, cap=120, perft_every=15)


def test_whole_antichess_playouts_end_as_the_rules_say(antichess):
    for seed in range(10):
        end = antichess.playout(antichess.initial_state(), random.Random(seed))
        assert end.outcome is not None and end.outcome == antichess.status(end.state)[1]

