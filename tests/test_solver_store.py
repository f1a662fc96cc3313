"""The solver's database read with suspicion (issue 22: N10 damaged files, N11 impossible values)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ENV = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])


def solve(db: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(["rulesdsl", "solve", "konane", "--db", str(db), "-j", "1", *extra], env=ENV,
                          capture_output=True, text=True, timeout=300)


def assert_one_line_naming(done: subprocess.CompletedProcess, db: Path, *words: str) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(db) in lines[0] and "to start over" in lines[0], done.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("store") / "solved.sqlite"
    done = solve(db)
    assert done.returncode == 0 and "white to move:" in done.stdout, done.stderr
    return db


def copy(solved: Path, tmp_path: Path) -> Path:
    db = tmp_path / "copy.sqlite"
    db.write_bytes(solved.read_bytes())
    return db


def test_n10_a_damaged_file_is_one_line_naming_it_and_how_to_start_over(solved, tmp_path):
    db = copy(solved, tmp_path)
    data = bytearray(db.read_bytes())
    for at in range(100, len(data), 7):  # past the header's first bytes: the pages are garbage
        data[at] = (data[at] * 31 + 17) % 256
    db.write_bytes(bytes(data))
    assert_one_line_naming(solve(db), db, "damaged")


def test_n10_a_file_that_is_not_a_database(tmp_path):
    db = tmp_path / "notes.sqlite"
    db.write_text("these are my notes, not a database\n" * 200)
    assert_one_line_naming(solve(db), db, "damaged")


def forge(db: Path, value: object, where: str = "") -> None:
    with sqlite3.connect(db) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE name LIKE 'positions_%'")]
        for table in tables:
            conn.execute(f"UPDATE {table} SET vr=? {where}", (value,))


@pytest.mark.parametrize("value", [3.5, "win", b"\x01", -4, 2 ** 62, 7, None])
def test_n11_a_stored_value_of_the_wrong_kind_is_refused(solved, tmp_path, value):
    db = copy(solved, tmp_path)
    if value is None:
        with sqlite3.connect(db) as conn:  # vr is NOT NULL: a forged table without the constraint
            table = conn.execute("SELECT name FROM sqlite_master WHERE name LIKE 'positions_%'").fetchone()[0]
            conn.execute(f"ALTER TABLE {table} RENAME TO old")
            conn.execute(f"CREATE TABLE {table} (key INTEGER PRIMARY KEY, vr)")
            conn.execute(f"INSERT INTO {table} SELECT key, NULL FROM old")
    else:
        forge(db, value)
    assert_one_line_naming(solve(db, "--moves"), db, "impossible")


def test_n11_win_in_0_at_a_start_that_is_not_over_is_refused(solved, tmp_path):
    db = copy(solved, tmp_path)
    forge(db, 1)  # packed (WIN, remoteness 0): every position "won in 0 plies"
    assert_one_line_naming(solve(db), db, "impossible", "win in 0")


def test_n11_a_value_that_disagrees_with_its_moves_is_refused(solved, tmp_path):
    # The 3x4 board holds 12 stones and every move removes one, so no game lasts 999 plies: a stored
    # "lose in 999" at the start cannot be the best of its moves' values.
    db = copy(solved, tmp_path)
    with sqlite3.connect(db) as conn:
        table = conn.execute("SELECT tbl, key FROM roots").fetchone()
        conn.execute(f"UPDATE {table[0]} SET vr=? WHERE key=?", (999 * 4 + 2, table[1]))
    assert_one_line_naming(solve(db, "--moves"), db, "impossible")


def test_the_intact_database_still_answers(solved):
    done = solve(solved, "--moves")
    assert done.returncode == 0 and "[stored]" in done.stdout and "b2-d2" in done.stdout
