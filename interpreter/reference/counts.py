"""Counted cells: a cell that holds n pieces of one kind (``counts KIND``), kept in the board string.

The board keeps one character per cell; a cell holding n >= 1 counted pieces
holds the character ``COUNT_BASE + n`` (a private-use code point), and an
empty cell (n = 0) the empty symbol. So a count costs no extra state: the
board string, its hash and every position key carry it, and a move's
``changes`` write new counts like any other symbol.
"""

from __future__ import annotations

COUNT_BASE = 0xE000  # the character of a cell holding n counted pieces is chr(COUNT_BASE + n)
MAX_COUNT = 0x1000  # more than any board holds; above it a character is not a count


def count_symbol(n: int, empty: str) -> str:
    """The board character of a cell holding ``n`` counted pieces."""
    return chr(COUNT_BASE + n) if n > 0 else empty


def count_of(ch: str) -> int:
    """How many counted pieces a board character stands for (0 for anything else)."""
    n = ord(ch) - COUNT_BASE
    return n if 0 < n < MAX_COUNT else 0


def is_count(ch: str) -> bool:
    """True when a board character is a count of at least one piece."""
    return 0 < ord(ch) - COUNT_BASE < MAX_COUNT


def cell_text(ch: str) -> str:
    """A board character as written in positions and shown on boards: the count, or the symbol itself."""
    return str(count_of(ch)) if is_count(ch) else ch
