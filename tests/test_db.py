"""``rulesdsl db list|info|prune``: the solver's one shared database, what each game costs in it, pruning.

Values and position counts are issue 10's independent figures: Konane 3x4 (the default) win in 11 with 48
positions, 4x4 lose in 13 with 3,961, misere 4x4 lose in 17.
"""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.solver.inventory import parse_size


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """A database holding Konane 3x4, Konane 4x4 and misere Konane 4x4 (solved once for the module)."""
    path = tmp_path_factory.mktemp("solved") / "solutions.sqlite"
    for args in (["konane"], ["konane", "--set", "rows=4", "--set", "cols=4"],
                 ["konane-misere", "--set", "rows=4", "--set", "cols=4"]):
        assert invoke("solve", *args, "--db", str(path)).exit_code == 0
    return path


@pytest.fixture
def db(solved, tmp_path):
    """A copy of the solved database for one test to change."""
    path = tmp_path / "solutions.sqlite"
    shutil.copyfile(solved, path)
    return path


def listed(path) -> dict[str, dict]:
    """``db list --json``'s tables by their description."""
    result = invoke("db", "list", "--db", str(path), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["bytes"] == path.stat().st_size
    return {f"{t['title']} rows={t['options']['rows']} cols={t['options']['cols']}": t for t in report["tables"]}


def test_list_shows_each_game_and_option_set_with_its_size(db):
    text = invoke("db", "list", "--db", str(db)).stdout.splitlines()
    assert len(text) == 4
    assert any(line.startswith("Konane rows=3 cols=4") and " 48 positions" in line for line in text)
    assert any(line.startswith("Konane rows=4 cols=4") and " 3,961 positions" in line for line in text)
    assert any(line.startswith("Konane (misere) rows=4 cols=4") for line in text)
    assert text[-1].startswith("3 game and option sets, ") and text[-1].endswith(f"MB in {db}")
    tables = listed(db)
    assert tables["Konane rows=4 cols=4"]["positions"] == 3961 and tables["Konane rows=3 cols=4"]["positions"] == 48
    assert all(t["starts"] == 1 and t["bytes"] > 0 for t in tables.values())
    assert tables["Konane rows=4 cols=4"]["bytes"] > tables["Konane rows=3 cols=4"]["bytes"]
    assert sum(t["bytes"] for t in tables.values()) <= db.stat().st_size


def test_info_gives_the_stored_size_and_value_of_one_option_set(db):
    result = invoke("db", "info", "konane", "--set", "rows=4", "--set", "cols=4", "--db", str(db))
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Konane rows=4 cols=4: 3,961 positions, 1 solved start, ")
    assert lines[1] == "the start: white to move: lose in 13"
    data = json.loads(invoke("db", "info", "konane", "--db", str(db), "--json").stdout)
    assert (data["stored"], data["positions"], data["value"], data["remoteness"]) == (True, 48, "win", 11)
    unsolved = invoke("db", "info", "konane", "--set", "rows=4", "--set", "cols=5", "--db", str(db))
    assert unsolved.exit_code == 0 and "not in" in unsolved.stdout
    assert json.loads(invoke("db", "info", "konane", "--set", "cols=5", "--set", "rows=4", "--db", str(db),
                             "--json").stdout)["stored"] is False


def test_prune_one_option_set_of_a_game(db):
    result = invoke("db", "prune", "--game", "konane", "--set", "rows=4", "--set", "cols=4", "--db", str(db))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith("removed Konane rows=4 cols=4 misere=false (3,961 positions, ")
    assert set(listed(db)) == {"Konane rows=3 cols=4", "Konane (misere) rows=4 cols=4"}
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    again = json.loads(invoke("solve", "konane", "--set", "rows=4", "--set", "cols=4", "--db", str(db),
                              "--json").stdout)
    assert (again["value"], again["remoteness"], again["positions"]) == ("lose", 13, 3961)


def test_prune_a_game_removes_every_option_set_of_it_and_no_other_game(db):
    assert invoke("db", "prune", "--game", "konane", "--db", str(db)).exit_code == 0
    assert set(listed(db)) == {"Konane (misere) rows=4 cols=4"}


def test_prune_by_size_and_dry_run(db):
    sizes = {name: t["bytes"] for name, t in listed(db).items()}
    smallest = min(sizes.values())
    dry = invoke("db", "prune", "--larger-than", str(smallest), "--dry-run", "--db", str(db))
    assert dry.stdout.count("would remove ") == sum(size > smallest for size in sizes.values()) >= 1
    assert listed(db).keys() == sizes.keys()
    invoke("db", "prune", "--larger-than", str(smallest), "--db", str(db))
    assert set(listed(db)) == {name for name, size in sizes.items() if size <= smallest}


def test_prune_all_shrinks_the_file(db):
    before = db.stat().st_size
    result = invoke("db", "prune", "--all", "--db", str(db))
    assert result.stdout.count("removed ") == 3 and result.stdout.splitlines()[-1].startswith("freed ")
    assert listed(db) == {} and db.stat().st_size < before
    assert invoke("db", "prune", "--all", "--db", str(db)).stdout.startswith("nothing to remove")


@pytest.mark.parametrize(("args", "code", "said"), [
    (["prune"], 2, "say what to remove"),
    (["prune", "--set", "rows=4", "--all"], 2, "--set chooses an option set of the game given with --game"),
    (["prune", "--larger-than", "5 parsecs"], 2, "is not a size"),
    (["info", "capture-the-flag"], 1, "forbids repeating an earlier board"),
    (["prune", "--game", "no-such-game"], 1, "no-such-game"),
])
def test_mistakes_are_one_line(db, args, code, said):
    result = invoke("db", *args, "--db", str(db))
    assert result.exit_code == code
    assert said in result.stderr and len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


def test_a_missing_or_foreign_file_is_one_line(tmp_path):
    missing = invoke("db", "list", "--db", str(tmp_path / "none.sqlite"))
    assert missing.exit_code == 1 and "no solution database there" in missing.stderr
    assert not (tmp_path / "none.sqlite").exists()  # listing never creates a database
    other = tmp_path / "notes.txt"
    other.write_text("not a database\n" * 100)
    result = invoke("db", "list", "--db", str(other))
    assert result.exit_code == 1 and "cannot read it as a solution database" in result.stderr


@pytest.mark.parametrize(("text", "size"), [("4096", 4096), ("50MB", 50_000_000), ("1.5G", 1_500_000_000),
                                            ("200k", 200_000), ("2MiB", 2 * 2**20)])
def test_sizes_read_as_people_write_them(text, size):
    assert parse_size(text) == size
