"""The web board's server, over real HTTP on 127.0.0.1 (the browser tests drive its page)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from helpers import web_server


@pytest.fixture(scope="module")
def server():
    with web_server() as base:
        yield base


def fetch(url: str, body: object | None = None, raw: bytes | None = None, method: str | None = None):
    """``(status, parsed JSON or text)`` of one request."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(url, data=data, method=method or ("POST" if data is not None else "GET"),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as answer:
            status, text, kind = answer.status, answer.read().decode(), answer.headers["Content-Type"]
    except urllib.error.HTTPError as error:
        status, text, kind = error.code, error.read().decode(), error.headers["Content-Type"]
    return status, json.loads(text) if kind == "application/json" else text


def test_the_page_and_its_files(server):
    status, html = fetch(server + "/")
    assert status == 200 and '<script src="/board.js">' in html
    assert fetch(server + "/board.js")[0] == 200 and fetch(server + "/board.css")[0] == 200


def test_games_lists_the_bundled_games_with_options(server):
    status, data = fetch(server + "/api/games")
    assert status == 200
    by_name = {g["name"]: g for g in data["games"]}
    assert {"konane", "abalone", "capture-the-flag", "abalone-hex"} <= set(by_name)
    rows = next(o for o in by_name["konane"]["options"] if o["name"] == "rows")
    assert (rows["default"], rows["low"], rows["high"]) == (3, 1, 26)  # rules/konane.rules: 3 in 1..26


def test_the_start_and_a_move(server):
    status, start = fetch(server + "/api/state", {"game": "konane"})
    assert status == 200
    assert start["position"] == '(w "" wbwb bwb- w-wb)'  # GAMES.md §1
    assert [m["text"] for m in start["moves"]] == ["b2-d2"]
    assert start["svg"].startswith("<svg") and 'data-cell="b2"' in start["svg"]
    status, after = fetch(server + "/api/move", {"game": "konane", "position": start["position"], "move": "b2-d2"})
    assert status == 200 and after["played"] == "b2-d2" and after["mover"] == "white"
    assert after["position"] == '(b "" wbwb b--w w-wb)'


def test_a_go_again_turn_offers_the_pass(server):
    _, data = fetch(server + "/api/state", {"game": "konane", "position": "(b d1 wbw- b--- --wb)"})
    assert data["again"] is True and data["last"] == "d1" and data["canPass"] is True
    assert sorted(m["text"] for m in data["moves"]) == ["b3-d3", "d1-b1", "pass"]  # the rule file's example


def test_options_and_positions(server):
    _, data = fetch(server + "/api/state", {"game": "konane", "options": {"rows": 4, "cols": 4}})
    assert len(data["board"]) == 16
    _, data = fetch(server + "/api/state", {"game": "abalone", "options": {"freeze": "off", "misere": False}})
    assert data["options"]["freeze"] == "off"


@pytest.mark.parametrize(("path", "body", "status", "words"), [
    ("/api/state", {"game": "no-such-game"}, 404, "no such game"),
    ("/api/state", {}, 400, "missing 'game'"),
    ("/api/state", {"game": "konane", "options": {"rows": 99}}, 400, "rows"),
    ("/api/state", {"game": "konane", "options": {"colour": 1}}, 400, "unknown option"),
    ("/api/state", {"game": "konane", "position": "(w nonsense)"}, 400, ""),
    ("/api/state", {"game": "konane", "position": 7}, 400, "position must be a string"),
    ("/api/move", {"game": "konane", "move": "a1-a2"}, 422, "not a legal move"),
    ("/api/move", {"game": "konane"}, 400, "missing 'move'"),
    ("/api/engine", {"game": "konane", "seconds": 1000}, 400, "seconds"),
    ("/api/engine", {"game": "konane", "position": '(w "" ---- ---- w--b)'}, 409, "game is over"),
    ("/api/why", {"game": "konane", "to": 5}, 400, "cell names"),
    ("/api/nothing", {}, 404, "no such call"),
])
def test_bad_requests_get_a_4xx_and_one_line(server, path, body, status, words):
    got, data = fetch(server + path, body)
    assert got == status
    assert set(data) == {"error"} and "\n" not in data["error"] and words in data["error"]
    assert "Traceback" not in data["error"]


