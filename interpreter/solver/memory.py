"""This process's memory: resident now, the peak since the last reset (Linux ``/proc``; elsewhere the peak
since the process started)."""

from __future__ import annotations

import resource
import sys


def _status(field: str) -> float | None:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _maxrss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def resident_mb() -> float:
    """Resident memory now, in MB."""
    now = _status("VmRSS")
    return now if now is not None else _maxrss_mb()


def peak_mb() -> float:
    """The peak resident memory since the last :func:`reset_peak`, in MB."""
    peak = _status("VmHWM")
    return peak if peak is not None else _maxrss_mb()


def reset_peak() -> None:
    """Start measuring the peak afresh (Linux 4.0+: writing 5 to clear_refs); a no-op where unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass
