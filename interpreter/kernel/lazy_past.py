"""A playout's earlier positions, decoded only when somebody reads them.

A kernel playout of a game that keeps earlier positions (``forbid repetition``:
``State.history``; ``repetitions``: ``State.marks.past``) ends with the keys of
every position it left. Turning each key back into a board costs more than the
playout in machine code itself, and most callers (MCTS, ``bench``) read only the
outcome. :class:`LazyHistory` and :class:`LazyPast` are a :class:`History` and a
:class:`Past` that hold a function making the real one and call it at the first
read of any of their fields (``__getattr__`` runs only for a field not set yet),
so a reader gets exactly the value the eager decoding gave, and one who never
reads pays nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rulesdsl.interpreter.reference.history import History
from rulesdsl.interpreter.reference.marks import Past

_HISTORY_FIELDS = frozenset(History.__slots__)
_PAST_FIELDS = frozenset(Past.__slots__)


class LazyHistory(History):
    """A :class:`History` of the boards ``make()`` returns, made at the first read."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], Iterable[str]]) -> None:  # History.__init__ runs at the first read
        self._make: Callable[[], Iterable[str]] | None = make

    def __getattr__(self, name: str) -> object:
        make = self._make
        if name not in _HISTORY_FIELDS or make is None:
            raise AttributeError(name)
        History.__init__(self, make())
        self._make = None  # after the fields: a reader in another thread meanwhile makes them too, the same
        return getattr(self, name)


class LazyPast(Past):
    """The newest node of the chain ``make()`` returns (a :class:`Past`, never ``None``), made at the first read."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], Past]) -> None:  # the fields are copied from make()'s at the first read
        self._make: Callable[[], Past] | None = make

    def __getattr__(self, name: str) -> object:
        make = self._make
        if name not in _PAST_FIELDS or make is None:
            raise AttributeError(name)
        real = make()
        self.key, self.parent, self.depth, self._hash = real.key, real.parent, real.depth, real._hash
        self._make = None
        return getattr(self, name)

    def __reduce__(self) -> tuple[object, tuple]:
        """A plain :class:`Past` when pickled or copied (never the function that makes it)."""
        return Past.__reduce__(self)
