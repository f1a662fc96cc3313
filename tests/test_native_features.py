"""The nonlinear evaluation features (``area``, ``threatened``) in machine code give the generic evaluation's values.

:mod:`rulesdsl.interpreter.search.native_features` computes them on the row of
words the native search holds. Checked here: two positions derived by hand
(go 3 x 3, capture the flag 5 x 5); seeded random positions of go (5 x 5 and
9 x 9, several words a bitboard) and capture the flag (5 x 5 and 7 x 7), where
the native value must equal the generic static evaluation of the same rules
with only these features (both games keep earlier positions, so their machine
code has no search helpers yet: ``feats`` runs alone); and two test rule
files without earlier positions (tests/rules/), where the whole static score
on the row is the game's and a fixed-depth native search gives minimax's value.
A rule whose threats the module does not compile raises ``Unsupported`` (the
game keeps the generic evaluation).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from helpers import assert_native_search_is_minimax, random_positions, spaced_positions

from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.kernel.lanes import layout_of
from rulesdsl.interpreter.kernel.native import NativeKernel
from rulesdsl.interpreter.search.engine import think
from rulesdsl.interpreter.search.kernel_search import kernel_view
from rulesdsl.interpreter.search.minimax import EVAL_LIMIT, static_score
from rulesdsl.interpreter.search.native_features import (
    Unsupported,
    feature_table,
    features_module,
    native_terms,
    threat_patterns,
)
from rulesdsl.interpreter.search.score_terms import score_terms
from rulesdsl.loader import bundled_dir

NATIVE = native_module.enabled() and native_module.numba_available()
pytestmark = pytest.mark.skipif(not NATIVE, reason="numba is not installed or RULESDSL_NATIVE=0")
RULES = Path(__file__).parent / "rules"


class Features:
    """A game's nonlinear features in machine code (``feats`` alone), on its states' rows of words."""

    def __init__(self, game) -> None:
        compiled = game._compiled
        kernel = compiled.kernel()
        assert kernel is not None
        lanes = layout_of(kernel) if max(kernel.layout.bit) >= 64 else None
        self.rows = NativeKernel(None, None, None, None, kernel, 0, lanes=lanes)  # the row layout only
        folded, mobility, extra = native_terms(compiled.features, compiled.tables, compiled.start_board,
                                               score_terms(compiled.active, compiled.tables))
        assert extra, "the game uses no nonlinear feature"
        self.compiled = compiled
        self.opponent = compiled.tables.seats.opponent
        self.consts = np.array([0.0, 0.0, *(w for _, w, _ in extra)])
        self.table = feature_table(extra, compiled.tables, compiled.active, kernel,
                                   lambda s, cell: self.rows.place(s, kernel.layout.bit[cell]), self.rows.columns)

    def value(self, state) -> float:
        """The features' weighted sum for the player to move (mine minus the other's)."""
        _, bits, _, _ = self.compiled._encode(state)
        words = tuple(self.rows.words(bits))[:self.rows.columns]
        return float(features_module().feats(words, state.turn, self.opponent[state.turn], self.consts, self.table))


def with_evaluation(tmp_path: Path, name: str, evaluation: str) -> Path:
    """A copy of a bundled rule file whose ``evaluate`` block is ``evaluation``."""
    text = (bundled_dir() / f"{name}.rules").read_text(encoding="utf-8")
    text, count = re.subn(r"evaluate \{.*?\n\}", "evaluate {\n" + evaluation + "\n}", text, flags=re.DOTALL)
    assert count == 1
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    return path


def test_area_by_hand_on_a_small_go_board():
    # - x x    a3 reaches only x (b3, a2): x's; c1 reaches only o (c2, b1): o's.
    # x x o    x: 4 stones + 1 = 5, o: 3 stones + 1 = 4.
    # o o -
    game = load_game("go", {"size": "3"})
    game, state = load_position(game, "(x 0 - -xx xxo oo-)")
    features = Features(game)
    assert features.value(state) == 1.0
    assert features.value(state._replace(turn=1)) == -1.0  # white's view
    assert static_score(game, state, state.turn) == 1.0


def test_threatened_by_hand_on_capture_the_flag(tmp_path):
    # --W--   the white pawn on c3 could jump forward (south) over the black flag on c2 onto the empty c1;
    # -----   no black piece captures (flags only step, b1's pawn has nothing to jump).
    # --w--   black to move: -300 x (1 flag - 0) = -300.
    # --B--
    # -b---
    game = load_game(str(with_evaluation(tmp_path, "capture-the-flag", "  threatened flag -300\n  threatened pawn -3")))
    game, state = load_position(game, "(b " + "--W--" "-----" "--w--" "--B--" "-b---" + ")")
    assert Features(game).value(state) == -300.0
    assert game.evaluate(state, state.turn) == -300.0


def assert_features_are_generic(game, states) -> None:
    """On each state, the native features equal the generic evaluation of the same rules (which uses only them),
    and they are not all one value (the positions reach the feature)."""
    features = Features(game)
    seen = set()
    for state in states:
        want = game.evaluate(state, state.turn)
        assert features.value(state) == pytest.approx(want, abs=1e-9), game.format_position(state)
        seen.add(want)
    assert len(seen) > 2, seen


@pytest.mark.parametrize("size,count", [("5", 150), ("9", 60)])
def test_area_on_random_go_positions(size, count):
    game = load_game("go", {"size": size})
    assert_features_are_generic(game, random_positions(game, seed=int(size), count=count, every=3))


@pytest.mark.parametrize("size", ["5", "7"])
def test_threatened_on_random_capture_the_flag_positions(tmp_path, size):
    path = with_evaluation(tmp_path, "capture-the-flag", "  threatened flag -300\n  threatened pawn -3")
    game = load_game(str(path), {"size": size})
    assert_features_are_generic(game, random_positions(game, seed=int(size), count=150, every=2, cap=60))


TEST_RULES = ["area-placement", "threat-skirmish"]


@pytest.mark.parametrize("name", TEST_RULES)
def test_the_static_score_on_the_row_is_the_games(name):
    game = load_game(str(RULES / f"{name}.rules"))
    view = kernel_view(game, wait=True)
    assert view is not None and view.consts.size > 2  # searched natively, with nonlinear features
    for state in random_positions(game, seed=5, count=80, every=3):
        if game.status(state)[1] is not None:
            continue
        got = float(view.module.scorerow(view.row(state), *view.eval, EVAL_LIMIT))
        assert got == pytest.approx(static_score(game, state, state.turn), abs=1e-9), game.format_position(state)


@pytest.mark.parametrize("name", TEST_RULES)
def test_a_fixed_depth_native_search_gives_the_minimax_value(name):
    game = load_game(str(RULES / f"{name}.rules"))
    kernel_view(game, wait=True)
    for state in spaced_positions(game, seed=len(name), plies=24, every=6):
        for depth in (1, 2, 3):
            assert_native_search_is_minimax(game, state, depth)


def test_threats_the_module_does_not_compile_keep_the_generic_evaluation(tmp_path):
    text = (RULES / "threat-skirmish.rules").read_text(encoding="utf-8")
    game = load_game(str(RULES / "threat-skirmish.rules"))
    compiled = game._compiled
    slide = text.replace("flag step forward, backward, left, right to empty or enemy",
                         "flag slide forward, backward, left, right to empty or enemy")
    assert slide != text
    assert threat_patterns(compiled.tables, compiled.active, lambda syms: 0)  # the step's and the jumps' patterns
    path = tmp_path / "sliding.rules"
    path.write_text(slide, encoding="utf-8")
    sliding = load_game(str(path))
    with pytest.raises(Unsupported):
        threat_patterns(sliding._compiled.tables, sliding._compiled.active, lambda syms: 0)
    native = sliding.native_kernel(wait=True)
    assert native is not None and hasattr(native.module, "expandrow")  # machine code with the search helpers,
    assert kernel_view(sliding, wait=True) is None  # but the evaluation stays generic
    result = think(sliding, sliding.initial_state(), depth=2, kernel=True)
    assert result.kernel != "native" and result.move in sliding.legal_moves(sliding.initial_state())


def test_only_a_kernel_whose_evaluation_needs_them_carries_the_features():
    assert load_game("go", {"size": "5"}).kernel().features
    assert load_game(str(RULES / "threat-skirmish.rules")).kernel().features
    assert not load_game("breakthrough", {}).kernel().features  # material, mobility...: no feats in its source
