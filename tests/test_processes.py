"""Worker processes that a Ctrl-C never leaves behind (interpreter/parallel/processes.py)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from rulesdsl.interpreter.parallel.processes import (
    can_fork,
    deferred_interrupts,
    fork_pool,
    fork_process,
    scratch_folder,
    stop_pool,
    stop_process,
)

pytestmark = pytest.mark.skipif(not can_fork(), reason="worker processes are forked only where fork exists")


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie does not count)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_gone(pids: list[int], seconds: float = 3.0) -> list[int]:
    """The pids still running after waiting up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def test_pool_workers_ignore_sigint_and_stop_pool_ends_them_while_busy():
    pools = []
    pool = fork_pool(2, pools.append)
    assert pools == [pool]
    try:
        pids = pool.map(_pid, range(8))
        workers = sorted(set(pids))
        for pid in workers:
            os.kill(pid, signal.SIGINT)  # what Ctrl-C sends to every process of the group
        assert pool.map(abs, [-1, -2, -3]) == [1, 2, 3]  # still working: SIGINT is ignored
        pool.map_async(time.sleep, [30, 30])  # busy for longer than any test waits
        time.sleep(0.2)
    finally:
        started = time.monotonic()
        stop_pool(pool)
        took = time.monotonic() - started
    assert wait_gone(workers) == []
    assert took < 10  # bounded: no wait for the 30-second tasks


def _pid(_: int) -> int:
    time.sleep(0.05)
    return os.getpid()


def _pool_then_sleep(write_end: int) -> None:
    pool = fork_pool(2, lambda _: None)
    pids = sorted(set(pool.map(_pid, range(8))))
    os.write(write_end, (" ".join(map(str, pids)) + "\n").encode())
    time.sleep(60)


def test_workers_leave_when_their_parent_is_killed_outright():
    read_end, write_end = os.pipe()
    process = fork_process(_pool_then_sleep, write_end)
    os.close(write_end)
    try:
        with os.fdopen(read_end) as reader:
            workers = [int(p) for p in reader.readline().split()]
        assert workers
        os.kill(process.pid, signal.SIGKILL)  # no chance to end its workers itself
        process.join(5)
        assert wait_gone(workers) == []
    finally:
        stop_process(process)


def _sleep_long() -> None:
    time.sleep(60)


def test_a_forked_process_ignores_sigint_and_stop_process_ends_it():
    process = fork_process(_sleep_long)
    try:
        time.sleep(0.2)
        os.kill(process.pid, signal.SIGINT)
        time.sleep(0.2)
        assert process.is_alive()
    finally:
        stop_process(process)
    assert not process.is_alive()
    assert process.exitcode == 143  # SIGTERM left through SystemExit (finally blocks ran)


def test_a_ctrl_c_during_cleanup_is_held_back_until_it_is_done():
    done = []
    with pytest.raises(KeyboardInterrupt), deferred_interrupts():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)  # the handler has run by now: it only noted the signal
        done.append("cleanup finished")
    assert done == ["cleanup finished"]


def test_the_scratch_folder_goes_even_when_the_work_is_interrupted(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    with pytest.raises(KeyboardInterrupt), scratch_folder("rulesdsl-test-") as folder:
        (folder / "tier0.keys.npy").write_bytes(b"x" * 100)
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
