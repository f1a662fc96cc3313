"""check and the kernel on heavy files (issue 22: N8, N9, old #10, old #15, N12)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import codegen as kernel_module
from rulesdsl.loader import bundled_dir
from rulesdsl.verify.selfcheck import PLAYOUT_WORK, _Broken, _Playout, scaled_playouts

ENV = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
BREAKTHROUGH = (bundled_dir() / "breakthrough.rules").read_text()


def check(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(["rulesdsl", "check", *args], env=ENV, capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def fresh_kernels(monkeypatch):
    """An empty kernel cache, and a count of the kernels built (their functions, checked and compiled at the
    first call, made ready: ``lazy_kernel_functions``)."""
    monkeypatch.setattr(kernel_module, "_outcomes", type(kernel_module._outcomes)())
    compiled = []
    real = kernel_module.lazy_kernel_functions

    def counting(namespace, functions, helpers):
        compiled.append(sum(map(len, functions.values())))
        return real(namespace, functions, helpers)

    monkeypatch.setattr(kernel_module, "lazy_kernel_functions", counting)
    return compiled


def test_n8_one_option_set_compiles_its_kernel_once(fresh_kernels):
    first = load_game("konane", {"rows": "4", "cols": "4"})
    second = load_game("konane", {"rows": "4", "cols": "4"})
    assert first._compiled.kernel() is not None
    assert second._compiled.kernel() is first._compiled.kernel()
    load_game("konane", {"rows": "5", "cols": "4"})._compiled.kernel()
    assert len(fresh_kernels) == 2  # 4x4 once, 5x4 once


def test_n8_a_failed_compile_is_not_tried_again(fresh_kernels, monkeypatch):
    monkeypatch.setattr(kernel_module, "MAX_SOURCE", 1000)  # every bundled kernel is longer
    for _ in range(3):
        game = load_game("konane", {"rows": "4", "cols": "4"})
        assert game._compiled.kernel() is None
    assert fresh_kernels == []  # never compiled: refused on size, and the refusal was kept


def test_n9_playouts_are_scaled_to_the_board():
    assert scaled_playouts(20, 200, 64) == (20, 200)  # 8x8: all of it
    assert scaled_playouts(20, 200, 39_988) == (1, PLAYOUT_WORK // 39_988)
    assert scaled_playouts(20, 200, 2_000) == (2, 200)
    assert scaled_playouts(0, 200, 39_988) == (0, 200)
    playouts, plies = scaled_playouts(3, 10, 40_000)
    assert playouts * plies >= 20  # never fewer than 20 plies in all


def test_n9_check_on_a_board_at_the_cell_cap_ends(tmp_path):
    """A hang guard (no timing assertion): 26 x 1538 cells full of pawns took minutes of playouts before."""
    text = (BREAKTHROUGH.replace("option rows = 8 in 4..26", "option rows = 1538 in 4..2000")
            .replace("option cols = 8 in 1..26", "option cols = 26 in 1..26")
            .replace("where row <= 2", "where row <= 300").replace("where row >= rows - 1", "where row >= rows - 299"))
    rules = tmp_path / "wide.rules"
    rules.write_text(text)
    done = check(str(rules), "--no-suites", timeout=240)
    assert "Traceback" not in done.stderr
    assert "scaled to the board's 39,988 cells" in done.stderr, done.stderr[-2000:]
    assert "1 playout, 25 plies in all" in done.stderr


def test_old10_repeated_warnings_are_capped(tmp_path):
    rules = tmp_path / "many.rules"
    rules.write_text(BREAKTHROUGH + "".join(f"option unused{i} = 1 in 1..2\n" for i in range(2000)))
    done = check(str(rules), "--playouts", "0")
    assert done.returncode == 0
    assert done.stderr.count("is declared but never used") == 20
    assert "1,980 more W031 warnings like the ones above, not shown" in done.stderr
    assert len(done.stderr) < 20_000


def test_old15_a_position_format_without_turn_is_an_error_without_playouts(tmp_path):
    rules = tmp_path / "noturn.rules"
    rules.write_text(BREAKTHROUGH.replace("position (turn rows) top first", "position (rows) top first"))
    done = check(str(rules), "--playouts", "0")
    assert done.returncode == 1
    assert "error: the position format needs the 'turn' field" in done.stderr


class _Stub:
    """A game whose position strings lose the turn: only the message's wording is tested here."""

    def format_position(self, state):
        return "(board)"

    def parse_position(self, text):
        from rulesdsl.interpreter.compile.game import State

        return State("w", 0)


def test_old15_the_playout_message_names_what_does_not_read_back():
    from rulesdsl.interpreter.compile.game import State

    playout = _Playout(_Stub(), 0, 0)
    with pytest.raises(_Broken) as broken:
        playout.check_position(State("w", 1))
    message = broken.value.problem.message
    assert "(board) reads back with turn 0 instead of 1" in message and "reads back as (board)" not in message


def test_n12_a_suite_option_of_5000_digits_is_an_error_at_its_place(tmp_path):
    rules = tmp_path / "game.rules"
    rules.write_text(BREAKTHROUGH)
    (tmp_path / "game.tests.yaml").write_text("- options: {rows: " + "9" * 5000 + "}\n  perft: [1]\n")
    done = check(str(rules), "--playouts", "0")
    assert done.returncode == 1 and "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert f"{tmp_path / 'game.tests.yaml'}:1:19: error: case 1: option rows: a number has at most 18 digits" \
        in done.stderr
