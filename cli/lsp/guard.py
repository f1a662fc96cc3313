"""The language server's guards against a hostile or broken client, below the handlers.

- :class:`BoundedReader`: a frame header line longer than :data:`MAX_HEADER`
  bytes, or a ``Content-Length`` above :data:`MAX_FRAME`, ends the session
  with one line on stderr (nothing is allocated for it), instead of a
  ``MemoryError``.
- :class:`GuardedProtocol`: a request whose parameters do not fit the
  protocol (a position at line -1 or 2**31, a missing field) is answered with
  the protocol's ``InvalidParams`` error, instead of no answer at all.
- :func:`one_line_logs`: every log line is one line, with no traceback.
"""

from __future__ import annotations

import logging
import sys
from typing import BinaryIO

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol

log = logging.getLogger("rulesdsl.lsp")

MAX_FRAME = 64 << 20  # bytes of one message: far above a rule file (1 MB) in any encoding
MAX_HEADER = 4096  # bytes of one header line


class BoundedReader:
    """Standard input for pygls, refusing frames too large to hold: the session then ends cleanly."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def readline(self) -> bytes:
        """One header line; an overlong one ends the session."""
        line = self.stream.readline(MAX_HEADER + 1)
        if len(line) > MAX_HEADER:
            log.error("a message header is longer than %d bytes; closing the session", MAX_HEADER)
            return b""
        return line

    def read(self, size: int = -1) -> bytes:
        """A message body of ``size`` bytes; a body above :data:`MAX_FRAME` ends the session."""
        if size < 0 or size > MAX_FRAME:
            log.error("a message of %d bytes is larger than the %d-byte limit; closing the session", size, MAX_FRAME)
            return b""
        return self.stream.read(size)


class _Dropped:
    """A message already answered with an error: the protocol does nothing more with it."""

    jsonrpc = "dropped"


class GuardedProtocol(LanguageServerProtocol):
    """pygls's protocol, answering a request whose parameters do not fit with ``InvalidParams``."""

    def structure_message(self, data: dict):
        """The typed message, or (for parameters that do not fit) an error answer and nothing to handle."""
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            ident = data.get("id")
            if "method" not in data or not isinstance(ident, (int, str)) or isinstance(ident, bool):
                log.warning("ignored a notification whose parameters do not fit the protocol: %s",
                            data.get("method", "?"))
                return _Dropped()
            invalid = JsonRpcInvalidParams(f"the parameters of {data['method']!s:.80} do not fit the protocol"
                                           f" (a position must be two whole numbers from 0 to 2**31-1)")
            self._send_response(ident, error=invalid.to_response_error())
            log.warning("answered request %s with InvalidParams (%s)", ident, type(error).__name__)
            return _Dropped()

    def handle_message(self, message) -> None:
        """Hand a message to its handler (a dropped one to none)."""
        if isinstance(message, _Dropped):
            return
        super().handle_message(message)


class _OneLine(logging.Filter):
    """Keep each log record to its first line, without the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text = f"{text}: {type(error).__name__}: {error}"
        record.msg, record.args = (text.splitlines() or [""])[0][:500], ()
        record.exc_info = record.exc_text = record.stack_info = None
        return True


def one_line_logs() -> None:
    """Log warnings and errors to stderr, each one line (``rulesdsl.lsp: ERROR: ...``), never a traceback."""
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(levelname)s: %(message)s", stream=sys.stderr)
    for handler in logging.getLogger().handlers:
        handler.addFilter(_OneLine())
