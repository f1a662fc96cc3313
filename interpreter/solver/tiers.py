"""Tiers: positions grouped by how many pieces each player has left.

When no active move rule puts a piece on the board (no ``place``, in
``moves`` or in a ``then`` part), a move keeps or lowers every player's count
of pieces: pushes and captures remove pieces, steps, slides, jumps and
promotions keep them. That is a fact of the compiled rules, not of a named
game, and it splits the positions into tiers that a move never leaves
upwards. The solver explores the tiers from the most pieces down and solves
them from the fewest up, so that it holds one tier and the tiers its moves
reach at a time. A game that can place pieces is one tier.

A tier is numbered by its counts in base (cells + 1): sum of count_p * (cells + 1)**p.
"""

from __future__ import annotations

import numpy as np

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import Game
from rulesdsl.interpreter.solver.encoding import PositionCodec, group_size
from rulesdsl.interpreter.solver.fast_tables import compiled


def adds_pieces(game: Game) -> bool:
    """True when some active move rule (``moves`` or ``then``) places a piece (or the rules are not at hand)."""
    from rulesdsl.interpreter.compile.compiler import Active

    if game.resolved is None or not hasattr(game.resolved, "statements"):
        return True
    active = Active(game.resolved, game.options)
    blocks = active.all(m.Moves) + active.all(m.Then)
    return any(rule.action == "place" for block in blocks for rule in block.rules)


class TierMap:
    """The tier of each position key, and the order tiers are explored and solved in."""

    def __init__(self, game: Game, codec: PositionCodec):
        self.codec = codec
        self.single = adds_pieces(game)
        self.radix = codec.cells + 1
        owners = [None] + [game.piece_names[s][1] for s in codec.symbols[1:]]
        # what one cell holding each symbol adds to the tier number
        self.weight = np.array([0 if o is None else self.radix ** o for o in owners], dtype=np.int64)
        # what a group of ``size`` cells adds to the tier number, by the group's digits read as one number
        self.size = group_size(codec.base)
        group = np.arange(codec.base ** self.size)
        self.group_weight = np.zeros(len(group), dtype=np.int64)
        for _ in range(self.size):
            self.group_weight += self.weight[group % codec.base]
            group //= codec.base

    def of(self, keys: np.ndarray) -> np.ndarray:
        """The tier number of each key (all 0 when the game is one tier)."""
        if self.single or not len(keys):
            return np.zeros(len(keys), dtype=np.int64)
        unit = self.codec.base ** self.size
        fast = None if self.codec.wide else compiled()
        if fast is not None:
            tier = np.empty(len(keys), dtype=np.int64)
            fast.tier_numbers(keys, self.codec.players * (self.codec.cells + 1), unit, self.group_weight,
                              -(-self.codec.cells // self.size), tier)
            return tier
        rest = self.codec.board_numbers(self.codec.ints(keys))
        tier = np.zeros(len(keys), dtype=np.int64)
        for _ in range(-(-self.codec.cells // self.size)):  # a group of cells at a time: no (keys x cells) array
            tier += self.group_weight[(rest % unit).astype(np.int64, copy=False)]
            rest //= unit
        return tier

    def counts(self, tier: int) -> tuple[int, ...]:
        """Each player's pieces in ``tier``."""
        out = []
        for _ in range(self.codec.players):
            tier, count = divmod(tier, self.radix)
            out.append(count)
        return tuple(out)

    def total(self, tier: int) -> int:
        """All pieces in ``tier``: tiers are explored by decreasing total and solved by increasing total."""
        return sum(self.counts(tier))

    def label(self, tier: int) -> str:
        """``5+4`` for five pieces of the first player and four of the second; ``all`` for one tier."""
        return "all" if self.single else "+".join(map(str, self.counts(tier)))
