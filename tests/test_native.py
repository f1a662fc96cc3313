"""The kernel in machine code (numba) plays exactly what the Python kernel and the generic path play.

On random positions of every bundled game that has a kernel: the native
``expand`` reaches the same positions as the legal moves (as many times each)
and gives the same outcome on finished positions; native perft to depth 3
counts what the Python kernel and the generic path count; a seeded playout,
one ply at a time and whole, ends in the same position with the same outcome
in both kernels. Where numba cannot be imported, or ``RULESDSL_NATIVE=0``,
everything runs on the Python kernel (these tests then check that instead).
"""

from __future__ import annotations

import ast
import contextlib
import random
import sys
from collections import Counter

import pytest
from helpers import param, positions, python_kernel

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.kernel.codegen import check_source

# Every bundled game with a kernel, and two other sizes (sources differ with the options).
CASES = [("abalone", {}), ("abalone-hex", {}), ("abalone-hex6", {}), ("breakthrough", {}), ("fox-and-geese", {}),
         ("konane", {}), ("konane-misere", {}), ("konane-same-stone", {}), ("breakthrough", {"rows": "5", "cols": "4"}),
         ("konane", {"rows": "6", "cols": "6"}), ("tic-tac-toe", {}), ("connect-four", {}), ("othello", {}),
         ("tic-tac-toe", {"size": "5", "line": "4"}), ("connect-four", {"rows": "5", "cols": "4", "line": "3"}),
         ("othello", {"size": "6"}), ("hex", {"size": "8"}), ("hex", {"size": "4"}), ("amazons", {"size": "6"}),
         ("checkers", {"chains": "jump", "size": "6", "quiet": "6"}), ("checkers", {}),
         ("checkers", {"size": "6", "quiet": "6"}), ("draughts", {"size": "6", "quiet": "8"}),
         ("konane-straight", {}), ("lines-of-action", {}),
         ("three-way-race", {}), ("nine-mens-morris", {}), ("dots-and-boxes", {}),
         ("dots-and-boxes", {"rows": "3", "cols": "3"}), ("mancala", {})]
# More sizes and options, each one more compile: only under -m deep (test_kernel_search.py takes the same small
# sizes; checkers 6 x 6 with one ply a jump stands for 8 x 8).
DEEP_CASES = [("amazons", {"size": "8"}), ("draughts", {"size": "8", "quiet": "10"}), ("checkers", {"chains": "jump"}),
              ("konane-straight", {"rows": "8", "cols": "8"})]
PARAMS = [param(n, s, id="-".join([n, *s.values()]), deep=deep)  # named by the game and options (amazons-6)
          for cases, deep in ((CASES, False), (DEEP_CASES, True)) for n, s in cases]
NATIVE = native_module.enabled() and native_module.numba_available()
needs_native = pytest.mark.skipif(not NATIVE, reason="numba is not installed or RULESDSL_NATIVE=0")


def both(name: str, settings: dict):
    """The game and its native kernel (compiled or loaded from the cache now)."""
    game = load_game(name, settings)
    native = game._compiled.native(wait=True)
    assert native is not None, "numba imports, so every game with a one-word kernel gets machine code"
    return game, native




@needs_native
@pytest.mark.parametrize("name,settings", PARAMS)
def test_native_moves_and_outcomes_are_the_generic_ones(name, settings):
    game, native = both(name, settings)
    compiled = game._compiled
    for state in positions(game, games=3, seed=len(name) + 5, cap=60):
        moves, outcome = game.status(state)
        got_outcome, children = compiled.children(state, native)
        assert got_outcome == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, move) for move in moves), game.format_position(state)


@needs_native
@pytest.mark.parametrize("name,settings", PARAMS)
def test_native_perft_to_depth_3_is_the_python_kernels_and_the_generic_paths(name, settings):
    game, _ = both(name, settings)
    for number, state in enumerate(positions(game, games=2, seed=len(name) + 6, cap=60)):
        if number % 9 == 0:
            for depth in (1, 2, 3):
                native_count = game.perft(state, depth)
                with python_kernel(game):
                    python_count = game.perft(state, depth)
                assert native_count == python_count == generic_perft(game, state, depth), game.format_position(state)


