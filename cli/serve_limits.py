"""What ``serve`` refuses before a request reaches the API: who may call it, how long and how many.

- **Workers**: at most :data:`MAX_WORKERS` requests are handled at once; a
  connection beyond that is answered ``503`` at once and closed, so a flood of
  idle connections cannot exhaust the threads (or the memory) of the process.
- **Slow clients**: each read waits at most :data:`IDLE_SECONDS`, and the whole
  request (line, headers and body) must arrive within :data:`READ_SECONDS`;
  past that the connection is closed (:class:`Watchdog`).
- **Host**: only the loopback names (and the address the server was told to
  listen on) are accepted in the ``Host`` header, so a web page cannot reach
  the server through a DNS name that points at 127.0.0.1 (DNS rebinding).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from http.server import ThreadingHTTPServer

MAX_WORKERS = 16
IDLE_SECONDS = 10.0
READ_SECONDS = 20.0
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})
_BUSY_BODY = b'{"error": "the server is busy: too many connections, try again"}'
BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY))


def allowed_hosts(listen: str) -> frozenset[str] | None:
    """The names a request's ``Host`` may carry, or ``None`` (any) when listening on every address."""
    if listen in WILDCARDS:
        return None
    return LOOPBACK_NAMES | {listen.lower(), f"[{listen.lower()}]"}


def host_ok(header: str | None, allowed: frozenset[str] | None) -> bool:
    """Whether a ``Host`` header (``name`` or ``name:port``) names an allowed host; no header is allowed."""
    if header is None or allowed is None:
        return True
    name = header.strip().lower()
    if name.startswith("["):  # [::1]:8000
        name = name.split("]", 1)[0] + "]"
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    return name in allowed


class Watchdog:
    """One thread that closes the connections whose request has not arrived by its deadline."""

    def __init__(self) -> None:
        self._deadlines: dict[socket.socket, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rulesdsl-serve-watchdog", daemon=True)
        self._thread.start()

    def watch(self, connection: socket.socket, seconds: float) -> None:
        """Close ``connection`` unless :meth:`release` is called within ``seconds``."""
        with self._lock:
            self._deadlines[connection] = time.monotonic() + seconds

    def release(self, connection: socket.socket) -> None:
        """The request on ``connection`` has been read: no deadline any more."""
        with self._lock:
            self._deadlines.pop(connection, None)

    def stop(self) -> None:
        """End the thread."""
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            now = time.monotonic()
            with self._lock:
                late = [c for c, deadline in self._deadlines.items() if deadline <= now]
                for connection in late:
                    del self._deadlines[connection]
            for connection in late:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)


class BoundedServer(ThreadingHTTPServer):
    """A threading HTTP server with at most ``workers`` requests in hand and a deadline on reading each."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, address, handler, workers: int = MAX_WORKERS) -> None:
        self.slots = threading.BoundedSemaphore(workers)
        self.watchdog = Watchdog()
        super().__init__(address, handler)

    def process_request(self, request, client_address) -> None:
        """Hand the connection to a worker thread, or answer 503 when every worker is busy."""
        if not self.slots.acquire(blocking=False):
            try:
                request.settimeout(1.0)
                request.sendall(BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread could be started: give the slot back, close the connection
            self.slots.release()
            self.shutdown_request(request)

    def process_request_thread(self, request, client_address) -> None:
        """Serve one connection in its thread, giving the slot back at the end."""
        try:
            self.watchdog.watch(request, READ_SECONDS)
            super().process_request_thread(request, client_address)
        finally:
            self.watchdog.release(request)
            self.slots.release()

    def server_close(self) -> None:
        """Close the socket and stop the watchdog."""
        self.watchdog.stop()
        super().server_close()
