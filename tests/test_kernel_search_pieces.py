"""The alpha-beta engine in machine code on a large lanes kernel written in pieces (xiangqi: 90 cells).

Its ``mobility`` and ``outcome`` (the search helpers' only extra functions) are cut in pieces as ``expand`` is
(:func:`rulesdsl.interpreter.kernel.native_split.outline_straight`), so the source with the helpers compiles by
default. With its ``mobility`` (the native count of the legal moves is the generic one: tests/test_mobility.py)
and with material alone (the rule text without its ``mobility`` line, the same kernel) the search is held to
plain minimax on the generic path. The first compile takes minutes (cached after), so the searches run with
``-m deep``; the default run checks that the source with the helpers compiles by default.
"""

from __future__ import annotations

import pytest
from helpers import assert_native_search_is_minimax, spaced_positions

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.search.engine import think
from rulesdsl.interpreter.search.kernel_search import kernel_view
from rulesdsl.loader import bundled_dir

pytest.importorskip("numba")
pytestmark = pytest.mark.skipif(not native_module.enabled(), reason="RULESDSL_NATIVE=0")
_GAMES: dict[bool, object] = {}


def xiangqi(tmp_path_factory, mobility: bool = True):
    """Xiangqi with its machine code and search helpers loaded; ``mobility=False``: without its ``mobility``."""
    if mobility not in _GAMES:
        text = (bundled_dir() / "xiangqi.rules").read_text()
        if not mobility:
            text = "\n".join(line for line in text.splitlines() if line.strip().split()[:1] != ["mobility"])
        path = tmp_path_factory.mktemp("rules") / "xiangqi.rules"
        path.write_text(text)
        game = load_game(str(path))
        view = kernel_view(game, wait=True)
        assert view is not None and view.native.lanes is not None, "two words a bitboard, searched natively"
        _GAMES[mobility] = game
    return _GAMES[mobility]


def test_the_source_with_the_search_helpers_is_in_pieces_that_compile_by_default(monkeypatch):
    monkeypatch.delenv(native_module.MAX_ENV, raising=False)
    source = native_module.native_source(load_game("xiangqi").kernel())
    assert "\ndef expandrow(" in source and "\ndef mobility(" in source
    assert native_module.compiles_soon(source)


@pytest.mark.deep
def test_material_fixed_depths_give_the_minimax_value(tmp_path_factory):
    game = xiangqi(tmp_path_factory, mobility=False)
    for number, state in enumerate(spaced_positions(game, seed=2, plies=40, every=20)):
        for depth in (1, 2) if number else (1, 2, 3):
            assert_native_search_is_minimax(game, state, depth)


@pytest.mark.deep
def test_with_mobility_fixed_depths_give_the_minimax_value(tmp_path_factory):
    game = xiangqi(tmp_path_factory)
    for state in spaced_positions(game, seed=4, plies=30, every=15):
        assert_native_search_is_minimax(game, state, 1)
    assert_native_search_is_minimax(game, game.initial_state(), 2)


@pytest.mark.deep
def test_under_a_clock_xiangqi_searches_natively(tmp_path_factory):
    game = xiangqi(tmp_path_factory)
    result = think(game, game.initial_state(), seconds=0.5)
    assert result.kernel == "native" and result.depth >= 2
    assert result.move in game.legal_moves(game.initial_state())
