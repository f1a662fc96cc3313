"""The solver's machine-code loops (:mod:`rulesdsl.interpreter.solver.fast_tables`) give what the numpy path gives.

The hash set and the hash index are checked against numpy's own answers on
random keys. Whole solves are run twice, once with the loops and once with them
switched off (the numpy path every machine without numba takes), and every
reachable position must come out with the same value and remoteness in both,
and as the sweep by the definitions in ``test_solver`` says.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from test_solver import NAMES, sweep_by_definition

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.solver import solve_all
from rulesdsl.interpreter.solver.encoding import PositionCodec

fast_tables = importlib.import_module("rulesdsl.interpreter.solver.fast_tables")
retrograde_module = importlib.import_module("rulesdsl.interpreter.solver.retrograde")

needs_numba = pytest.mark.skipif(not (native_module.enabled() and native_module.numba_available()),
                                 reason="numba is not installed or RULESDSL_NATIVE=0")


def without_loops(monkeypatch) -> None:
    """Switch the machine-code loops off, as on a machine without numba."""
    monkeypatch.setattr(fast_tables, "_TRIED", True)
    monkeypatch.setattr(fast_tables, "_COMPILED", None)


@needs_numba
def test_the_key_set_answers_as_numpy_does_while_it_grows():
    rng = np.random.default_rng(5)
    fast = fast_tables.compiled()
    keys = fast_tables.KeySet(fast)
    held = np.zeros(0, dtype=np.int64)
    for _ in range(30):  # from 16 slots to thousands: it doubles many times
        batch = np.unique(rng.integers(0, 2**62, size=int(rng.integers(1, 400)), dtype=np.int64))
        batch = batch[~np.isin(batch, held)]
        keys.add(batch)
        held = np.concatenate([held, batch])
        probe = np.concatenate([held[rng.integers(0, len(held), 50)], rng.integers(0, 2**62, 50, dtype=np.int64)])
        assert keys.has(probe).tolist() == np.isin(probe, held).tolist()
    assert keys.size == len(held)
    keys.add(held[:10])  # keys already there are not counted again
    assert keys.size == len(held)


@needs_numba
def test_the_key_index_finds_what_a_binary_search_finds():
    rng = np.random.default_rng(6)
    keys = np.unique(rng.integers(0, 2**62, size=5000, dtype=np.int64))
    keys = np.concatenate([keys, np.arange(100, dtype=np.int64) * 3])  # neighbouring keys collide more
    keys = np.unique(keys)
    index = fast_tables.KeyIndex(fast_tables.compiled(), keys)
    queries = keys[rng.integers(0, len(keys), 20000)]
    assert index.find(queries, 7).tolist() == (np.searchsorted(keys, queries) + 7).tolist()
    with pytest.raises(AssertionError, match="not in the index"):
        index.find(np.array([keys.max() + 1], dtype=np.int64))


def solved(game, monkeypatch, loops: bool) -> dict:
    """Every reachable position's (value, remoteness) from ``solve_all``, with or without the loops."""
    with monkeypatch.context() as patch:
        if not loops:
            without_loops(patch)
        assert (fast_tables.compiled() is not None) == loops
        codec = PositionCodec(game)
        keys, value, remoteness = solve_all(game, game.initial_state())
    return {codec.decode(k): (NAMES[v], None if v == 3 else r)
            for k, v, r in zip(keys.tolist(), value.tolist(), remoteness.tolist())}


CASES = [
    ("konane", {"rows": "3", "cols": "4"}),
    ("konane-misere", {"rows": "4", "cols": "3"}),
    ("abalone", {"rows": "3", "cols": "3", "captures": "2", "freeze": "off"}),  # positions repeat: draws
    ("abalone", {"rows": "3", "cols": "3", "captures": "1", "misere": "true"}),
    ("konane-same-stone", {"rows": "3", "cols": "4"}),  # a jump goes on from the cell it ended on (go-again)
]


@needs_numba
@pytest.mark.parametrize("small_blocks", [False, True])
@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{'-'.join(o.values())}" for n, o in CASES])
def test_every_position_is_solved_alike_with_and_without_the_loops(monkeypatch, name, options, small_blocks):
    if small_blocks:  # many blocks of moves, and the moves file rewritten as positions are decided
        monkeypatch.setattr(retrograde_module, "BLOCK", 7)
        monkeypatch.setattr(retrograde_module, "INDEX_BLOCK", 100)
    game = load_game(name, options)
    fast = solved(game, monkeypatch, loops=True)
    assert fast == solved(game, monkeypatch, loops=False)
    assert fast == sweep_by_definition(game, game.initial_state())


@needs_numba
def test_a_larger_solve_is_alike_with_and_without_the_loops(monkeypatch):
    # Grid Abalone 3x4, one capture wins: several tiers, each reaching the ones below it.
    game = load_game("abalone", {"rows": "3", "cols": "4", "captures": "1"})
    fast = solved(game, monkeypatch, loops=True)
    assert len(fast) > 1000
    assert fast == solved(game, monkeypatch, loops=False)


def test_without_numba_the_loops_are_not_there(monkeypatch):
    monkeypatch.setattr(fast_tables, "_TRIED", False)
    monkeypatch.setenv(native_module.ENV, "0")
    monkeypatch.setattr(fast_tables, "_COMPILED", None)
    assert fast_tables.compiled() is None
