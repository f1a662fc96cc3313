"""Large kernels of boards over 64 cells in pieces (kernel/lanes.py with kernel/native_split.py).

Their native sources were over the length compiled by default; written in pieces (``expand`` or ``children``
outlined, the playout and perft's last ply over them) each meets ``compiles_soon`` without
``RULESDSL_NATIVE_MAX``, so they are compiled by default. Perft figures are independent: go's by hand (see
tests/test_native_lanes_history.py: n + 1, n * n + n + 1 from the empty board of n points), chinese checkers'
from its rule file's example, quoridor's from OpenSpiel in the same run; each is the Python kernel's too.
"""

from __future__ import annotations

import pytest
from helpers import native_playouts_are_the_python_kernels, python_kernel, seeded_playouts_are_legal

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module

pytest.importorskip("numba")
needs_native = pytest.mark.skipif(not native_module.enabled(), reason="RULESDSL_NATIVE=0")
deep = pytest.mark.deep

LARGE = [("quoridor", {}), ("chinese-checkers", {}), ("chinese-checkers-places", {"players": "3"}),
         ("go", {"size": "19"}), ("xiangqi", {})]


@pytest.mark.parametrize("name,settings", LARGE, ids=[n for n, _ in LARGE])
def test_a_large_lanes_source_is_in_pieces_that_compile_by_default(name, settings, monkeypatch):
    monkeypatch.delenv(native_module.MAX_ENV, raising=False)
    kernel = load_game(name, settings).kernel()
    assert max(kernel.layout.bit) >= native_module.WORD
    source = native_module.native_source(kernel)
    assert source is not None and "\ndef part0(" in source and "\ndef playout(" in source
    assert len(source) <= native_module.MAX_PIECES
    assert native_module.compiles_soon(source)


def perft_is(game, expected: list[int]) -> None:
    """Native perft from the start is ``expected`` (independent figures) and the Python kernel's."""
    native = game._compiled.native(wait=True)
    assert native is not None and native.lanes is not None
    start = game.initial_state()
    _, bits, last, history = game._compiled._encode(start)
    for depth, count in enumerate(expected, start=1):
        got = int(native.perft(*native.words(bits), start.turn, native.last_word(last), history, depth))
        with python_kernel(game):
            assert got == count == game.perft(start, depth)


@needs_native
def test_go_19_native_perft_and_playouts():
    game = load_game("go", {"size": "19"})
    n = 19 * 19
    perft_is(game, [n + 1, n * n + n + 1])
    native_playouts_are_the_python_kernels(game, seeds=2)


@needs_native
@deep
def test_go_19_seeded_native_playouts_are_legal():  # each ply through the generic path: about 40 s
    seeded_playouts_are_legal(load_game("go", {"size": "19"}), seeds=1)


@needs_native
def test_quoridor_9_native_perft_is_openspiels_and_playouts_the_python_kernels():
    pytest.importorskip("pyspiel")
    from openspiel_side_by_side import load, spiel_perft

    game = load_game("quoridor")  # 9 x 9 squares, 10 walls each: OpenSpiel's defaults
    spiel = load("quoridor", {}).new_initial_state()
    perft_is(game, [spiel_perft(spiel, d) for d in (1, 2)])
    native_playouts_are_the_python_kernels(game, seeds=2)
    seeded_playouts_are_legal(game, seeds=1)


@needs_native
@pytest.mark.parametrize("name,settings,expected", [
    ("chinese-checkers", {}, [14, 196, 4144]),  # rules/chinese-checkers.rules's example
    ("chinese-checkers-places", {"players": "3"}, [14, 196, 2744]),  # rules/chinese-checkers-places.rules's
], ids=["chinese-checkers", "chinese-checkers-places"])
def test_chinese_checkers_native_perft_is_its_example_and_playouts_the_python_kernels(name, settings, expected):
    game = load_game(name, settings)
    perft_is(game, expected)
    native_playouts_are_the_python_kernels(game, seeds=2)
