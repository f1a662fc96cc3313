"""max^n and MCTS with a reward per player, on a game tree written out by hand.

The tree (three players; every leaf a finished game with each player's place):

    root, player 0 to move
      L: player 1 to move
         L1 -> places (2, 1, 3)   rewards ( 0,  +1,  -1)
         L2 -> places (1, 2, 3)   rewards (+1,   0,  -1)
      R: player 1 to move
         R1 -> places (1, 2, 3)   rewards (+1,   0,  -1)
         R2 -> places (2, 2, 1)   rewards (-0.5, -0.5, +1)  (0 and 1 share second: places 2 and 3, mean 2.5)

max^n: at L player 1 takes L1 (+1 > 0), worth 0 to player 0; at R it takes R1 (0 > -0.5), worth +1 to
player 0; so player 0 plays R. Paranoid (everyone against player 0): L is worth min(0, +1) = 0, R is worth
min(+1, -0.5) = -0.5, so it plays L. MCTS, backing up each player's own reward, finds max^n's R.
"""

from __future__ import annotations

import random

from rulesdsl.interpreter.compile.game import Outcome, Player
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.search.engines import choose
from rulesdsl.interpreter.search.maxn import MaxN, think_maxn
from rulesdsl.interpreter.search.mcts import mcts, rewards
from rulesdsl.interpreter.search.minimax import WIN
from rulesdsl.interpreter.search.paranoid import think_paranoid


class Name(str):
    """A move of the tree: the child's name, with nothing captured (the searches try captures first)."""

    captures = 0
    displaced = ()


TREE = {"": (Name("L"), Name("R")), "L": (Name("L1"), Name("L2")), "R": (Name("R1"), Name("R2"))}
LEAVES = {"L1": (2, 1, 3), "L2": (1, 2, 3), "R1": (1, 2, 3), "R2": (2, 2, 1)}


class TreeGame:
    """A game whose positions are the names of the tree's nodes (a move is the child's name)."""

    players = tuple(Player(n, n[0], i) for i, n in enumerate(("red", "green", "blue")))

    def status(self, state):
        if state in LEAVES:
            places = LEAVES[state]
            return [], Outcome(places.index(1), "leaf", None, places)
        return list(TREE[state]), None

    def outcome(self, state):
        return self.status(state)[1]

    def apply(self, state, move):
        return move

    def to_move(self, state):
        return len(state) % 3  # root: red; L and R: green

    def evaluate(self, state, player):
        return 0.0

    def native_kernel(self):
        return None

    def playout(self, state, rng, cap=1000):
        from rulesdsl.interpreter.compile.game import Playout

        plies = 0
        while True:
            moves, outcome = self.status(state)
            if outcome is not None:
                return Playout(state, outcome, plies)
            state, plies = moves[rng.randrange(len(moves))], plies + 1


def test_maxn_lets_each_player_maximise_its_own_reward():
    game = TreeGame()
    search = MaxN(game, float("inf"))
    assert search.value("L", 1, 1) == (0.0, WIN - 2, -(WIN - 2))
    assert search.value("R", 1, 1) == (WIN - 2, 0.0, -(WIN - 2))
    result = think_maxn(game, "", depth=2)
    assert result is not None and result.move == "R" and result.score == WIN - 2 and result.engine == "maxn"


def test_paranoid_plays_the_other_move():
    result = think_paranoid(TreeGame(), "", depth=2)
    assert result is not None and result.move == "L"


def test_mcts_backs_up_each_players_own_reward():
    result = mcts(TreeGame(), "", iterations=400, seed=5)
    # green at R mostly takes R1 (its reward 0.5 against 0.25), so red's mean there is near 1 (score near +1);
    # credited by the winner alone, green would be indifferent at R and red's score there near 0
    assert result is not None and result.move == "R" and result.score > 0.5
    assert rewards(Outcome(0, "", None, (1, 2, 3)), 3) == (1.0, 0.5, 0.0)
    assert rewards(Outcome(None, "draw"), 2) == (0.5, 0.5)
    assert rewards(None, 3) == (0.5, 0.5, 0.5)


def test_maxn_is_the_engine_for_three_players():
    game = load_game("three-way-race")
    # red to move on row 2: any step reaches row 3 and wins
    state = game.parse_position("(r --- R-- -GB)")
    result = choose(game, state, depth=3)
    assert result is not None and result.engine == "maxn"
    outcome = game.outcome(game.apply(state, result.move))
    assert outcome is not None and outcome.winner == 0
    assert choose(game, state, "paranoid", depth=2).engine == "paranoid"


def test_maxn_reproduces_plain_max_n_on_a_real_game():
    """On the three-way race, the search's vector equals a max^n written out here: among children equally good
    for the mover, the one with the lowest sum, then the lowest first differing value (order-independent)."""
    from rulesdsl.interpreter.search.minimax import static_score

    game = load_game("three-way-race")

    def plain(state, depth, ply=0):
        moves, outcome = game.status(state)
        if outcome is not None:
            return tuple(r * (WIN - ply) for r in outcome.returns(3))
        if depth == 0:
            return tuple(static_score(game, state, p) for p in range(3))
        mover = game.to_move(state)
        children = [plain(game.apply(state, m), depth - 1, ply + 1) for m in moves]
        return max(children, key=lambda v: (v[mover], -sum(v), tuple(-x for x in v)))

    rng = random.Random(3)
    state = game.initial_state()
    for _ in range(3):
        for depth in (1, 2, 3):
            assert MaxN(game, float("inf")).value(state, depth, 0) == plain(state, depth)
        moves, outcome = game.status(state)
        if outcome is not None:
            break
        state = game.apply(state, moves[rng.randrange(len(moves))])
