"""The kernel in machine code for boards of more than 64 cells (several words a bitboard, kernel/lanes.py).

Native perft counts the rule files' example numbers, numbers derived by hand
(no line of hex or havannah can be won in three plies, so perft is n, n(n-1),
n(n-1)(n-2) for n empty cells), and the Python kernel's; native ``expand``
gives the Python kernel's children and the generic path's on random positions;
a seeded native playout plays a legal move at every ply, and the same game as
the Python kernel from the same seed.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import (
    NO_SOURCE_LIMIT,
    kernel_children,
    native_playouts_are_the_python_kernels,
    python_kernel,
    random_positions,
    seeded_playouts_are_legal,
)

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import lanes
from rulesdsl.interpreter.kernel import native as native_module

pytest.importorskip("numba")
NATIVE = native_module.enabled()
needs_native = pytest.mark.skipif(not NATIVE, reason="RULESDSL_NATIVE=0")

# (game, settings, the independent perft numbers from the start)
CASES = [
    ("hex", {"size": "11"}, [121, 121 * 120, 121 * 120 * 119]),  # by hand
    ("amazons", {}, [80, 2176]),  # rules/amazons.rules's example, 10 x 10
    ("havannah", {"size": "8"}, [169, 169 * 168, 169 * 168 * 167]),  # by hand: 3 * 8 * 7 + 1 cells
    ("ultimate-tic-tac-toe", {}, [81, 72 * 9 + 9 * 8]),  # by hand: a centre cell sends to its own board
    # rules/draughts.rules's example, 10 x 10 (capture chains in lists; minutes of a first compile)
    pytest.param("draughts", {}, [9, 81, 658], marks=pytest.mark.deep),
    # its example; five words a bitboard and the visited cells' turn word in lanes (minutes of a first compile)
    pytest.param("chinese-checkers", {}, [14, 196, 4144], marks=pytest.mark.deep),
    # its example; walls and the walls left in words after the bitboards (minutes of a first compile)
    pytest.param("quoridor", {"size": "5", "walls": "3"}, [35, 1109], marks=pytest.mark.deep),
]
IDS = ["hex", "amazons", "havannah", "ultimate-tic-tac-toe", "draughts", "chinese-checkers", "quoridor"]


def native_of(name: str, settings: dict):
    """The game and its native kernel (compiled or loaded from the cache now)."""
    game = load_game(name, settings)
    native = game._compiled.native(wait=True)
    assert native is not None and native.lanes is not None, "these games' kernels need several words a bitboard"
    return game, native




pytestmark = NO_SOURCE_LIMIT


@needs_native
@pytest.mark.parametrize("name,settings,expected", CASES, ids=IDS)
def test_native_perft_from_the_start_is_the_independent_count_and_the_python_kernels(name, settings, expected):
    game, native = native_of(name, settings)
    start = game.initial_state()
    compiled = game._compiled
    kernel, bits, last, _ = compiled._encode(start)
    for depth, count in enumerate(expected, start=1):
        got = int(native.perft(*native.words(bits), start.turn, native.last_word(last), None, depth))
        with python_kernel(game):
            assert got == count == game.perft(start, depth)


@needs_native
@pytest.mark.parametrize("name,settings,expected", CASES, ids=IDS)
def test_native_children_are_the_python_kernels_and_the_legal_moves(name, settings, expected):
    game, native = native_of(name, settings)
    compiled = game._compiled
    for state in random_positions(game, seed=len(name), count=12, every=9, cap=120):
        outcome, children = compiled.children(state, native)
        reference_outcome, reference = kernel_children(game, state)
        assert outcome == reference_outcome, game.format_position(state)
        assert children == reference, game.format_position(state)  # the same order too
        moves, status = game.status(state)
        assert status == outcome
        assert Counter(children) == Counter(game.apply(state, m) for m in moves), game.format_position(state)


@needs_native
@pytest.mark.parametrize("name,settings,expected", CASES, ids=IDS)
def test_a_seeded_native_playout_plays_legal_moves_and_the_python_kernels_game(name, settings, expected):
    game, _ = native_of(name, settings)
    seeded_playouts_are_legal(game, seeds=2)
    native_playouts_are_the_python_kernels(game)


def test_the_row_layout_splits_and_joins_python_integers():
    layout = lanes.Lanes(lanes=2, boards=2, width=3)
    bits = [(1 << 120) | 5, 1 << 64, 7]
    words = layout.split(bits)
    assert words == [5, 1 << 56, 0, 1, 7] and layout.columns == 5
    assert layout.join(words) == bits


@pytest.mark.parametrize("k", [1, 63, 64, 100])
def test_the_lane_helpers_compute_what_python_integers_do(k):
    """The lane helpers for three words, compiled by numba, against Python's own integers."""
    import numba
    import numpy as np

    from rulesdsl.interpreter.kernel import native_runtime

    namespace = {"u64": numba.uint64, "popcount": native_runtime.popcount}
    exec(lanes.helpers(3, {("l", k), ("r", k)}), namespace)  # noqa: S102 - this module's own fixed text
    for name in [n for n in namespace if n.startswith("w")]:
        namespace[name] = numba.njit(namespace[name])
    rng = random.Random(k)
    layout = lanes.Lanes(3, 1, 1)
    width = 3 * lanes.WORD
    full = (1 << width) - 1
    for _ in range(30):
        x, y = rng.getrandbits(width), rng.getrandbits(rng.choice([1, 70, width]))
        a, b = (tuple(np.uint64(w) for w in layout.split([v])) for v in (x, y))
        for got, want in ((namespace[f"wshl{k}"](a), (x << k) & full), (namespace[f"wshr{k}"](a), x >> k),
                          (namespace["wsub"](a, b), (x - y) & full), (namespace["wadd"](a, b), (x + y) & full),
                          (namespace["wlow"](a), x & -x), (namespace["wclr"](a), x & (x - 1)),
                          (namespace["wneg"](a), -x & full), (namespace["wnot"](a), ~x & full),
                          (namespace["wxor"](a, b), x ^ y), (namespace["wbit"](k), 1 << k)):
            assert layout.join(got) == [want]
        assert namespace["wpop"](a) == x.bit_count()
        assert namespace["windex"](namespace["wlow"](a)) == (x & -x).bit_length()
        assert namespace["weq"](a, b) == (x == y) and namespace["weq"](a, a) and namespace["wnz"](a) == (x != 0)


def test_a_source_the_rewriting_does_not_take_stays_on_the_python_kernel():
    game = load_game("draughts", {})
    kernel = game.kernel()
    function = next(f for f in native_module.cut_functions(kernel) if f.name == "playout")
    layout = lanes.layout_of(kernel)
    rewrite = lanes._Rewrite(layout.lanes, lanes._board_names(function, layout), "playout", layout)
    with pytest.raises(lanes.Unfit):  # without its lists known as lists of bitboards, a chain's stack is refused
        rewrite.block(function.body)
