"""Turning blocks and small boards on the kernel play exactly what the generic path plays.

Pentago turns one of four 3 x 3 blocks as the second part of a turn
(``rectangle``, ``then { turn ... either way }``); the kernel turns a block as
a fixed permutation of bits (interpreter/kernel/rotations.py). Ultimate
tic-tac-toe places in the small board the last mark sends to (``boards 3 x 3
won by 3 in a row``, ``place mark in sent board``, ``3 in a row of boards``);
the kernel works out the decided boards from the bitboards and keeps the last
mark's cell (interpreter/kernel/nested.py). Small rule files below cover the
rest: a turn ``over`` and ``half round`` of blocks that are not square as a
one-ply move, and small boards on a board of 36 cells (which runs in machine
code; ultimate tic-tac-toe's 81 cells stay on the Python kernel): of 2 x 2
(with and without ``in sent board``) and of 3 x 3, whose outer cells send
nowhere.

The counts are the rule files' examples (OpenSpiel's) or counted by hand (the
comments say how); the random positions are compared with the generic path.
OpenSpiel, where it is installed, plays 100 seeded games of each beside the
kernel (``-m deep``: 1,000): at every turn the same board, the same number of
legal turns and the same outcome, the kernel's move found among the kernel's
own children.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import Chosen, kernel_plies_are_reference_moves, positions

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.kernel import native as native_module

FLIPS = """game "Flips"
players white "w", black "b"
board grid 4 x 3
position (turn rows)
rectangle left a1..b3
rectangle right c1..d2
piece stone white "w", black "b"
start {}
moves {
  place stone
  turn left over
  turn right half round
}
end {
  mover wins if mover has 3 in a row
  draw if no moves
}
"""

QUADS = """game "Quads"
players cross "x", nought "o"
board grid 6 x 6
boards 2 x 2 won by 2 in a row
position (turn last rows) top first
piece mark cross "x", nought "o"
start {}
moves {
  place mark in sent board
}
end {
  mover wins if mover has 3 in a row of boards
  draw if no moves
}
"""
# Four small boards of 3 x 3 on 6 x 6: a mark on a small board's third row or column sends nowhere (the big
# board has two of each), so the next mark may go in any open board; placed anywhere open, without sending.
FOURS = QUADS.replace("2 x 2 won by 2", "3 x 3 won by 3").replace("3 in a row of boards", "2 in a row of boards")
FREE = QUADS.replace("place mark in sent board", "place mark")
TEXTS = {"flips": FLIPS, "quads": QUADS, "fours": FOURS, "free": FREE}
GAMES = ["pentago", "ultimate-tic-tac-toe", "flips", "quads", "fours", "free"]
NATIVE = ["pentago", "quads", "fours"]  # at most 64 cells


def game_of(tmp_path, name: str):
    if name in TEXTS:
        path = tmp_path / f"{name}.rules"
        path.write_text(TEXTS[name])
        return load_game(str(path))
    return load_game(name)


def test_the_published_counts_come_from_the_kernel():
    for name, counts in (("pentago", [36, 288, 10080, 80640]), ("ultimate-tic-tac-toe", [81, 720])):
        game = load_game(name)
        assert game.has_fast_playout
        assert game._compiled.perft(game.initial_state(), 1) is not None  # the kernel answers, not the generic path
        assert [game.perft(game.initial_state(), d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("name", GAMES)
def test_the_kernel_plays_the_generic_moves_outcomes_and_counts(tmp_path, name):
    game = game_of(tmp_path, name)
    assert game.has_fast_playout
    assert kernel_plies_are_reference_moves(game, games=6, seed=5, cap=90, perft_every=9) > 20


@pytest.mark.parametrize("name", GAMES)
def test_every_ply_of_a_seeded_playout_is_a_legal_move_and_its_end_the_rules_outcome(tmp_path, name):
    game = game_of(tmp_path, name)
    ended = 0
    for seed in range(6):
        state, plies = game.initial_state(), 0
        while plies < 120:
            step = game.playout(state, random.Random(seed * 1000 + plies), 1)
            moves, outcome = game.status(state)
            if outcome is not None:
                assert step == (state, outcome, 0)
                ended += 1
                break
            assert step.state in {game.apply(state, move) for move in moves}, game.format_position(state)
            state, plies = step.state, plies + 1
    assert ended >= (1 if name == "flips" else 6)  # flips may turn blocks for ever


def test_a_turn_of_each_block_by_hand():
    game = load_game("pentago")
    # White placed a1 (the top-left corner of nw); the eight turns in the reference's order nw-, nw+, ne-, ne+,
    # sw-, sw+, se-, se+: nw anticlockwise takes a1 to a3, clockwise to c1; the other six leave the board as is.
    game, state = load_position(game, '(o a1 o----- ------ ------ ------ ------ ------)')
    reached = [game.format_position(game.playout(state, Chosen(i), 1).state) for i in range(8)]
    assert reached[0] == '(x "" ------ ------ o----- ------ ------ ------)'
    assert reached[1] == '(x "" --o--- ------ ------ ------ ------ ------)'
    assert reached[2:] == ['(x "" o----- ------ ------ ------ ------ ------)'] * 6
    # the bottom-right block: d4 clockwise to f4 (se+, the last), and e5, its centre, stays
    game, state = load_position(game, '(o d4 ------ ------ ------ ---o-- ----x- ------)')
    assert game.format_position(game.playout(state, Chosen(7), 1).state) == \
        '(x "" ------ ------ ------ -----o ----x- ------)'


def test_the_end_waits_for_the_turn_of_a_block():
    game = load_game("pentago")
    # White placed e1, making a1..e1; turning nw clockwise (Chosen 1) breaks the row, sw (Chosen 5) keeps it.
    game, state = load_position(game, '(o e1 ooooo- xxxx-- ------ ------ ------ ------)')
    broken = game.playout(state, Chosen(1), 1).state
    assert game.perft(broken, 1) == 27  # 36 cells, 9 marbles: black places
    end = game.playout(state, Chosen(5), 5)
    assert end.plies == 1 and end.outcome is not None and end.outcome.winner == 0
    # Turning nw clockwise gives both players five (a row each): a draw.
    game, state = load_position(game, '(x e3 o-xoo- o-x--- o-xxx- ------ ------ ------)')
    end = game.playout(state, Chosen(1), 5)
    assert end.plies == 1 and end.outcome is not None and end.outcome.winner is None


def test_flips_turns_blocks_that_are_not_square_by_hand(tmp_path):
    game = game_of(tmp_path, "flips")
    # White on a1 and c1. Moves: 10 placements (in cell order), then left| (a1 to b1), then right* (c1 to d2).
    game, state = load_position(game, "(w ---- ---- w-w-)")
    assert game.perft(state, 1) == 12
    assert game.format_position(game.playout(state, Chosen(10), 1).state) == "(b ---- ---- -ww-)"
    assert game.format_position(game.playout(state, Chosen(11), 1).state) == "(b ---- ---w w---)"


def test_the_sent_board_by_hand():
    game = load_game("ultimate-tic-tac-toe")
    # e5 is the middle cell of the middle board: nought must play there, in its 8 empty cells (the example).
    _, state = load_position(game, '(o e5 --------- --------- --------- --------- ----x---- --------- --------- '
                                   '--------- ---------)')
    assert game.perft(state, 1) == 8
    # Cross won the bottom-left board (a1 b1 c1); nought's d1, the bottom-left cell of its board, sends there:
    # cross may play anywhere open: 81 cells, less the 9 of the won board, less d1 and e2: 70.
    _, state = load_position(game, '(x d1 --------- --------- --------- --------- --------- --------- '
                                   '--------- ----o---- xxxo-----)')
    assert game.perft(state, 1) == 70
    # Cross holds row 1 whole: the three bottom boards, in a row: cross (the mover) has won.
    _, state = load_position(game, '(o i1 --------- --------- --------- --------- --------- --------- '
                                   '--------- o-o-o-o-o xxxxxxxxx)')
    end = game.playout(state, Chosen(0), 10)
    assert end.plies == 0 and end.outcome is not None and end.outcome.winner == 0


@pytest.mark.skipif(not (native_module.enabled() and native_module.numba_available()),
                    reason="numba is not installed or RULESDSL_NATIVE=0")
@pytest.mark.parametrize("name", NATIVE)
def test_the_machine_code_counts_and_plays_as_the_python_kernel(tmp_path, name):
    game = game_of(tmp_path, name)
    native = game._compiled.native(wait=True)
    assert native is not None
    for number, state in enumerate(positions(game, games=3, seed=9, cap=60)):
        moves, outcome = game.status(state)
        got, children = game._compiled.children(state, native)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, move) for move in moves), game.format_position(state)
        if number % 7 == 0:
            assert game.perft(state, 3) == generic_perft(game, state, 3)


@pytest.mark.skipif(not (native_module.enabled() and native_module.numba_available()),
                    reason="numba is not installed or RULESDSL_NATIVE=0")
@pytest.mark.parametrize("name", NATIVE)
def test_alpha_beta_on_the_machine_code_gives_the_minimax_value(tmp_path, name):
    from rulesdsl.interpreter.search.engine import think
    from rulesdsl.interpreter.search.minimax import alphabeta, minimax

    game = game_of(tmp_path, name)
    for number, state in enumerate(positions(game, games=1, seed=4, cap=30)):
        if number % 6 or game.status(state)[1] is not None:
            continue
        for depth in (1, 2, 3):
            result = think(game, state, depth=depth, kernel=True)
            assert result.kernel == "native"
            reference = minimax(game, state, depth) if depth < 3 else alphabeta(game, state, depth)
            assert result.score == pytest.approx(reference, abs=1e-9), (depth, game.format_position(state))
