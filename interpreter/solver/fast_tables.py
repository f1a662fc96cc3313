"""The solver's inner loops in machine code: hash tables of keys, the retrograde sweep, keys to bitboards and back.

The loops here are plain Python over integers and numpy arrays; :func:`compiled`
hands them back compiled with numba (``cache=True``, so a second run loads the
machine code) or ``None`` when numba cannot be imported or ``RULESDSL_NATIVE=0``
asks for none. The callers keep their numpy code for that case, and for wide
keys (two words), which these loops do not take: the results are the same
either way, only the speed differs.

- :class:`KeySet`: the keys of a tier seen so far while exploring it (open
  addressing, linear probing, grown by doubling). It replaces a binary search
  in every earlier breadth-first layer for every new child.
- :class:`KeyIndex`: a sorted key array's index of each key, by hashing (one
  probe or two) instead of a binary search of about 22 steps, each a cache miss.
- :func:`sweep`: one retrograde level over a block of positions and their moves,
  deciding positions in place.
- ``rows_from_keys`` / ``keys_from_rows``: position keys to the kernel's bitboard
  rows and the children's rows back to keys, flips included.
- ``tier_numbers``: each key's tier (:mod:`.tiers`).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

EMPTY = -1  # a free slot of a key set or index (keys and indices are never negative)
_MIX = 0x9E3779B97F4A7C15  # an odd constant: key * _MIX mod 2**64, top bits, scatters neighbouring keys
MAX_LOAD = 0.7  # slots filled at most (linear probing stays short below this), before a key set doubles
_COMPILED: SimpleNamespace | None = None
_TRIED = False


# -- the loops (compiled by numba; never called as Python except by the tests' fallback check) ------------------
def _set_add(table, shift, keys):
    """Put ``keys`` into ``table`` (slots of keys or EMPTY); returns how many were new."""
    mask = len(table) - 1
    added = 0
    for k in keys:
        h = np.int64((np.uint64(k) * np.uint64(_MIX)) >> np.uint64(shift))
        while True:
            t = table[h]
            if t == k:
                break
            if t == EMPTY:
                table[h] = k
                added += 1
                break
            h = (h + 1) & mask
    return added


def _set_move(old, table, shift):
    """Put the keys of the table ``old`` (its EMPTY slots left out) into the larger ``table``."""
    mask = len(table) - 1
    for k in old:
        if k == EMPTY:
            continue
        h = np.int64((np.uint64(k) * np.uint64(_MIX)) >> np.uint64(shift))
        while table[h] != EMPTY:
            h = (h + 1) & mask
        table[h] = k


def _set_has(table, shift, keys, out):
    """``out[i]``: whether ``keys[i]`` is in ``table``."""
    mask = len(table) - 1
    for i in range(len(keys)):
        k = keys[i]
        h = np.int64((np.uint64(k) * np.uint64(_MIX)) >> np.uint64(shift))
        found = False
        while True:
            t = table[h]
            if t == k:
                found = True
                break
            if t == EMPTY:
                break
            h = (h + 1) & mask
        out[i] = found


def _index_build(keys, table, shift):
    """Slot of each key of ``keys`` (distinct) in ``table``: its index in ``keys``."""
    mask = len(table) - 1
    for i in range(len(keys)):
        h = np.int64((np.uint64(keys[i]) * np.uint64(_MIX)) >> np.uint64(shift))
        while table[h] != EMPTY:
            h = (h + 1) & mask
        table[h] = i


def _index_find(keys, table, shift, queries, out, offset):
    """``out[i]``: the index of ``queries[i]`` in ``keys`` plus ``offset``; EMPTY when it is not there.
    Returns how many were not there."""
    mask = len(table) - 1
    missing = 0
    for i in range(len(queries)):
        q = queries[i]
        h = np.int64((np.uint64(q) * np.uint64(_MIX)) >> np.uint64(shift))
        while True:
            at = table[h]
            if at == EMPTY:
                out[i] = EMPTY
                missing += 1
                break
            if keys[at] == q:
                out[i] = at + offset
                break
            h = (h + 1) & mask
    return missing


def _sweep(edge, degree, parents, value, remoteness, level, open_, win, lose):
    """One retrograde level over a block: each undecided parent with a child bad for the opponent decided below
    ``level`` is a win at ``level``; one whose children are all decided below ``level`` and good for the
    opponent is a loss at ``level``. Decides in place (what it decides has remoteness ``level``, so it does not
    count again in this sweep); returns how many it decided and how many it left undecided."""
    at = 0
    fresh = 0
    still = 0
    for i in range(len(parents)):
        p = parents[i]
        d = np.int64(degree[i])
        if value[p] != open_:
            at += d
            continue
        bad = False
        good = 0
        for j in range(at, at + d):
            e = np.int64(edge[j])
            c = e >> 1
            if remoteness[c] < level:
                seen = np.int64(value[c])
                flip = e & 1
                if seen == win + flip:  # WIN if the same player moves again, else LOSE
                    bad = True
                    break
                if seen == lose - flip:
                    good += 1
        at += d
        if bad:
            value[p] = win
            remoteness[p] = level
            fresh += 1
        elif d > 0 and good == d:
            value[p] = lose
            remoteness[p] = level
            fresh += 1
        else:
            still += 1
    return fresh, still


def _rows_from_keys(keys, players, spots, unit, group_bits, cell_bits, rows):
    """Each key as a kernel row: one bitboard per symbol column, the player to move, the go-again cell's bit.
    ``group_bits[g, v]``: the bits of each column set by the value ``v`` of the g-th group of cells, counted from
    the last cells (``unit`` values a group)."""
    symbols = rows.shape[1] - 2
    for i in range(len(keys)):
        k = keys[i]
        rows[i, symbols] = np.uint64(k % players)
        rest = k // players
        last = rest % spots - 1
        board = rest // spots
        rows[i, symbols + 1] = cell_bits[last] if last >= 0 else np.uint64(0)
        for g in range(group_bits.shape[0]):
            v = board % unit
            board //= unit
            for column in range(symbols):
                rows[i, column] |= group_bits[g, v, column]


def _tier_numbers(keys, divisor, unit, group_weight, groups, out):
    """``out[i]``: the tier number of ``keys[i]``, the weights of its cells' symbols summed a group at a time."""
    for i in range(len(keys)):
        rest = keys[i] // divisor
        tier = np.int64(0)
        for _ in range(groups):
            tier += group_weight[rest % unit]
            rest //= unit
        out[i] = tier


