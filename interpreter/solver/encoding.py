"""A compact integer key for every position the solver can meet.

The board is read as a number in base S (S = the empty symbol plus every piece
symbol), one digit per cell; the cell a go-again turn continues from and the
player to move are folded in below it. Decoding a key gives back the exact
position. When every key is below 2**63 (most boards), keys are kept as int64:
they fit a numpy array, a SQLite integer and a network message alike. A board
that needs more (36 cells with 3 symbols) gets wide keys: two unsigned 64-bit
words (``hi``, ``lo``) in a numpy structured array, which sorts, searches and
writes to files like int64 does, and a 16-byte blob in SQLite. Arithmetic on
wide keys goes through Python integers (:meth:`PositionCodec.ints`): correct
first, slower than int64.
"""

from __future__ import annotations

import numpy as np

from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import NO_CELL, Game, State

NARROW_LIMIT = 2**63  # key spaces up to this use int64 keys (tests lower it to force the wide path)
WIDE_LIMIT = 2**128
WIDE = np.dtype([("hi", "<u8"), ("lo", "<u8")])  # a wide key: two words, sorted as (hi, lo)
_LOW = 2**64 - 1
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


class SolveError(RulesdslError):
    """A game or position the solver cannot handle exactly; the message says why."""


class PositionCodec:
    """Position <-> integer key for one compiled game (board, turn, go-again cell)."""

    def __init__(self, game: Game):
        symbols = [game.empty] + sorted(game.piece_names)
        if len(symbols) > len(DIGITS):
            raise SolveError(f"{len(symbols)} cell symbols are too many for the solver's key (at most 36)")
        self.symbols = symbols
        self.base = len(symbols)
        self.cells = len(game.geometry.cells)
        self.players = len(game.players)
        self._to_digit = str.maketrans({s: DIGITS[i] for i, s in enumerate(symbols)})
        # Decoding reads the board a group of cells at a time from a table of every group's text.
        self._group = max(1, min(self.cells, group_size(self.base)))
        self._group_base = self.base ** self._group
        self._group_text = _group_texts(symbols, self._group)
        self._group_digits: np.ndarray | None = None
        self._symbol_bytes = np.frombuffer("".join(symbols).encode("utf-8"), dtype=np.uint8) \
            if all(len(s.encode("utf-8")) == 1 for s in symbols) else None
        self.key_space = self.base ** self.cells * (self.cells + 1) * self.players
        if self.key_space > WIDE_LIMIT:
            raise SolveError(f"a board of {self.cells} cells with {self.base} symbols does not fit the "
                             "solver's 128-bit position key")
        self.wide = self.key_space > NARROW_LIMIT
        self.key_dtype = WIDE if self.wide else np.dtype(np.int64)

    def keys(self, ints: object) -> np.ndarray:
        """An array of keys (int64, or :data:`WIDE` for a wide codec) from Python ints or an int array."""
        if not self.wide:
            return np.asarray(ints, dtype=np.int64)
        values = np.asarray(ints, dtype=object)
        out = np.empty(len(values), dtype=WIDE)
        out["hi"] = (values >> 64).astype(np.uint64)
        out["lo"] = (values & _LOW).astype(np.uint64)
        return out

    def ints(self, keys: np.ndarray) -> np.ndarray:
        """Keys as numbers to compute with: int64 as they are, wide keys as Python ints (an object array)."""
        keys = np.asarray(keys)
        if keys.dtype.names:
            return keys["hi"].astype(object) * 2**64 + keys["lo"].astype(object)
        return keys if keys.dtype == object else keys.astype(np.int64, copy=False)

    def encode(self, state: State) -> int:
        """The key of ``state`` (its history, if any, is not part of it)."""
        board = int(state.board.translate(self._to_digit), self.base) if self.cells else 0
        return (board * (self.cells + 1) + state.last + 1) * self.players + state.turn

    def decode(self, key: int) -> State:
        """The position whose key is ``key``."""
        rest, turn = divmod(key, self.players)
        board, last = divmod(rest, self.cells + 1)
        parts = []
        texts, group_base = self._group_text, self._group_base
        for _ in range(-(-self.cells // self._group)):
            board, digits = divmod(board, group_base)
            parts.append(texts[digits])
        text = "".join(reversed(parts))[-self.cells:] if self.cells else ""
        return State(text, turn, last - 1 if last else NO_CELL, None)

    def decode_many(self, keys: np.ndarray) -> list[State]:
        """The positions of an array of keys, decoded together (numpy, one digit column per cell)."""
        keys = self.ints(keys)
        if self._symbol_bytes is None or not self.cells:  # a symbol outside ASCII: one key at a time
            return [self.decode(key) for key in keys.tolist()]
        turns = (keys % self.players).tolist()
        rest = keys // self.players
        lasts = (rest % (self.cells + 1) - 1).tolist()
        digits = self.digits(rest // (self.cells + 1))
        blob = self._symbol_bytes[digits].tobytes().decode("utf-8")
        n = self.cells
        return [State(blob[i * n:(i + 1) * n], turn, last, None)
                for i, (turn, last) in enumerate(zip(turns, lasts))]

    def digits(self, boards: np.ndarray) -> np.ndarray:
        """One row per board number: its cells' digits (indices into ``symbols``), first cell first."""
        size, unit = self._group, self._group_base
        if self._group_digits is None:  # each group's digits, by the group's number
            number = np.arange(unit)
            self._group_digits = np.empty((unit, size), dtype=np.uint8)
            for i in range(size - 1, -1, -1):
                self._group_digits[:, i] = number % self.base
                number //= self.base
        groups = -(-self.cells // size)
        out = np.empty((len(boards), groups * size), dtype=np.uint8)
        rest = boards.copy()
        for g in range(groups - 1, -1, -1):  # a group of cells at a time, the last cells first
            out[:, g * size:(g + 1) * size] = self._group_digits[(rest % unit).astype(np.int64, copy=False)]
            rest //= unit
        return out[:, groups * size - self.cells:]

    def board_numbers(self, keys: np.ndarray) -> np.ndarray:
        """The board part of each key (int64, or Python ints for a wide codec)."""
        return keys // (self.players * (self.cells + 1))


def group_size(base: int) -> int:
    """Cells per decoding group: as many as keep the group table at most 65,536 entries."""
    size = 1
    while base ** (size + 1) <= 65536:
        size += 1
    return size


def _group_texts(symbols: list[str], size: int) -> list[str]:
    """The text of every group of ``size`` cells, indexed by its value in base len(symbols)."""
    texts = [""]
    for _ in range(size):
        texts = [t + s for t in texts for s in symbols]
    return texts


def check_solvable(game: Game, state: State) -> None:
    """Refuse, in one line, a position whose future depends on more than the key holds."""
    if state.history is not None:
        what = "ends when a board repeats" if _ends_on_repetition(game) else "forbids repeating an earlier board"
        raise SolveError(f"this game {what}, so a position's future depends on the whole game history; the solver "
                         "cannot solve it exactly")
    if state.marks is not None:
        raise SolveError("this game's rules read which pieces have not moved, the cells the last move passed or "
                         "the positions before ('unmoved', 'to passed', 'repetitions'), which the solver's position "
                         "key does not hold; the solver cannot solve it")
    if state.hand is not None:
        raise SolveError("this game keeps pieces in hand, which the solver's position key does not hold; "
                         "the solver cannot solve it")
    if state.places is not None:
        raise SolveError("this game's end rules give players places ('finishes', 'is out'), which the solver's "
                         "position key does not hold; the solver cannot solve it")
    if len(game.players) != 2:
        raise SolveError(f"this game has {len(game.players)} players; the solver handles two-player games only "
                         "(its values are win, draw or loss for the side to move)")
    if game.counted is not None:
        raise SolveError(f"this game's cells hold counts of {game.counted} (counts), which the solver's position "
                         "key does not hold; the solver cannot solve it")
    if game.has_links:
        raise SolveError("this game links its pieces ('link'), and the links, which the solver's position key does "
                         "not hold, decide who wins; the solver cannot solve it")
    unkept = _unkept_state(game)
    if unkept:
        raise SolveError(f"this game's future depends on {unkept}, which the solver's position key does not "
                         "hold; the solver cannot solve it exactly")


def _ends_on_repetition(game: Game) -> bool:
    """True when an end rule reads ``board repeated`` (and the game does not forbid repetition)."""
    from rulesdsl import model as m
    from rulesdsl.interpreter.compile.compiler import Active
    from rulesdsl.interpreter.reference.passing import forbids, reads

    if game.resolved is None or not hasattr(game.resolved, "statements"):
        return False
    active = Active(game.resolved, game.options)
    return reads(active, m.BoardRepeated) and not forbids(active, "repetition")


def _unkept_state(game: Game) -> str:
    """What the rules remember beyond the board, the turn and the go-again cell ('' when nothing)."""
    from rulesdsl import model as m
    from rulesdsl.interpreter.compile.compiler import Active
    from rulesdsl.interpreter.reference.legality import counts_quiet_plies, counts_turns_played
    from rulesdsl.interpreter.reference.passing import counts_passes, forbids

    if game.resolved is None or not hasattr(game.resolved, "statements"):
        return ""
    active = Active(game.resolved, game.options)
    if counts_quiet_plies(active):
        return "the plies played since the last capture"
    if counts_turns_played(active):
        return "the number of turns played"
    if counts_passes(active):
        return "the passes played in a row"
    if forbids(active, "immediate repetition"):
        return "the board before the last move"
    if any(again.same_direction for again in active.all(m.Again)):
        return "the direction of the jump that began the turn"
    if any(again.new_cells for again in active.all(m.Again)):
        return "the cells a hop chain has stood on this turn"
    return ""
