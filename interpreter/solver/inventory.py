"""What the solution database holds, and removing part of it (``rulesdsl db``).

The store (:mod:`.store`) is one SQLite file shared by every game: one table
per game and option set (named from a digest of the rule text, the options and
the key layout), and a ``roots`` table naming each solved start with the
game's title and options. This module reads that file without changing it
(:func:`inventory`), and drops tables from it (:func:`drop`), shrinking the
file afterwards.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from rulesdsl.interpreter.solver.encoding import SolveError

TABLE_PREFIX = "positions_"
UNITS = {"": 1, "b": 1, "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6, "g": 10**9, "gb": 10**9,
         "kib": 2**10, "mib": 2**20, "gib": 2**30}


@dataclass(frozen=True)
class TableInfo:
    """One game and option set in the database: its table, title, options, rows, starts solved and bytes."""

    table: str
    title: str | None
    options: dict[str, object]
    positions: int
    starts: int
    size: int  # bytes of the table in the file (measured by SQLite's dbstat where it has one, else estimated)

    def describe(self) -> str:
        """``Title rows=4 cols=5``, or the table's name when no solve recorded a title."""
        if self.title is None:
            return f"(no title) {self.table}"
        options = " ".join(f"{k}={_option_text(v)}" for k, v in self.options.items())
        return f"{self.title} {options}".rstrip()


def _option_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_size(text: str) -> int:
    """Bytes in ``50MB``, ``1.5G``, ``200k``, ``4096`` (decimal units; KiB, MiB, GiB binary)."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = found.group(2).lower() if found else ""
    if not found or unit not in UNITS:
        raise ValueError(f"'{text}' is not a size: write a number with an optional unit, like 50MB, 1.5G or 200k")
    return int(float(found.group(1)) * UNITS[unit])


def megabytes(size: int) -> str:
    """A size in MB with one decimal, as the reports write it."""
    return f"{size / 1e6:,.1f} MB"


def _connect(path: Path, write: bool = False) -> sqlite3.Connection:
    if not path.is_file():
        raise SolveError(f"{path}: no solution database there (rulesdsl solve makes one)")
    try:
        db = sqlite3.connect(str(path)) if write else sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as error:
        raise SolveError(f"{path}: cannot read it as a solution database: {error}") from None
    return db


def _table_sizes(db: sqlite3.Connection, tables: list[str], rows: dict[str, int]) -> dict[str, int]:
    """Bytes per table: SQLite's dbstat where compiled in, else the file's pages shared out by rows."""
    try:
        measured = dict(db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall())
        return {t: int(measured.get(t, 0)) for t in tables}
    except sqlite3.Error:
        pages = db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
        total = sum(rows.values()) or 1
        return {t: pages * rows[t] // total for t in tables}


def inventory(path: Path | str) -> list[TableInfo]:
    """Every game and option set stored in the database at ``path``, largest first."""
    db = _connect(Path(path))
    try:
        tables = [name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE ?", (TABLE_PREFIX + "%",))]
        has_roots = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='roots'").fetchone()
        roots: dict[str, tuple[str, str, int]] = {}
        if has_roots:
            for table, title, options, count in db.execute(
                    "SELECT tbl, max(title), max(options), count(*) FROM roots GROUP BY tbl"):
                roots[table] = (title, options, count)
        rows = {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
        sizes = _table_sizes(db, tables, rows)
    except sqlite3.Error as error:
        raise SolveError(f"{path}: cannot read it as a solution database: {error}") from None
    finally:
        db.close()
    found = []
    for table in tables:
        title, options, starts = roots.get(table, (None, "{}", 0))
        try:
            parsed = json.loads(options or "{}")
        except ValueError:
            parsed = {}
        found.append(TableInfo(table, title, parsed if isinstance(parsed, dict) else {}, rows[table], starts,
                               sizes[table]))
    return sorted(found, key=lambda info: (-info.size, info.table))


def drop(path: Path | str, tables: list[str]) -> int:
    """Remove ``tables`` (and their solved starts) from the database, then shrink the file; the bytes freed."""
    path = Path(path)
    before = path.stat().st_size
    db = _connect(path, write=True)
    try:
        with db:
            for table in tables:
                if not table.startswith(TABLE_PREFIX) or not table[len(TABLE_PREFIX):].isalnum():
                    raise SolveError(f"'{table}' is not a table of solved positions")
                db.execute(f'DROP TABLE IF EXISTS "{table}"')
                db.execute("DELETE FROM roots WHERE tbl=?", (table,))
        db.execute("VACUUM")  # give the freed pages back to the file system
    except sqlite3.Error as error:
        raise SolveError(f"{path}: could not remove from the database: {error}") from None
    finally:
        db.close()
    return max(0, before - path.stat().st_size)
