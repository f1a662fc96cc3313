"""The alpha-beta engine in machine code on kernels that keep earlier positions (``repetitions``).

Such a kernel has no ``expand``; the engine searches over its ``children`` and carries the earlier positions
along its path (interpreter/search/history_search.py). At a fixed depth ``think(..., kernel=True)`` gives the
value of the reference search on the generic path:

- with material only (the bundled rule text with its ``mobility`` line taken out, and a small chess-like game
  written here), plain minimax (:func:`rulesdsl.interpreter.search.minimax.minimax`, alpha-beta's from depth 3)
  with the game's own evaluation, also where a third repetition is within the horizon;
- with ``mobility``: the native evaluation counts each side's moves (``children`` at depth 0) as the generic
  one does (the pieces' own rules and the king's safety in, ``must capture``'s filter out;
  tests/test_mobility.py), and both ignore ``forbid repetition`` there (the native count runs over an empty
  history), so the reference is plain minimax again: chess and antichess with their bundled evaluations,
  capture the flag (with ``threatened`` and ``mobility``) and go on 5 x 5 and 9 x 9 points (``area``; 81
  points take two words a bitboard, :mod:`rulesdsl.interpreter.kernel.lanes`).

The chess family's machine code takes minutes to compile the first time (tests/test_native_history.py says
so); it is cached after. Without numba, or with ``RULESDSL_NATIVE=0``, the search is the generic engine's.
"""

from __future__ import annotations

import random

import pytest
from helpers import assert_native_search_is_minimax, spaced_positions

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.search.engine import think
from rulesdsl.interpreter.search.kernel_search import kernel_view
from rulesdsl.interpreter.search.minimax import WIN, alphabeta, minimax
from rulesdsl.loader import bundled_dir

NATIVE = native_module.enabled() and native_module.numba_available()
needs_native = pytest.mark.skipif(not NATIVE, reason="numba is not installed or RULESDSL_NATIVE=0")

# A small chess-like game (5 x 5, kings, knights and rooks), quick to compile, with a third repetition a draw.
SMALL = """game "Small"

players white "w", black "b"
forward white n, black s
board grid 5 x 5

piece knight white "N", black "n"
piece rook white "R", black "r"
piece king white "K", black "k"

start {
  king white at a1
  knight white at b1
  rook white at d1
  king black at e5
  knight black at d5
  rook black at b5
}

moves {
  knight step (1, 2) to empty or enemy
  rook slide orthogonal to empty or enemy
  king step all to empty or enemy
}
forbid leaving king attacked

end {
  draw if repetitions >= 3
  opponent loses if no moves and attacked(opponent king) > 0
  draw if no moves
  draw if plies since king move or capture >= 20
}

evaluate {
  material knight 3
  material rook 5
}
"""
# From the start of SMALL: seven plies, then a rook and a knight twice back and forth: the position after them
# stands for the second time, and white's a3-b1 then black's d4-d5 would make the third (a draw), which saves
# black from losing a knight (the same position without its past is worth -3 to black at depth 2).
REPEATING = ["d1-d3", "b5-c5", "d3-b3", "d5-c3", "b3-c3", "c5-d5", "b1-a3",
             "d5-d4", "a3-b1", "d4-d5", "b1-a3", "d5-d4", "a3-b1"]
KIWIPETE = "(w a1,e1,h1,a8,e8,h8 - 0 r---k--r p-ppqpb- bn--pnp- ---PN--- -p--P--- --N--Q-p PPPBBPPP R---K--R)"
_GAMES: dict[str, object] = {}


def game_of(name: str, tmp_path_factory, mobility: bool = True):
    """A game by name (``small``: :data:`SMALL`) with its machine code and search helpers loaded;
    ``mobility=False``: the rule text without its ``mobility`` line (the same kernel, material only)."""
    key = f"{name}-{mobility}"
    if key not in _GAMES:
        text = SMALL if name == "small" else (bundled_dir() / f"{name}.rules").read_text()
        if not mobility:
            text = "\n".join(line for line in text.splitlines() if line.strip().split()[:1] != ["mobility"])
        path = tmp_path_factory.mktemp("rules") / f"{name}.rules"
        path.write_text(text)
        game = load_game(str(path))
        view = kernel_view(game, wait=True)
        assert view is not None and view.history, "a kernel with earlier positions searches natively"
        _GAMES[key] = game
    return _GAMES[key]


def played(game, moves: list[str]):
    """The state after ``moves`` from the start (with its earlier positions)."""
    state = game.initial_state()
    for text in moves:
        state = game.apply(state, game.parse_move(state, text))
    return state


@needs_native
def test_small_fixed_depths_give_the_minimax_value(tmp_path_factory):
    game = game_of("small", tmp_path_factory)
    for state in spaced_positions(game, seed=5, plies=30, every=3):
        for depth in (1, 2, 3):
            assert_native_search_is_minimax(game, state, depth)


@needs_native
def test_a_third_repetition_within_the_horizon_is_searched_as_the_generic_path_does(tmp_path_factory):
    game = game_of("small", tmp_path_factory)
    state = played(game, REPEATING)
    fresh = game.parse_position(game.format_position(state))  # the same position without its past
    for depth in (2, 3, 4):
        assert_native_search_is_minimax(game, state, depth)
        assert_native_search_is_minimax(game, fresh, depth)
    assert think(game, state, depth=2, kernel=True).score == 0.0  # the repetition: a draw
    assert think(game, fresh, depth=2, kernel=True).score == pytest.approx(-3.0)  # black loses a knight


