"""Go on the kernel: placements that capture by liberties, no suicide, ko, passes, repeated boards and area scoring
play what the generic path plays.

On positions of random games of go played to the end (3 x 3 to 6 x 6, where
captures, ko, suicide and repeated boards come often, and 9 x 9) every move of
the kernel's playout reaches a position the legal moves reach (as many times
each), outcomes agree, and perft to depth 3 counts what the generic path counts.
Hand positions (derived by hand below) check a capture, a suicide, a ko and
area counts with komi on both sides of a whole number; the rule file's
example counts are OpenSpiel's. tests/test_go_openspiel.py compares perft at
9 x 9 with OpenSpiel in the same run (now on the kernel).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulesdsl import model as m
from rulesdsl.errors import Span
from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.kernel.rational import fractional_comparison


class Chosen:
    """A random source that always answers ``index``."""

    def __init__(self, index: int):
        self.index = index

    def randrange(self, stop: int) -> int:
        return self.index


def random_positions(game, seed: int, count: int):
    """Every position of seeded random games played to the end through the generic path (passing seldom)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while True:
            found.append(state)
            moves, outcome = game.status(state)
            if outcome is not None:
                break
            placed = [move for move in moves if move.changes]  # passes seldom: longer games, more captures and ko
            state = game.apply(state, rng.choice(placed if placed and rng.random() < 0.97 else moves))
    return found


def kernel_step(game, state, index: int):
    """The kernel's playout of one ply choosing move ``index`` (never the generic path)."""
    played = game._compiled.playout(state, Chosen(index), 1)
    assert played is not None, game.format_position(state)
    return played


@pytest.mark.parametrize("size", ["3", "4", "5", "6", "9"])
def test_every_move_and_outcome_is_the_generic_paths(size):
    game = load_game("go", {"size": size})
    assert game.has_fast_playout
    reasons = Counter()
    positions = random_positions(game, seed=int(size), count=250 if size != "9" else 200)
    for state in positions:
        moves, outcome = game.status(state)
        first = kernel_step(game, state, 0)
        if outcome is not None:
            assert first.outcome == outcome and first.plies == 0, game.format_position(state)
            reasons[outcome.reason] += 1
            continue
        reached = Counter(kernel_step(game, state, i).state for i in range(len(moves)))
        assert reached == Counter(game.apply(state, move) for move in moves), game.format_position(state)
        stones = len(state.board) - state.board.count("-")
        reasons["captures"] += sum(len(c.board) - c.board.count("-") < stones for c in reached)
    assert reasons["captures"] > 0 and sum(reasons.values()) > reasons["captures"], reasons
    if size == "3":
        assert reasons["board repeated"] > 0, reasons


@pytest.mark.parametrize("size", ["3", "4", "5", "9"])
def test_perft_to_depth_3_counts_what_the_generic_path_counts(size):
    game = load_game("go", {"size": size})
    for state in random_positions(game, seed=10 + int(size), count=60)[::7]:
        for depth in (1, 2, 3) if size != "9" else (1, 2):
            assert game._compiled.perft(state, depth) == generic_perft(game, state, depth), game.format_position(state)


@pytest.mark.parametrize("size", ["4", "9"])
def test_whole_playouts_end_where_the_rules_say(size):
    game = load_game("go", {"size": size})
    for seed in range(6):
        end = game._compiled.playout(game.initial_state(), random.Random(seed), 1000)
        assert end.outcome is not None and end.outcome == game.status(end.state)[1]


def position(game, text):
    return load_position(game, text)[1]


def test_the_examples_counts_come_from_the_kernel():
    game = load_game("go")
    assert [game._compiled.perft(game.initial_state(), d) for d in (1, 2)] == [82, 6643]  # OpenSpiel's


def test_a_capture_and_a_suicide_by_hand():
    game = load_game("go", {"size": "3"})
    # a3 would have no liberty: c3, b2, c2, a1, b1, c1 and the pass.
    assert game._compiled.perft(position(game, "(x 0 - -o- o-- ---)"), 1) == 7
    # a3 takes b3's last liberty: it captures b3 (a2 keeps a1) and is legal; so are c2, a1, b1, c1, the pass.
    state = position(game, "(x 0 - -ox ox- ---)")
    assert game._compiled.perft(state, 1) == 6
    after = {kernel_step(game, state, i).state.board for i in range(6)}
    assert position(game, "(o 0 - x-x ox- ---)").board in after


def test_ko_forbids_retaking_at_once():
    game = load_game("go", {"size": "4"})
    # Black c3 captures b3; white's b3 would take c3 back and recreate the board: forbidden. White then has
    # d4, a2, d2, a1, b1, c1, d1 and the pass (a4 would be a suicide).
    start = position(game, "(x 0 - -xo- xo-o -xo- ----)")
    capture = [m for m in game.legal_moves(start) if game.format_move(start, m) == "c3"][0]
    ko = game.apply(start, capture)
    assert ko.board == position(game, "(o 0 - -xo- x-xo -xo- ----)").board
    assert game._compiled.perft(ko, 1) == 8
    assert game._compiled.perft(ko._replace(before=None), 1) == 9  # with no board before, b3 takes back


@pytest.mark.parametrize("komi,winner", [("7.5", 1), ("0.5", 1), ("-0.5", 1), ("-1", None), ("-1.5", 0)])
def test_area_counts_with_komi(komi, winner):
    # Black: b3, a2 and a3 (an empty point next to black only) = 3; white: b2, c2, b1 and c1 = 4; c3 and a1
    # touch both. White wins while 4 + komi > 3, a draw at komi -1, black wins below.
    game = load_game("go", {"size": "3", "komi": komi})
    state = position(game, "(x 2 - -x- xoo -o-)")
    end = game._compiled.playout(state, random.Random(0), 5)
    assert end.plies == 0 and end.outcome.winner == winner and end.outcome == game.status(state)[1]


def area_of(player: str) -> m.Call:
    return m.Call(SPAN, "area", (player,))


SPAN = Span(0, 0)
KOMI = m.NameRef(SPAN, "komi")


def plus(left: m.Expr, right: m.Expr) -> m.Binary:
    return m.Binary(SPAN, "+", left, right)


@pytest.mark.parametrize("expr,source", [
    (m.Binary(SPAN, ">", plus(area_of("white"), KOMI), area_of("black")), "((+ W - B) > -8)"),
    (m.Binary(SPAN, ">", area_of("black"), plus(area_of("white"), KOMI)), "((+ B - W) > 7)"),
    (m.Binary(SPAN, ">=", area_of("black"), plus(area_of("white"), KOMI)), "((+ B - W) >= 8)"),
    (m.Binary(SPAN, "<=", area_of("black"), KOMI), "((+ B) <= 7)"),
    (m.Binary(SPAN, "==", area_of("black"), KOMI), "False"),
])
def test_comparisons_with_a_fractional_constant_are_whole(expr, source):
    def visit(node):  # by hand: x + 7.5 > y is y - x < -7.5, x - y > -7.5 is x - y > -8; x > y + 7.5 is x - y > 7
        return {"white": "W", "black": "B"}[node.args[0]]

    assert fractional_comparison(expr, {"komi": 7.5}, visit) == source
    whole = m.Binary(SPAN, ">", area_of("black"), plus(area_of("white"), m.Literal(SPAN, 7)))
    assert fractional_comparison(whole, {}, visit) is None
