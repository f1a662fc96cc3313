"""A progress line on stderr for long jobs: counts, rate and memory.

On a terminal the line is redrawn in place; otherwise (a log, a pipe) a fresh
line is written every few seconds, so a long job is never silent.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def memory_mb() -> float:
    """This process's resident memory in MB (peak memory where the current is unknown)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


class ProgressLine:
    """Callable ``(phase, total, done)``: shows ``phase: done / total, rate/s, memory``."""

    def __init__(self, stream: TextIO | None = None, noun: str = "positions", every: float | None = None):
        self.stream = stream or sys.stderr
        self.noun = noun
        self.tty = self.stream.isatty()
        self.every = every if every is not None else (0.25 if self.tty else 5.0)
        self.start = time.monotonic()
        self.shown = 0.0
        self.phase = ""
        self.phase_start = self.start
        self.width = 0
        self.detail = ""

    def note(self, text: str) -> None:
        """Extra text shown at the end of the line from now on (a cluster's workers and their memory)."""
        self.detail = text

    def __call__(self, phase: str, total: int, done: int) -> None:
        now = time.monotonic()
        if phase != self.phase:
            self.phase, self.phase_start = phase, now
        if now - max(self.shown, self.start) < self.every:
            return
        self.shown = now
        elapsed = now - self.phase_start
        rate = f"{done / elapsed:,.0f}/s" if elapsed >= 1 else "-/s"
        counts = (f"{done:,} of {total:,} {self.noun}" if self.noun == "games"
                  else f"{total:,} {self.noun} found, {done:,} done")
        text = f"{phase}: {counts}, {rate}, {memory_mb():,.0f} MB, {now - self.start:,.0f} s"
        if self.detail:
            text += f"; {self.detail}"
        if self.tty:
            self.stream.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the line (on a terminal, erase it)."""
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
