"""The earlier boards of a game that forbids repetition, as a set that grows in O(1) per ply.

A :class:`History` looks like an immutable set of board strings (``in``,
``len``, iteration, ``==``, hashing), so a :class:`~rulesdsl.interpreter.compile.game.State`
stays an immutable value. Underneath, ``with_board`` hands the one mutable
``set`` it holds to the new, larger history (its *heir*) instead of copying
it: a game played forward one ply at a time costs O(1) per ply, where a
frozenset copied at each ply made a long game quadratic. An older history
that is asked again (a search going back up, a REPL ``undo``) rebuilds its
own set from its heir's, minus the boards added since: one copy, which is
what every ply cost before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set

_MASK = (1 << 64) - 1


def _mix(board: str) -> int:
    """A board's contribution to the order-free hash of a history."""
    value = hash(board) & _MASK
    return ((value ^ (value << 16) ^ 89869747) * 3644798167) & _MASK


class History(Set[str]):
    """An immutable-looking set of boards; ``with_board`` adds one without copying."""

    __slots__ = ("_owned", "_heir", "_board", "_size", "_mixed")

    def __init__(self, boards: Iterable[str] = ()) -> None:
        """A history of ``boards`` (any iterable of board strings)."""
        owned = set(boards)
        self._owned: set[str] | None = owned
        self._heir: History | None = None  # the history the set was handed to, when not owned
        self._board = ""  # the board this history added to the one it grew from
        self._size = len(owned)
        mixed = 0
        for board in owned:
            mixed ^= _mix(board)
        self._mixed = mixed

    def _boards(self) -> set[str]:
        """The set of this history's boards, rebuilt from the heir's if it was handed on."""
        owned = self._owned
        if owned is not None:
            return owned
        added: list[str] = []
        node = self._heir
        while node is not None and node._owned is None:
            added.append(node._board)
            node = node._heir
        if node is None:  # cannot happen: a history without a set always has an heir that leads to one
            raise RuntimeError("history lost its boards")
        added.append(node._board)
        owned = set(node._owned)  # type: ignore[arg-type]
        owned.difference_update(added)
        self._owned, self._heir = owned, None
        return owned

    def with_board(self, board: str) -> History:
        """This history with ``board`` added (itself when ``board`` is already in it)."""
        owned = self._boards()
        if board in owned:
            return self
        heir = History.__new__(History)
        owned.add(board)
        heir._owned, heir._heir, heir._board = owned, None, board
        heir._size, heir._mixed = self._size + 1, self._mixed ^ _mix(board)
        self._owned, self._heir = None, heir
        return heir

    def __contains__(self, board: object) -> bool:
        return board in self._boards()

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._boards()))

    def __len__(self) -> int:
        return self._size

    def __hash__(self) -> int:
        return hash((self._size, self._mixed))

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if isinstance(other, History):
            return self._size == other._size and self._mixed == other._mixed and self._boards() == other._boards()
        if isinstance(other, Set):
            return len(other) == self._size and self._boards() == set(other)
        return NotImplemented

    def __or__(self, other: object) -> History:
        if not isinstance(other, Iterable):
            return NotImplemented
        return History([*self._boards(), *other])

    __ror__ = __or__

    def __repr__(self) -> str:
        return f"History({sorted(self._boards())!r})"

    def __reduce__(self) -> tuple[type, tuple[list[str]]]:
        return History, (sorted(self._boards()),)


def as_history(boards: Iterable[str] | None) -> History:
    """``boards`` as a :class:`History` (a frozenset read from a test or a file becomes one)."""
    if isinstance(boards, History):
        return boards
    return History(boards or ())
