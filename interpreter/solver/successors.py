"""Expanding positions by their keys: outcome, moves and the children's keys.

The general path decodes a key to a :class:`State`, asks the game for its
status, applies every move and encodes each child. When the rules make the
next position a plain function of the board (no go-again, no second part of a
turn: after any move the other player moves, from no particular cell), the
child's key is computed from the parent's instead: each changed cell adds
(new digit - old digit) times that cell's weight in the key. That skips
building a State and a board string per move and reading them back, which
was most of the solver's time outside the game's own move generation.
"""

from __future__ import annotations

from array import array

import numpy as np

from rulesdsl import model as m
from rulesdsl.interpreter.game import NO_CELL, Game, State
from rulesdsl.interpreter.solver.encoding import PositionCodec

# What a finished position is worth to the player to move there (OPEN: not finished).
OPEN, WIN, LOSE, DRAW = 0, 1, 2, 3

Expansion = tuple[bytes, bytes, bytes, bytes]


def plain_turns(game: Game) -> bool:
    """True when no active rule lets a turn go on (``again``, ``then``): every move hands over the turn."""
    from rulesdsl.interpreter.compiler import Active

    if game.resolved is None or not hasattr(game.resolved, "statements"):
        return False
    active = Active(game.resolved, game.options)
    return active.first(m.Again) is None and active.first(m.Then) is None


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

    def expand(self, keys: np.ndarray) -> Expansion:
        """Expand the positions of ``keys`` (an int64 array) in order."""
        if self.plain:
            return self._expand_plain(keys)
        return self._expand_general(keys)

    def _expand_general(self, keys: np.ndarray) -> Expansion:
        outcomes, degrees, children, flips = bytearray(), array("I"), array("q"), bytearray()
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
        return bytes(outcomes), degrees.tobytes(), children.tobytes(), bytes(flips)

    def _expand_plain(self, keys: np.ndarray) -> Expansion:
        outcomes, degrees, children, flips = bytearray(), array("I"), array("q"), bytearray()
        status, delta, next_turn = self.game.status, self.delta, self.next_turn
        players, last_unit = self.codec.players, self.codec.players
        for key, state in zip(keys.tolist(), self.codec.decode_many(keys)):
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
        return bytes(outcomes), degrees.tobytes(), children.tobytes(), bytes(flips)


def _outcome_code(winner: int | None, turn: int) -> int:
    return DRAW if winner is None else WIN if winner == turn else LOSE


def reference_children(game: Game, codec: PositionCodec, state: State) -> list[int]:
    """The children's keys the slow way (apply, then encode): what the fast path must agree with."""
    return [codec.encode(game.apply(state, move)) for move in game.legal_moves(state)]