@needs_native
@pytest.mark.parametrize("name,settings", PARAMS)
def test_every_ply_of_a_seeded_playout_is_the_same_in_both_kernels(name, settings):
    game, _ = both(name, settings)
    for seed in range(3):
        state, rng_native, rng_python = game.initial_state(), random.Random(seed), random.Random(seed)
        for _ in range(200):  # one ply at a time: each is a legal move, the same one in both kernels
            step = game.playout(state, rng_native, 1)
            with python_kernel(game):
                assert game.playout(state, rng_python, 1) == step
            moves, outcome = game.status(state)
            assert step.outcome == outcome if step.plies == 0 else step.state in {game.apply(state, m) for m in moves}
            if step.plies == 0:
                break
            state = step.state
        whole = game.playout(game.initial_state(), random.Random(seed))
        with python_kernel(game):
            assert game.playout(game.initial_state(), random.Random(seed)) == whole
        if whole.outcome is not None:
            assert whole.outcome == game.status(whole.state)[1]


@needs_native
def test_the_native_source_passes_the_allow_list_and_is_all_the_cached_file_holds():
    game = load_game("breakthrough", {})
    source = native_module.native_source(game.kernel())
    check_source(source)
    path = native_module.module_file(source)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(native_module.HEADER)
    body = text[len(native_module.HEADER):]
    assert body.replace("@jit\n", "") == source + "\n"  # the checked source, and a decorator per function
    assert body.count("@jit\n") == source.count("\ndef ") + 1 == len(ast.parse(source).body) - len(
        game.kernel().constants)


@pytest.mark.skipif(not native_module.enabled(), reason="it sets RULESDSL_NATIVE itself: the native pass runs it")
def test_a_source_over_the_limit_keeps_the_python_kernel_unless_the_limit_is_raised(monkeypatch):
    kernel = load_game("chess", {}).kernel()  # its native source: about 296,000 characters in pieces
    source = native_module.native_source(kernel)
    monkeypatch.setattr(native_module, "MAX_PIECES", len(source) - 1)  # a limit it is just over
    assert source is not None and len(source) > native_module.MAX_PIECES
    monkeypatch.setattr(native_module, "_numba_version", lambda: "0")  # prepare only: nothing is compiled here
    monkeypatch.delenv("RULESDSL_NATIVE_MAX", raising=False)
    monkeypatch.delenv("RULESDSL_NATIVE", raising=False)
    assert native_module.prepare_native(kernel) is None
    split = load_game("antichess", {}).kernel()  # over the limit too, but in pieces (native_split.py)
    assert len(native_module.native_source(split)) > native_module.MAX_SOURCE
    assert native_module.prepare_native(split) is not None
    monkeypatch.setenv("RULESDSL_NATIVE_MAX", str(len(source)))
    assert native_module.prepare_native(kernel) is not None
    monkeypatch.setenv("RULESDSL_NATIVE_MAX", "1000")
    assert native_module.prepare_native(load_game("breakthrough", {}).kernel()) is None
    assert native_module.prepare_native(split) is None  # a limit set is the limit


def test_a_kernel_whose_whole_source_would_leave_out_the_search_helpers_is_written_in_pieces(monkeypatch):
    """Othello 10 x 10 (two words a bitboard): written whole, its source is short enough only without the
    alpha-beta engine's helpers (the search would stay on the generic engine); in pieces it holds them and is
    compiled by default, so that one is taken."""
    monkeypatch.delenv("RULESDSL_NATIVE_MAX", raising=False)
    kernel = load_game("othello", {"size": "10"}).kernel()
    source = native_module.native_source(kernel)
    assert source is not None and "\ndef expandrow(" in source and native_module.compiles_soon(source)
    assert "\ndef part0(" in source  # in pieces (kernel/native_split.py)


