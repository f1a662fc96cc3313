"""Shogi's building blocks on the kernel play exactly what the generic path plays.

Promotion zones (``promote KIND to KIND2 in REGION [forced in REGION2]``:
:mod:`rulesdsl.interpreter.kernel.zones`), ``drop ... one per column``
(:mod:`rulesdsl.interpreter.kernel.drops`), ``forbid dropping KIND giving
mate`` (:mod:`rulesdsl.interpreter.kernel.drop_mates`), counts of pieces in
hand and in a region beside hands of several kinds, ``repetitions`` beside
drops. Perft from the start is the published figure; the hand-made positions'
counts are worked out by hand (their comments say how); on random positions
the kernel's plies, outcomes and perft are the generic path's; and seeded games
played by the kernel agree with OpenSpiel at every ply.

Positions: the player to move, the hands (black's/white's), the rows from the
top (row a, white's back row, first), each from file 9 (black's left) to file
1. Black moves up; black's camp is rows a to c.
"""

from __future__ import annotations

import random

import pytest
from helpers import Chosen, kernel_plies_are_reference_moves, seeded_playouts_are_legal
from helpers import kernel_side_by_side as side_by_side

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game

EMPTY = "---------"


@pytest.fixture(scope="module")
def shogi():
    game = load_game("shogi")
    assert game.has_fast_playout
    return game


def position(game, turn: str, hands: str, rows: dict[str, str]):
    """A position from its non-empty rows (by letter)."""
    return game.parse_position(f"({turn} {hands} {' '.join(rows.get(r, EMPTY) for r in 'abcdefghi')})")


def successors(game, state) -> list:
    """The positions one kernel ply reaches (one per index the kernel is asked for)."""
    return [game.playout(state, Chosen(i), 1).state for i in range(game.perft(state, 1))]


def reference(game, state) -> list:
    return [game.apply(state, move) for move in game.legal_moves(state)]


def same_children(game, state) -> int:
    """The kernel's children are the generic path's (as many times each); returns how many there are."""
    kids = successors(game, state)
    assert sorted(map(game.format_position, kids)) == sorted(map(game.format_position, reference(game, state)))
    assert set(kids) == set(reference(game, state))
    return len(kids)


@pytest.mark.parametrize("depth, count", [(1, 30), (2, 900), (3, 25470)])
def test_shogi_perft_from_the_start_is_the_published_figure(shogi, depth, count):
    assert shogi.perft(shogi.initial_state(), depth) == count


@pytest.mark.deep
def test_shogi_perft_4_is_the_published_figure(shogi):
    assert shogi.perft(shogi.initial_state(), 4) == 719731


def test_a_pawn_drops_on_any_empty_cell_short_of_the_last_row(shogi):
    # black king 5i, white king 5a, a pawn in black's hand: the king's 5 steps (6i, 4i, 6h, 5h, 4h) and a pawn
    # on rows b to i (72 cells) but 5i: 71 drops; 5b checks, but the king takes it, so it is no mate: 76
    state = position(shogi, "b", "P/-", {"a": "----k----", "i": "----K----"})
    assert same_children(shogi, state) == 76
    assert shogi.perft(state, 1) == 76


def test_a_pawn_drop_keeps_to_columns_without_a_pawn_of_the_droppers(shogi):
    # as above with a black pawn on 5e (and one in hand): the pawn steps to 5d (rank 6, outside the camp: 1),
    # the king 5, and no drop in file 5 (rows b to i of the other 8 files: 64 cells): 70
    state = position(shogi, "b", "P/-", {"a": "----k----", "e": "----P----", "i": "----K----"})
    assert same_children(shogi, state) == 70


def test_a_pawn_and_a_knight_must_promote_where_they_could_not_move_again(shogi):
    # pawn 5b to 5a only as a tokin (1); knight 3d to 4b or 2b, both on the last two rows: only promoted (2);
    # king 1i to 2i, 1h, 2h (3): 6
    state = position(shogi, "b", "-/-", {"a": "k--------", "b": "----P----", "d": "------N--", "i": "--------K"})
    kids = successors(shogi, state)
    assert same_children(shogi, state) == 6
    rows = [shogi.format_position(k).split()[2:] for k in kids]
    assert sum(r[0] == "k---T----" for r in rows) == 1 and not any("P" in r[0] for r in rows)
    assert sum("M" in r[1] for r in rows) == 2 and not any("N" in r[1] for r in rows)


def test_a_move_into_the_camp_may_promote_or_not(shogi):
    # pawn 5d to 5c (into the camp: as it is or a tokin, 2); knight 7e to 8c or 6c (rank 7: 2 each, 4);
    # king 9i to 8i, 9h, 8h (3): 9
    state = position(shogi, "b", "-/-", {"a": "--------k", "d": "----P----", "e": "--N------", "i": "K--------"})
    assert same_children(shogi, state) == 9


def test_a_slide_out_of_the_camp_may_promote(shogi):
    # rook 5b, in the camp: 5a, 5c to 5i (7), 6b to 9b (4), 4b to 1b (4): 16 cells, each as a rook or a dragon
    # (32); king 9i: 3; 35
    state = position(shogi, "b", "-/-", {"a": "--------k", "b": "----R----", "i": "K--------"})
    assert same_children(shogi, state) == 35


def test_a_slide_into_the_camp_may_promote_and_one_outside_may_not(shogi):
    # rook 5e: up 5d (1), 5c, 5b, 5a (in the camp: 2 each, 6); down 5f to 5i (4); across 8 cells: 19; king 3: 22
    state = position(shogi, "b", "-/-", {"a": "--------k", "e": "----R----", "i": "K--------"})
    assert same_children(shogi, state) == 22


