"""Machine code for boards of more than 64 cells with helper functions and constant tables (kernel/lanes_helpers.py).

Xiangqi (90 cells: two words a bitboard) tests check with ``attacked``/``pinlines``, helper functions that read
per-cell tables of bitboards. Its native source whole is about 570,000 characters (numba took 16 CPU
minutes on it); in pieces (kernel/native_split.py) 326,000, compiled by default in about 100 CPU seconds,
once (then it is cached). The tests of its machine code run with ``-m deep``. Perft figures are the
published ones (44, 1920, 79666); children and playouts are compared with the Python kernel and the generic
path in the same run. The rewriting itself (the tables, the helpers' signatures, ``bit_length`` of a
bitboard) is checked by default, without compiling.
"""

from __future__ import annotations

import ast
from collections import Counter

import pytest
from helpers import (
    kernel_children,
    native_only,
    native_playouts_are_the_python_kernels,
    python_kernel,
    random_positions,
    seeded_playouts_are_legal,
)

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import lanes
from rulesdsl.interpreter.kernel.codegen import check_source
from rulesdsl.interpreter.kernel.lanes_helpers import table_source, wlen_source

pytest.importorskip("numba")
pytestmark = native_only()
deep = pytest.mark.deep
_GAMES: dict[str, object] = {}


def native_xiangqi():
    """Xiangqi with its machine code loaded (compiled now, or from the cache)."""
    if "xiangqi" not in _GAMES:
        game = load_game("xiangqi")
        native = game._compiled.native(wait=True)
        assert native is not None and native.lanes is not None and native.lanes.lanes == 2
        _GAMES["xiangqi"] = game
    return _GAMES["xiangqi"]


def test_the_xiangqi_kernel_is_rewritten_for_lanes_with_its_tables_and_helpers():
    kernel = load_game("xiangqi").kernel()
    assert not kernel.native and kernel.constants and max(kernel.layout.bit) >= 64
    source = lanes.lanes_source(kernel)
    assert source is not None
    check_source(source)
    tree = ast.parse(source)
    names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert {"attacked", "pinlines", "expand", "playout", "perft", "wlen", "bitlength"} <= names
    tables = {node.targets[0].id: node.value for node in tree.body if isinstance(node, ast.Assign)}
    assert set(tables) == set(kernel.constants)
    for name, values in kernel.constants.items():  # every entry the table's integer, made an array of two words
        call = tables[name]
        assert call.func.id == "lanetable" and call.args[1].value == 2
        assert tuple(item.value for item in call.args[0].elts) == values


def test_a_table_and_the_bit_length_of_lanes_by_hand():
    assert table_source("t", (5, 1 << 70), 2) == f"t = lanetable((5, {1 << 70},), 2)"
    import numba

    from rulesdsl.interpreter.kernel import native_runtime

    assert native_runtime.lanetable((5, 1 << 70), 2).tolist() == [[5, 0], [0, 64]]
    from rulesdsl.interpreter.kernel.native_helpers import BITLENGTH

    namespace = {"u64": numba.uint64, "popcount": native_runtime.popcount}
    exec(BITLENGTH + "\n" + wlen_source(2), namespace)  # noqa: S102 - these modules' own fixed text
    wlen = numba.njit(namespace["wlen"])
    namespace["bitlength"] = numba.njit(namespace["bitlength"])
    for value, length in ((0, 0), (1, 1), (1 << 63, 64), (1 << 64, 65), ((1 << 89) | 3, 90)):
        assert wlen((numba.uint64(value & (2**64 - 1)), numba.uint64(value >> 64))) == length


@deep
def test_native_xiangqi_perft_is_the_published_figure_and_the_python_kernels():
    game = native_xiangqi()
    start = game.initial_state()
    compiled = game._compiled
    kernel, bits, last, _ = compiled._encode(start)
    native = compiled.native(wait=True)
    for depth, count in enumerate((44, 1920, 79666), start=1):
        got = int(native.perft(*native.words(bits), start.turn, native.last_word(last), None, depth))
        with python_kernel(game):
            assert got == count == game.perft(start, depth)


@deep
def test_native_xiangqi_children_are_the_python_kernels_and_the_legal_moves():
    game = native_xiangqi()
    compiled = game._compiled
    native = compiled.native(wait=True)
    for state in random_positions(game, seed=90, count=12, every=11, cap=150):
        outcome, children = compiled.children(state, native)
        reference_outcome, reference = kernel_children(game, state)
        assert outcome == reference_outcome and children == reference, game.format_position(state)
        moves, status = game.status(state)
        assert status == outcome
        assert Counter(children) == Counter(game.apply(state, m) for m in moves), game.format_position(state)


@deep
def test_a_seeded_native_xiangqi_playout_plays_legal_moves_and_the_python_kernels_game():
    game = native_xiangqi()
    seeded_playouts_are_legal(game, seeds=2)
    native_playouts_are_the_python_kernels(game)


def test_a_function_of_the_kernels_own_that_the_rewriting_does_not_know_is_refused():
    """A function that is neither a helper (``attacked``, ``pinlines``, ``canmove``) nor a move function: refused,
    not typed as ``expand``."""
    import ast as syntax

    from rulesdsl.interpreter.kernel.lanes_helpers import HelperRewrite

    layout = lanes.Lanes(2, 1, 1)
    function = syntax.parse("def mine(v0, turn):\n    return turn + 1").body[0]
    with pytest.raises(lanes.Unfit):
        HelperRewrite(2, {"v0"}, "mine", layout).block(function.body)
