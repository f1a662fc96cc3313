"""Machine code for boards of more than 64 cells that keep earlier positions (kernel/lanes_helpers.py).

Go 9 x 9 (81 points: two words a bitboard) ends in a draw when a move repeats an
earlier board, so its kernel keeps the earlier boards in ``hist``. Perft figures
are derived by hand: with n points, no capture and no suicide is possible in
three plies from the empty board, so perft is n + 1 (the points and the pass),
then n * n + (n + 1) (after a stone n - 1 points and the pass; after the pass n
points and the pass), then n(n - 1)^2 + 2 n^2 (two stones: n - 2 points and the
pass; a stone and a pass either way: n - 1 points and the pass; two passes end
the game). For n = 81 the first two are rules/go.rules's example. Everything
else is compared with the Python kernel and the generic path in the same run.
"""

from __future__ import annotations

import random

import pytest
from helpers import (
    native_only,
    native_perft,
    native_playouts_are_the_python_kernels,
    python_kernel,
    random_positions,
    seeded_playouts_are_legal,
)

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.reference.history import History

pytest.importorskip("numba")
pytestmark = native_only()
_GAMES: dict[str, object] = {}


def by_hand(n: int) -> list[int]:
    """Go's perft 1..3 from the empty board of ``n`` points (see the module docstring)."""
    return [n + 1, n * n + n + 1, n * (n - 1) ** 2 + 2 * n * n]


def native_go():
    """Go 9 x 9 with its machine code loaded (compiled now, or from the cache)."""
    if "go" not in _GAMES:
        game = load_game("go", {"size": "9"})
        native = game._compiled.native(wait=True)
        assert native is not None and native.lanes is not None and native.history is not None
        assert native.lanes.lanes == 2
        _GAMES["go"] = game
    return _GAMES["go"]



def test_the_hand_counts_are_the_rule_files_example():
    assert by_hand(81)[:2] == [82, 6643]


def test_native_go_perft_from_the_start_is_the_count_by_hand_and_the_python_kernels():
    game = native_go()
    start = game.initial_state()
    for depth, count in enumerate(by_hand(81), start=1):
        got = native_perft(game, start, depth)
        with python_kernel(game):
            assert got == count == game.perft(start, depth)


def test_an_earlier_board_in_either_word_makes_its_repetition_a_draw():
    """Earlier boards with a black stone on a1 (bit 0, the low word) and on j9 (bit 80, the high word): black's
    stone there repeats one, the game ends in a draw, and that child has no replies (81 each otherwise)."""
    game = native_go()
    start = game.initial_state()
    earlier = [game.apply(start, game.parse_move(start, cell)).board for cell in ("a1", "j9")]
    state = start._replace(history=History(earlier))
    assert native_perft(game, state, 1) == 82
    assert native_perft(game, state, 2) == 6643 - 2 * 81
    three = native_perft(game, state, 3)
    with python_kernel(game):
        assert three == game.perft(state, 3)
    assert three == generic_perft(game, state, 3)


def test_native_go_perft_on_random_positions_is_the_generic_paths():
    """Positions of seeded random games (captures, ko, the boards they passed through): depths 1 and 2."""
    game = native_go()
    for state in random_positions(game, seed=9, count=6, every=23, cap=140):
        for depth in (1, 2):
            assert native_perft(game, state, depth) == generic_perft(game, state, depth), game.format_position(state)


def test_a_ko_position_forbids_the_retake_natively():
    """Black c2 has just taken white's b2 stone (as in rules/go.tests.yaml at 4 x 4, here at 9 x 9 in the corner):
    white's retake at b2 would recreate the board before, so it is not among white's moves; nor is a1 (no liberty,
    no capture: a suicide). 74 empty points, those two forbidden, and the pass."""
    game = native_go()
    start = game.initial_state()
    state = start
    for move in ("b1", "c1", "a2", "d2", "b3", "c3", "pass", "b2", "c2"):
        state = game.apply(state, game.parse_move(state, move))
    moves = {game.format_move(state, m) for m in game.legal_moves(state)}
    assert "b2" not in moves and "a1" not in moves and "pass" in moves and len(moves) == 74 - 2 + 1
    assert native_perft(game, state, 1) == len(moves)
    assert native_perft(game, state, 2) == generic_perft(game, state, 2)


def test_a_seeded_native_go_playout_plays_legal_moves_and_the_python_kernels_game():
    game = native_go()
    seeded_playouts_are_legal(game, seeds=2)
    native_playouts_are_the_python_kernels(game)
    assert game.playout(game.initial_state(), random.Random(0)).outcome is not None  # over within 2 x 81 turns


def test_native_go_on_a_small_board_keeps_each_parents_board_while_counting_its_children():
    """5 x 5 fits one word (:mod:`~.native_helpers`' walk); the counts by hand, and with an earlier board the walk
    keeps the root's board in ``hist`` below it, as the Python kernel's recursion does."""
    game = load_game("go", {"size": "5"})
    native = game._compiled.native(wait=True)
    assert native is not None and native.lanes is None and native.history is not None
    start = game.initial_state()
    assert [native_perft(game, start, depth) for depth in (1, 2, 3)] == by_hand(25)
    state = start
    for move in ("b1", "c1", "a2", "d2", "b3", "c3", "pass", "b2", "c2", "e5", "e4"):
        state = game.apply(state, game.parse_move(state, move))
    for depth in (1, 2, 3, 4):
        with python_kernel(game):
            expected = game.perft(state, depth)
        assert native_perft(game, state, depth) == expected == generic_perft(game, state, depth)


@pytest.mark.deep
def test_native_go_13_takes_three_words_a_bitboard_and_counts_by_hand():
    """13 x 13 (169 points, three words a bitboard; a minute or two of a first compile)."""
    game = load_game("go", {"size": "13"})
    native = game._compiled.native(wait=True)
    assert native is not None and native.lanes is not None and native.lanes.lanes == 3
    start = game.initial_state()
    assert [native_perft(game, start, depth) for depth in (1, 2, 3)] == by_hand(169)
    seeded_playouts_are_legal(game, seeds=1)


def test_native_go_perft_3_and_4_are_openspiels_in_the_same_run():
    """Depth 4 has the first captures (a corner stone taken by two) and suicides: OpenSpiel counts it too."""
    pyspiel = pytest.importorskip("pyspiel")
    from openspiel_side_by_side import spiel_perft

    game = native_go()
    theirs = pyspiel.load_game("go", {"board_size": 9}).new_initial_state()
    assert native_perft(game, game.initial_state(), 3) == spiel_perft(theirs, 3) == by_hand(81)[2]
    assert native_perft(game, game.initial_state(), 4) == spiel_perft(theirs, 4)
