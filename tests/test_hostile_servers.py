"""``serve`` and ``lsp`` fed hostile input, each in a child process under a memory cap and an alarm (issue 22).

The same style as ``tests/test_hostile_fuzz.py``: the server runs in a child
whose address space is capped (``resource.setrlimit``) and which an alarm
kills if it hangs; Hypothesis writes the hostile input.

- ``serve`` (on 127.0.0.1 only): malformed request lines, odd and missing
  headers (Host, Content-Type, Content-Length), bodies that are nested deep,
  huge, truncated or not UTF-8, requests sent in pieces or cut off, and floods
  of connections bounded in count and time.
- ``lsp`` (over its pipes): malformed frames, bodies that are not JSON-RPC,
  huge and odd documents, positions out of range, rapid edits.

Each request must get an answer (a status line; a JSON-RPC response) or a
clean close; the server's stderr holds no traceback; its peak memory stays
bounded; and it still answers a normal request afterwards. The default run is
small and derandomized (CI is deterministic); ``pytest -m deep`` runs many
more examples.
"""

from __future__ import annotations

import contextlib
import json
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsp_client import read_frames

MEMORY = 1536 << 20  # bytes of address space for the server
ALARM = 900  # seconds the server may live: a hang ends in SIGALRM, which the test sees
PEAK_MB = 700  # the most resident memory a server may have reached
WAIT = 20.0  # seconds a test waits for one answer (a hang guard, not a timing assertion)

# The child: limits first, then the server; the address it listens on goes to stdout.
SERVE_DRIVER = r"""
import resource, signal, sys, threading
memory, alarm = int(sys.argv[1]), int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
signal.alarm(alarm)
from rulesdsl.cli import serve_limits
serve_limits.READ_SECONDS, serve_limits.IDLE_SECONDS = 2.0, 1.0  # quick deadlines keep the test short
from rulesdsl.cli.serve import make_server
server = make_server(("konane", "abalone"), "127.0.0.1", 0, workers=6, max_seconds=0.2)
print(server.server_address[1], flush=True)
server.serve_forever()
"""

LSP_DRIVER = r"""
import resource, signal, sys
memory, alarm = int(sys.argv[1]), int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
signal.alarm(alarm)
sys.argv = ["rulesdsl", "lsp"]
from rulesdsl.cli.main import main
main()
"""


