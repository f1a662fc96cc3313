"""Capture chains as one move, flying kings, must-take-most, draws by quiet plies, straight go-again.

Perft figures are published ones (quoted in issue 11): English draughts 7, 49,
302, 1469, 7361, 36768, 179740, 845931, 3963680 (a chain is one move; with
one ply per jump the seventh is 179,255); international draughts 9, 81, 658,
4265, 27117, 167140, 1049442. The default run counts checkers to depth 7 and
international draughts to depth 6 (a few seconds); the deepest ones take from
ten seconds to minutes: ``pytest -m deep`` runs them.
"""

from __future__ import annotations

import pytest

from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft

CHECKERS = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680]
DRAUGHTS = [9, 81, 658, 4265, 27117, 167140, 1049442]


def count(name: str, depth: int, **settings: str) -> int:
    game = load_game(name, settings)
    return perft(game, game.initial_state(), depth)


def deep_from(first_deep: int, last: int) -> list:
    """Depths 1..last, those from ``first_deep`` on marked deep (left out of the default run)."""
    return [pytest.param(d, marks=pytest.mark.deep) if d >= first_deep else d for d in range(1, last + 1)]


@pytest.mark.parametrize("depth", deep_from(8, 8))
def test_checkers_perft(depth):
    assert count("checkers", depth) == CHECKERS[depth - 1]


@pytest.mark.parametrize("depth", deep_from(7, 7))
def test_draughts_perft(depth):
    assert count("draughts", depth) == DRAUGHTS[depth - 1]


@pytest.mark.deep  # about two and a half minutes on a loaded machine
def test_checkers_perft_deep():
    assert count("checkers", 9) == CHECKERS[8]


def test_one_ply_per_jump_differs_from_depth_seven():
    assert count("checkers", 7, chains="jump") == 179255


def test_forty_quiet_plies_draw_checkers():
    game = load_game("checkers")
    game, state = load_position(game, '(w "" -------- -------- -------- -------B -------- -------- -------- W-------)')
    plies = 0
    while game.outcome(state) is None:
        moves = game.legal_moves(state)
        state = game.apply(state, moves[0])
        plies += 1
        assert plies <= 40
    assert plies == 40 and game.outcome(state).winner is None
    assert state.quiet == 40


def test_a_capture_resets_the_count():
    game = load_game("checkers")
    game, state = load_position(game, '(w "" -------- -------- -------- -------- -------- -------- -b------ w-----w-)')
    state = state._replace(quiet=30)
    after = game.apply(state, game.parse_move(state, "a1-c3"))
    assert after.quiet == 0


def test_straight_go_again_keeps_its_direction():
    game = load_game("konane-straight")
    # 1 x 7: a1 jumps b1 east to c1; c1 may go on east over d1 to e1; then e1 east over f1 to g1.
    game, state = load_position(game, '(w "" wb-b-b-)')
    state = game.apply(state, game.parse_move(state, "a1-c1"))
    assert state.heading >= 0 and game.format_position(state) == '(w c1 --wb-b-)'
    assert sorted(game.format_move(state, mv) for mv in game.legal_moves(state)) == ["c1-e1", "pass"]


def test_any_piece_again_ignores_direction():
    game = load_game("konane")
    game, state = load_position(game, '(w "" --- --b wb-)')
    state = game.apply(state, game.parse_move(state, "a1-c1"))
    assert sorted(game.format_move(state, mv) for mv in game.legal_moves(state)) == ["c1-c3", "pass"]
