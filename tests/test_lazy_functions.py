"""The Python kernel's functions compiled at their first call (interpreter/kernel/lazy_functions.py): nothing is
compiled that is not called, a compiled function replaces its stand-in, and it answers as the whole source
compiled at once does."""

from __future__ import annotations

import random
import sys
import threading
from pathlib import Path

import pytest

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel.codegen import BUILTINS, KernelSourceError, _Builder, run_checked
from rulesdsl.interpreter.kernel.lazy_functions import LazyFunction

ROOT = Path(__file__).resolve().parent.parent


def fresh_kernel(name: str):
    """A kernel built now (not the one the process keeps per rules and options), and its game."""
    game = load_game(name)
    compiled = game._compiled
    builder = _Builder(compiled.active, compiled.tables, game.options, compiled.start_board)
    return game, builder.build()


def test_building_compiles_none_of_the_three_and_a_call_compiles_only_its_own():
    game, kernel = fresh_kernel("abalone")
    assert all(isinstance(f, LazyFunction) for f in (kernel.playout, kernel.perft, kernel.expand))
    namespace = kernel.perft.namespace
    assert not {"playout", "perft", "expand"} & set(namespace)
    state = game.initial_state()
    bits, last = tuple(kernel.layout.encode(state.board, s) for s in kernel.symbols), 0
    # grid Abalone's perft from the hand-written program (benchmarks/baselines/abalone.py), counted here
    sys.path.insert(0, str(ROOT / "benchmarks" / "baselines"))
    try:
        import abalone as baseline
    finally:
        sys.path.pop(0)
    expected = [baseline.perft(baseline.start({}), d) for d in (1, 2, 3)]
    stand_in = kernel.perft
    assert [stand_in(*bits, state.turn, last, None, d) for d in (1, 2, 3)] == expected
    assert not isinstance(kernel.perft, LazyFunction)  # the table's function took the stand-in's place
    assert kernel.perft.table is stand_in.table and stand_in.table  # one table, filled
    assert "perft" in namespace and "playout" not in namespace and "expand" not in namespace
    assert isinstance(kernel.playout, LazyFunction)


@pytest.mark.parametrize("name", ["breakthrough", "konane", "tic-tac-toe", "checkers"])
def test_the_functions_answer_as_the_whole_source_compiled_at_once(name):
    game, kernel = fresh_kernel(name)
    whole = {k: v for k, v in kernel.perft.namespace.items() if k not in ("playout", "perft", "expand")}
    run_checked(kernel.source, whole)
    state = game.initial_state()
    bits = tuple(kernel.layout.encode(state.board, s) for s in kernel.symbols) + kernel.extra(state)
    for seed in range(5):
        ours = kernel.playout(*bits, state.turn, 0, None, random.Random(seed).randrange, 500)
        theirs = whole["playout"](*bits, state.turn, 0, None, random.Random(seed).randrange, 500)
        assert ours == theirs
    assert kernel.perft(*bits, state.turn, 0, None, 3) == whole["perft"](*bits, state.turn, 0, None, 3)
    if kernel.expand is not None:
        found, again = [], []
        assert kernel.expand(*bits, state.turn, 0, found.append) == whole["expand"](*bits, state.turn, 0,
                                                                                    again.append)
        assert found == again and found


def test_threads_that_call_at_once_compile_once():
    compiled = []
    namespace: dict = {"__builtins__": dict(BUILTINS)}
    stand_in = LazyFunction("f", "def f(a):\n    return a + 1\n", namespace, threading.Lock(),
                            lambda ns: compiled.append(1) or ns["f"])
    results = []
    threads = [threading.Thread(target=lambda: results.append(stand_in(41))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [42] * 8 and compiled == [1]


def test_source_that_is_not_integer_code_is_refused_at_the_first_call():
    stand_in = LazyFunction("f", "def f():\n    import os\n", {"__builtins__": {}}, threading.Lock())
    with pytest.raises(KernelSourceError):
        stand_in()
