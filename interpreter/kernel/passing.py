"""Words a position keeps about its recent past on the kernel: ``passes in a row`` and the board before the last
ply (``forbid immediate repetition``), and the boards ``board repeated`` reads.

As :mod:`rulesdsl.interpreter.reference.passing` keeps them in the state
(``State.passes``, ``State.before``), the kernel keeps, after the turn words:

- ``passes``: the passes just played in a row (one more after a pass, 0 after
  any other move);
- the board before the last ply: one word telling whether it is known (a typed
  position need not give it), then one bitboard per piece symbol. Each block
  saves the board at its start (``ob0, ob1...``) and a complete ply copies it
  into these words.

``board repeated`` (the last move, not a pass, made a board seen before)
reads the earlier boards, which the kernel keeps as the set ``hist`` of
tuples of bitboards that a forbidden repetition uses too: a playout adds the
board before each ply, perft adds it while it counts below it. Such a game
stays on the Python kernel (the set is not a machine word).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.interpreter.compile.game import State
from rulesdsl.interpreter.kernel.bitboards import BitLayout


@dataclass(frozen=True)
class PassWords:
    """The source names of a game's words about its past (``None``/empty: not kept) and the bitboards'."""

    passes: str | None
    known: str | None  # 1 when the board before the last ply is known
    before: tuple[str, ...]  # that board, one word per piece symbol
    boards: tuple[str, ...]  # the bitboards' names, in the same order

    @property
    def names(self) -> tuple[str, ...]:
        """The words' source names, in the position's order."""
        return ((self.passes,) if self.passes else ()) + ((self.known, *self.before) if self.known else ())

    def save(self) -> list[str]:
        """Statements keeping the board as it stands before a ply."""
        return [f"ob{i} = {b}" for i, b in enumerate(self.boards)] if self.known else []

    def played(self, passed: bool) -> list[str]:
        """Statements run once a ply is complete (``passed``: it was a pass)."""
        lines = [f"{self.passes} {'+= 1' if passed else '= 0'}"] if self.passes else []
        if self.known:
            lines += [f"{self.known} = 1", *(f"{w} = ob{i}" for i, w in enumerate(self.before))]
        return lines

    def board(self) -> str:
        """An expression: the board as a tuple of bitboards (``hist``'s keys)."""
        return "(" + "".join(f"{b}, " for b in self.boards) + ")"


def encode(state: State, passes: bool, before: bool, layout: BitLayout, symbols: tuple[str, ...]) -> tuple[int, ...]:
    """A state's words: its passes in a row, then whether the board before is known and that board."""
    out = (state.passes,) if passes else ()
    if before:
        known = state.before is not None
        out += (int(known), *(layout.encode(state.before, s) if known else 0 for s in symbols))
    return out


def decode(words, passes: bool, before: bool, layout: BitLayout, symbols: tuple[str, ...],
           empty: str) -> dict[str, object]:
    """The State fields of the words (``encode`` the other way); ``empty`` is the board's empty symbol."""
    words = [int(w) for w in words]
    out: dict[str, object] = {}
    if passes:
        out["passes"] = words.pop(0)
    if before:
        known, boards = words[0], words[1:1 + len(symbols)]
        out["before"] = layout.decode(empty, tuple(zip(boards, symbols))) if known else None
    return out


def width(passes: bool, before: bool, symbols: tuple[str, ...]) -> int:
    """How many words they take."""
    return int(passes) + (1 + len(symbols) if before else 0)
