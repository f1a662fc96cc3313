"""Solved values kept in an embedded SQLite database.

One table per game and option set (named from a digest of the rule text, the
options and the key layout), one row per position: its key and its value and
remoteness packed in one integer. A key is an INTEGER, or a 16-byte big-endian
BLOB in the table of a board that needs wide keys (:mod:`.encoding`). A table of roots records each solved start
with its count of reachable positions. Everything a solve adds is written in
one transaction, so an interrupted solve leaves the database as it was.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from rulesdsl.interpreter.compile.game import Game
from rulesdsl.interpreter.solver.encoding import PositionCodec, SolveError
from rulesdsl.interpreter.solver.explore import DRAW, LOSE, WIN, Progress

BATCH = 100_000  # rows per executemany: their Python ints are the store's only memory


def default_path() -> Path:
    """``solutions.sqlite`` in the user's cache folder (platformdirs)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("rulesdsl")) / "solutions.sqlite"


def table_name(game: Game, codec: PositionCodec) -> str:
    """A table name that changes whenever the rules, the options or the key layout change."""
    texts = sorted(getattr(game.resolved, "texts", {}).values()) or [game.source]
    layout = [codec.symbols, codec.cells, codec.players] + (["wide"] if codec.wide else [])
    blob = json.dumps([texts, sorted((k, str(v)) for k, v in game.options.items()), layout])
    return "positions_" + hashlib.sha256(blob.encode()).hexdigest()[:20]


def pack(value: int, remoteness: int) -> int:
    """Value and remoteness in one integer."""
    return remoteness * 4 + value


MAX_REMOTENESS = 1 << 40  # far above any game a solver could finish


class DamagedStore(SolveError):
    """The database cannot be read, or holds values no solve could have written."""


def start_over(path: Path) -> str:
    """How to start over with a damaged database ``path`` (named at the start of the message), for its end."""
    return "delete that file (or pass --db another file) to start over"


def unpack(packed: object) -> tuple[int, int | None]:
    """(value, remoteness), remoteness ``None`` for a draw.

    Raises :class:`ValueError` for a stored value no solve writes (not a whole number,
    negative, or an unknown value code).
    """
    if isinstance(packed, bool) or not isinstance(packed, int) or not 0 <= packed < MAX_REMOTENESS * 4:
        raise ValueError(f"{packed!r} is not a stored value")
    value, remoteness = packed % 4, packed // 4
    if value not in (WIN, LOSE, DRAW) or (value == DRAW and remoteness):
        raise ValueError(f"{packed!r} is not a stored value")
    return value, None if value == DRAW else remoteness


