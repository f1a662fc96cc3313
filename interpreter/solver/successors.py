"""Expanding positions by their keys: outcome, moves and the children's keys.

The general path decodes a key to a :class:`State`, asks the game for its
status, applies every move and encodes each child. When the rules make the
next position a plain function of the board (no go-again, no second part of a
turn: after any move the other player moves, from no particular cell), the
child's key is computed from the parent's instead: each changed cell adds
(new digit - old digit) times that cell's weight in the key. That skips
building a State and a board string per move and reading them back, which
was most of the solver's time outside the game's own move generation.

Faster still, when the game has a compiled kernel (:mod:`rulesdsl.interpreter.kernel.codegen`)
the keys are turned into bitboards with numpy, the kernel's ``expand`` lists
each position's children as bitboards without building a move or a board
string, and numpy turns those back into keys (a board number is a sum of
table entries, one per byte of each bitboard).
"""

from __future__ import annotations

from array import array

import numpy as np

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import NO_CELL, Game, State
from rulesdsl.interpreter.kernel.codegen import Kernel
from rulesdsl.interpreter.kernel.native import NOT_OVER, NativeKernel
from rulesdsl.interpreter.reference.boxes import moves_again
from rulesdsl.interpreter.solver.encoding import PositionCodec, group_size
from rulesdsl.interpreter.solver.fast_tables import compiled

# What a finished position is worth to the player to move there (OPEN: not finished).
OPEN, WIN, LOSE, DRAW = 0, 1, 2, 3

Expansion = tuple[bytes, bytes, bytes, bytes]
BATCH_ROWS = 1 << 16  # children the native kernel writes per call at most (a 4 MB buffer for three symbols)


def plain_turns(game: Game) -> bool:
    """True when no active rule lets a turn go on (``again``, ``then``, a move rule's own go-again such as
    ``again in`` or ``enclosing ... again``): every move hands over the turn."""
    from rulesdsl.interpreter.compile.compiler import Active

    if game.resolved is None or not hasattr(game.resolved, "statements"):
        return False
    active = Active(game.resolved, game.options)
    return active.first(m.Again) is None and active.first(m.Then) is None and not moves_again(active)


