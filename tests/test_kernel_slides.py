"""Slides and two-part turns on the kernel play exactly what the generic path plays.

The bundled games cover a slide to empty cells and a placement from the last
cell by slide (amazons); these small rule files cover the other forms the
kernel compiles: a slide that may take the first enemy piece on its way, a
slide that must (``to enemy`` alone), and ``place ... from last step`` whose
second part may not exist (the turn then passes). On random positions, one ply
of a playout reaches exactly the positions the legal moves reach, and perft to
depth 3 counts what the generic path counts. The hand-made cases check a few
counts against a count by hand, and the kernel's perft from the start of
amazons, of checkers (a chain as one move, and one ply per jump) and of
international draughts (flying kings, must capture most) gives the published
counts.
"""

from __future__ import annotations

import pytest
from helpers import Chosen, kernel_plies_are_reference_moves

from rulesdsl.interpreter.compile.load import load_game, load_position

SKIRMISH = """game "Skirmish"
players white "w", black "b"
board grid 5 x 5
position (turn rows) top first
notation from "-" to
piece rook white "R", black "r"
piece queen white "Q", black "q"
start {
  rook white at (1, 1), (5, 1)
  queen white at (3, 1)
  rook black at (1, 5), (5, 5)
  queen black at (3, 5)
}
moves {
  rook slide orthogonal to empty or enemy
  queen slide diagonal to enemy
  queen step orthogonal
}
end {
  opponent loses if no moves
}
"""

SHOTS = """game "Shots"
players white "w", black "b"
board grid 5 x 4
position (turn last rows) top first
notation from "-" to
piece queen white "W", black "B"
piece arrow "x"
start {
  queen white at (2, 1), (4, 1)
  queen black at (2, 4), (4, 4)
}
moves {
  queen slide orthogonal
}
then {
  place arrow from last step diagonal
}
end {
  opponent loses if no moves
}
"""


def game_of(tmp_path, name: str, text: str):
    path = tmp_path / f"{name}.rules"
    path.write_text(text)
    return load_game(str(path))


@pytest.mark.parametrize("name,text", [("skirmish", SKIRMISH), ("shots", SHOTS)])
def test_the_kernel_plays_the_generic_moves_and_counts(tmp_path, name, text):
    game = game_of(tmp_path, name, text)
    assert game.has_fast_playout
    kernel_plies_are_reference_moves(game, games=4, seed=7, cap=60, perft_every=5)


def test_a_slide_stops_at_the_first_piece_and_may_take_it(tmp_path):
    game = game_of(tmp_path, "skirmish", SKIRMISH)
    # White's rook on a1: up the a file to a2, a3, a4, then takes a5 (4); along the first row b1 (1), the queen
    # on c1 blocks. The rook on e1: e2, e3, e4, takes e5 (4); d1 (1). The queen on c1 takes nothing diagonally
    # and steps to b1, d1, c2 (3). 13 moves in all.
    game, state = load_position(game, "(w r-q-r ----- ----- ----- R-Q-R)")
    assert game.perft(state, 1) == 13 == len(game.legal_moves(state))


def test_a_turn_whose_second_part_has_no_move_passes_to_the_other_player(tmp_path):
    game = game_of(tmp_path, "shots", SHOTS)
    # White's one queen on a1: b1 and a3 are arrows, so its one move is a1-a2; from a2 the diagonal cells b1 and
    # b3 are arrows, so no arrow can be shot and black moves next, with no cell to continue from.
    game, state = load_position(game, '(w "" -B-B- xxxxx ----- Wx---)')
    assert game.perft(state, 1) == 1
    child = game.playout(state, Chosen(0), 1).state
    assert (child.turn, child.last) == (1, -1)
    assert child == game.apply(state, game.legal_moves(state)[0])


@pytest.mark.parametrize("name,settings,counts", [
    ("amazons", {"size": "6"}, [40, 544]),  # OpenSpiel's whole first turns (its perft 2 and 3)
    ("amazons", {}, [80, 2176]),
    ("checkers", {"chains": "jump"}, [7, 49, 302, 1469]),  # published English draughts perft (no chain yet)
    ("checkers", {}, [7, 49, 302, 1469, 7361, 36768, 179740]),  # the same, a whole chain one move
    ("draughts", {}, [9, 81, 658, 4265, 27117, 167140, 1049442]),  # published international draughts perft
])
def test_published_counts_come_from_the_kernel(name, settings, counts):
    game = load_game(name, settings)
    assert game.has_fast_playout
    state = game.initial_state()
    assert [game.perft(state, depth) for depth in range(1, len(counts) + 1)] == counts
