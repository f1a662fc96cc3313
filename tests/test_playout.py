"""Game.playout and Game.perft: the compiled kernel plays exactly the generic game.

On random positions of every bundled game (and a few option settings), one
ply of a playout must reach exactly the positions that the legal moves reach
(the same number of times each: it draws one index among as many moves as
:meth:`Game.status` lists), a finished game must give the same outcome, and
perft must count what the generic path counts. Games the kernel does not
compile take the generic path, which this checks too. The Python kernel
answers here even where machine code is ready (``python_game``), so this
file checks it in every run; tests/test_native.py holds the machine code to
the same generic path.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import positions

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.loader import bundled_dir

BUNDLED = sorted(p.stem for p in bundled_dir().glob("*.rules"))
SETTINGS = [(name, {}) for name in BUNDLED] + [
    ("konane", {"rows": "6", "cols": "6"}),
    ("konane", {"rows": "5", "cols": "6"}),
    ("konane-straight", {"rows": "6", "cols": "6"}),
    ("konane-straight", {"rows": "8", "cols": "8"}),
    ("abalone", {"freeze": "off"}),
    ("abalone", {"freeze": "loose"}),
    ("abalone", {"freeze": "off", "rows": "5", "cols": "5", "captures": "3", "misere": "true"}),
    ("breakthrough", {"rows": "5", "cols": "4"}),
    ("abalone-hex", {"losses": "1"}),
    ("capture-the-flag", {"size": "4"}),
    ("tic-tac-toe", {"size": "5", "line": "4"}),
    ("connect-four", {"rows": "5", "cols": "4", "line": "3"}),
    ("othello", {"size": "6"}),
    ("hex", {"size": "5"}),
    ("amazons", {"size": "6"}),
    ("checkers", {"chains": "jump"}),
    ("checkers", {"chains": "jump", "size": "6", "quiet": "6"}),
    ("checkers", {"chains": "jump", "quiet": "0"}),
    ("checkers", {"chains": "jump", "size": "10"}),  # 100 cells: the Python kernel
    ("checkers", {"size": "6", "quiet": "6"}),
    ("draughts", {"size": "6", "quiet": "8"}),
]
# Rule files whose building blocks the kernel covers: their playouts must not fall back.
COMPILED = {"konane", "konane-misere", "konane-same-stone", "breakthrough", "abalone-hex", "fox-and-geese",
            "capture-the-flag", "abalone", "abalone-hex6", "tic-tac-toe", "connect-four", "othello",
            "hex", "amazons", "checkers", "draughts", "konane-straight", "lines-of-action", "three-way-race",
            "chinese-checkers", "nine-mens-morris", "pentago", "ultimate-tic-tac-toe", "dots-and-boxes", "mancala",
            "havannah", "twixt", "chinese-checkers-places", "go", "quoridor",
            "antichess", "chess", "xiangqi", "shogi"}


def python_game(name: str, settings: dict):
    """The game with its Python kernel answering, even where its machine code is ready or cached."""
    game = load_game(name, settings)
    game._compiled.use_native = False
    return game


class Chosen:
    """A random source that always answers ``index`` and remembers the ranges it was asked for."""

    def __init__(self, index: int):
        self.index = index
        self.asked: list[int] = []

    def randrange(self, stop: int) -> int:
        self.asked.append(stop)
        return self.index


@pytest.mark.parametrize("name,settings", SETTINGS, ids=[f"{n}-{'-'.join(s.values())}" for n, s in SETTINGS])
def test_one_ply_of_a_playout_is_one_legal_move(name, settings):
    game = python_game(name, settings)
    if name in COMPILED:
        assert game.has_fast_playout
    for state in positions(game, games=3, seed=len(name)):
        moves, outcome = game.status(state)
        probe = Chosen(0)
        first = game.playout(state, probe, 1)
        if outcome is not None:
            assert first == (state, outcome, 0)
            continue
        assert probe.asked == [len(moves)]
        assert first.plies == 1 and first.outcome is None
        reached = Counter(game.playout(state, Chosen(i), 1).state for i in range(len(moves)))
        assert reached == Counter(game.apply(state, move) for move in moves), game.format_position(state)


@pytest.mark.parametrize("name,settings", SETTINGS, ids=[f"{n}-{'-'.join(s.values())}" for n, s in SETTINGS])
def test_outcome_without_the_moves_is_the_outcome_of_status(name, settings):
    game = python_game(name, settings)
    for state in positions(game, games=3, seed=len(name) + 1):
        assert game.outcome(state) == game.status(state)[1]
        assert game.is_over(state) == (game.status(state)[1] is not None)


@pytest.mark.parametrize("name,settings", SETTINGS, ids=[f"{n}-{'-'.join(s.values())}" for n, s in SETTINGS])
def test_perft_counts_as_the_generic_path(name, settings):
    game = python_game(name, settings)
    # Without a kernel both counts come from the generic path: two plies show that perft and legal_moves agree,
    # a third would only repeat them. So would it on a board of 150 cells or more: the generic path's count costs
    # minutes there (169 cells of havannah, quoridor's 289-cell wall grid; tests/test_kernel_connections.py and
    # tests/test_kernel_walls.py count 3 plies on smaller boards).
    depths = (1, 2, 3) if game.has_fast_playout and len(game.geometry.cells) < 150 else (1, 2)
    for number, state in enumerate(positions(game, games=2, seed=len(name) + 2)):
        if number % 7 == 0:
            for depth in depths:
                assert game.perft(state, depth) == generic_perft(game, state, depth), game.format_position(state)


# Other option settings on the kernel (checkers: one ply per jump).
COMPILED_WITH = [("checkers", {"chains": "jump"}), ("checkers", {"chains": "jump", "size": "6", "quiet": "6"})]


@pytest.mark.parametrize("name,settings", [(n, {}) for n in sorted(COMPILED)] + COMPILED_WITH)
def test_a_whole_playout_ends_where_the_rules_say(name, settings):
    game = python_game(name, settings)
    assert game.has_fast_playout
    for seed in range(5):
        end = game.playout(game.initial_state(), random.Random(seed))
        if end.outcome is None:  # a fox may wander for ever: the playout stops at its cap
            assert end.plies == 1000
        else:
            assert end.outcome == game.status(end.state)[1]


def test_a_cut_playout_has_no_outcome_and_the_cap_in_plies():
    game = load_game("breakthrough", {})
    end = game.playout(game.initial_state(), random.Random(1), 5)
    assert end.outcome is None and end.plies == 5
    assert game.playout(game.initial_state(), random.Random(1), 0) == (game.initial_state(), None, 0)


@pytest.mark.parametrize("settings", [{"rows": "40", "cols": "26"}, {"rows": "12", "cols": "12"}])
def test_a_board_too_big_for_the_kernel_plays_on_the_generic_path(settings):
    game = load_game("abalone", settings)  # over 1024 cells, or pushes of lines longer than 8
    assert not game.has_fast_playout
    state = game.initial_state()
    assert game.perft(state, 1) == len(game.legal_moves(state))
    assert game.playout(state, random.Random(0), 3).plies == 3
