"""One compile of a native kernel at a time across processes (kernel/compile_lock.py), without numba: a process
holding the lock stands for a compile in progress, its ``touch`` of the marker for the compile's end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from rulesdsl.interpreter.kernel.compile_lock import compiling

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="advisory file locks (fcntl) are POSIX only")

HOLDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from rulesdsl.interpreter.kernel.compile_lock import compiling
    marker = Path(sys.argv[1])
    with compiling(marker) as compile_now:
        print(compile_now, flush=True)
        time.sleep(float(sys.argv[2]))
        if sys.argv[3] == "finish":
            marker.touch()
""")


def _holder(marker, seconds: float, end: str) -> subprocess.Popen:
    """A process that takes the lock, says whether it must compile, and holds it ``seconds`` (then finishes the
    compile or not); this returns once it holds the lock."""
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(marker), str(seconds), end],
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "True"
    return process


def test_alone_a_process_compiles_and_with_the_marker_it_does_not(tmp_path):
    marker = tmp_path / "kernel_x.ready"
    with compiling(marker) as compile_now:
        assert compile_now
    marker.touch()
    with compiling(marker) as compile_now:
        assert not compile_now


def test_a_second_process_waits_for_the_first_compile_and_then_does_not_compile(tmp_path):
    marker = tmp_path / "kernel_x.ready"
    holder = _holder(marker, 1.0, "finish")
    assert not marker.is_file()  # the first is still compiling when the second asks
    with compiling(marker) as compile_now:
        assert marker.is_file()  # it got the lock only once the first had finished
        assert not compile_now
    assert holder.wait(timeout=30) == 0


def test_a_compile_killed_midway_leaves_the_next_process_to_compile(tmp_path):
    marker = tmp_path / "kernel_x.ready"
    holder = _holder(marker, 60.0, "finish")
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    with compiling(marker) as compile_now:
        assert compile_now and not marker.is_file()
