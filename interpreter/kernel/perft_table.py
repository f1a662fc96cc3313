"""Perft on the Python kernel with a table of the positions already counted.

Sliding and placing games reach the same position by several move orders (in one bundled
sliding game, 2,971 positions three plies deep are 1,561 different ones; README, "Speed"),
and perft counts below a position depend on that position alone. So the generated ``perft``,
which calls itself by its module-level name, is wrapped: each call is looked up first in a
table keyed by its whole arguments (every state word, the player to move, the go-again bit and
the depth: an exact key, so no two positions share an entry), and counted only when absent.
A game that keeps earlier positions (``hist`` is not ``None``) is counted as before: its count
depends on the path too. The table stops growing at :data:`TABLE_LIMIT` entries.

A count may be given a time budget (:func:`within`): every :data:`CHECK_EVERY` positions counted
afresh, and after each first move's count, it looks at the clock and raises :class:`OverBudget` once
the budget is spent, or once the first moves counted so far say it will be (the caller then takes
the machine code). What was counted stays in the table, so counting again loses little.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

TABLE_LIMIT = 300_000  # entries (a key is a tuple of a few ints: about 200 bytes each with its count and slot)
CHECK_EVERY = 1024  # positions counted afresh between two looks at the clock under a budget


class OverBudget(Exception):
    """A count ran past the time :func:`within` gave it."""


_budget = threading.local()  # what within() set for counts in this thread (deadline None: no budget)


@contextmanager
def within(seconds: float, depth: int = 0, moves: int = 0) -> Iterator[None]:
    """Counts in this thread give up with :class:`OverBudget` once ``seconds`` have passed, or, for a count of
    ``depth`` plies from a position with ``moves`` first moves, as soon as the first moves counted so far
    (each a count of ``depth - 1`` plies) say that all of them would take longer."""
    _budget.start = time.perf_counter()
    _budget.seconds, _budget.depth, _budget.moves, _budget.done = seconds, depth, moves, 0
    _budget.deadline = _budget.start + seconds
    try:
        yield
    finally:
        _budget.deadline = None


def _over(depth: int) -> bool:
    """After a count of ``depth`` plies under a budget: is the budget spent, or will it be?"""
    now = time.perf_counter()
    if now > _budget.deadline:
        return True
    if depth == _budget.depth - 1 and _budget.moves:
        _budget.done += 1
        return (now - _budget.start) / _budget.done * _budget.moves > _budget.seconds
    return False


def with_table(namespace: dict, table: dict[tuple, int] | None = None) -> Callable[..., int]:
    """Replace ``namespace["perft"]`` (the generated function's own module globals) by the same count through a
    table of positions already counted (``table``, else a new one), and return it; the recursion goes through
    the table too."""
    count = namespace["perft"]
    table = {} if table is None else table
    fresh = [0]  # positions counted afresh (the clock is read every CHECK_EVERY of them under a budget)

    def perft(*arguments) -> int:
        if arguments[-2] is not None:  # earlier positions: the count depends on the path
            return count(*arguments)
        found = table.get(arguments)
        if found is None:
            fresh[0] += 1
            budget = getattr(_budget, "deadline", None) is not None
            if budget and not fresh[0] % CHECK_EVERY and time.perf_counter() > _budget.deadline:
                raise OverBudget
            found = count(*arguments)
            if len(table) < TABLE_LIMIT:
                table[arguments] = found
            if budget and arguments[-1] == _budget.depth - 1 and _over(arguments[-1]):
                raise OverBudget
        return found

    perft.table = table  # type: ignore[attr-defined]  # (tests look at what it holds)
    namespace["perft"] = perft
    return perft