@needs_native
def test_the_rewritten_source_is_kept_and_what_is_read_back_is_checked_before_it_runs(tmp_path, monkeypatch):
    from rulesdsl.interpreter.kernel.codegen import KernelSourceError

    monkeypatch.setattr(native_module, "cache_folder", lambda: tmp_path)
    kernel = load_game("breakthrough", {}).kernel()
    first = native_module.rewritten(kernel)
    assert first == native_module.native_source(kernel)
    [kept] = tmp_path.glob("rewritten_*.txt")
    assert kept.read_text(encoding="utf-8") == first
    kept.write_text(first.replace("def playout(", "import os\ndef playout(", 1), encoding="utf-8")  # changed
    changed = native_module.rewritten(kernel)
    assert changed != first and "import os" in changed  # read back as it is, not rewritten again ...
    with pytest.raises(KernelSourceError):
        native_module.import_checked(changed)  # ... and refused before anything of it runs
    kept.write_bytes(b"\xff\xfe")  # a file that cannot be read is written again
    assert native_module.rewritten(kernel) == first


@needs_native
def test_a_board_over_64_cells_runs_on_several_words_a_bitboard():
    game = load_game("breakthrough", {"rows": "9", "cols": "8"})  # 72 cells: one word is not enough
    assert native_module.native_source(game.kernel()) is not None
    assert game._compiled.native(wait=True).lanes.lanes == 2
    assert game._compiled.engine_name() == "native"
    state = game.initial_state()
    assert game.perft(state, 3) == generic_perft(game, state, 3)


@needs_native
def test_a_placement_board_over_64_cells_runs_on_several_words_a_bitboard():
    game = load_game("tic-tac-toe", {"size": "15", "line": "5"})  # 225 cells: gomoku's board
    assert game._compiled.native(wait=True).lanes.lanes == 4
    assert game._compiled.engine_name() == "native"
    assert game.perft(game.initial_state(), 2) == generic_perft(game, game.initial_state(), 2) == 225 * 224
    five = game.parse_position("(o " + " ".join(["x" * 5 + "-" * 10] + ["-" * 15] * 14) + ")")
    assert game.outcome(five).winner == 0
    for number, state in enumerate(positions(game, games=2, seed=4, cap=120)):
        moves, outcome = game.status(state)
        if outcome is not None:
            assert game.playout(state, random.Random(0), 1).outcome == outcome
        elif number % 10 == 0:  # one ply drawing index i reaches the i-th child: every move once
            reached = Counter(game.playout(state, _Fixed(i), 1).state for i in range(len(moves)))
            assert reached == Counter(game.apply(state, move) for move in moves), game.format_position(state)


class _Fixed:
    """A random source that always draws ``index``."""

    def __init__(self, index: int):
        self.index = index

    def randrange(self, stop: int) -> int:
        return self.index