def peak_mb(pid: int) -> float:
    """The peak resident memory of a live process, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


COMMON = dict(deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture])

# ---- serve ------------------------------------------------------------------------------------


class WebChild:
    """``serve`` in a child process on 127.0.0.1, its stderr kept in a file."""

    def __init__(self, tmp: Path) -> None:
        self.err_path = tmp / "serve.err"
        self.err = self.err_path.open("wb")
        self.process = subprocess.Popen([sys.executable, "-c", SERVE_DRIVER, str(MEMORY), str(ALARM)],
                                        stdout=subprocess.PIPE, stderr=self.err)
        line = self.process.stdout.readline()
        assert line.strip().isdigit(), self.stderr()
        self.address = ("127.0.0.1", int(line))

    def stderr(self) -> str:
        self.err.flush()
        return self.err_path.read_text(errors="replace")

    def alive(self) -> None:
        assert self.process.poll() is None, f"serve died ({self.process.returncode}):\n{self.stderr()[-3000:]}"

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.err.close()


def exchange(address, data: bytes, mode: str = "whole") -> bytes | None:
    """Send ``data`` as a client would in ``mode``; the answer's bytes, or None for a close with no answer."""
    with socket.create_connection(address, timeout=WAIT) as conn:
        try:
            if mode == "pieces":
                for at in range(0, len(data), max(1, len(data) // 7)):
                    conn.sendall(data[at:at + max(1, len(data) // 7)])
                    time.sleep(0.01)
            else:
                conn.sendall(data if mode != "cut" else data[: max(1, len(data) // 2)])
            if mode in ("whole", "pieces", "cut"):
                conn.shutdown(socket.SHUT_WR)
        except OSError:  # the server answered (413, 400...) and closed before all was sent
            pass
        chunks = []
        try:
            while chunk := conn.recv(65536):
                chunks.append(chunk)
        except ConnectionResetError:
            pass
        except TimeoutError:
            raise AssertionError(f"no answer and no close within {WAIT} s ({mode}): {data[:200]!r}") from None
    return b"".join(chunks) or None


def assert_http_answer(answer: bytes | None, data: bytes) -> None:
    """An HTTP status line with a JSON or page body, or a clean close."""
    if answer is None:
        return
    assert answer.startswith(b"HTTP/1."), f"not an HTTP answer to {data[:200]!r}: {answer[:200]!r}"
    status = int(answer.split(b" ", 2)[1])
    assert 200 <= status < 600 and status != 500, f"{status} to {data[:300]!r}: {answer[-500:]!r}"
    assert b"Traceback" not in answer


GAMES = ["konane", "abalone", "chess", "", "../rules/konane", 5, None]
POSITIONS = ['(w "" wbwb bwb- w-wb)', "(w", "", "(" * 5000, "x" * 20000, 7, None, '(b "" ---- ---- ----)']
SECONDS = [0.05, 0.2, 0.3, 30, -1, 0, 1e308, "1", None, True]


@st.composite
def json_bodies(draw) -> bytes:
    kind = draw(st.sampled_from(["request", "request", "nested", "huge", "garbage", "utf8", "scalar"]))
    if kind == "nested":
        depth = draw(st.sampled_from([100, 1000, 50_000, 400_000]))
        return (b"[" * depth + b"]" * depth)[: (1 << 20) + 10]
    if kind == "huge":
        return b'{"game": "konane", "history": [' + b'"' + b"w" * (1 << 20) + b'"]}'
    if kind == "garbage":
        return draw(st.binary(max_size=200))
    if kind == "utf8":
        return b'{"game": "\xff\xfe konane"}'
    if kind == "scalar":
        return draw(st.sampled_from([b"null", b"1e999999", b'"x"', b"[]", b"-0", b"NaN"]))
    body = {"game": draw(st.sampled_from(GAMES))}
    if draw(st.booleans()):
        body["position"] = draw(st.sampled_from(POSITIONS))
    if draw(st.booleans()):
        body["seconds"] = draw(st.sampled_from(SECONDS))
    if draw(st.booleans()):
        body["options"] = draw(st.sampled_from([{"rows": 4}, {"rows": 10 ** 30}, {"rows": "x"}, [], {"": None},
                                                {"rows": 26, "cols": 26}]))
    if draw(st.booleans()):
        body["move"] = draw(st.sampled_from(["b2-d2", "", "x" * 10000, 3, "pass"]))
    if draw(st.booleans()):
        body["history"] = draw(st.sampled_from([[], ["abc"], "x", [1], ["w" * 12] * 20_000]))
    return json.dumps(body).encode()


@st.composite
def http_requests(draw) -> tuple[bytes, str]:
    method = draw(st.sampled_from(["GET", "POST", "POST", "POST", "PUT", "HEAD", "OPTIONS", "BREW", "G\x00T", ""]))
    path = draw(st.sampled_from(["/", "/api/games", "/api/state", "/api/move", "/api/engine", "/api/hint",
                                 "/api/why", "/../../etc/passwd", "/%00", "/" + "a" * 70_000, "*",
                                 "http://evil.example/api/state", "/board.js?x=<script>"]))
    version = draw(st.sampled_from(["HTTP/1.1", "HTTP/1.0", "HTTP/1.1", "HTTP/9.9", "", "HTTP/1.1 x"]))
    body = draw(json_bodies()) if method == "POST" or draw(st.booleans()) else b""
    headers = []
    host = draw(st.sampled_from(["127.0.0.1", "localhost:8000", "evil.example", "", None, "[::1]",
                                 "127.0.0.1.evil.example", "a" * 5000]))
    if host is not None:
        headers.append(f"Host: {host}")
    kind = draw(st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain", None,
                                 "APPLICATION/JSON", "multipart/form-data"]))
    if kind is not None:
        headers.append(f"Content-Type: {kind}")
    length = draw(st.sampled_from(["right", "right", "none", "-1", "1e3", "99999999999999999999", "0",
                                   "short", "long", "twice", " 5"]))
    if length == "right":
        headers.append(f"Content-Length: {len(body)}")
    elif length == "short":
        headers.append(f"Content-Length: {max(0, len(body) - 5)}")
    elif length == "long":
        headers.append(f"Content-Length: {len(body) + 50}")
    elif length == "twice":
        headers += [f"Content-Length: {len(body)}", "Content-Length: 3"]
    elif length != "none":
        headers.append(f"Content-Length: {length}")
    for extra in draw(st.lists(st.sampled_from(["Transfer-Encoding: chunked", "Connection: keep-alive",
                                                "Expect: 100-continue", "X-" + "a" * 70_000 + ": 1",
                                                "no colon here", "X-Many: 1"]), max_size=3)):
        headers.extend([extra] * (150 if extra == "X-Many: 1" else 1))
    head = f"{method} {path} {version}".rstrip() + "\r\n" + "".join(h + "\r\n" for h in headers) + "\r\n"
    mode = draw(st.sampled_from(["whole", "whole", "pieces", "cut", "open"]))
    return head.encode("utf-8", "surrogateescape") + body, mode


def flood(address, count: int) -> None:
    """``count`` connections at once, idle, then closed by the server's deadline or by us; all end."""
    conns = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            conns.append(socket.create_connection(address, timeout=WAIT))
    try:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.settimeout(WAIT)
                data = conn.recv(4096)  # 503 at once, or the close at the read deadline
                assert data == b"" or data.startswith(b"HTTP/1.0 503") or data.startswith(b"HTTP/1."), data[:200]
    finally:
        for conn in conns:
            conn.close()


def normal_request(address) -> None:
    """``GET /api/games`` answers 200 with the served games (retried while the server sheds a flood)."""
    for _ in range(40):
        answer = exchange(address, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        if answer and answer.startswith(b"HTTP/1.0 200"):
            games = json.loads(answer.split(b"\r\n\r\n", 1)[1])["games"]
            assert [g["name"] for g in games] == ["konane", "abalone"]
            return
        assert answer is None or b" 503 " in answer[:20], answer[:300]
        time.sleep(0.25)
    raise AssertionError("the server no longer answers a normal request")


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    child = WebChild(tmp_path_factory.mktemp("serve"))
    yield child
    child.close()


def fuzz_serve(web: WebChild, requests: list[tuple[bytes, str]], flood_size: int) -> None:
    web.alive()
    results: queue.Queue = queue.Queue()

    def one(data: bytes, mode: str) -> None:
        try:
            assert_http_answer(exchange(web.address, data, mode), data)
            results.put(None)
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            results.put(error)

    threads = [threading.Thread(target=one, args=r) for r in requests]
    for t in threads:
        t.start()
    if flood_size:
        flood(web.address, flood_size)
    for t in threads:
        t.join(WAIT * 3)
    for _ in threads:
        error = results.get(timeout=WAIT)
        if error is not None:
            raise error
    web.alive()
    normal_request(web.address)
    err = web.stderr()
    assert "Traceback" not in err and "Error" not in err, err[-3000:]
    assert peak_mb(web.process.pid) < PEAK_MB


@settings(max_examples=4, **COMMON)
@given(requests=st.lists(http_requests(), min_size=1, max_size=8), flood_size=st.sampled_from([0, 0, 30]))
def test_serve_answers_hostile_clients(web, requests, flood_size):
    fuzz_serve(web, requests, flood_size)


@pytest.mark.deep
@settings(max_examples=80, **COMMON)
@given(requests=st.lists(http_requests(), min_size=1, max_size=16), flood_size=st.sampled_from([0, 30, 120]))
def test_serve_answers_hostile_clients_deep(web, requests, flood_size):
    fuzz_serve(web, requests, flood_size)


# ---- lsp ---------------------------------------------------------------------------------------

KONANE = (Path(__file__).resolve().parent.parent / "rules" / "konane.rules").read_text()
GAME_LINE = next(i for i, line in enumerate(KONANE.split("\n")) if line.startswith("game "))  # hover: 'game'


class LspChild:
    """``rulesdsl lsp`` in a child process, spoken to over its pipes."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.err_path = tmp / f"lsp-{time.monotonic_ns()}.err"
        self.err = self.err_path.open("wb")
        self.process = subprocess.Popen([sys.executable, "-c", LSP_DRIVER, str(MEMORY), str(ALARM)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err)
        self.inbox: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=read_frames, args=(self.process.stdout, self.inbox, True), daemon=True).start()
        assert "capabilities" in self.request("initialize", {"processId": None, "rootUri": tmp.as_uri(),
                                                             "capabilities": {}})["result"]
        self.notify("initialized", {})

    def raw(self, data: bytes) -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.process.stdin.write(data)
            self.process.stdin.flush()

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params) -> dict:
        """The response (result or error) to one request; AssertionError when none comes."""
        self.next_id += 1
        ident = self.next_id
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        deadline = time.monotonic() + WAIT * 3
        while time.monotonic() < deadline:
            try:
                message = self.inbox.get(timeout=WAIT * 3)
            except queue.Empty:
                break
            if message is None:
                raise AssertionError(f"the server closed instead of answering {method}:\n{self.stderr()[-2000:]}")
            if message.get("id") == ident and "method" not in message:
                return message
        raise AssertionError(f"no answer to {method} {json.dumps(params)[:300]}")

    def stderr(self) -> str:
        self.err.flush()
        return self.err_path.read_text(errors="replace")

    def finish(self) -> str:
        """Shut the server down as an editor does; its stderr."""
        if self.process.poll() is None:
            with contextlib.suppress(AssertionError):
                self.request("shutdown", None)
            self.notify("exit", None)
            try:
                self.process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                raise AssertionError("the server did not exit after 'exit'") from None
        assert self.process.returncode in (0, None) or self.process.returncode == 1, self.process.returncode
        assert self.process.returncode != -signal.SIGALRM
        self.err.close()
        return self.err_path.read_text(errors="replace")


DOCS = [KONANE, "", "game", "(" * 20_000, "game \"x\"\n" + "a" * 100_000, "\ufeffgame \"\u202e\"\r\n" * 500,
        "\x00\x01\x02", "moves {\n" * 3000, KONANE * 40, "😋" * 10_000 + "\n" * 10_000, "# only a comment\n"]
POSITION_VALUES = [0, 1, 5, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 64, 10 ** 30, 0.5, "3", None]
METHODS = ["textDocument/hover", "textDocument/completion", "textDocument/definition",
           "textDocument/documentSymbol", "textDocument/formatting"]
FRAMES = [b"Content-Length: 5\r\n\r\n{not}", b"Content-Length: 2\r\n\r\n[]", b"Content-Length: 4\r\n\r\nnull",
          b"Content-Type: nothing\r\n\r\n", b"\r\n\r\n\r\n", b"garbage line\r\n", b"Content-Length: -3\r\n\r\n",
          b'Content-Length: 27\r\n\r\n{"jsonrpc": "2.0", "id": 1}', b"Content-Length: x\r\n\r\n",
          b'Content-Length: 44\r\n\r\n{"jsonrpc": "2.0", "method": 5, "params": 1}']


@st.composite
def lsp_actions(draw) -> list[tuple]:
    """A session: documents opened, edited fast, asked about at odd places, and malformed frames between."""
    actions = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["open", "edits", "ranged", "ask", "ask", "frame", "close"]))
        doc = draw(st.integers(0, 2))
        if kind == "open":
            actions.append(("open", doc, draw(st.sampled_from(DOCS))))
        elif kind == "edits":
            texts = draw(st.lists(st.sampled_from(DOCS[:4] + [KONANE[: n] for n in (10, 200, 900)]),
                                  min_size=1, max_size=30))
            actions.append(("edits", doc, texts))
        elif kind == "ranged":  # incremental edits at any place, in range or not
            ends = [{"line": draw(st.sampled_from(POSITION_VALUES[:6])), "character": draw(st.sampled_from(
                POSITION_VALUES[:6]))} for _ in range(2)]
            actions.append(("ranged", doc, ends, draw(st.sampled_from(["", "x", "\n" * 50, "(" * 1000]))))
        elif kind == "ask":
            position = {"line": draw(st.sampled_from(POSITION_VALUES)),
                        "character": draw(st.sampled_from(POSITION_VALUES))}
            actions.append(("ask", doc, draw(st.sampled_from(METHODS)), position))
        elif kind == "frame":
            actions.append(("frame", draw(st.sampled_from(FRAMES))))
        else:
            actions.append(("close", doc))
    return actions


def fuzz_lsp(tmp: Path, actions: list[tuple]) -> None:
    child = LspChild(tmp)
    try:
        uris = [(tmp / f"doc{i}.rules").as_uri() for i in range(3)]
        versions = [0, 0, 0]
        for action in actions:
            if action[0] == "open":
                versions[action[1]] += 1
                child.notify("textDocument/didOpen", {"textDocument": {
                    "uri": uris[action[1]], "languageId": "rulesdsl", "version": versions[action[1]],
                    "text": action[2]}})
            elif action[0] == "edits":
                for text in action[2]:
                    versions[action[1]] += 1
                    child.notify("textDocument/didChange", {"textDocument": {"uri": uris[action[1]],
                                                                             "version": versions[action[1]]},
                                                            "contentChanges": [{"text": text}]})
            elif action[0] == "ranged":
                versions[action[1]] += 1
                child.notify("textDocument/didChange", {"textDocument": {"uri": uris[action[1]],
                                                                         "version": versions[action[1]]},
                                                        "contentChanges": [{"range": {"start": action[2][0],
                                                                                      "end": action[2][1]},
                                                                            "text": action[3]}]})
            elif action[0] == "ask":
                params = {"textDocument": {"uri": uris[action[1]]}, "position": action[3]}
                if action[2] in ("textDocument/documentSymbol", "textDocument/formatting"):
                    params = {"textDocument": {"uri": uris[action[1]]},
                              **({"options": {"tabSize": 2, "insertSpaces": True}}
                                 if action[2].endswith("formatting") else {})}
                answer = child.request(action[2], params)
                assert "result" in answer or answer["error"]["code"] in (-32602, -32603), answer
                assert "Traceback" not in json.dumps(answer)
            elif action[0] == "frame":
                child.raw(action[1] + b"\r\n")  # the line break keeps the next frame's header on its own line
            else:
                child.notify("textDocument/didClose", {"textDocument": {"uri": uris[action[1]]}})
        child.notify("textDocument/didOpen", {"textDocument": {"uri": uris[0] + "x", "languageId": "rulesdsl",
                                                               "version": 1, "text": KONANE}})
        answer = child.request("textDocument/hover", {"textDocument": {"uri": uris[0] + "x"},
                                                      "position": {"line": GAME_LINE, "character": 2}})
        assert answer.get("result") is not None, answer  # still answering, and right
        assert peak_mb(child.process.pid) < PEAK_MB
    finally:
        err = child.finish()
    assert "Traceback" not in err and "MemoryError" not in err, err[-3000:]


def test_lsp_refuses_a_huge_frame_cleanly_and_a_new_session_works(tmp_path):
    child = LspChild(tmp_path)
    child.raw(b"Content-Length: 1000000000000\r\n\r\n{}")
    assert child.process.wait(timeout=WAIT) == 0
    err = child.finish()
    assert "Traceback" not in err and "MemoryError" not in err and "larger than" in err
    fuzz_lsp(tmp_path, [])


@settings(max_examples=3, **COMMON)
@given(actions=lsp_actions())
def test_lsp_answers_a_hostile_editor(tmp_path_factory, actions):
    fuzz_lsp(tmp_path_factory.mktemp("lsp"), actions)


@pytest.mark.deep
@settings(max_examples=60, **COMMON)
@given(actions=lsp_actions())
def test_lsp_answers_a_hostile_editor_deep(tmp_path_factory, actions):
    fuzz_lsp(tmp_path_factory.mktemp("lsp"), actions)
