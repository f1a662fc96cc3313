"""What a kernel position keeps of its past (State.marks): the passed cell's words and the earlier positions.

The reference keeps a :class:`~rulesdsl.interpreter.reference.marks.Marks` in
``State.marks``: the rights still held, the cells open to ``to passed`` and the
piece that passed them, and (for ``repetitions``) the chain of earlier
positions. The kernel keeps the first three as fixed-size words after the
bitboards (``MARK_FIELDS``, in that order, each only where the game needs it:
:mod:`rulesdsl.interpreter.kernel.passed_cells` writes ``passed`` and ``passer``).

``repetitions`` needs the earlier positions themselves. The kernel's ``hist``
argument is then a list of *keys*, oldest first: a key is the tuple of the
bitboards, the mark words that make two positions the same for the reference
(``passed``, ``rights``; not ``passer``, not the clock) and the player to
move, exactly :func:`~rulesdsl.interpreter.reference.marks.key_of`'s
equivalence. A playout appends the key of each position it leaves; perft
appends before it walks a position's children and pops after. The count of
the position's key in the list, plus one, is ``repetitions``. Such a kernel
has no ``expand`` (no solver expansion); its machine code keeps the keys in a
fixed-size array (:mod:`rulesdsl.interpreter.kernel.native_helpers`), a key a row
of words, each bitboard's lanes on a board of more than 64 cells
(:func:`~rulesdsl.interpreter.kernel.native_helpers.key_lanes`).
"""

from __future__ import annotations

from rulesdsl.interpreter.compile.game import NO_CELL, State
from rulesdsl.interpreter.kernel.bitboards import BitLayout
from rulesdsl.interpreter.reference.marks import Marks, Past

MARK_FIELDS = ("rights", "passed", "passer")  # the Marks fields kept as words, in the position's order
KEYED = ("rights", "passed")  # those that tell positions apart for ``repetitions`` (``passer`` follows)


def encode(state: State, fields: tuple[str, ...], layout: BitLayout) -> tuple[int, ...]:
    """A state's mark words of ``fields``."""
    marks = state.marks or Marks()
    out = []
    for name in fields:
        if name == "rights":
            out.append(marks.rights)
        elif name == "passed":
            out.append(layout.mask(marks.passed))
        else:
            out.append(1 << layout.bit[marks.passer] if marks.passer != NO_CELL else 0)
    return tuple(out)


def decode(words, fields: tuple[str, ...], layout: BitLayout) -> Marks:
    """The Marks of the words (without the earlier positions)."""
    got = dict(zip(fields, (int(w) for w in words)))
    passed = got.get("passed", 0)
    passer = got.get("passer", 0)
    cells = tuple(sorted(layout.cell_at[b] for b in range(passed.bit_length()) if passed >> b & 1))
    return Marks(got.get("rights", 0), cells, layout.cell_of(passer) if passer else NO_CELL, None)


def key_source(symbol_vars: list[str], words: dict[str, str], turn: str) -> str:
    """The source of a position's key (a tuple display): the bitboards, the keyed mark words, the player to move."""
    return "(" + ", ".join([*symbol_vars, *(words[f] for f in KEYED if f in words), turn]) + ",)"


def keys_of(past: Past | None, symbols: tuple[str, ...], fields: tuple[str, ...], layout: BitLayout,
            known: tuple[Past, list[tuple]] | None = None) -> list[tuple]:
    """The kernel's keys of a chain of earlier positions, oldest first (``known``: a chain met before and its
    keys, which a longer chain grown from it reuses)."""
    found = []
    node = past
    while node is not None:
        if known is not None and node is known[0]:
            return known[1] + found[::-1]
        board, turn, rights, passed = node.key
        marks = tuple(rights if f == "rights" else layout.mask(passed) for f in KEYED if f in fields)
        found.append((*(layout.encode(board, s) for s in symbols), *marks, turn))
        node = node.parent
    found.reverse()
    return found


def past_of(keys: list[tuple], symbols: tuple[str, ...], fields: tuple[str, ...], layout: BitLayout,
            empty: str, past: Past | None = None) -> Past | None:
    """The chain of earlier positions of a list of kernel keys (``keys_of`` the other way), grown from ``past``."""
    width = len(symbols)
    keyed = [f for f in KEYED if f in fields]
    for key in keys:
        board = layout.decode(empty, tuple(zip(key[:width], symbols)))
        got = dict(zip(keyed, key[width:-1]))
        passed = got.get("passed", 0)
        cells = tuple(sorted(layout.cell_at[b] for b in range(int(passed).bit_length()) if passed >> b & 1))
        past = Past((board, int(key[-1]), int(got.get("rights", 0)), cells), past)
    return past
