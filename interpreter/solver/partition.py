"""Who owns a key, and files written so that a task run twice writes the same thing.

On a cluster each tier's positions are split into P partitions. A key's owner
is the range its mixed value falls in: the key (both words of a wide key)
multiplied by odd constants modulo 2**64, a bijection that scatters
neighbouring keys, cut into P equal ranges. Cutting the raw keys into ranges
would leave most partitions empty: reachable boards share their leading
cells (in a capture-only game a cell only ever holds its first piece or nothing),
so they bunch in a few narrow key ranges. Each partition keeps its own keys
sorted, so a lookup is a ``searchsorted`` in the owner's array.

Every output file is written under a temporary name and renamed into place,
so a task that dies half-way leaves nothing under the real name, and a task
the scheduler runs again (its worker was lost) writes the same files again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np

_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)


def owners(keys: np.ndarray, parts: int) -> np.ndarray:
    """The partition (0 .. parts - 1) owning each key (int64 or wide keys)."""
    if parts == 1:
        return np.zeros(len(keys), dtype=np.int64)
    mixed = keys["hi"] * _MIX1 + keys["lo"] if keys.dtype.names else keys.astype(np.uint64)
    mixed = mixed * _MIX2
    mixed ^= mixed >> np.uint64(31)
    mixed = mixed * _MIX1
    return ((mixed >> np.uint64(32)) * np.uint64(parts) >> np.uint64(32)).astype(np.int64)


def index_dtype(size: int) -> type:
    """The integer type of an index (times two, plus a flag) into an array of ``size`` entries."""
    return np.int32 if 2 * size + 1 < 2**31 else np.int64


def _temporary(path: Path) -> Path:
    return path.with_name(f"{path.name}.tmp{os.getpid()}")


def save(path: Path, array: np.ndarray) -> None:
    """Save an array as ``.npy`` under ``path``, atomically."""
    temporary = _temporary(path)
    with open(temporary, "wb") as out:
        np.save(out, array)
    os.replace(temporary, path)


def load(path: Path) -> np.ndarray:
    """A saved array."""
    return np.load(path)


class Outputs:
    """Raw files opened for appending under temporary names, renamed into place when the ``with`` block ends
    well (removed when it fails)."""

    def __init__(self) -> None:
        self.handles: dict[Path, BinaryIO] = {}

    def file(self, path: Path) -> BinaryIO:
        """The open file that becomes ``path``."""
        if path not in self.handles:
            self.handles[path] = open(_temporary(path), "wb")  # noqa: SIM115 (closed in __exit__)
        return self.handles[path]

    def __enter__(self) -> Outputs:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        for path, handle in self.handles.items():
            handle.close()
            if kind is None:
                os.replace(_temporary(path), path)
            else:
                _temporary(path).unlink(missing_ok=True)


def blocks(path: Path, dtype: np.dtype | type, block: int) -> Iterator[np.ndarray]:
    """A raw file of ``dtype`` items, a block at a time."""
    with open(path, "rb") as source:
        while True:
            part = np.fromfile(source, dtype=dtype, count=block)
            if not len(part):
                return
            yield part
