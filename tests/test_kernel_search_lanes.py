"""The alpha-beta engine in machine code on boards of more than 64 cells (several words a bitboard).

On the start and random positions of games whose kernel takes several words a
bitboard (kernel/lanes.py): ``think(..., kernel=True)`` at a fixed depth runs
on the native kernel and returns the value plain minimax
(:func:`rulesdsl.interpreter.search.minimax.minimax`) gives on the generic path,
its move is worth that value, the static evaluation computed on the flat rows
of words is the game's own, and a row reads back as the position it was made
from. A lanes source that the search helpers would take over the source limit
keeps its native playouts and searches the generic way.
"""

from __future__ import annotations

import pytest
from helpers import NO_SOURCE_LIMIT, assert_native_search_is_minimax, param, spaced_positions

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import lanes
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.search.engine import think
from rulesdsl.interpreter.search.kernel_search import kernel_view
from rulesdsl.interpreter.search.minimax import EVAL_LIMIT, minimax, static_score

pytest.importorskip("numba")
needs_native = pytest.mark.skipif(not native_module.enabled(), reason="RULESDSL_NATIVE=0")
pytestmark = NO_SOURCE_LIMIT

# (game, settings, the deepest fixed depth compared): the settings of tests/test_native_lanes.py where they meet,
# so that both files share one compile
_CASES = [
    ("hex", {"size": "11"}, 2),  # 121 cells, two words a bitboard
    ("amazons", {}, 2),  # 10 x 10, a two-part turn
    ("breakthrough", {"rows": "9", "cols": "8"}, 3),  # 72 cells: captures, and a win by reaching a row
    ("ultimate-tic-tac-toe", {}, 2),  # 81 cells, the small board to play in kept in the words
    ("havannah", {"size": "8"}, 2),  # 169 cells, rings, bridges and forks
    ("draughts", {}, 3),  # 10 x 10: capture chains, promotion, the quiet-move counter
]
# -m deep: draughts (about 50 s of CPU to compile; draughts 6 x 6 is searched natively by default) and amazons
# (its compile with the helpers kept the perft test of test_native_lanes.py waiting; 6 x 6 is searched natively)
DEEP = {"draughts", "amazons"}
CASES = [param(*case, id=case[0], deep=case[0] in DEEP) for case in _CASES]


def lanes_view(name: str, settings: dict):
    """The game and its kernel view, the machine code compiled (or loaded from the cache) now."""
    game = load_game(name, settings)
    view = kernel_view(game, wait=True)
    assert view is not None, "a native lanes kernel under the limit has the search helpers"
    assert view.native.lanes is not None, "these games' kernels take several words a bitboard"
    return game, view


@needs_native
@pytest.mark.parametrize("name,settings,deepest", CASES)
def test_a_row_reads_back_and_its_static_value_is_the_games(name, settings, deepest):
    game, view = lanes_view(name, settings)
    assert view.width == view.native.lanes.columns > len(game.kernel().symbols)
    seen = 0
    for state in spaced_positions(game, seed=11, plies=18, every=3):
        row = view.row(state)
        _, bits, last, _ = game._compiled._encode(state)
        assert view.native.bits_of(row[:view.width]) == [int(b) for b in bits]
        assert view.native.last_of(row[view.width + 1]) == last and int(row[view.width]) == state.turn
        got = float(view.module.scorerow(row, *view.eval, EVAL_LIMIT))
        assert got == pytest.approx(static_score(game, state, state.turn), abs=1e-9), game.format_position(state)
        seen += 1
    assert seen == 6


@needs_native
@pytest.mark.parametrize("name,settings,deepest", CASES)
def test_a_fixed_depth_on_the_lanes_kernel_gives_the_minimax_value(name, settings, deepest):
    game, _ = lanes_view(name, settings)
    seen = 0
    for state in spaced_positions(game, seed=len(name), plies=20, every=5):
        for depth in range(1, deepest + 1):
            assert_native_search_is_minimax(game, state, depth)
        seen += 1
    assert seen == 4


@needs_native
def test_under_a_clock_the_lanes_search_plays_a_legal_move_and_says_so():
    game, _ = lanes_view("hex", {"size": "11"})
    start = game.initial_state()
    result = think(game, start, seconds=0.3)
    assert result.kernel == "native" and result.depth >= 1
    assert result.move in game.legal_moves(start)
    assert result.iterations[-1].pv[0] == result.move


@needs_native
def test_under_a_clock_the_native_search_looks_at_every_placement_of_a_crowded_board():
    # the generic engine narrows the placements of a crowded board under a clock (tests/test_engine.py); the
    # native search is full width, so at a depth the clock does not cut it gives minimax's value
    game, _ = lanes_view("tic-tac-toe", {"size": "15", "line": "5"})
    state = game.initial_state()
    after = game.apply(state, game.parse_move(state, "h8"))
    result = think(game, after, 2, seconds=600)
    assert result.kernel == "native" and result.depth == 2 and not result.selective
    assert result.score == pytest.approx(minimax(game, after, 2), abs=1e-9)


@needs_native
def test_a_source_the_helpers_take_over_the_limit_stays_native_without_them(monkeypatch):
    game = load_game("hex", {"size": "9"})
    kernel = game.kernel()
    bare, full = lanes.lanes_source(kernel, search=False), lanes.lanes_source(kernel)
    assert bare is not None and full is not None and len(bare) < len(full)
    monkeypatch.setenv(native_module.MAX_ENV, str(len(bare)))
    native = game.native_kernel(wait=True)
    assert native is not None and native.lanes is not None, "the playouts stay in machine code"
    assert not hasattr(native.module, "expandrow")
    assert kernel_view(game) is None
    result = think(game, game.initial_state(), depth=1, kernel=True)
    assert result.kernel == "generic"
    assert result.score == pytest.approx(minimax(game, game.initial_state(), 1), abs=1e-9)


def test_a_search_function_the_lanes_cannot_take_leaves_the_rest_native(monkeypatch):
    kernel = load_game("hex", {"size": "9"}).kernel()
    assert "def expandrow(" in lanes.lanes_source(kernel)
    real = lanes._rewrite

    def refuse_mobility(function, layout, context):
        if function.name == "mobility":
            raise lanes.Unfit("mobility")
        return real(function, layout, context)

    monkeypatch.setattr(lanes, "_rewrite", refuse_mobility)
    source = lanes.lanes_source(kernel)
    assert source is not None and "def playout(" in source and "def expand(" in source
    assert "def expandrow(" not in source and "def mobility(" not in source and "def outcome(" not in source
