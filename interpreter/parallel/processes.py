"""Worker processes that a Ctrl-C never leaves behind.

A Ctrl-C on a terminal sends SIGINT to every process of the foreground group:
the main process and its forked workers alike. Workers that died of it left
:class:`multiprocessing.pool.Pool` waiting forever in ``terminate``. So here
every worker ignores SIGINT from its first instruction (SIGINT is blocked in
the parent while it forks, and the worker sets SIG_IGN before unblocking it),
and the main process alone turns Ctrl-C into :class:`KeyboardInterrupt`, then
ends its workers itself (:func:`stop_pool`, :func:`stop_process`) with a
bounded wait, killing what does not stop. A worker whose parent is gone (killed
outright) exits by itself within a fifth of a second.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any

__all__ = ["can_fork", "deferred_interrupts", "fork_pool", "fork_process", "scratch_folder", "stop_pool",
           "stop_process"]

GRACE = 0.5  # seconds a pool's workers get to stop before they are killed
PROCESS_GRACE = 1.0  # seconds a process of fork_process gets to end its own workers and folders
WATCH = 0.2  # seconds between a worker's looks at whether its parent is still there


def can_fork() -> bool:
    """Whether worker processes can be forked on this platform."""
    return "fork" in multiprocessing.get_all_start_methods()


@contextmanager
def _interrupts_blocked() -> Iterator[None]:
    """SIGINT held back in this thread (and so in the processes forked meanwhile); delivered on leaving."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        mask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _leave_with_parent(parent: int) -> None:
    """Exit at once when the parent process is gone (killed before it could end this one)."""
    while os.getppid() == parent:
        time.sleep(WATCH)
    os._exit(1)


def _worker_start() -> None:
    """First thing in every worker: ignore SIGINT, let signals in again, and watch the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    threading.Thread(target=_leave_with_parent, args=(os.getppid(),), daemon=True).start()


def _terminating(*_: object) -> None:
    """SIGTERM in a worker that has workers of its own: leave through ``finally`` blocks, which end them."""
    raise SystemExit(143)


def _process_start(target: Callable[..., Any], *args: Any) -> None:
    _worker_start()
    signal.signal(signal.SIGTERM, _terminating)
    target(*args)


def fork_pool(processes: int, keep: Callable[[Pool], None]) -> Pool:
    """A pool of ``processes`` forked workers that ignore SIGINT.

    ``keep(pool)`` is called before SIGINT is let in again, so that the caller
    holds the pool (to stop it with :func:`stop_pool`) even when a Ctrl-C came
    while it was being made.
    """
    with _interrupts_blocked():
        pool = multiprocessing.get_context("fork").Pool(processes, initializer=_worker_start)
        keep(pool)
    return pool


def stop_pool(pool: Pool, grace: float = GRACE) -> None:
    """End a pool's workers: ``terminate`` with a bounded wait, then kill whatever is still running."""
    workers = list(getattr(pool, "_pool", ()))  # the worker processes (no public name for them)
    ender = threading.Thread(target=pool.terminate, daemon=True)
    ender.start()
    ender.join(grace)
    for worker in workers:
        if worker.is_alive():
            worker.kill()
            worker.join(grace)


def fork_process(target: Callable[..., Any], *args: Any) -> multiprocessing.process.BaseProcess:
    """Start ``target(*args)`` in a forked process that ignores SIGINT and leaves cleanly on SIGTERM."""
    with _interrupts_blocked():
        process = multiprocessing.get_context("fork").Process(target=_process_start, args=(target, *args))
        process.start()
    return process


def stop_process(process: multiprocessing.process.BaseProcess, grace: float = PROCESS_GRACE) -> None:
    """End a process from :func:`fork_process`: SIGTERM, a bounded wait, then SIGKILL (its workers then
    leave by themselves, see :func:`_leave_with_parent`)."""
    if process.is_alive():
        process.terminate()
        process.join(grace)
    if process.is_alive():
        process.kill()
        process.join(GRACE)


@contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Hold a Ctrl-C back until the block is done (for cleanup that must finish, such as removing a folder);
    it is raised as :class:`KeyboardInterrupt` afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught and previous not in (signal.SIG_IGN, None):
            if callable(previous):
                previous(signal.SIGINT, sys._getframe())
            else:
                raise KeyboardInterrupt


@contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A fresh temporary folder, removed on leaving even when a Ctrl-C comes while it is being removed."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        with deferred_interrupts():
            shutil.rmtree(folder, ignore_errors=True)
