"""The alpha-beta engine on the native kernel gives the reference search's values at a fixed depth.

On random positions of games with a kernel: ``think(..., kernel=True)`` at
depths 1 to 3 returns the value that plain minimax
(:func:`rulesdsl.interpreter.search.minimax.minimax`) gives, its move is worth that
value, and the static evaluation computed on bitboards is the game's own. Where
numba is missing the same call falls back to the generic engine.
"""

from __future__ import annotations

import sys

import pytest
from helpers import assert_native_search_is_minimax, spaced_positions

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.search.engine import think
from rulesdsl.interpreter.search.kernel_search import kernel_view
from rulesdsl.interpreter.search.minimax import EVAL_LIMIT, minimax, static_score
from rulesdsl.loader import bundled_dir

CASES = [("breakthrough", {"rows": "5", "cols": "4"}), ("konane", {"rows": "6", "cols": "6"}),
         ("konane-misere", {"rows": "4", "cols": "5"}), ("fox-and-geese", {}), ("abalone-hex", {}),
         ("abalone", {"rows": "5", "cols": "5", "freeze": "off"}), ("tic-tac-toe", {}),
         ("connect-four", {"rows": "5", "cols": "5"}), ("othello", {"size": "6"}), ("othello", {}),
         ("hex", {"size": "4"}), ("amazons", {"size": "6"}),
         ("checkers", {"chains": "jump", "size": "6", "quiet": "6"}), ("checkers", {"size": "6", "quiet": "6"}),
         ("draughts", {"size": "6", "quiet": "8"}), ("konane-straight", {"rows": "6", "cols": "6"}),
         ("lines-of-action", {}), ("nine-mens-morris", {}), ("dots-and-boxes", {}),
         ("dots-and-boxes", {"rows": "2", "cols": "3"}), ("mancala", {}), ("mancala", {"seeds": "2"})]
IDS = [f"{n}-{'-'.join(s.values())}" for n, s in CASES]
NATIVE = native_module.enabled() and native_module.numba_available()
needs_native = pytest.mark.skipif(not NATIVE, reason="numba is not installed or RULESDSL_NATIVE=0")


@needs_native
@pytest.mark.parametrize("name,settings", CASES, ids=IDS)
def test_the_static_evaluation_on_bitboards_is_the_games(name, settings):
    game = load_game(name, settings)
    view = kernel_view(game, wait=True)
    assert view is not None
    for state in spaced_positions(game, seed=3, every=1):
        row = view.row(state)
        got = float(view.module.scorerow(row, *view.eval, EVAL_LIMIT))
        assert got == pytest.approx(static_score(game, state, state.turn), abs=1e-9), game.format_position(state)


@needs_native
@pytest.mark.parametrize("name,settings", CASES, ids=IDS)
def test_a_fixed_depth_on_the_kernel_gives_the_minimax_value(name, settings):
    game = load_game(name, settings)
    for state in spaced_positions(game, seed=len(name)):
        for depth in (1, 2, 3):
            assert_native_search_is_minimax(game, state, depth)


@needs_native
def test_under_a_clock_the_kernel_search_plays_a_legal_move_and_says_so():
    game = load_game("breakthrough", {})
    kernel_view(game, wait=True)
    result = think(game, game.initial_state(), seconds=0.3)
    assert result.kernel == "native" and result.depth >= 1
    assert result.move in game.legal_moves(game.initial_state())
    assert result.iterations[-1].pv[0] == result.move


def test_without_numba_kernel_true_searches_the_generic_way(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)
    game = load_game("konane", {"rows": "4", "cols": "4"})
    state = game.initial_state()
    result = think(game, state, depth=3, kernel=True)
    assert result.kernel == "generic"
    assert result.score == pytest.approx(minimax(game, state, 3), abs=1e-9)


def test_a_game_whose_evaluation_the_kernel_lacks_searches_the_generic_way(tmp_path):
    text = (bundled_dir() / "mancala.rules").read_text() + "evaluate {\n  score 10\n  threatened -1\n}\n"
    (tmp_path / "threats.rules").write_text(text)
    game = load_game(str(tmp_path / "threats.rules"), {})  # 'threatened' is not computed on the kernel
    result = think(game, game.initial_state(), depth=2, kernel=True)
    assert result.kernel == "generic"
