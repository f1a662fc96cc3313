"""When the output cannot be written: a closed stdout, a full disk, a reader that went away.

Exit codes follow the shell's and sysexits' conventions: 74 (``EX_IOERR``)
when the output was not written, 141 (128 + SIGPIPE) when the reader closed
the pipe. Either way the message is one line on stderr, never a traceback,
and never exit 0 for output that was lost.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys

import click

EXIT_OUTPUT = 74
EXIT_PIPE = 141


class ClosedStream:
    """Stands for a standard stream that was closed before the program started: every write fails."""

    def write(self, _text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        """Nothing was written, so nothing is lost by flushing."""

    def isatty(self) -> bool:
        return False


class OutputFailed(click.ClickException):
    """Writing the output failed; :meth:`finish` says so and exits with the right code."""

    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))
        self.error = error
        self.exit_code = EXIT_PIPE if error.errno == errno.EPIPE else EXIT_OUTPUT

    def finish(self) -> None:
        """Report (except for a closed pipe, which is the reader's choice) and exit."""
        _silence_stdout()
        if self.exit_code == EXIT_OUTPUT:
            with contextlib.suppress(OSError):
                click.echo(f"rulesdsl: cannot write the output: {self.format_message()}", err=True)
        sys.exit(self.exit_code)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's own flush at exit does not fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (lives until exit)
