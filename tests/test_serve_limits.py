"""``serve`` under hostile clients (issue 22: N1, N2, N3, N15), over real sockets on 127.0.0.1 only."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest
from helpers import web_server

from rulesdsl.cli import serve_limits


def raw(base: str, data: bytes, timeout: float = 30, shut: bool = True) -> tuple[int | None, dict | None]:
    """Send bytes, read the answer until the server closes: (status, JSON body) or (None, None)."""
    host, port = urlsplit(base).hostname, urlsplit(base).port
    with socket.create_connection((host, port), timeout=timeout) as conn:
        with contextlib.suppress(OSError):  # the server may answer (503) and close before all is sent
            conn.sendall(data)
            if shut:
                conn.shutdown(socket.SHUT_WR)
        chunks = []
        with contextlib.suppress(ConnectionResetError):
            while chunk := conn.recv(65536):
                chunks.append(chunk)
    answer = b"".join(chunks)
    if not answer:
        return None, None
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    return status, json.loads(body) if body.startswith(b"{") else None


def post(path: str, body: bytes, headers: dict[str, str] | None = None) -> bytes:
    """A POST request's bytes with a JSON content type, a loopback Host and the given headers."""
    lines = {"Host": "127.0.0.1", "Content-Type": "application/json", "Content-Length": str(len(body)),
             **(headers or {})}
    return (f"POST {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in lines.items() if v is not None)
            + "\r\n").encode() + body


@pytest.fixture(scope="module")
def server():
    with web_server(("konane",)) as base:
        yield base


def test_n1_a_negative_content_length_is_refused_without_reading(server):
    started = time.monotonic()
    status, data = raw(server, post("/api/state", b"", {"Content-Length": "-1"}) + b"x" * 100_000, shut=False)
    assert status == 400 and "Content-Length" in data["error"]
    assert time.monotonic() - started < 20  # answered, not read until the client stopped


@pytest.mark.parametrize("length", ["-5", "1e3", "+12", "0x10", " ", "9" * 40])
def test_n1_odd_content_lengths_get_400_or_413(server, length):
    status, _ = raw(server, post("/api/state", b"{}", {"Content-Length": length}))
    assert status in (400, 413)


def test_n3_json_nested_deep_is_a_clean_400(server):
    body = b"[" * 100_000 + b"]" * 100_000
    body = body[: (1 << 20) - 10]
    status, data = raw(server, post("/api/state", body))
    assert status == 400 and ("nested too deep" in data["error"] or "not JSON" in data["error"])
    deep = b'{"a":' * 50_000 + b"1" + b"}" * 50_000
    status, data = raw(server, post("/api/state", deep))
    assert status == 400 and "nested too deep" in data["error"]


def test_n15_only_loopback_host_names_are_served(server):
    for host in ("evil.example", "attacker.test:8000", "127.0.0.1.evil.example"):
        status, data = raw(server, f"GET /api/games HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        assert status == 421 and "host" in data["error"]
    port = urlsplit(server).port
    for host in ("127.0.0.1", f"127.0.0.1:{port}", f"localhost:{port}", "[::1]:80"):
        assert raw(server, f"GET /api/games HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())[0] == 200


def test_n15_host_allow_list_follows_the_listening_address():
    assert serve_limits.allowed_hosts("0.0.0.0") is None  # told to serve the network: every name
    assert serve_limits.host_ok("box.lan:8000", serve_limits.allowed_hosts("box.lan"))
    assert not serve_limits.host_ok("box.lan:8000", serve_limits.allowed_hosts("127.0.0.1"))


def test_n15_a_post_must_say_it_is_json(server):
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        status, data = raw(server, post("/api/state", b'{"game": "konane"}', {"Content-Type": kind}))
        assert status == 415 and "application/json" in data["error"]
    assert raw(server, post("/api/state", b'{"game": "konane"}',
                            {"Content-Type": "application/json; charset=utf-8"}))[0] == 200


def test_n15_engine_time_is_capped(server):
    status, data = raw(server, post("/api/engine", b'{"game": "konane", "seconds": 30}'))
    assert status == 400 and "at most 10" in data["error"]


def test_n15_engine_time_cap_is_an_option():
    with web_server(("konane",), max_seconds=0.5) as base:
        status, data = raw(base, post("/api/hint", b'{"game": "konane", "seconds": 1}'))
        assert status == 400 and "at most 0.5" in data["error"]


def test_n2_idle_connections_fill_the_workers_then_503_then_recover(monkeypatch):
    monkeypatch.setattr(serve_limits, "READ_SECONDS", 3.0)
    with web_server(("konane",), workers=3) as base:
        address = (urlsplit(base).hostname, urlsplit(base).port)
        idle = [socket.create_connection(address, timeout=10) for _ in range(3)]
        try:
            time.sleep(0.3)
            status, data = raw(base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert status == 503 and "busy" in data["error"]
            for conn in idle:  # the idle clients are closed by the server within the read deadline
                conn.settimeout(10)
                assert conn.recv(100) == b""
        finally:
            for conn in idle:
                conn.close()
        time.sleep(0.3)
        assert raw(base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")[0] == 200


def test_n2_a_slow_client_is_closed_at_the_deadline(monkeypatch):
    monkeypatch.setattr(serve_limits, "READ_SECONDS", 1.5)
    with web_server(("konane",), workers=2) as base:
        address = (urlsplit(base).hostname, urlsplit(base).port)
        with socket.create_connection(address, timeout=10) as conn:
            started = time.monotonic()
            closed = False
            for byte in b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100:
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    closed = True
                    break
                time.sleep(0.05)
                if time.monotonic() - started > 6:
                    break
            if not closed:  # still sending after 6 s: the server must have closed its side by now
                conn.settimeout(0.5)
                try:
                    closed = conn.recv(100) == b""
                except ConnectionResetError:
                    closed = True
                except TimeoutError:
                    closed = False
            assert closed, "a client sending one byte at a time held its connection past the read deadline"


def test_n2_many_connections_at_once_each_get_an_answer_and_threads_stay_bounded():
    with web_server(("konane",), workers=4) as base:
        before = threading.active_count()
        results: list[int | None] = []

        def one():
            try:
                results.append(raw(base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")[0])
            except OSError:
                results.append(None)  # a clean close or reset counts as an answer refused

        clients = [threading.Thread(target=one) for _ in range(60)]
        for c in clients:
            c.start()
        peak = threading.active_count() - len(clients)
        for c in clients:
            c.join(60)
        assert len(results) == 60 and set(results) <= {200, 503, None} and 200 in results
        assert peak - before <= 4 + 2  # the server's threads: at most the workers (and its watchdog)
        assert raw(base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")[0] == 200