class Expander:
    """``expand(keys)``: outcome codes, move counts, child keys and flip flags, as raw bytes."""

    def __init__(self, game: Game, codec: PositionCodec):
        self.game, self.codec = game, codec
        self.plain = plain_turns(game)
        digit = {s: i for i, s in enumerate(codec.symbols)}
        unit = (codec.cells + 1) * codec.players  # the weight of the board's last cell in the key
        weights = [codec.base ** (codec.cells - 1 - i) * unit for i in range(codec.cells)]
        # delta[cell][(old, new)]: what writing ``new`` over ``old`` at ``cell`` adds to the key
        self.delta = [{(a, b): (digit[b] - digit[a]) * w for a in codec.symbols for b in codec.symbols}
                      for w in weights]
        self.next_turn: dict[int, int] = {}
        kernel = game.kernel()
        self.bitboards = None
        if BitboardExpander.takes(kernel, codec):
            self.bitboards = BitboardExpander(kernel, codec, game.native_kernel(wait=True))

    def expand(self, keys: np.ndarray) -> Expansion:
        """Expand the positions of ``keys`` (an array of the codec's keys) in order; the children's keys come
        back as the bytes of an array of the codec's key type."""
        if self.bitboards is not None:
            fast = self.bitboards.expand(keys)
            if fast is not None:
                return fast
        if self.plain:
            return self._expand_plain(keys)
        return self._expand_general(keys)

    def _children(self) -> array | list:
        return [] if self.codec.wide else array("q")

    def _expand_general(self, keys: np.ndarray) -> Expansion:
        outcomes, degrees, children, flips = bytearray(), array("I"), self._children(), bytearray()
        encode, status, apply = self.codec.encode, self.game.status, self.game.apply
        for state in self.codec.decode_many(keys):
            moves, outcome = status(state)
            if outcome is not None:
                outcomes.append(_outcome_code(outcome.winner, state.turn))
                degrees.append(0)
                continue
            outcomes.append(OPEN)
            degrees.append(len(moves))
            turn = state.turn
            for move in moves:
                child = apply(state, move)
                children.append(encode(child))
                flips.append(child.turn != turn)
        return bytes(outcomes), degrees.tobytes(), self.codec.keys(children).tobytes(), bytes(flips)

    def _expand_plain(self, keys: np.ndarray) -> Expansion:
        outcomes, degrees, children, flips = bytearray(), array("I"), self._children(), bytearray()
        status, delta, next_turn = self.game.status, self.delta, self.next_turn
        players, last_unit = self.codec.players, self.codec.players
        for key, state in zip(self.codec.ints(keys).tolist(), self.codec.decode_many(keys)):
            moves, outcome = status(state)
            turn = state.turn
            if outcome is not None:
                outcomes.append(_outcome_code(outcome.winner, turn))
                degrees.append(0)
                continue
            other = next_turn.get(turn)
            if other is None:
                child = self.game.apply(state, moves[0])
                assert child.last == NO_CELL
                other = next_turn[turn] = child.turn
            # the parent's key with no go-again cell and the next player to move
            base = key - (key // players % (self.codec.cells + 1)) * last_unit - turn + other
            board = state.board
            outcomes.append(OPEN)
            degrees.append(len(moves))
            for move in moves:
                k = base
                for cell, sym in move.changes:
                    k += delta[cell][board[cell], sym]
                children.append(k)
            flips.extend(b"\x01" * len(moves) if other != turn else bytes(len(moves)))
        return bytes(outcomes), degrees.tobytes(), self.codec.keys(children).tobytes(), bytes(flips)


class BitboardExpander:
    """Expansion on the game's compiled kernel: keys to bitboards, the kernel's ``expand``, children back to keys."""

    @staticmethod
    def takes(kernel: Kernel | None, codec: PositionCodec) -> bool:
        """Whether ``kernel`` can expand this codec's positions (its bitboards fit an int64)."""
        return (kernel is not None and kernel.expand is not None and max(kernel.layout.bit, default=0) < 63
                and kernel.width == len(kernel.symbols)
                and sorted(kernel.symbols) == sorted(codec.symbols[1:]))

    def __init__(self, kernel: Kernel, codec: PositionCodec, native: NativeKernel | None = None):
        self.kernel, self.codec, self.native = kernel, codec, native
        digit = {s: i for i, s in enumerate(codec.symbols)}
        self.digits = [digit[s] for s in kernel.symbols]  # each bitboard's symbol as a key digit
        bit = np.array(kernel.layout.bit, dtype=np.int64)
        self.cell_bits = np.left_shift(np.int64(1), bit)  # cell -> its bit
        width = int(bit.max()) + 1 if len(bit) else 1
        self.cell_of_bit = np.full(width, -1, dtype=np.int64)
        self.cell_of_bit[bit] = np.arange(len(bit))
        weight = np.zeros(-(-width // 8) * 8, dtype=np.int64)  # bit -> its cell's weight in the board number
        weight[bit] = [codec.base ** (codec.cells - 1 - c) for c in range(codec.cells)]
        byte = np.arange(256)
        # byte_weights[k][v]: what byte k of a bitboard adds to the board number (times the symbol's digit)
        self.byte_weights = [sum(((byte >> j) & 1) * weight[8 * k + j] for j in range(8)).astype(np.int64)
                             for k in range(len(weight) // 8)]
        self.fast = compiled() if native is not None and not codec.wide else None
        self._buffer: np.ndarray | None = None  # the rows ``expandall`` writes children into
        if self.fast is not None:  # the same tables as arrays for the machine-code loops
            self.group_bits = self._group_bits()
            self.digit_of_column = np.array(self.digits, dtype=np.int64)
            self.byte_table = np.array(self.byte_weights, dtype=np.int64).reshape(-1, 256)
            self.cell_words = self.cell_bits.astype(np.uint64)

    def _group_bits(self) -> np.ndarray:
        """``[g, v, column]``: the bits of each bitboard that the value ``v`` of the g-th group of cells of a board
        number sets (groups of :func:`group_size` cells, the last cells first)."""
        codec = self.codec
        size = group_size(codec.base)
        unit = codec.base ** size
        groups = -(-codec.cells // size)
        out = np.zeros((groups, unit, len(self.digits)), dtype=np.uint64)
        value = np.arange(unit)
        for g in range(groups):
            rest = value.copy()
            for t in range(size):  # the t-th digit from the end of the group: the cell cells - 1 - (g * size + t)
                cell = codec.cells - 1 - (g * size + t)
                digit = rest % codec.base
                rest //= codec.base
                if cell < 0:
                    continue
                for column, d in enumerate(self.digits):
                    out[g, digit == d, column] |= np.uint64(self.cell_bits[cell])
        return out

    def expand(self, keys: np.ndarray) -> Expansion | None:
        """As :meth:`Expander.expand`, or ``None`` when a key holds a go-again cell the kernel does not take."""
        codec, kernel = self.codec, self.kernel
        players, spots = codec.players, codec.cells + 1
        keys = codec.ints(keys)
        if self.fast is not None:
            if not kernel.has_again and (keys // players % spots).any():
                return None
            return self._machine(keys)
        turns = keys % players
        rest = keys // players
        lasts = (rest % spots - 1).astype(np.int64)
        if not kernel.has_again and (lasts >= 0).any():
            return None
        digits = codec.digits(rest // spots)
        if self.native is not None:
            outcomes, degrees, children = self._native(digits, turns, lasts)
        else:
            outcomes, degrees, children = self._python(digits, turns, lasts)
        board = np.zeros(len(children), dtype=object if codec.wide else np.int64)
        for column, d in enumerate(self.digits):
            bits = children[:, column]
            for k, table in enumerate(self.byte_weights):
                board += d * table[(bits >> (8 * k)) & 255]
        child_turns, last_bits = children[:, -2], children[:, -1]
        last_cells = np.where(last_bits != 0, self.cell_of_bit[np.frexp(last_bits.astype(np.float64))[1] - 1], -1)
        child_keys = (board * spots + last_cells + 1) * players + child_turns
        flips = child_turns != np.repeat(turns, degrees)
        return (outcomes.tobytes(), degrees.tobytes(), codec.keys(child_keys).tobytes(),
                flips.astype(np.uint8).tobytes())

    def _machine(self, keys: np.ndarray) -> Expansion:
        """As :meth:`expand`, every step in machine code: keys to rows, ``expandall``, the children's rows to keys."""
        codec, fast = self.codec, self.fast
        rows = np.zeros((len(keys), len(self.digits) + 2), dtype=np.uint64)
        fast.rows_from_keys(keys, codec.players, codec.cells + 1, self.group_bits.shape[1], self.group_bits,
                            self.cell_words, rows)
        turns = keys % codec.players
        outcomes, degrees, children = self._run_native(rows, turns)
        child_keys = np.empty(len(children), dtype=np.int64)
        flips = np.empty(len(children), dtype=np.uint8)
        fast.keys_from_rows(children.view(np.uint64), degrees, turns, self.digit_of_column, self.byte_table,
                            self.cell_of_bit, codec.cells + 1, codec.players, child_keys, flips)
        return outcomes.tobytes(), degrees.tobytes(), child_keys.tobytes(), flips.tobytes()

    def _python(self, digits: np.ndarray, turns: np.ndarray, lasts: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Outcome codes, move counts and the children's rows (bitboards, player to move, go-again bit), one
        position at a time on the Python kernel."""
        kernel = self.kernel
        boards = [((digits == d) * self.cell_bits).sum(axis=1).tolist() for d in self.digits]
        last_bits = np.where(lasts >= 0, self.cell_bits[np.maximum(lasts, 0)], 0).tolist()
        outcomes, degrees = bytearray(), array("I")
        found: list[int] = []
        put, expand, misere, opponent = found.extend, kernel.expand, kernel.misere, kernel.opponent
        record = len(boards) + 2
        for *bits, turn, last in zip(*boards, turns.tolist(), last_bits):
            before = len(found)
            result = expand(*bits, turn, last, put)
            if result is None:
                outcomes.append(OPEN)
                degrees.append((len(found) - before) // record)
                continue
            winner, rule = result
            if rule < 0:
                winner = None
            elif misere and winner is not None:
                winner = opponent[winner]
            outcomes.append(_outcome_code(winner, turn))
            degrees.append(0)
        return (np.frombuffer(outcomes, dtype=np.uint8), np.frombuffer(degrees, dtype=np.uint32),
                np.array(found, dtype=np.int64).reshape(-1, record))

    def _native(self, digits: np.ndarray, turns: np.ndarray, lasts: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """As :meth:`_python`, on the machine-code kernel: one call expands as many positions as its buffer holds."""
        rows = np.zeros((len(turns), len(self.digits) + 2), dtype=np.uint64)
        for column, d in enumerate(self.digits):
            rows[:, column] = ((digits == d) * self.cell_bits).sum(axis=1).astype(np.uint64)
        rows[:, -2] = turns.astype(np.uint64)
        rows[:, -1] = np.where(lasts >= 0, self.cell_bits[np.maximum(lasts, 0)], 0).astype(np.uint64)
        return self._run_native(rows, turns)

    def _run_native(self, rows: np.ndarray, turns: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Outcome codes, move counts and the children's rows of kernel ``rows`` (``turns``: their players to
        move), from as few calls of ``expandall`` as its buffer allows."""
        native, kernel = self.native, self.kernel
        results = np.zeros((len(turns), 3), dtype=np.int64)
        shape = (max(BATCH_ROWS, native.children_max), rows.shape[1])
        if self._buffer is None or self._buffer.shape != shape:  # kept from chunk to chunk: no 2 MB cleared per call
            self._buffer = np.empty(shape, dtype=np.uint64)
        buffer = self._buffer
        parts, done = [], 0
        while done < len(turns):
            done, written = native.module.expandall(rows, done, buffer, results)
            parts.append(buffer[:written].copy())
        children = (parts[0] if len(parts) == 1 else np.concatenate(parts)).view(np.int64) if parts \
            else np.zeros((0, rows.shape[1]), np.int64)
        winners, rules = results[:, 0], results[:, 1]
        over = winners != NOT_OVER
        draw = over & ((rules < 0) | (winners < 0))
        winners = winners.copy()
        if kernel.misere:
            won = over & ~draw
            winners[won] = np.asarray(kernel.opponent)[winners[won]]
        outcomes = np.where(~over, OPEN, np.where(draw, DRAW, np.where(winners == turns, WIN, LOSE)))
        return outcomes.astype(np.uint8), results[:, 2].astype(np.uint32), children


def _outcome_code(winner: int | None, turn: int) -> int:
    return DRAW if winner is None else WIN if winner == turn else LOSE


def reference_children(game: Game, codec: PositionCodec, state: State) -> list[int]:
    """The children's keys the slow way (apply, then encode): what the fast path must agree with."""
    return [codec.encode(game.apply(state, move)) for move in game.legal_moves(state)]
