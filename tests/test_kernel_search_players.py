"""Paranoid and max^n on the native kernel give the generic searches' values and moves at a fixed depth.

On the start and seeded random positions of games for three players: the
per-player static evaluation computed on bitboards is the game's own for
every player; the native paranoid search's value and move at depths 1 to 3
are the generic paranoid search's (which tests/test_many_players.py holds to a
plain paranoid minimax); the native max^n value vector is the generic max^n's
(held by tests/test_maxn.py to a max^n written out by hand). Under a clock the
native path plays a legal move and says so; with ``RULESDSL_NATIVE=0`` the
generic path runs.
"""

from __future__ import annotations

import pytest
from helpers import spaced_positions

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.search.engines import choose
from rulesdsl.interpreter.search.kernel_players import MaxNRows, players_view
from rulesdsl.interpreter.search.maxn import MaxN, think_maxn
from rulesdsl.interpreter.search.minimax import EVAL_LIMIT, INFINITY, static_score
from rulesdsl.interpreter.search.paranoid import think_paranoid

NATIVE = native_module.enabled() and native_module.numba_available()
needs_native = pytest.mark.skipif(not NATIVE, reason="numba is not installed or RULESDSL_NATIVE=0")
# (game, options, depths searched, plies between the positions tried); chinese checkers' start to depth 3 below
CASES = [("three-way-race", {}, (1, 2, 3), 1), ("chinese-checkers", {"players": "3"}, (1, 2), 20)]
IDS = [name for name, *_ in CASES]


def positions(game, every: int) -> list:
    """The start and positions of two seeded random games (of 120 plies at most)."""
    return [state for seed in (1, 2) for state in spaced_positions(game, seed, plies=120, every=every)]


@needs_native
@pytest.mark.parametrize("name,settings,depths,every", CASES, ids=IDS)
def test_every_players_static_value_on_bitboards_is_the_games(name, settings, depths, every):
    game = load_game(name, settings)
    view = players_view(game, wait=True)
    assert view is not None
    for state in positions(game, every):
        row = view.row(state)
        for player in range(len(game.players)):
            got = float(view.module.scorefor(row, player, *view.eval, EVAL_LIMIT))
            assert got == pytest.approx(static_score(game, state, player), abs=1e-9), game.format_position(state)


@needs_native
@pytest.mark.parametrize("name,settings,depths,every", CASES, ids=IDS)
def test_native_paranoid_gives_the_generic_value_and_move(name, settings, depths, every):
    game = load_game(name, settings)
    assert players_view(game, wait=True) is not None
    for state in positions(game, every):
        for depth in depths:
            native = think_paranoid(game, state, depth=depth, kernel=True)
            generic = think_paranoid(game, state, depth=depth, kernel=False)
            where = (depth, game.format_position(state))
            assert native.kernel == "native" and generic.kernel == "generic", where
            assert native.score == pytest.approx(generic.score, abs=1e-9), where
            assert native.move == generic.move and native.depth == generic.depth, where


@needs_native
@pytest.mark.parametrize("name,settings,depths,every", CASES, ids=IDS)
def test_native_maxn_gives_the_generic_value_vector_and_move(name, settings, depths, every):
    game = load_game(name, settings)
    view = players_view(game, wait=True)
    for state in positions(game, every):
        for depth in depths:
            where = (depth, game.format_position(state))
            vector = MaxNRows(view, 64.0, {}).value(view.row(state), depth, 0)
            assert vector == pytest.approx(MaxN(game, INFINITY).value(state, depth, 0), abs=1e-9), where
            native = think_maxn(game, state, depth=depth, kernel=True)
            generic = think_maxn(game, state, depth=depth, kernel=False)
            assert native.kernel == "native" and native.move == generic.move, where
            assert native.score == pytest.approx(generic.score, abs=1e-9), where


@needs_native
@pytest.mark.parametrize("engine", ["paranoid", "maxn", "alphabeta"])
def test_under_a_clock_the_native_search_plays_a_legal_move(engine):
    game = load_game("three-way-race", {})
    players_view(game, wait=True)
    state = game.initial_state()
    result = choose(game, state, engine, seconds=0.2)
    assert result.kernel == "native" and result.depth >= 1
    assert result.move in game.legal_moves(state)
    assert result.engine == ("paranoid" if engine == "paranoid" else "maxn")


@needs_native
def test_a_won_position_is_found_natively():
    game = load_game("three-way-race", {})
    players_view(game, wait=True)
    state = game.parse_position("(r --- R-- -GB)")  # red steps to row 3 whatever it plays
    for engine in ("paranoid", "maxn"):
        result = choose(game, state, engine, seconds=0.2)
        assert result.kernel == "native"
        assert game.outcome(game.apply(state, result.move)).winner == 0


def test_with_native_code_off_the_generic_search_runs(monkeypatch):
    monkeypatch.setenv("RULESDSL_NATIVE", "0")
    game = load_game("three-way-race", {})
    state = game.initial_state()
    for engine in ("paranoid", "maxn"):
        result = choose(game, state, engine, seconds=0.2)
        assert result.kernel == "generic" and result.move in game.legal_moves(state)
        assert (think_paranoid if engine == "paranoid" else think_maxn)(game, state, depth=2, kernel=True).kernel \
            == "generic"


@needs_native
def test_chinese_checkers_start_to_depth_3_natively_is_the_generic_search():
    game = load_game("chinese-checkers", {"players": "3"})
    players_view(game, wait=True)
    state = game.initial_state()
    for think in (think_paranoid, think_maxn):
        native, generic = think(game, state, depth=3, kernel=True), think(game, state, depth=3, kernel=False)
        assert native.kernel == "native" and native.move == generic.move
        assert native.score == pytest.approx(generic.score, abs=1e-9)


def test_a_game_of_places_keeps_the_generic_search():
    game = load_game("chinese-checkers-places", {"players": "3"})  # 'finishes': the kernel's places word
    assert players_view(game, wait=True) is None
    result = think_paranoid(game, game.initial_state(), depth=1, kernel=True)
    assert result.kernel == "generic" and result.move in game.legal_moves(game.initial_state())


@needs_native
@pytest.mark.deep
@pytest.mark.parametrize("think", [think_paranoid, think_maxn], ids=["paranoid", "maxn"])
def test_chinese_checkers_to_depth_3_on_many_positions(think):
    game = load_game("chinese-checkers", {"players": "3"})
    players_view(game, wait=True)
    for seed in range(3, 8):
        for state in spaced_positions(game, seed, plies=150, every=15):
            native, generic = think(game, state, depth=3, kernel=True), think(game, state, depth=3, kernel=False)
            where = game.format_position(state)
            assert native.kernel == "native" and native.move == generic.move, where
            assert native.score == pytest.approx(generic.score, abs=1e-9), where
