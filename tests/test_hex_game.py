"""Hex on a rhombus (rules/hex.rules): OpenSpiel's perft counts, and the connection win.

The counts are OpenSpiel's (quoted in issue 11): 3x3: 9, 72, 504, 3024, 15120,
54720, 146880, 207360, 120960; 4x4: 16, 240, 3360, 43680; 5x5: 25, 600,
13800, 303600, all checked in the default run (about ten seconds).
"""

from __future__ import annotations

import pytest

from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft

OPENSPIEL = {
    3: [9, 72, 504, 3024, 15120, 54720, 146880, 207360, 120960],
    4: [16, 240, 3360, 43680],
    5: [25, 600, 13800, 303600],
}


def counts(size: int, depth: int) -> list[int]:
    game = load_game("hex", {"size": str(size)})
    start = game.initial_state()
    return [perft(game, start, d) for d in range(1, depth + 1)]


@pytest.mark.parametrize("size", sorted(OPENSPIEL))
def test_openspiel_perft(size):
    assert counts(size, len(OPENSPIEL[size])) == OPENSPIEL[size]


def play(game, *cells: str):
    state = game.initial_state()
    for cell in cells:
        state = game.apply(state, game.parse_move(state, cell))
    return state


def test_black_joins_top_and_bottom_along_the_diagonal():
    game = load_game("hex", {"size": "3"})
    # x: c1, b2, a3 (each touches the next); o: a1, a2 (no chain).
    state = play(game, "c1", "a1", "b2", "a2")
    assert game.outcome(state) is None
    state = game.apply(state, game.parse_move(state, "a3"))
    outcome = game.outcome(state)
    assert outcome is not None and game.players[outcome.winner].name == "black"


def test_the_other_diagonal_does_not_touch():
    game = load_game("hex", {"size": "3"})
    # x: a1, b2, c3 do not form a chain (a1-b2 is the diagonal Hex leaves out).
    state = play(game, "a1", "c1", "b2", "a2", "c3")
    assert game.outcome(state) is None


def test_a_full_board_has_a_winner():
    game = load_game("hex", {"size": "2"})
    # 2x2: every game ends with a winner, never a draw.
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        found, outcome = game.status(state)
        if outcome is not None:
            assert outcome.winner is not None
        stack.extend(game.apply(state, mv) for mv in found)


def test_sides_of_a_grid_and_connects_along(tmp_path):
    path = tmp_path / "lines.rules"
    path.write_text('''game "g"
players white "w", black "b"
board grid 3 x 3
position (turn rows) top first
notation to
piece stone white "w", black "b"
start {}
moves {
  place stone
}
end {
  white wins if white connects left and right along orthogonal
  black wins if black connects top and bottom
}
''')
    game = load_game(str(path))
    # A diagonal chain of black joins top and bottom over the board's eight directions.
    _, state = load_position(game, "(w b-- -b- --b)")
    assert game.players[game.outcome(state).winner].name == "black"
    # A diagonal chain of white does not join left and right along orthogonal steps only.
    _, state = load_position(game, "(b w-- -w- --w)")
    assert game.outcome(state) is None
    _, state = load_position(game, "(b --- www ---)")
    assert game.players[game.outcome(state).winner].name == "white"