def test_bad_bodies_and_methods(server):
    assert fetch(server + "/api/state", raw=b"{not json")[0] == 400
    assert fetch(server + "/api/state", raw=b"[1, 2]")[0] == 400
    assert fetch(server + "/api/move")[0] == 405
    assert fetch(server + "/api/state", {}, method="PUT")[0] == 405
    assert fetch(server + "/../../etc/passwd")[0] == 404
    import http.client
    from urllib.parse import urlsplit

    conn = http.client.HTTPConnection(urlsplit(server).netloc, timeout=30)
    conn.putrequest("POST", "/api/state")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(2 << 20))  # announced, never sent: refused before reading
    conn.endheaders()
    answer = conn.getresponse()
    assert answer.status == 413 and "larger than" in json.loads(answer.read())["error"]
    conn.close()


def test_engine_and_hint_play_legal_moves(server):
    position = '(w "" wbw- b--- wb-b)'  # the README's session, white to move
    _, data = fetch(server + "/api/state", {"game": "konane", "position": position})
    legal = {m["text"] for m in data["moves"]}
    status, hint = fetch(server + "/api/hint", {"game": "konane", "position": position, "seconds": 0.3})
    assert status == 200 and hint["move"] in legal and hint["depth"] >= 1
    status, played = fetch(server + "/api/engine", {"game": "konane", "position": position, "seconds": 0.3})
    assert status == 200 and played["engine"]["move"] in legal and played["mover"] == "white"


def test_why_by_cells(server):
    status, data = fetch(server + "/api/why", {"game": "konane", "from": "d3", "to": "b3"})
    assert status == 200 and data["legal"] is False
    assert data["reasons"][0]["code"] == "not-your-piece" and data["reasons"][0]["line"] > 0
    status, data = fetch(server + "/api/why", {"game": "abalone-hex", "from": "C4", "to": "D4"})
    assert data["move"] == "C4 D4" and data["reasons"][0]["code"] == "line-length"
    # A placement has no 'from': nor does its text have the '-' after it (nine men's morris writes d6).
    status, data = fetch(server + "/api/why", {"game": "nine-mens-morris", "to": "d6"})
    assert status == 200 and data["move"] == "d6" and data["legal"] is True


def test_history_is_kept_for_games_that_forbid_repetition(server):
    _, start = fetch(server + "/api/state", {"game": "capture-the-flag"})
    assert start["keepsHistory"] is True and start["history"] == []
    _, after = fetch(server + "/api/move", {"game": "capture-the-flag", "move": "b4-b3"})
    assert after["history"] == ["-wWw--www-------bbb--bBb-"]  # the start board, GAMES.md §3


def test_only_the_named_files_are_served():
    with web_server(("konane",)) as url:
        assert [g["name"] for g in fetch(url + "/api/games")[1]["games"]] == ["konane"]
        assert fetch(url + "/api/state", {"game": "abalone"})[0] == 404
        assert fetch(url + "/api/state", {"game": "../rules/abalone"})[0] == 404


def test_solver_values_are_sent_with_the_moves():
    def values(game, state):
        return {"b2-d2": ("lose", 7)}

    with web_server(("konane",), values=values) as base:
        _, data = fetch(base + "/api/state", {"game": "konane"})
        assert data["solved"] is True
        assert data["moves"][0]["value"] == "lose" and data["moves"][0]["remoteness"] == 7


def test_the_command_listens_on_loopback_and_refuses_unknown_files():
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    done = subprocess.run(["rulesdsl", "serve", "no-such-game"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "no such rule file" in done.stderr and "Traceback" not in done.stderr
    proc = subprocess.Popen(["rulesdsl", "serve", "konane", "--port", "0"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving the web board on http://127.0.0.1:")
        url = line.split("on ", 1)[1].split()[0].rstrip("/")
        assert fetch(url + "/api/games")[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_values_come_from_the_solver_database(tmp_path):
    from rulesdsl.cli.solver_values import database_values
    from rulesdsl.interpreter.compile.load import load_game, load_position
    from rulesdsl.interpreter.solver import solve

    # White's b1 jumps black's only stone on b2; black, to move with no stone, loses: a win in 1.
    position = '(w "" ---- -b-- -w--)'
    db = tmp_path / "solved.sqlite"
    game, state = load_position(load_game("konane"), position)
    source = database_values(db)
    assert source(game, state) is None  # no database yet: nothing shown, nothing created
    assert not db.exists()
    solve(game, state, db=db, workers=1)
    assert source(game, state) == {"b1-b3": ("win", 1)}
    with web_server(("konane",), values=source) as base:
        url = base + "/api/state"
        _, data = fetch(url, {"game": "konane", "position": position})
        assert data["solved"] is True and (data["moves"][0]["value"], data["moves"][0]["remoteness"]) == ("win", 1)
        _, start = fetch(url, {"game": "konane"})
        assert start["solved"] is False and "value" not in start["moves"][0]  # the start was never solved
