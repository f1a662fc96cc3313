"""The ``rulesdsl`` console script: a Ctrl-C even while the command line is still loading exits 130 in one line."""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C


def main() -> None:
    """Load the command line and run it; a Ctrl-C during loading is one line and exit 130, never a traceback."""
    try:
        from rulesdsl.cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("rulesdsl: interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    run()
