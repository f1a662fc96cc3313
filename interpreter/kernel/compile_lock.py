"""One compile of a native kernel at a time, across processes.

Two commands started together on a new rule file (``play`` and the web board, two workers of a test run, a
one-shot ``move`` run twice) would each compile the same machine code for minutes. Around the compile a
process holds an exclusive lock on a file beside the kernel's ``.ready`` marker: the first compiles, the
others wait (asleep) and then find the marker and load the code from numba's cache. The operating system
drops the lock of a process that dies, so a killed compile never blocks the next one, which compiles anew.
Where ``fcntl`` is missing (Windows) each process compiles on its own, as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def compiling(marker: Path) -> Iterator[bool]:
    """Hold the kernel's compile lock; yields ``True`` when this process must compile (``marker`` not there
    once the lock is held), ``False`` when another process finished the compile first."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here: compile unless it is in the cache already
        yield not marker.is_file()
        return
    if marker.is_file():
        yield False
        return
    try:
        handle = open(marker.with_suffix(".lock"), "a")  # noqa: SIM115 - closed below, after the unlock
    except OSError:  # a read-only cache folder: nothing to share
        yield True
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield not marker.is_file()
    finally:
        handle.close()  # closing the file releases the lock
