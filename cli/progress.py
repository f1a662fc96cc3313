"""Progress on stderr for long jobs (solve, analyze, bench, perft): percentage, rate, ETA and memory.

The line is tqdm's meter (``tqdm.format_meter``): where the total is known
(retrograde sweeps, the store, games, cases, first moves) a bar, the
percentage, the elapsed time and the time left; where it is not yet known
(exploring a game's positions) the count and the rate. The memory of the
process follows. On a terminal the line is redrawn in place; otherwise (a
log, a pipe) a fresh line is written every few seconds, so a long job is
never silent and a log holds no carriage returns.

Each phase's rate is measured from the moment the phase began: the first
phase from when the job began (not from its first report, which may come
long after the start when work arrives in chunks), a later one from the
last report of the phase before it.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from typing import TextIO

from rulesdsl.interpreter.compile.game import Game, State


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


def meter(phase: str, done: int, total: int | None, elapsed: float, noun: str, width: int | None = None) -> str:
    """One progress line: ``phase:  45%|███   | 450/1000 [00:10<00:12, 44.1 games/s]`` (no bar without a total)."""
    from tqdm import tqdm  # light, pure Python; imported only when a long job reports

    return tqdm.format_meter(done, total, elapsed, ncols=width, prefix=phase, unit=f" {noun}",
                             unit_scale=noun == "positions")


class ProgressLine:
    """Callable ``(phase, total, done)``: shows the phase's meter (see :func:`meter`) and memory.

    ``total`` is the number of items of the phase; for ``explore`` (positions
    found so far, a number still growing) no percentage or ETA is shown.
    """

    UNKNOWN_TOTAL = ("explore",)

    def __init__(self, stream: TextIO | None = None, noun: str = "positions", every: float | None = None,
                 lines: bool = False):
        self.stream = stream or sys.stderr
        self.noun = noun
        self.tty = self.stream.isatty() and not lines  # lines: a fresh line each time, even on a terminal
        self.every = every if every is not None else (0.25 if self.tty else 5.0)
        self.start = time.monotonic()
        self.shown = 0.0
        self.phase = ""
        self.phase_start = self.start
        self.last = self.start
        self.width = 0
        self.detail = ""

    def note(self, text: str) -> None:
        """Extra text shown at the end of the line from now on (a cluster's workers and their memory)."""
        self.detail = text

    def __call__(self, phase: str, total: int, done: int) -> None:
        now = time.monotonic()
        if phase != self.phase:
            self.phase_start = self.last if self.phase else self.start
            self.phase = phase
        self.last = now
        if now - max(self.shown, self.start) < self.every:
            return
        self.shown = now
        known = None if phase in self.UNKNOWN_TOTAL else max(total, done)
        text = self.text(phase, known, done, now)
        if self.detail:
            text += f"; {self.detail}"
        if self.tty:
            self.stream.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def text(self, phase: str, total: int | None, done: int, now: float) -> str:
        """The line for ``done`` of ``total`` (``None``: unknown) in ``phase`` at time ``now``."""
        columns = shutil.get_terminal_size((100, 24)).columns - 1 if self.tty else None
        tail = f", {memory_mb():,.0f} MB, {now - self.start:,.0f} s in all"
        width = None if columns is None else max(40, columns - len(tail))
        return meter(phase, done, total, now - self.phase_start, self.noun, width) + tail

    def close(self) -> None:
        """End the line (on a terminal, erase it)."""
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def perft_with_progress(game: Game, state: State, depth: int, progress: ProgressLine,
                        count: Callable[[Game, State, int], int] | None = None) -> int:
    """perft(``depth``) summed over the first moves, reporting ``perft D: i of n first moves`` as it goes.

    ``count(game, state, depth)`` counts (default: the engine's perft); depths below 3 take no time and are
    counted at once.
    """
    if count is None:
        from rulesdsl.interpreter.search.minimax import perft as count
    if depth < 3:
        return count(game, state, depth)
    moves = game.legal_moves(state)
    total = 0
    for done, move in enumerate(moves, start=1):
        total += count(game, game.apply(state, move), depth - 1)
        progress(f"perft {depth}", len(moves), done)
    return total
