"""Perft on the Python kernel with a table of the positions already counted.

Sliding and placing games reach the same position by several move orders (in one bundled
sliding game, 2,971 positions three plies deep are 1,561 different ones; README, "Speed"),
and perft counts below a position depend on that position alone. So the generated ``perft``,
which calls itself by its module-level name, is wrapped: each call is looked up first in a
table keyed by its whole arguments (every state word, the player to move, the go-again bit and
the depth: an exact key, so no two positions share an entry), and counted only when absent.
A game that keeps earlier positions (``hist`` is not ``None``) is counted as before: its count
depends on the path too. The table stops growing at :data:`TABLE_LIMIT` entries.
"""

from __future__ import annotations

from collections.abc import Callable

TABLE_LIMIT = 300_000  # entries (a key is a tuple of a few ints: about 200 bytes each with its count and slot)


def with_table(namespace: dict, table: dict[tuple, int] | None = None) -> Callable[..., int]:
    """Replace ``namespace["perft"]`` (the generated function's own module globals) by the same count through a
    table of positions already counted (``table``, else a new one), and return it; the recursion goes through
    the table too."""
    count = namespace["perft"]
    table = {} if table is None else table

    def perft(*arguments) -> int:
        if arguments[-2] is not None:  # earlier positions: the count depends on the path
            return count(*arguments)
        found = table.get(arguments)
        if found is None:
            found = count(*arguments)
            if len(table) < TABLE_LIMIT:
                table[arguments] = found
        return found

    perft.table = table  # type: ignore[attr-defined]  # (tests look at what it holds)
    namespace["perft"] = perft
    return perft
