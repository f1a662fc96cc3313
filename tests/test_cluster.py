"""The solver and analyze on a Dask cluster: two worker processes on 127.0.0.1.

Every solve here is checked row by row against the embedded solver's database
(values, remoteness, position counts), and the Konane starts also against the
independent solver's figures quoted in issue 10 (as in test_solver.py).
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import sqlite3

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.parallel.cluster import ClusterError, check_address, open_client
from rulesdsl.interpreter.solver import SolveError, solve

cluster_module = importlib.import_module("rulesdsl.interpreter.parallel.cluster")
cluster_solve = importlib.import_module("rulesdsl.interpreter.solver.cluster_solve")
cluster_tasks = importlib.import_module("rulesdsl.interpreter.solver.cluster_tasks")
encoding = importlib.import_module("rulesdsl.interpreter.solver.encoding")


@pytest.fixture(scope="module")
def client():
    with open_client("local:2") as dask_client:
        yield dask_client


def stored(db) -> list[tuple[int, int]]:
    """Every (key, packed value and remoteness) row of the one solution table in ``db``, keys as numbers."""
    connection = sqlite3.connect(str(db))
    try:
        (table,) = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'positions_%'")]
        rows = connection.execute(f"SELECT key, vr FROM {table}").fetchall()
    finally:
        connection.close()
    return sorted((k if isinstance(k, int) else int.from_bytes(k, "big"), vr) for k, vr in rows)


def embedded_and_cluster(tmp_path, client, name, options):
    game = load_game(name, options)
    local = solve(game, game.initial_state(), db=tmp_path / "embedded.sqlite", workers=1)
    spread = solve(game, game.initial_state(), db=tmp_path / "cluster.sqlite", client=client, scratch=tmp_path)
    return local, spread


KONANE_PUBLISHED = {("konane", "4x4"): ("lose", 13, 3961), ("konane", "4x5"): ("lose", 12, 52050),
                    ("konane-misere", "4x4"): ("lose", 17, None)}


@pytest.mark.parametrize(("name", "options"), [
    ("konane", {"rows": "4", "cols": "4"}),
    ("konane", {"rows": "4", "cols": "5"}),
    ("konane-misere", {"rows": "4", "cols": "4"}),
    ("abalone", {"rows": "3", "cols": "3", "captures": "1"}),
    ("abalone", {"rows": "3", "cols": "3", "captures": "2"}),
    ("abalone", {"rows": "3", "cols": "3", "captures": "1", "misere": "true"}),
])
def test_the_cluster_stores_what_the_embedded_solver_stores(tmp_path, client, name, options):
    local, spread = embedded_and_cluster(tmp_path, client, name, options)
    assert (spread.value, spread.remoteness, spread.positions) == (local.value, local.remoteness, local.positions)
    assert not spread.stored and spread.cluster is not None
    rows = stored(tmp_path / "cluster.sqlite")
    assert rows == stored(tmp_path / "embedded.sqlite")
    assert len(rows) == local.positions
    published = KONANE_PUBLISHED.get((name, f"{options['rows']}x{options['cols']}"))
    if published:
        value, remoteness, positions = published
        assert (spread.value, spread.remoteness) == (value, remoteness)
        assert positions is None or spread.positions == positions
    # the reader does not care which backend solved: a second call answers from the database
    game = load_game(name, options)
    again = solve(game, game.initial_state(), db=tmp_path / "cluster.sqlite", with_moves=True)
    assert again.stored and (again.value, again.remoteness, again.positions) == (local.value, local.remoteness,
                                                                                 local.positions)


@pytest.mark.parametrize(("name", "options", "small"), [
    ("abalone", {"rows": "3", "cols": "3", "captures": "2", "freeze": "off"}, 400),  # positions repeat: draws
    pytest.param("abalone", {"rows": "3", "cols": "3", "captures": "2", "freeze": "off"}, 0, marks=pytest.mark.deep),
    pytest.param("konane-misere", {"rows": "4", "cols": "3"}, 0, marks=pytest.mark.deep),
])
def test_every_step_spread_over_the_partitions_gives_the_same_rows(tmp_path, client, monkeypatch, name, options,
                                                                   small):
    # small = 0: no layer or tier counts as small, every step runs as many tasks; small = 400: some layers of a
    # tier run as one task and the others spread. Frontiers are cut into segments of 40.
    monkeypatch.setattr(cluster_solve, "SMALL", small)
    monkeypatch.setattr(cluster_tasks, "SEGMENT", 40)
    local, spread = embedded_and_cluster(tmp_path, client, name, options)
    assert (spread.value, spread.remoteness, spread.positions) == (local.value, local.remoteness, local.positions)
    assert stored(tmp_path / "cluster.sqlite") == stored(tmp_path / "embedded.sqlite")


@pytest.mark.parametrize(("name", "options", "published"), [
    ("konane-misere", {"rows": "4", "cols": "4"}, ("lose", 17)),  # misère, and a jump may be followed by another
    ("abalone", {"rows": "3", "cols": "3", "captures": "2", "freeze": "off"}, None),  # positions repeat: draws
])
def test_the_retrograde_skipping_decided_positions_gives_the_embedded_values(tmp_path, client, monkeypatch, name,
                                                                             options, published):
    # Every tier goes through the spread retrograde, whose moves files are compacted to the open positions' once
    # fewer than half are open: a move of an open position dropped, or a decided one kept, changes a value or a
    # remoteness (a loss needs every move answered; a win at r its nearest winning move).
    monkeypatch.setattr(cluster_solve, "SMALL", 0)
    monkeypatch.setattr(cluster_tasks, "COMPACT_ABOVE", 0)
    generations = []
    forgetter = cluster_solve.ClusterSolve._forgetter

    def watched(self, plan):
        forget = forgetter(self, plan)

        def forget_and_note(level, generation):
            generations.append(generation)
            forget(level, generation)

        return forget_and_note

    monkeypatch.setattr(cluster_solve.ClusterSolve, "_forgetter", watched)
    local, spread = embedded_and_cluster(tmp_path, client, name, options)
    assert max(generations) >= 1  # the files were compacted at least once
    assert (spread.value, spread.remoteness, spread.positions) == (local.value, local.remoteness, local.positions)
    assert stored(tmp_path / "cluster.sqlite") == stored(tmp_path / "embedded.sqlite")
    if published:
        assert (spread.value, spread.remoteness) == published


@pytest.mark.parametrize(("options", "small", "published"), [
    ({}, 0, ("win", 11, 48)),  # every step spread
    ({"rows": "4", "cols": "4"}, 1 << 15, ("lose", 13, 3961)),  # tiers solved as one task each
])
def test_wide_keys_give_the_same_values(tmp_path, client, monkeypatch, options, small, published):
    # Every key is made wide (two words; a blob in SQLite), as Konane 6x6 needs; the workers follow the client.
    game = load_game("konane", options)
    solve(game, game.initial_state(), db=tmp_path / "narrow.sqlite", workers=1)
    monkeypatch.setattr(encoding, "NARROW_LIMIT", 0)
    monkeypatch.setattr(cluster_solve, "SMALL", small)
    spread = solve(game, game.initial_state(), db=tmp_path / "cluster.sqlite", client=client, scratch=tmp_path)
    embedded = solve(game, game.initial_state(), db=tmp_path / "wide.sqlite", workers=2)
    assert (spread.value, spread.remoteness, spread.positions) == published
    assert (embedded.value, embedded.remoteness, embedded.positions) == published
    assert stored(tmp_path / "cluster.sqlite") == stored(tmp_path / "narrow.sqlite") == stored(tmp_path / "wide.sqlite")


def test_a_worker_killed_mid_solve_costs_only_its_tasks(tmp_path, client, monkeypatch):
    monkeypatch.setattr(cluster_solve, "SMALL", 2000)  # the larger tiers spread: the kill lands in the middle
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = []

    def progress(phase, total, done):
        if phase == "retrograde" and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(phase)

    game = load_game("abalone", {"rows": "3", "cols": "3", "captures": "2", "freeze": "off"})
    local = solve(game, game.initial_state(), db=tmp_path / "embedded.sqlite", workers=1)
    spread = solve(game, game.initial_state(), db=tmp_path / "cluster.sqlite", client=client, scratch=tmp_path,
                   progress=progress)
    assert killed
    client.wait_for_workers(2, timeout=60)
    assert victim not in client.run(os.getpid).values()  # the nanny started a new process
    assert (spread.value, spread.remoteness, spread.positions) == (local.value, local.remoteness, local.positions)
    assert stored(tmp_path / "cluster.sqlite") == stored(tmp_path / "embedded.sqlite")


def test_an_interrupted_solve_resumes_from_the_tiers_already_stored(tmp_path, client):
    stores = []

    def progress(phase, total, done):
        if phase == "retrograde":
            stores.append(done)
            if len(stores) == 6:
                raise KeyboardInterrupt

    game = load_game("konane", {"rows": "4", "cols": "4"})
    db = tmp_path / "cluster.sqlite"
    with pytest.raises(KeyboardInterrupt):
        solve(game, game.initial_state(), db=db, client=client, scratch=tmp_path, progress=progress)
    connection = sqlite3.connect(str(db))
    done = connection.execute("SELECT count(*) FROM tiers_done").fetchone()[0]
    roots = connection.execute("SELECT count(*) FROM roots").fetchone()[0]
    connection.close()
    assert done >= 5 and roots == 0
    resumed = solve(game, game.initial_state(), db=db, client=client, scratch=tmp_path)
    assert resumed.cluster.resumed_tiers == done
    assert (resumed.value, resumed.remoteness, resumed.positions) == ("lose", 13, 3961)
    solve(game, game.initial_state(), db=tmp_path / "embedded.sqlite", workers=1)
    assert stored(db) == stored(tmp_path / "embedded.sqlite")


def test_a_worker_out_of_memory_is_an_error_naming_the_tier_and_the_memory(client):
    runner = cluster_solve.DaskRunner(client)
    runner.doing = ("5+4", "solving", 3_000_000)

    def exhausted():
        raise MemoryError

    with pytest.raises(SolveError) as error:
        runner.map(exhausted, [()])
    message = str(error.value)
    assert "tier 5+4" in message and "33 MB" in message and "memory" in message


@pytest.mark.parametrize(("settings", "published"), [
    ([], {"value": "win", "remoteness": 11, "positions": 48}),
    pytest.param(["--set", "rows=4", "--set", "cols=5"], {"value": "lose", "remoteness": 12, "positions": 52050},
                 marks=pytest.mark.deep),
])
def test_the_command_line_prints_what_the_embedded_solver_prints(tmp_path, settings, published):
    runner = CliRunner()
    args = ["solve", "konane", *settings, "--json"]
    embedded = runner.invoke(cli, [*args, "--db", str(tmp_path / "a.sqlite")])
    spread = runner.invoke(cli, [*args, "--cluster", "local:2", "--db", str(tmp_path / "b.sqlite")])
    assert embedded.exit_code == 0 and spread.exit_code == 0, spread.output
    assert json.loads(spread.stdout) == json.loads(embedded.stdout) == published


def test_analyze_on_the_cluster_gives_the_seeded_results_of_a_local_run(client):
    from rulesdsl.interpreter.measure.analyze import play_games
    from rulesdsl.interpreter.measure.analyze_cluster import play_on_cluster

    game = load_game("konane", {"rows": "4", "cols": "4"})
    start = game.initial_state()
    assert play_on_cluster(client, game, start, 60, seed=7) == play_games(game, start, 60, seed=7, workers=1)


@pytest.mark.parametrize(("args", "said"), [
    (["--cluster", "nowhere"], "expected local:N or a scheduler address"),
    (["--cluster", "local:0"], "1 to 256"),
    (["--cluster", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
    (["--scratch", "/tmp"], "--scratch goes with --cluster"),
])
def test_bad_cluster_options_are_one_line_errors(monkeypatch, args, said):
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", "2s")
    result = CliRunner().invoke(cli, ["solve", "konane", "--db", "/nonexistent/x.sqlite", *args])
    assert result.exit_code != 0
    assert said in result.output
    assert "Traceback" not in result.output


def test_addresses():
    check_address("local:4")
    check_address("tcp://10.0.0.5:8786")
    with pytest.raises(ClusterError):
        check_address("local:two")


def test_konane_6x6_is_no_longer_refused_for_its_key_width(tmp_path):
    from rulesdsl.interpreter.compile.load import load_position
    from rulesdsl.interpreter.solver.encoding import PositionCodec

    game = load_game("konane", {"rows": "6", "cols": "6"})
    codec = PositionCodec(game)
    assert codec.wide and codec.key_space > 2**63
    start = game.initial_state()
    assert codec.decode(codec.encode(start)) == start
    # Black jumps the white stone beside it and White has nothing left: win in 1 (hand derivation).
    game, state = load_position(game, '(b "" ------ ------ --bw-- ------ ------ ------)')
    assert (solve(game, state, db=tmp_path / "db.sqlite").value, solve(game, state, use_db=False).remoteness) == \
        ("win", 1)
    # Black's only move lets White jump the other black stone, after which Black cannot move: lose in 2.
    game, state = load_position(game, '(b "" ------ ------ -bw--- ------ --b--- --w---)')
    first = solve(game, state, db=tmp_path / "db.sqlite")
    again = solve(game, state, db=tmp_path / "db.sqlite")
    assert (first.value, first.remoteness, first.positions) == ("lose", 2, 3)
    assert again.stored and (again.value, again.remoteness) == ("lose", 2)
