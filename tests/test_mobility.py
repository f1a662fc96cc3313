"""The evaluation's ``mobility`` is one count on every path: the generic one equals the kernel's.

``mobility`` is the number of moves a player would have in a position if it were to move at the start of a
turn, as the legal moves are counted (``freeze``, ``when``, hands, ``keep`` and the pieces' own rules, such as
a king's safety, included), without ``forbid repetition``, ``must capture``'s filter and a forced pass
(docs/language.md). The generic path counts it with the reference rules
(``mobility`` of interpreter/reference/legality.py); the kernel with perft's first ply cut
(interpreter/kernel/mobility_cut.py): the Python kernel's cut, the machine code's one-word and lanes
``mobility`` and, in a kernel that keeps earlier positions, ``children`` at depth 0.

On seeded random positions of every bundled game and of every rule file under tests/rules (each has a kernel),
each player's generic count equals the Python kernel's; the machine code's evaluation (``mobility 1`` alone:
the player to move's count minus the other's) equals the generic difference on a few games whose machine code
compiles in seconds, and on every game under ``-m deep`` (the chess family's first compile takes minutes).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import random_positions

from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.kernel.mobility_cut import python_mobility
from rulesdsl.loader import bundled_dir

BUNDLED = sorted(p.stem for p in bundled_dir().glob("*.rules"))
TESTS = sorted(str(p) for p in (Path(__file__).parent / "rules").glob("*.rules"))
# Games whose machine code compiles in seconds (one word, lanes, hands, freeze, must capture, earlier positions);
# abalone's and checkers' sizes are test_kernel_search.py's, whose search helpers are then compiled once.
QUICK_NATIVE = [("breakthrough", {}), ("konane", {}), ("abalone", {"rows": "5", "cols": "5", "freeze": "off"}),
                ("checkers", {"size": "6", "quiet": "6"}), ("nine-mens-morris", {}), ("capture-the-flag", {})]
LIMIT = 1e9  # no clamp on the native value


def _positions(game):
    return random_positions(game, seed=34, count=10, every=5, cap=150)


def _empty_history(history):
    return type(history)() if history is not None else None


@pytest.mark.parametrize("spec", BUNDLED + TESTS, ids=lambda s: Path(s).stem)
def test_generic_mobility_is_the_python_kernels(spec):
    try:
        game = load_game(spec)
    except RulesdslError as error:  # a file under tests/rules that does not check clean: not this test's subject
        pytest.skip(f"does not check clean: {error}")
    compiled = game._compiled
    assert compiled.kernel() is not None, "every rule file that checks clean compiles to the kernel"
    count = python_mobility(compiled.kernel())
    compared = 0
    for state in _positions(game):
        encoded = compiled._encode(state)
        if encoded is None:
            continue
        _, bits, _, history = encoded
        kernels = [count(*bits, player, 0, _empty_history(history), 1) for player in range(len(game.players))]
        for player, kernel in enumerate(kernels):  # a copy of the state: counted afresh
            assert compiled.mobility(state._replace(), player) == kernel, (player, game.format_position(state))
            compared += 1
        game.status(state)  # the legal moves of the player to move listed: mobility may reuse their count
        assert compiled.mobility(state, state.turn) == kernels[state.turn], game.format_position(state)
    assert compared >= 10


def _native_difference(view, state) -> float:
    """The machine code's evaluation with ``mobility 1`` alone, for the player to move."""
    row = view.row(state)
    assert row is not None
    if not view.history:
        return float(view.module.scorerow(row, *view.eval, LIMIT))
    hist = view.native.history.rows_for(view.compiled._encode(state)[3], 8)
    empty = np.zeros((2, hist.shape[1]), dtype=np.uint64)  # the counts run over no earlier position
    rs = np.ones(1, dtype=np.uint64)
    return float(view.module.hscorerow(row, empty, view.buffer(), rs, *view.eval, LIMIT))


def _native_agrees(name: str, settings: dict | None = None) -> None:
    from rulesdsl.interpreter.search.kernel_search import KernelView

    game = load_game(name, settings or {})
    native = game.native_kernel(wait=True)
    if native is None:
        pytest.skip("no machine code for this kernel")
    native.warm_search()
    assert native.searchable, "the machine code's search helpers compile for every kernel with machine code"
    players = len(game.players)
    view = KernelView(game, native, ([([], 0.0)] * players, 1.0, []))  # mobility 1, nothing else
    opponent = game._compiled.tables.seats.opponent
    compared = 0
    for state in _positions(game):
        if game._compiled._encode(state) is None or state.last != -1 and not native.kernel.has_again:
            continue
        expected = game._compiled.mobility(state, state.turn) - game._compiled.mobility(state, opponent[state.turn])
        assert _native_difference(view, state) == pytest.approx(expected), game.format_position(state)
        compared += 1
    assert compared >= 5


needs_native = pytest.mark.skipif(not (native_module.enabled() and native_module.numba_available()),
                                  reason="numba is not installed or RULESDSL_NATIVE=0")


@needs_native
@pytest.mark.parametrize("name,settings", QUICK_NATIVE, ids=[name for name, _ in QUICK_NATIVE])
def test_native_mobility_is_the_generic(name, settings):
    _native_agrees(name, settings)


@needs_native
@pytest.mark.deep
@pytest.mark.parametrize("name", [n for n in BUNDLED if (n, {}) not in QUICK_NATIVE])
def test_native_mobility_is_the_generic_everywhere(name):
    _native_agrees(name)