@needs_native
def test_chess_material_fixed_depths_give_the_minimax_value(tmp_path_factory):
    chess = game_of("chess", tmp_path_factory, mobility=False)
    start = chess.initial_state()
    for depth in (1, 2, 3):
        assert_native_search_is_minimax(chess, start, depth)
    for state in list(spaced_positions(chess, seed=7, plies=60, every=15))[1:]:
        for depth in (1, 2):
            assert_native_search_is_minimax(chess, state, depth)


@needs_native
@pytest.mark.parametrize("name, settings, seed", [("capture-the-flag", None, 3), ("go", {"size": "5"}, 5),
                                                   pytest.param("go", {"size": "9"}, 9, marks=pytest.mark.deep)])
def test_games_that_forbid_repetition_with_their_own_evaluation_give_the_minimax_value(name, settings, seed):
    game = load_game(name, settings)
    view = kernel_view(game, wait=True)
    assert view is not None and view.history and view.features[2] > 0, "area or threatened natively"
    positions = list(spaced_positions(game, seed=seed, plies=36, every=6))
    assert len(positions) >= 4
    for state in positions:
        for depth in (1, 2, 3):
            assert_native_search_is_minimax(game, state, depth)


@needs_native
def test_chess_kiwipete_fixed_depths_give_the_minimax_value(tmp_path_factory):
    chess = game_of("chess", tmp_path_factory, mobility=False)
    kiwipete = chess.parse_position(KIWIPETE)  # castling both ways, a pawn to take in passing, pins
    for depth in (1, 2):
        assert_native_search_is_minimax(chess, kiwipete, depth)


@needs_native
@pytest.mark.deep  # antichess compiles in about 100 s of CPU: its native tests run with -m deep
def test_antichess_material_fixed_depths_give_the_minimax_value(tmp_path_factory):
    game = game_of("antichess", tmp_path_factory, mobility=False)
    for number, state in enumerate(spaced_positions(game, seed=3, plies=60, every=12)):
        for depth in (1, 2, 3) if number == 0 else (1, 2):
            assert_native_search_is_minimax(game, state, depth)


@needs_native
def test_chess_knights_back_and_forth_give_the_minimax_value(tmp_path_factory):
    chess = game_of("chess", tmp_path_factory, mobility=False)
    state = played(chess, ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"])  # then f3g1 f6g8: a third time
    for depth in (1, 2, 3):
        assert_native_search_is_minimax(chess, state, depth)


@needs_native
@pytest.mark.parametrize("name", ["chess", pytest.param("antichess", marks=pytest.mark.deep)])
def test_with_mobility_fixed_depths_give_the_minimax_value(name, tmp_path_factory):
    game = game_of(name, tmp_path_factory)
    rng = random.Random(len(name))
    state = game.initial_state()
    states = [state]
    for _ in range(20):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    states.append(state)
    for state in states:
        for depth in (1, 2):
            assert_native_search_is_minimax(game, state, depth)


@needs_native
def test_under_a_clock_chess_searches_natively_and_plays_what_it_reports(tmp_path_factory):
    chess = game_of("chess", tmp_path_factory)
    state = chess.initial_state()
    result = think(chess, state, seconds=0.5)
    assert result.kernel == "native" and result.depth >= 2
    assert result.move in chess.legal_moves(state)
    assert result.partial or result.iterations[-1].pv[0] == result.move  # (or an unfinished iteration's best)
    assert abs(result.score) < WIN / 2


def test_without_native_code_the_search_is_the_generic_engines(monkeypatch, tmp_path):
    monkeypatch.setenv(native_module.ENV, "0")
    path = tmp_path / "small.rules"
    path.write_text(SMALL)
    game = load_game(str(path))
    state = played(game, REPEATING)
    result = think(game, state, depth=2, kernel=True)
    assert result.kernel == "generic"
    assert result.score == pytest.approx(minimax(game, state, 2), abs=1e-9)


@needs_native
def test_a_position_with_more_children_than_the_native_rows_hold_is_searched_generically(tmp_path_factory,
                                                                                        monkeypatch):
    from rulesdsl.interpreter.search import history_search
    from rulesdsl.interpreter.search.kernel_search import TooManyChildren

    game = game_of("small", tmp_path_factory)
    state = played(game, REPEATING)

    def too_many(self, row, *rest):
        raise TooManyChildren

    monkeypatch.setattr(history_search.HistorySearcher, "expand", too_many)
    result = think(game, state, depth=3, kernel=True)
    assert result.kernel == "generic"
    assert result.score == pytest.approx(alphabeta(game, state, 3), abs=1e-9)


@needs_native
@pytest.mark.deep
@pytest.mark.parametrize("name", ["chess", "antichess"])
def test_deep_many_positions_at_depth_three_give_the_minimax_value(name, tmp_path_factory):
    game = game_of(name, tmp_path_factory, mobility=False)
    for seed in range(4):
        for state in spaced_positions(game, seed=100 + seed, plies=80, every=20):
            assert_native_search_is_minimax(game, state, 3)


@needs_native
def test_search_helpers_that_do_not_compile_leave_the_search_generic(tmp_path, monkeypatch):
    def fails(native, symbols):
        raise TypeError("the helpers do not compile")

    monkeypatch.setattr(native_module, "_warm_search", fails)
    path = tmp_path / "small.rules"
    path.write_text(SMALL)
    game = load_game(str(path))
    assert game.native_kernel(wait=True) is not None  # cached by the tests above: playouts and perft native
    assert kernel_view(game) is None
    state = played(game, REPEATING)
    result = think(game, state, depth=2, kernel=True)
    assert result.kernel == "generic"
    assert result.score == pytest.approx(minimax(game, state, 2), abs=1e-9)
