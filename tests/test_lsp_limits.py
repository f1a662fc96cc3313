"""The language server under a hostile client (issue 22: N4, N5, N6, N7), through its pipes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lsp_client import Client

WAIT = 60.0


@pytest.fixture
def client(tmp_path):
    client = Client(tmp_path)
    yield client
    if client.process.poll() is None:
        client.close()
    else:
        client.process.kill()


def ask(client: Client, method: str, params: dict) -> dict:
    """The whole answer (result or error) to one request."""
    client.next_id += 1
    ident = client.next_id
    client._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        message = client.inbox.get(timeout=WAIT)
        if message.get("id") == ident and "method" not in message:
            return message
        client.notes.append(message)
    raise AssertionError(f"no answer to {method}")


def stderr_of(client: Client) -> str:
    """Everything the server wrote on stderr, once it has ended."""
    if client.process.poll() is None:
        ask(client, "shutdown", None)
        client.notify("exit", None)
        client.process.wait(timeout=WAIT)
    return client.process.stderr.read().decode("utf-8", "replace")


def at(uri: str, line: int, character: int) -> dict:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def open_doc(client: Client, uri: str, text: str) -> None:
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rulesdsl", "version": 1,
                                                            "text": text}})


def test_n6_hover_on_a_document_neither_open_nor_on_disk_is_null_and_quiet(client, tmp_path):
    for uri in ((tmp_path / "nowhere" / "x.rules").as_uri(), "untitled:Untitled-1", "file:///dev/zero"):
        answer = ask(client, "textDocument/hover", at(uri, 0, 0))
        assert answer.get("result") is None and "error" not in answer
        assert ask(client, "textDocument/completion", at(uri, 0, 0))["result"] == []
    err = stderr_of(client)
    assert "Traceback" not in err and "failed" not in err
    assert not any(n.get("method") == "window/logMessage" for n in client.notes)


@pytest.mark.parametrize("position", [{"line": -1, "character": 0}, {"line": 2 ** 31, "character": 0},
                                      {"line": 0, "character": -5}, {"line": "x", "character": 0}, {"line": 0}])
def test_n7_a_position_out_of_range_gets_invalid_params(client, tmp_path, position):
    uri = (tmp_path / "a.rules").as_uri()
    open_doc(client, uri, 'game "x"\n')
    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
        answer = ask(client, method, {"textDocument": {"uri": uri}, "position": position})
        assert answer["error"]["code"] == -32602, answer  # InvalidParams
    assert ask(client, "textDocument/hover", at(uri, 0, 1))["result"] is not None  # still answering
    assert "Traceback" not in stderr_of(client)


def test_n7_a_line_past_the_end_is_answered(client, tmp_path):
    uri = (tmp_path / "a.rules").as_uri()
    open_doc(client, uri, 'game "x"\n')
    answer = ask(client, "textDocument/hover", at(uri, 2 ** 31 - 1, 2 ** 31 - 1))
    assert "result" in answer


def test_n5_a_huge_content_length_closes_the_session_cleanly(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "rulesdsl.cli.main", "lsp"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(b"Content-Length: 1000000000000\r\n\r\n{}", timeout=WAIT)
    text = err.decode()
    assert process.returncode == 0, text
    assert "MemoryError" not in text and "Traceback" not in text and "larger than" in text
    process = subprocess.Popen([sys.executable, "-m", "rulesdsl.cli.main", "lsp"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(b"X-Junk: " + b"a" * 100_000 + b"\r\n\r\n", timeout=WAIT)
    assert process.returncode == 0 and "Traceback" not in err.decode() and "header" in err.decode()


def test_n5_malformed_bodies_are_survived(client, tmp_path):
    for body in (b"{not json", b"[]", b'{"jsonrpc": "2.0"}', b'{"jsonrpc": "2.0", "id": 9, "method": 5}',
                 json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {}}).encode()):
        client.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        client.process.stdin.flush()
    uri = (tmp_path / "a.rules").as_uri()
    open_doc(client, uri, 'game "x"\n')
    assert ask(client, "textDocument/hover", at(uri, 0, 1))["result"] is not None
    assert "Traceback" not in stderr_of(client)


def test_n4_completion_after_a_long_word_finishes(tmp_path):
    """A hang guard, not a timing test: 200k letters above the cursor took about 2 minutes when quadratic."""
    script = ("from rulesdsl.cli.lsp.complete import completions\n"
              "text = 'game \"x\"\\n' + 'a' * 200_000 + '\\n  '\n"
              "print(len(completions(text, 2, 2)), len(completions(text[:-3], 1, 200_000)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_n4_the_word_being_typed_is_found_in_one_pass():
    from rulesdsl.cli.lsp.complete import partial_start

    assert partial_start("  stone jum") == 8
    assert partial_start("x 9ab") == 3 and partial_start("a-b_c") == 0
    assert partial_start("foo ") is None and partial_start("") is None and partial_start("12-3") is None


def test_a_document_over_the_rule_file_cap_is_not_checked_and_the_server_goes_on(client, tmp_path):
    uri = (tmp_path / "huge.rules").as_uri()
    open_doc(client, uri, 'game "x"\n' * 200_000)  # 1.8 million characters: checking it took minutes
    found = client.diagnostics(uri)
    assert len(found) == 1 and found[0]["code"] == "E002" and "larger than 1,000,000" in found[0]["message"]
    assert ask(client, "textDocument/hover", at(uri, 0, 1))["result"] is None
    small = (tmp_path / "small.rules").as_uri()
    open_doc(client, small, 'game "x"\n')
    assert ask(client, "textDocument/hover", at(small, 0, 1))["result"] is not None


def test_rapid_edits_end_with_the_findings_of_the_last_text(client, tmp_path):
    uri = (tmp_path / "typing.rules").as_uri()
    open_doc(client, uri, "game")
    text = (Path(__file__).resolve().parent.parent / "rules" / "konane.rules").read_text()
    for version, end in enumerate(range(10, len(text), max(1, len(text) // 40)), start=2):
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": text[:end]}]})
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 999},
                                             "contentChanges": [{"text": text}]})
    while True:  # the last publication is about the whole file, which has no error
        found = client.diagnostics(uri)
        if not any(d["severity"] == 1 for d in found):
            break
    assert "Traceback" not in stderr_of(client)
