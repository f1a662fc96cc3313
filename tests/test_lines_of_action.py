"""Lines of Action: ``slide ... by pieces in line over friend`` and ``forms one group``.

The perft figures are OpenSpiel's (lines_of_action, from the standard start);
perft(1) = 36 is also counted by hand in the rule file. When ``open_spiel`` is
installed, seeded random games are played side by side with it, comparing the
legal moves, the end and the winner at every ply. OpenSpiel also draws a game
when a board repeats or after 1,000 plies; the rule file has no such rule, so
a game stops being compared there.
"""

from __future__ import annotations

import random

import pytest
from helpers import moves_of

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.search.minimax import perft

TO_SPIEL = {"x": "x", "o": "o", "-": "."}


@pytest.fixture(scope="module")
def loa():
    return load_game("lines-of-action")


def test_perft_matches_openspiel(loa):
    # OpenSpiel lines_of_action: 36, 1244, 44952.
    assert [perft(loa, loa.initial_state(), d) for d in (1, 2)] == [36, 1244]


def test_distance_is_the_number_of_pieces_on_the_line(loa):
    # b4 (black) with one white piece on its row (f4): across the row 2
    # pieces, so b4-d4; up and down the column only b4, so b5 and b3; the
    # diagonals hold only b4: a5, c5, a3, c3. (h8 and a8 keep both players
    # in two groups, away from b4's lines.)
    position = "(x o------x -------- -------- -------- -x---o-- -------- -------- --------)"
    assert {m for m in moves_of(loa, position) if m.startswith("b4")} == {
        "b4-d4", "b4-b5", "b4-b3", "b4-a5", "b4-c5", "b4-a3", "b4-c3"}


def test_own_pieces_are_passed_enemy_pieces_are_not(loa):
    # Row 4: x x - o - - - -: three pieces, so a4 moves three cells: over its
    # own b4 to d4, landing on white, a capture; b4 moves three cells to e4,
    # but white on d4 stands in the way.
    position = "(x o------x -------- -------- -------- xx-o---- -------- -------- --------)"
    moves = moves_of(loa, position)
    assert "a4-d4" in moves and "b4-e4" not in moves


def test_one_group_wins(loa):
    # Black's pieces touch diagonally: one group; white's two are apart.
    game = loa
    state = game.parse_position("(o x------- -x------ -------- -------- -------- -------- o------- ------o-)")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == 0


def spiel_moves(state) -> dict[str, int]:
    """OpenSpiel's legal actions by our notation (``c1xa3`` is our ``c1-a3``)."""
    return {state.action_to_string(state.current_player(), a).replace("x", "-"): a
            for a in state.legal_actions()}


def board_text(game, state) -> str:
    return "".join(TO_SPIEL[state.board[c]] for row in game.geometry.rows_listed for c in row)


def spiel_board(state) -> str:
    lines = str(state).split("\n")[:8]
    return "".join(line[1:] for line in lines)


@pytest.mark.parametrize("seed", range(8))
def test_random_games_agree_with_openspiel(loa, seed):
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(seed)
    ours = loa.initial_state()
    theirs = pyspiel.load_game("lines_of_action").new_initial_state()
    while True:
        assert board_text(loa, ours) == spiel_board(theirs)
        outcome = loa.outcome(ours)
        if theirs.is_terminal():
            returns = theirs.returns()
            if returns[0] == 0:  # a draw by a repeated board or the ply cap: no such rule here
                return
            assert outcome is not None, loa.format_position(ours)
            assert outcome.winner == (0 if returns[0] > 0 else 1)
            return
        assert outcome is None, loa.format_position(ours)
        mine = {loa.format_move(ours, mv): mv for mv in loa.legal_moves(ours)}
        spiel = spiel_moves(theirs)
        assert set(mine) == set(spiel), loa.format_position(ours)
        move = rng.choice(sorted(mine))
        ours, theirs = loa.apply(ours, mine[move]), theirs.child(spiel[move])
