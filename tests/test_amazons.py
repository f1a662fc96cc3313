"""Amazons: a turn in two parts (``then``) and a neutral arrow, against OpenSpiel.

OpenSpiel splits a turn into three actions (pick a queen, move it, shoot);
``rules/amazons.rules`` makes the move and the shot one ply each. So a whole
turn is compared: the set of boards one turn can lead to, which names every
(queen, landing cell, arrow cell) triple once. When ``open_spiel`` is not
installed the comparison is skipped; the counts below are OpenSpiel's
figures quoted in issue 11 and hand counts.
"""

from __future__ import annotations

import random

import pytest
from helpers import moves_of

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.search.minimax import perft

# OpenSpiel's board text: X moves first (our white "W"), O second, # an arrow.
TO_SPIEL = {"W": "X", "B": "O", "x": "#", "-": "."}


@pytest.fixture(scope="module")
def six():
    return load_game("amazons", {"size": "6"})


def test_a_whole_turn_is_two_plies(six):
    # OpenSpiel: 544 whole turns from the 6 x 6 start; 40 queen moves (hand count in the rule file).
    assert perft(six, six.initial_state(), 2) == 544
    state = six.initial_state()
    move = six.parse_move(state, "a2-a4")
    after = six.apply(state, move)
    assert after.turn == state.turn and six.geometry.cells[after.last].name == "a4"


def test_the_arrow_is_nobodys_and_ends_the_turn(six):
    state = six.initial_state()
    state = six.apply(state, six.parse_move(state, "a2-a4"))
    state = six.apply(state, six.parse_move(state, "a4-a2"))
    assert state.turn == 1 and six.format_position(state).startswith('(b "" ')
    a2 = six.geometry.index_of("a2")
    assert state.board[a2] == "x"
    assert "a1-a3" not in moves_of(six, '(w "" ------ ------ ------ ------ x----- W----B)')


def test_ten_by_ten_counts():
    game = load_game("amazons")
    # 80 queen moves (hand count in the rule file); 2,176 whole turns (OpenSpiel).
    assert perft(game, game.initial_state(), 2) == 2176


def board_text(game, state) -> str:
    """The board as OpenSpiel prints it: rows top first."""
    rows = game.geometry.rows_listed
    return "\n".join("".join(TO_SPIEL[state.board[c]] for c in row) for row in rows)


def our_turns(game, state) -> dict[str, object]:
    """Every board one whole turn leads to, with the state after it."""
    out = {}
    for move in game.legal_moves(state):
        mid = game.apply(state, move)
        for shot in game.legal_moves(mid):
            end = game.apply(mid, shot)
            key = board_text(game, end)
            assert key not in out, "two turns lead to the same board"
            out[key] = end
    return out


def spiel_turns(spiel_state) -> dict[str, object]:
    """Every board one whole OpenSpiel turn (three actions) leads to."""
    out = {}
    for a in spiel_state.legal_actions():
        picked = spiel_state.child(a)
        for b in picked.legal_actions():
            moved = picked.child(b)
            for c in moved.legal_actions():
                end = moved.child(c)
                out[str(end).strip()] = end
    return out


@pytest.mark.parametrize("size,games,seed", [(6, 3, 11), (8, 1, 12)])
def test_random_games_agree_with_openspiel(size, games, seed):
    pyspiel = pytest.importorskip("pyspiel")
    game = load_game("amazons", {"size": str(size)})
    rng = random.Random(seed)
    for _ in range(games):
        ours = game.initial_state()
        theirs = pyspiel.load_game("amazons", {"board_size": size}).new_initial_state()
        assert board_text(game, ours) == str(theirs).strip()
        while True:
            mine, spiel = our_turns(game, ours), spiel_turns(theirs)
            assert set(mine) == set(spiel), (game.format_position(ours), str(theirs))
            outcome = game.outcome(ours)
            assert (outcome is not None) == theirs.is_terminal() == (not mine)
            if outcome is not None:
                winner = 0 if theirs.returns()[0] > 0 else 1
                assert outcome.winner == winner
                break
            key = rng.choice(sorted(mine))
            ours, theirs = mine[key], spiel[key]
