"""Pentago and ultimate tic-tac-toe on the kernel, side by side with OpenSpiel (kernel-driven).

tests/test_openspiel_turns.py holds the generic path to OpenSpiel; this holds
the kernel to it, with nothing but the kernel's playout (one ply, the move
chosen by index) and perft on our side. At every turn of a seeded random
game: the same board, the same player to move, the same number of legal turns
(pentago: the kernel's perft over the two plies of a turn against OpenSpiel's
place-and-turn actions; ultimate tic-tac-toe: the kernel's perft 1 against
OpenSpiel's cells, a free choice of board expanded), and the same end and
winner. OpenSpiel's turn, picked at random, is then found among the kernel's
own children: the first ply that marks the cell OpenSpiel marked, then (in
pentago) the turn of a block that gives OpenSpiel's board. 100 games of each
by default, 1,000 under ``pytest -m deep``.
"""

from __future__ import annotations

import functools
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from helpers import Chosen  # noqa: E402
from test_openspiel_turns import PAIRINGS, Divergence, our_board, spiel_turns  # noqa: E402

from rulesdsl.interpreter.compile.load import load_game  # noqa: E402

GAMES = 100
DEEP_GAMES = 1000
PAIRS = {p.ours: p for p in PAIRINGS if p.ours in ("pentago", "ultimate-tic-tac-toe")}
PLIES = {"pentago": 2, "ultimate-tic-tac-toe": 1}  # the plies of one turn here


def kernel_children(compiled, state):
    """The positions one ply of the kernel reaches from ``state``, move by move."""
    count = compiled.perft(state, 1)
    assert count is not None, "the kernel does not take this position"
    return [compiled.playout(state, Chosen(i), 1).state for i in range(count)]


@functools.cache
def loaded(name: str):
    """Our game (on the kernel) and OpenSpiel's, loaded once."""
    game = load_game(name)
    assert game._compiled.available()
    return game, pyspiel.load_game(PAIRS[name].theirs)


def play_on_the_kernel(name: str, seed: int) -> int:
    """One seeded random game in both; returns its number of turns. Raises :class:`Divergence`."""
    pair = PAIRS[name]
    game, spiel = loaded(name)
    compiled = game._compiled
    ours, theirs = game.initial_state(), spiel.new_initial_state()
    rng, turns = random.Random(seed), 0
    cell = {c.name: c.index for c in game.geometry.cells}

    def fail(what: str) -> None:
        raise Divergence(f"{name}, seed {seed}, turn {turns}: {what}\n  ours: {game.format_position(ours)}\n"
                         f"  OpenSpiel:\n{theirs}")

    while True:
        board = pair.board(str(theirs))
        if our_board(game, ours) != board:
            fail("the boards differ")
        end = compiled.playout(ours, Chosen(0), 1)
        over = end.plies == 0 and end.outcome is not None
        if over != theirs.is_terminal():
            fail(f"over on the kernel: {over}, in OpenSpiel: {theirs.is_terminal()}")
        if over:
            returns = theirs.returns()
            winner = None if returns[0] == returns[1] else (0 if returns[0] > returns[1] else 1)
            if winner != end.outcome.winner:
                fail(f"winner on the kernel: {end.outcome.winner}, in OpenSpiel: {winner}")
            return turns
        if ours.turn != theirs.current_player():
            fail(f"to move on the kernel: {ours.turn}, in OpenSpiel: {theirs.current_player()}")
        if name == "pentago":  # one action a turn (spiel_turns would look at each action's child)
            actions = {pair.to_ours(theirs.action_to_string(a)): [a] for a in theirs.legal_actions()}
        else:
            actions = spiel_turns(theirs, pair.to_ours)
        if compiled.perft(ours, PLIES[name]) != len(actions):
            fail(f"legal turns on the kernel: {compiled.perft(ours, PLIES[name])}, in OpenSpiel: {len(actions)}")
        key = rng.choice(sorted(actions))
        for action in actions[key]:
            theirs.apply_action(action)
        placed = cell[key.split()[0]]
        ours = next((c for c in kernel_children(compiled, ours) if c.board[placed] != ours.board[placed]), ours)
        if PLIES[name] == 2:  # the turn of a block that gives OpenSpiel's board
            after = pair.board(str(theirs))
            ours = next((c for c in kernel_children(compiled, ours) if our_board(game, c) == after), ours)
        turns += 1


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_random_games_on_the_kernel_agree_with_openspiel(name):
    assert sum(play_on_the_kernel(name, seed) > 0 for seed in range(GAMES)) == GAMES


@pytest.mark.deep
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_a_thousand_random_games_on_the_kernel_agree_with_openspiel(name):
    assert sum(play_on_the_kernel(name, seed) > 0 for seed in range(DEEP_GAMES)) == DEEP_GAMES
