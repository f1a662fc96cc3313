"""A small LSP client for the tests: ``rulesdsl lsp`` in a subprocess, JSON-RPC over its pipes."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

WAIT = 60.0  # seconds before a test gives up on an answer (never a timing assertion: a hang guard)


def read_frames(stream, inbox: queue.Queue, say_end: bool = False) -> None:
    """Put each framed JSON message (``Content-Length`` header, blank line, body) read from ``stream`` into
    ``inbox`` until the stream ends (then ``None`` as well, if ``say_end``)."""
    while True:
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = stream.read(1)
            if not byte:
                if say_end:
                    inbox.put(None)
                return
            header += byte
        length = int(next(h for h in header.decode().split("\r\n") if h.lower().startswith("content-length"))
                     .split(":")[1])
        inbox.put(json.loads(stream.read(length)))


class Client:
    """Start the server, send requests and notifications, read what it says."""

    def __init__(self, root: Path):
        self.process = subprocess.Popen([sys.executable, "-m", "rulesdsl.cli.main", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.inbox: queue.Queue = queue.Queue()
        self.notes: list[dict] = []
        self.next_id = 0
        threading.Thread(target=read_frames, args=(self.process.stdout, self.inbox), daemon=True).start()
        self.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}})
        self.notify("initialized", {})

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict):
        """Send a request and return its result (notifications that arrive meanwhile are kept)."""
        self.next_id += 1
        ident = self.next_id
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        while True:
            message = self.inbox.get(timeout=WAIT)
            if message.get("id") == ident and "method" not in message:
                assert "error" not in message, message
                return message.get("result")
            self.notes.append(message)

    def wait_for(self, method: str, test=lambda params: True) -> dict:
        """The next notification of ``method`` (earlier ones included) whose params pass ``test``."""
        while True:
            for i, note in enumerate(self.notes):
                if note.get("method") == method and test(note["params"]):
                    return self.notes.pop(i)["params"]
            self.notes.append(self.inbox.get(timeout=WAIT))

    def diagnostics(self, uri: str) -> list[dict]:
        """The next diagnostics published for ``uri``."""
        return self.wait_for("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"]

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.process.wait(timeout=WAIT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                stream.close()
