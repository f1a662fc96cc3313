"""Paranoid and max^n on the native kernel give the generic searches' values and moves at a fixed depth.

On the start and seeded random positions of games for three players: the
per-player static evaluation computed on bitboards is the game's own for
every player; the native paranoid search's value and move at depths 1 to 3
are the generic paranoid search's (which tests/test_many_players.py holds to a
plain paranoid minimax); the native max^n value vector is the generic max^n's
(held by tests/test_maxn.py to a max^n written out by hand). Under a clock the
native path plays a legal move and says so; with ``RULESDSL_NATIVE=0`` the
generic path runs. The same holds for a game that gives places
(chinese-checkers-places: the end scored by the rewards for the final places,
positions where a seat has finished), and the native reward for a place is
:meth:`Outcome.returns`'s for every places word.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from helpers import param, spaced_positions

from rulesdsl.interpreter.compile.game import rank_returns
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.kernel.places import canonical, pack
from rulesdsl.interpreter.reference.places import final_places
from rulesdsl.interpreter.search.engines import choose
from rulesdsl.interpreter.search.kernel_players import MaxNRows, players_view
from rulesdsl.interpreter.search.maxn import MaxN, think_maxn
from rulesdsl.interpreter.search.minimax import EVAL_LIMIT, INFINITY, WIN, static_score
from rulesdsl.interpreter.search.paranoid import think_paranoid

NATIVE = native_module.enabled() and native_module.numba_available()
needs_native = pytest.mark.skipif(not NATIVE, reason="numba is not installed or RULESDSL_NATIVE=0")
# (game, options, depths searched, plies between the positions tried); chinese checkers' start to depth 3 below.
# Chinese checkers for three (121 cells, several words a bitboard) compiles in about a minute of CPU: -m deep;
# chinese-checkers-places below is searched natively on several words a bitboard by default.
CASES = [param("three-way-race", {}, (1, 2, 3), 1, id="three-way-race"),
         param("chinese-checkers", {"players": "3"}, (1, 2), 20, id="chinese-checkers", deep=True)]


def positions(game, every: int) -> list:
    """The start and positions of two seeded random games (of 120 plies at most)."""
    return [state for seed in (1, 2) for state in spaced_positions(game, seed, plies=120, every=every)]


@needs_native
@pytest.mark.parametrize("name,settings,depths,every", CASES)
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
@pytest.mark.parametrize("name,settings,depths,every", CASES)
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
@pytest.mark.parametrize("name,settings,depths,every", CASES)
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
@pytest.mark.deep
def test_chinese_checkers_start_to_depth_3_natively_is_the_generic_search():
    game = load_game("chinese-checkers", {"players": "3"})
    players_view(game, wait=True)
    state = game.initial_state()
    for think in (think_paranoid, think_maxn):
        native, generic = think(game, state, depth=3, kernel=True), think(game, state, depth=3, kernel=False)
        assert native.kernel == "native" and native.move == generic.move
        assert native.score == pytest.approx(generic.score, abs=1e-9)


# Chinese checkers where every seat races for a place: north has filled its goal point (the rows of one, two,
# three and four cells at the bottom), southwest and southeast have not left home; the places word says who has
# finished. North to move: whatever it plays it leaves the goal for one ply at least (its turn is complete only
# then), and it can step back in at its next turn.
MIDDLE = "------------- ------------ ----------- ---------- --------- w--------d ww-------dd www------ddd wwww-----dddd"
PLACES = ("-/1/-", "-/-/-")  # southeast first already (north finishing ends the game), or nobody placed yet


def places_positions(game, every: int = 1) -> list:
    """Positions of chinese-checkers-places near its end: north's goal filled (for each places word), every
    ``every``-th position after north steps or hops out of it, and positions of a seeded random game from there."""
    found = []
    for places in PLACES:
        full = game.parse_position(f'(1 {places} "" - -- --- ---- {MIDDLE} nnnn nnn nn n)')
        found += [full] + [game.apply(full, move) for move in game.legal_moves(full)[::every]]
        rng, state = random.Random(len(found)), full
        for ply in range(12):
            moves, outcome = game.status(state)
            if outcome is not None:
                break
            found += [state] if ply % 3 == 0 else []
            state = game.apply(state, rng.choice(moves))
    return found


@pytest.fixture(scope="module")
def places_game():
    game = load_game("chinese-checkers-places", {"players": "3"})  # 'finishes': the kernel's places word
    if NATIVE:
        assert players_view(game, wait=True) is not None
    return game


@needs_native
def test_the_native_reward_for_a_place_is_the_generic_one(places_game):
    """Every places word ``finishes`` and ``is out`` can give three seats, with each winner an ending rule can
    name (-1: a draw): the native reward of every seat is :meth:`Outcome.returns` of the final places."""
    view = players_view(places_game)
    words = {p for p in itertools.product(range(4), repeat=3) if canonical(p) and p.count(0) >= 1}
    assert (0, 1, 0) in words and (2, 1, 0) in words and (0, 0, 0) in words and (0, 2, 0) not in words
    assert (0, 0, 3) in words and (1, 0, 3) in words  # a seat out (the word marks it), beside one that finished
    for places in words:
        for winner in (-1, 0, 1, 2):
            rewards = rank_returns(final_places(places, winner if winner >= 0 else None))
            for seat in range(3):
                got = view.module.preward(np.uint64(pack(places)), winner, seat)
                assert got == rewards[seat], (places, winner, seat)


@needs_native
@pytest.mark.parametrize("every,deep", [(3, False), pytest.param(1, True, marks=pytest.mark.deep)],
                         ids=["some", "all"])
def test_a_game_of_places_is_searched_natively_as_generically(places_game, every, deep):
    """Depths 1 to 3 near the end (north's marbles around its goal), 1 and 2 on two seeded random games from the
    start (``-m deep``: every position after north leaves its goal, and depth 3 on the random games too)."""
    game = places_game
    starts = [s for seed in (1, 2) for s in spaced_positions(game, seed, 120, 20)]
    positions = [(s, 3) for s in places_positions(game, every)] + [(s, 3 if deep else 2) for s in starts]
    ended = 0
    for state, deepest in positions:
        for depth in range(1, deepest + 1):
            where = (depth, game.format_position(state))
            for think in (think_paranoid, think_maxn):
                native, generic = think(game, state, depth=depth, kernel=True), think(game, state, depth=depth,
                                                                                      kernel=False)
                assert native.kernel == "native" and generic.kernel == "generic", where
                assert native.move == generic.move and native.depth == generic.depth, where
                assert native.score == pytest.approx(generic.score, abs=1e-9), where
                ended += abs(generic.score) >= WIN / 2
            vector = MaxNRows(players_view(game), 64.0, {}).value(players_view(game).row(state), depth, 0)
            assert vector == pytest.approx(MaxN(game, INFINITY).value(state, depth, 0), abs=1e-9), where
    assert ended  # some search found the end of the game (a place for every seat)


@needs_native
@pytest.mark.parametrize("engine", ["paranoid", "maxn"])
def test_a_game_of_places_under_a_clock_plays_natively(places_game, engine):
    state = places_positions(places_game)[1]  # north one step out of its goal
    result = choose(places_game, state, engine, seconds=0.2)
    assert result.kernel == "native" and result.depth >= 1 and result.move in places_game.legal_moves(state)


def test_a_game_of_places_with_native_code_off_searches_generically(monkeypatch):
    monkeypatch.setenv("RULESDSL_NATIVE", "0")
    game = load_game("chinese-checkers-places", {"players": "3"})
    state = game.initial_state()
    for engine in ("paranoid", "maxn"):
        result = choose(game, state, engine, seconds=0.2)
        assert result.kernel == "generic" and result.move in game.legal_moves(state)


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