def test_a_pawn_drop_may_not_mate(shogi):
    # white king 1a walled in by its knight 2a and lance 2b; black gold 2c guards 1b. P@1b would mate (the king
    # cannot take a guarded pawn, the knight and the lance cannot answer the check): forbidden. Black: king 9i
    # (3), gold 2c to 2b (taking the lance), 2d, 3c, 1c, 3b, 1b (6), pawn drops on rows b to i (72) but 2b, 2c,
    # 9i and 1b (68): 77
    state = position(shogi, "b", "P/-", {"a": "-------nk", "b": "-------l-", "c": "-------G-", "i": "K--------"})
    kids = successors(shogi, state)
    assert same_children(shogi, state) == 77
    assert not any(k.board[shogi.geometry.index_of("1b")] == "P" for k in kids)


def test_a_drop_that_takes_the_last_escape_of_a_king_in_check_is_a_mate_too(shogi):
    # a set-up position: white's king 1a stands in check from the rook 1e, its lance 2a can neither take nor block,
    # so 2b is its one move. P@2c guards 2b without checking: after it white cannot move, its king attacked: a
    # mate by a pawn drop, forbidden. Black: rook 1e to 1d (1), 1c, 1b, 1a (in the camp: 2 each, 6), 1f to 1i (4),
    # 2e to 9e (8): 19; king 9i: 3; pawn drops on rows b to i (72) but 1e, 9i and 2c: 69; 91
    state = position(shogi, "b", "P/-", {"a": "-------lk", "e": "--------R", "i": "K--------"})
    kids = successors(shogi, state)
    assert same_children(shogi, state) == 91
    assert not any(k.board[shogi.geometry.index_of("2c")] == "P" for k in kids)


def test_the_fourth_time_a_position_stands_is_a_draw_on_the_kernel(shogi):
    # the two kings step out and back: the start stands again after 4, 8 and 12 plies; after 12 the fourth time
    state = shogi.initial_state()
    for number, text in enumerate(["5i5h", "5a5b", "5h5i", "5b5a"] * 3, start=1):
        state = shogi.apply(state, shogi.parse_move(state, text))
        if number == 8:
            assert shogi.perft(state, 1) == 30 == generic_perft(shogi, state, 1)
    outcome = shogi.status(state)[1]
    assert outcome is not None and outcome.winner is None
    assert shogi.playout(state, Chosen(0), 1) == (state, outcome, 0)


def test_shogi_kernel_plies_are_the_reference_moves(shogi):
    assert kernel_plies_are_reference_moves(shogi, games=2, seed=5, cap=120, perft_every=60) > 100


def test_every_ply_of_seeded_shogi_playouts_is_a_legal_move(shogi):
    seeded_playouts_are_legal(shogi, seeds=2)


def test_whole_shogi_playouts_end_as_the_rules_say(shogi):
    for seed in range(3):
        end = shogi.playout(shogi.initial_state(), random.Random(seed))
        assert end.outcome is not None and end.outcome == shogi.status(end.state)[1]


# -- OpenSpiel side by side, the kernel playing ---------------------------------------------------------------
def kernel_side_by_side(game, seed: int) -> int:
    """One seeded random game played by the kernel and by OpenSpiel's shogi, compared at every ply as SFENs
    (:func:`helpers.kernel_side_by_side`). Returns the game's length."""
    pyspiel = pytest.importorskip("pyspiel")
    from test_shogi_openspiel import our_sfen, spiel_sfen

    return side_by_side(game, pyspiel.load_game("shogi").new_initial_state(), seed,
                        lambda state: our_sfen(game, state), spiel_sfen)


def test_kernel_games_agree_with_openspiel(shogi):
    assert all(kernel_side_by_side(shogi, seed) > 0 for seed in range(2))


@pytest.mark.deep
def test_twenty_kernel_games_agree_with_openspiel(shogi):
    assert all(kernel_side_by_side(shogi, seed) > 0 for seed in range(20))


# -- a small board: a rook that may promote in the zone, a pawn that must on the last row --------------------------
SMALL = """game "zones on the kernel"
players white "w", black "b"
forward white n, black s
board grid 5 x 5
position (turn rows) top first
notation from to
piece king white "K", black "k"
piece rook white "R", black "r"
piece dragon white "D", black "d"
piece pawn white "P", black "p"
piece gold white "G", black "g"
region far where rank >= 4
region last where rank == 5
start {
  king white at c1
  rook white at a1
  pawn white at b2
  pawn white at d2
  king black at c5
  rook black at e5
  pawn black at b4
  pawn black at d4
}
moves {
  king step all to empty or enemy
  rook slide orthogonal to empty or enemy
  dragon slide orthogonal to empty or enemy
  dragon step diagonal to empty or enemy
  pawn step forward to empty or enemy
  gold step all to empty or enemy
}
promote rook to dragon in far
promote pawn to gold in far forced in last
end {
  mover wins if count(opponent king) == 0
  opponent loses if no moves
}
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = tmp_path_factory.mktemp("zones") / "zones.rules"
    path.write_text(SMALL)
    game = load_game(str(path))
    assert game.has_fast_playout
    return game


def test_a_small_board_with_zones_counts_by_hand(small):
    # white king c1: b1, d1, c2 (b2 and d2 hold its pawns: 3); rook a1: a2, a3, and a4, a5 in the far rows as a
    # rook or a dragon (6), b1 (7); pawns b2b3, d2d3 (2): 12
    assert same_children(small, small.initial_state()) == 12
    assert small.perft(small.initial_state(), 1) == 12


def test_small_board_kernel_plies_and_perft_are_the_reference(small):
    assert kernel_plies_are_reference_moves(small, games=4, seed=1, cap=60, perft_every=15) > 50