class Store:
    """The solution database, opened on ``path`` (created when missing)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(self.path))
        except (OSError, sqlite3.Error) as error:
            raise SolveError(f"{self.path}: cannot use it as the solution database: {error}") from None
        self._wide: dict[str, bool] = {}
        with self._reading():
            self.db.execute("CREATE TABLE IF NOT EXISTS roots (tbl TEXT, key INTEGER, title TEXT, options TEXT,"
                            " positions INTEGER, PRIMARY KEY (tbl, key))")
            self.db.commit()

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """Turn SQLite's complaints (a damaged file, a file that is not a database) into one line."""
        try:
            yield
        except sqlite3.OperationalError as error:  # locked, read-only, disk full: the file is not at fault
            raise SolveError(f"{self.path}: cannot use it as the solution database: {error}") from None
        except sqlite3.DatabaseError as error:
            raise DamagedStore(f"{self.path}: the solution database is damaged or is not one ({error}); "
                               f"{start_over(self.path)}") from None
        except ValueError as error:
            raise DamagedStore(f"{self.path}: the solution database holds an impossible value ({error}); "
                               f"{start_over(self.path)}") from None

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    def _has_table(self, table: str) -> bool:
        with self._reading():
            row = self.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone()
        return row is not None

    def _key(self, table: str, key: int) -> int | bytes:
        """A key as the table holds it: an integer, or 16 bytes in a table of wide keys."""
        wide = self._wide.get(table)
        if wide is None:
            columns = self.db.execute(f"PRAGMA table_info({table})").fetchall()
            wide = self._wide[table] = any(c[1] == "key" and c[2] == "BLOB" for c in columns)
        return key.to_bytes(16, "big") if wide else key

    def lookup(self, table: str, key: int) -> tuple[int, int | None] | None:
        """(value, remoteness) of a stored position, or ``None``.

        Raises :class:`DamagedStore` when the file is damaged or the stored value is not one a solve writes.
        """
        if not self._has_table(table):
            return None
        with self._reading():
            row = self.db.execute(f"SELECT vr FROM {table} WHERE key=?", (self._key(table, key),)).fetchone()
            return None if row is None else unpack(row[0])

    def lookup_many(self, table: str, keys: Iterable[int]) -> dict[int, tuple[int, int | None]]:
        """The stored ones among ``keys``."""
        found = {}
        for key in keys:
            hit = self.lookup(table, key)
            if hit is not None:
                found[key] = hit
        return found

    def root_positions(self, table: str, key: int) -> int | None:
        """How many positions the solve from ``key`` reached, if that solve is stored."""
        if not self._has_table(table):
            return None
        with self._reading():
            row = self.db.execute("SELECT positions FROM roots WHERE tbl=? AND key=?",
                                  (table, self._key(table, key))).fetchone()
        if row is None:
            return None
        if isinstance(row[0], bool) or not isinstance(row[0], int) or row[0] < 1:
            raise DamagedStore(f"{self.path}: the solution database holds an impossible count of positions "
                               f"({row[0]!r}); {start_over(self.path)}")
        return row[0]

    def save(self, table: str, game: Game, root: int, parts: Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]],
             progress: Progress | None = None, total: int = 0, wide: bool = False) -> None:
        """Store a whole solve, given as (keys as numbers, value, remoteness) parts, in one transaction.

        All of it is written, or nothing when interrupted.
        """
        try:
            with self.db:  # commits at the end, rolls back on any exception (Ctrl-C included)
                self.db.execute("BEGIN")  # so that creating the table is part of the transaction too
                written = self._rows(table, parts, progress, total, wide)
                self._root(table, game, root, written)
        except sqlite3.OperationalError as error:
            raise SolveError(f"{self.path}: could not store the solution: {error}") from None
        except sqlite3.DatabaseError as error:
            raise DamagedStore(f"{self.path}: could not store the solution: the database is damaged ({error}); "
                               f"{start_over(self.path)}") from None

    def _rows(self, table: str, parts: Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]],
              progress: Progress | None, total: int, wide: bool) -> int:
        """Insert rows (inside the caller's transaction); how many were given."""
        column = "key BLOB PRIMARY KEY, vr INTEGER NOT NULL) WITHOUT ROWID" if wide else \
            "key INTEGER PRIMARY KEY, vr INTEGER NOT NULL)"
        self.db.execute(f"CREATE TABLE IF NOT EXISTS {table} ({column}")
        written = 0
        for keys, value, remoteness in parts:
            for start in range(0, len(keys), BATCH):
                packed = remoteness[start:start + BATCH].astype(np.int64) * 4 + value[start:start + BATCH]
                numbers = keys[start:start + BATCH].tolist()
                if wide:
                    numbers = [k.to_bytes(16, "big") for k in numbers]
                self.db.executemany(f"INSERT OR IGNORE INTO {table} VALUES (?, ?)", zip(numbers, packed.tolist()))
                written += len(packed)
                if progress:
                    progress("store", max(total, written), written)
        return written

    def _root(self, table: str, game: Game, root: int, positions: int) -> None:
        self.db.execute("INSERT OR REPLACE INTO roots VALUES (?, ?, ?, ?, ?)",
                        (table, self._key(table, root), game.title, json.dumps(game.options, default=str),
                         positions))

    def save_tiers(self, table: str, root: int, tiers: Iterable[tuple[int, Iterable[tuple[np.ndarray, np.ndarray,
                   np.ndarray]], int]], wide: bool = False) -> None:
        """Store solved tiers of the solve from ``root``, (tier, its parts, its largest remoteness) each, in one
        transaction of their own (a step of a cluster solve)."""
        try:
            with self.db:
                self.db.execute("BEGIN")
                # tiers a cluster solve has stored so far, per start (removed when the start is finished)
                self.db.execute("CREATE TABLE IF NOT EXISTS tiers_done (tbl TEXT, root, tier INTEGER, size INTEGER,"
                                " remoteness INTEGER, PRIMARY KEY (tbl, root, tier))")
                for tier, parts, remoteness in tiers:
                    written = self._rows(table, parts, None, 0, wide)
                    self.db.execute("INSERT OR REPLACE INTO tiers_done VALUES (?, ?, ?, ?, ?)",
                                    (table, self._key(table, root), tier, written, remoteness))
        except sqlite3.Error as error:
            raise SolveError(f"{self.path}: could not store the solution: {error}") from None

    def done_tiers(self, table: str, root: int) -> dict[int, tuple[int, int]]:
        """The tiers stored so far by an unfinished solve from ``root``: {tier: (size, largest remoteness)}."""
        if not self._has_table(table) or not self._has_table("tiers_done"):
            return {}
        rows = self.db.execute("SELECT tier, size, remoteness FROM tiers_done WHERE tbl=? AND root=?",
                               (table, self._key(table, root))).fetchall()
        return {tier: (size, rem) for tier, size, rem in rows}

    def finish(self, table: str, game: Game, root: int, positions: int) -> None:
        """Record the finished solve from ``root`` (its tiers were stored one by one)."""
        try:
            with self.db:
                self.db.execute("BEGIN")
                self._root(table, game, root, positions)
                if self._has_table("tiers_done"):
                    self.db.execute("DELETE FROM tiers_done WHERE tbl=? AND root=?", (table, self._key(table, root)))
        except sqlite3.Error as error:
            raise SolveError(f"{self.path}: could not store the solution: {error}") from None

    def rows(self, table: str) -> Iterator[tuple[list[int], np.ndarray]]:
        """Every stored position of ``table``, a batch at a time: (keys, packed value and remoteness)."""
        cursor = self.db.execute(f"SELECT key, vr FROM {table}")
        while True:
            batch = cursor.fetchmany(BATCH)
            if not batch:
                return
            keys = [k if isinstance(k, int) else int.from_bytes(k, "big") for k, _ in batch]
            yield keys, np.array([vr for _, vr in batch], dtype=np.int64)
