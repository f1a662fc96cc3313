"""The generic search: alpha-beta agrees with minimax, wins come soon, depth is a hard limit."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import WIN, alphabeta, best_move, minimax, perft

KONANE_SIZES = [(3, 4), (4, 4), (4, 5), (5, 5), (3, 6), (2, 6), (5, 4), (6, 6)]


@cache
def konane(rows: int, cols: int):
    return load_game("konane", {"rows": str(rows), "cols": str(cols)})


@st.composite
def konane_positions(draw):
    """A Konane position reached by a random playout (stopping before the game ends)."""
    rows, cols = draw(st.sampled_from(KONANE_SIZES))
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, 16))
    game = konane(rows, cols)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves:
            break
        child = game.apply(state, rng.choice(moves))
        if game.is_over(child):
            break
        state = child
    return game, state


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(konane_positions())
def test_alphabeta_agrees_with_minimax_on_konane(position):
    game, state = position
    for depth in (1, 2, 3, 4):
        assert alphabeta(game, state, depth) == minimax(game, state, depth), (
            game.format_position(state), depth)


def test_alphabeta_agrees_with_minimax_on_the_other_games():
    for spec in ("capture-the-flag", "abalone", "abalone-hex"):
        game = load_game(spec)
        state = game.initial_state()
        for depth in (1, 2):
            assert alphabeta(game, state, depth) == minimax(game, state, depth), (spec, depth)


def test_best_move_score_is_the_minimax_value():
    game = konane(4, 4)
    state = game.initial_state()
    for depth in (1, 2, 3, 4):
        assert best_move(game, state, depth).score == minimax(game, state, depth)


# ---- quicker wins --------------------------------------------------------------------

# Capture the Flag, white to move. Black's last pawn a3 is walled in (a4 and
# the flag a5 above it, b3 and c3 beside it); black's flag e1 can only shuffle.
# a4 jumping a3 into a2 wins at once (black has no pawn left). Any other white
# move, e.g. b5-b4, lets black move its flag and then a4-a2 wins at ply 3.
QUICK = "(w " "Ww---" "w----" "bww--" "-----" "----B" ")"


def test_best_move_prefers_the_quicker_win():
    game, state = load_position(load_game("capture-the-flag"), QUICK)
    slow = game.apply(state, game.parse_move(state, "b5-b4"))
    # b5-b4 is also a forced win: black (to move) loses at ply 3.
    assert minimax(game, slow, 2, 1) == -(WIN - 3)
    for depth in (1, 2, 3, 4):
        choice = best_move(game, state, depth)
        assert game.format_move(state, choice.move) == "a4-a2", depth
        assert choice.score == WIN - 1


def test_a_forced_loss_is_scored_by_its_distance():
    # Black to move after b5-b4: every black move loses at ply 3 from the
    # start, i.e. 2 plies from here; the score says how far away the loss is.
    game, state = load_position(load_game("capture-the-flag"), QUICK)
    slow = game.apply(state, game.parse_move(state, "b5-b4"))
    choice = best_move(game, slow, 3)
    assert choice.score == -(WIN - 2)


# ---- the depth limit ------------------------------------------------------------------


class DepthProbe:
    """A game wrapper whose states remember their distance from the root."""

    def __init__(self, game):
        self.game = game
        self.deepest = 0
        self.evaluated: list[int] = []

    def status(self, node):
        return self.game.status(node[0])

    def legal_moves(self, node):
        return self.game.legal_moves(node[0])

    def to_move(self, node):
        return self.game.to_move(node[0])

    def apply(self, node, move):
        state, depth = node
        self.deepest = max(self.deepest, depth + 1)
        return self.game.apply(state, move), depth + 1

    def evaluate(self, node, player):
        self.evaluated.append(node[1])
        return self.game.evaluate(node[0], player)


def test_search_never_goes_deeper_than_asked():
    for spec, settings_, depths in (("konane", {"rows": "4", "cols": "4"}, (1, 2, 3, 4, 5)),
                                    ("capture-the-flag", {}, (1, 2, 3)),
                                    ("abalone", {}, (1, 2))):
        game = load_game(spec, settings_)
        root = (game.initial_state(), 0)
        for depth in depths:
            for search in (minimax, alphabeta, lambda g, n, d: best_move(g, n, d).score):
                probe = DepthProbe(game)
                search(probe, root, depth)
                assert probe.deepest == depth, (spec, depth)
                assert probe.evaluated and set(probe.evaluated) == {depth}, (spec, depth)


def test_minimax_evaluates_every_leaf_once():
    # From Capture the Flag's start nothing can end within two plies (no piece
    # can be captured yet and both sides keep moves), so minimax evaluates
    # exactly the perft(2) = 49 leaves; alpha-beta evaluates no more.
    game = load_game("capture-the-flag")
    root = (game.initial_state(), 0)
    assert perft(game, root[0], 2) == 49
    full, pruned = DepthProbe(game), DepthProbe(game)
    minimax(full, root, 2)
    alphabeta(pruned, root, 2)
    assert len(full.evaluated) == 49
    assert len(pruned.evaluated) <= 49


def test_go_again_plies_count_towards_the_depth():
    # Konane: black on b1 goes again (d3-d1 or pass); each is a ply.
    game, state = load_position(load_game("konane"), "(b b1 wbwb b--w wb--)")
    probe = DepthProbe(game)
    best_move(probe, (state, 0), 1)
    assert probe.deepest == 1
    assert len(probe.evaluated) == 2   # after d3-d1 and after pass, nothing deeper