def _keys_from_rows(rows, degrees, turns, digit_of_column, byte_weights, cell_of_bit, spots, players, keys, flips):
    """The key of each child row (its board number from byte tables, the go-again cell, the player to move) and
    whether the other player moves there; ``degrees`` and ``turns`` are the parents'."""
    symbols = rows.shape[1] - 2
    j = 0
    for i in range(len(degrees)):
        turn = turns[i]
        for _ in range(degrees[i]):
            board = np.int64(0)
            for column in range(symbols):
                bits = rows[j, column]
                d = digit_of_column[column]
                for b in range(byte_weights.shape[0]):
                    board += d * byte_weights[b, np.int64((bits >> np.uint64(8 * b)) & np.uint64(255))]
            last_bit = rows[j, symbols + 1]
            last = np.int64(-1)
            if last_bit != 0:
                for b in range(len(cell_of_bit)):
                    if (last_bit >> np.uint64(b)) & np.uint64(1):
                        last = cell_of_bit[b]
                        break
            child_turn = np.int64(rows[j, symbols])
            keys[j] = (board * spots + last + 1) * players + child_turn
            flips[j] = 1 if child_turn != turn else 0
            j += 1


_LOOPS = {"set_add": _set_add, "set_move": _set_move, "set_has": _set_has, "index_build": _index_build,
          "index_find": _index_find, "sweep": _sweep, "rows_from_keys": _rows_from_keys, "tier_numbers": _tier_numbers,
          "keys_from_rows": _keys_from_rows}


def compiled() -> SimpleNamespace | None:
    """The loops compiled with numba (loaded from numba's cache after the first run), or ``None`` without numba or
    with ``RULESDSL_NATIVE=0``."""
    global _COMPILED, _TRIED
    if not _TRIED:
        _TRIED = True
        from rulesdsl.interpreter.kernel.native import enabled, numba_available

        if enabled() and numba_available():
            import numba

            jit = numba.njit(cache=True, nogil=True)
            _COMPILED = SimpleNamespace(**{name: jit(loop) for name, loop in _LOOPS.items()})
    return _COMPILED


def _shift(slots: int) -> int:
    """The right shift that turns a mixed 64-bit key into a slot of a table of ``slots`` (a power of two)."""
    return 64 - (slots.bit_length() - 1)


def _slots(count: int) -> int:
    """A power of two at least ``count / MAX_LOAD`` (and at least 16)."""
    return max(16, 1 << max(0, int(np.ceil(count / MAX_LOAD)) - 1).bit_length())


class KeySet:
    """A growing set of int64 keys in machine code (open addressing), for ``fast`` from :func:`compiled`."""

    def __init__(self, fast: SimpleNamespace, expected: int = 0):
        self.fast = fast
        self.table = np.full(_slots(expected), EMPTY, dtype=np.int64)
        self.size = 0

    def add(self, keys: np.ndarray) -> None:
        """Add ``keys`` (int64)."""
        if (self.size + len(keys)) > MAX_LOAD * len(self.table):
            old = self.table
            self.table = np.full(_slots(self.size + len(keys)) * 2, EMPTY, dtype=np.int64)
            self.fast.set_move(old, self.table, _shift(len(self.table)))
            del old
        self.size += self.fast.set_add(self.table, _shift(len(self.table)), keys)

    def has(self, keys: np.ndarray) -> np.ndarray:
        """Which of ``keys`` are in the set (a bool array)."""
        out = np.empty(len(keys), dtype=np.bool_)
        self.fast.set_has(self.table, _shift(len(self.table)), keys, out)
        return out


class KeyIndex:
    """The index of each key in a sorted array of distinct int64 keys, found by hashing (machine code)."""

    def __init__(self, fast: SimpleNamespace, keys: np.ndarray):
        self.fast, self.keys = fast, keys
        kind = np.int32 if len(keys) < 2**31 else np.int64
        self.table = np.full(_slots(len(keys)), EMPTY, dtype=kind)
        fast.index_build(keys, self.table, _shift(len(self.table)))

    def find(self, queries: np.ndarray, offset: int = 0) -> np.ndarray:
        """The index of each of ``queries`` (every one must be a key) plus ``offset``, as int64."""
        out = np.empty(len(queries), dtype=np.int64)
        missing = self.fast.index_find(self.keys, self.table, _shift(len(self.table)), queries, out, offset)
        if missing:
            raise AssertionError(f"{missing} keys are not in the index (a solver bug)")
        return out