def test_without_numba_every_game_plays_on_the_python_kernel(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now raises ImportError
    assert not native_module.numba_available()
    game = load_game("konane", {"rows": "4", "cols": "4"})
    assert native_module.load_native(game.kernel()) is None
    assert game._compiled.native(wait=True) is None
    assert game._compiled.engine_name() == "python"
    state = game.initial_state()
    assert game.perft(state, 3) == generic_perft(game, state, 3)
    end = game.playout(state, random.Random(2))
    assert end.outcome == game.status(end.state)[1]


def test_rulesdsl_native_0_switches_machine_code_off(monkeypatch):
    monkeypatch.setenv(native_module.ENV, "0")
    game = load_game("breakthrough", {"rows": "5", "cols": "4"})
    assert game._compiled.native(wait=True) is None
    assert game._compiled.engine_name() == "python"
    assert game.perft(game.initial_state(), 2) == generic_perft(game, game.initial_state(), 2)


@needs_native
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the cache folder is set with XDG_CACHE_HOME")
def test_a_first_move_does_not_wait_for_the_compile_and_a_second_start_runs_on_the_cached_code(tmp_path):
    import os
    import subprocess
    import time

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}  # an empty cache folder
    command = [sys.executable, "-m", "rulesdsl.cli.main", "move", "konane", "--set", "rows=4", "--set", "cols=5",
               "--time", "0.2", "--verbose"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    assert first.returncode == 0, first.stderr
    assert "[native kernel]" not in first.stderr  # the Python kernel played while a child compiled
    folder = tmp_path / "rulesdsl" / "native"
    deadline = time.monotonic() + 600
    while not list(folder.glob("*.search")) and time.monotonic() < deadline:  # the search helpers come last
        time.sleep(0.5)
    assert list(folder.glob("*.ready")) and list(folder.glob("*.search")), \
        "the child process finished the compile, the search helpers too, after the command ended"
    second = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    assert second.returncode == 0, second.stderr
    assert "[native kernel]" in second.stderr.splitlines()[-1]


@needs_native
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the cache folder is set with XDG_CACHE_HOME")
def test_a_first_start_leaves_the_rewrite_to_the_child_that_compiles(tmp_path, monkeypatch):
    """With an empty cache the source is not rewritten in the calling thread (seconds for the largest kernels:
    shogi's took 13 s): the forked child rewrites it into the cache and compiles it, and this process then
    reads it back and loads the machine code without rewriting anything."""
    import os
    import threading

    if not hasattr(os, "fork"):
        pytest.skip("no fork: the rewrite runs in the thread")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # an empty cache folder
    rewrites: list[str] = []
    real = native_module.native_source
    monkeypatch.setattr(native_module, "native_source",
                        lambda kernel: rewrites.append(threading.current_thread().name) or real(kernel))
    game = load_game("konane", {"rows": "4", "cols": "3"})
    assert game._compiled.native() is None  # begun, not waited for
    game._compiled.background._thread.join(timeout=600)
    native = game._compiled.native()
    assert native is not None and native.search_ready()  # the child compiled it, the search helpers too
    assert rewrites == []  # the child rewrote it; this process only read it back from the cache
    assert list((tmp_path / "rulesdsl" / "native").glob("*.ready"))


@needs_native
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the cache folder is set with XDG_CACHE_HOME")
def test_the_search_helpers_are_compiled_when_a_search_first_asks_and_a_clock_does_not_wait_for_them(
        tmp_path, monkeypatch):
    import time

    from rulesdsl.interpreter.search.engine import think
    from rulesdsl.interpreter.search.kernel_search import kernel_view
    from rulesdsl.interpreter.search.minimax import minimax

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # an empty cache folder
    game = load_game("konane", {"rows": "4", "cols": "5"})
    native = game._compiled.native(wait=True)  # perft's functions: compiled now, without the search helpers
    folder = tmp_path / "rulesdsl" / "native"
    assert list(folder.glob("*.ready")) and not list(folder.glob("*.search")) and not native.search_ready()
    assert game.perft(game.initial_state(), 2) == generic_perft(game, game.initial_state(), 2)
    assert kernel_view(game) is None  # a search under a clock goes on without them; they compile elsewhere
    deadline = time.monotonic() + 600
    while not list(folder.glob("*.search")) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert native.search_ready() and kernel_view(game) is not None
    state = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[0])
    result = think(game, state, 2, seconds=600)  # under a clock, now on the machine code
    assert result.kernel == "native" and result.score == pytest.approx(minimax(game, state, 2), abs=1e-9)


@pytest.mark.parametrize("native", [False, True], ids=["python-kernel", "native"])
def test_a_player_without_a_flanking_move_passes_and_a_full_board_ends_the_game(native):
    if native and not NATIVE:
        pytest.skip("numba is not installed or RULESDSL_NATIVE=0")
    game = load_game("othello", {"size": "4"})
    if native:
        assert game._compiled.native(wait=True) is not None
    # White (to move) has no disc to flank with on d4; black then has d4 (over c4 to b4): white passes.
    stuck = game.parse_position("(w bbbb bbbb bbbb bbw-)")
    full = game.parse_position("(b bbbb bbbb bbbb bbbw)")  # nobody can move: black has more discs and wins
    with python_kernel(game) if not native else contextlib.nullcontext():
        assert game.perft(stuck, 1) == 1 and game.perft(stuck, 2) == 1
        step = game.playout(stuck, random.Random(0), 1)
        assert step.plies == 1 and step.state.board == stuck.board and step.state.turn == 0
        end = game.playout(full, random.Random(0), 1)
        assert end.plies == 0 and end.outcome.winner == 0
