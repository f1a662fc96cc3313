"""The order of play: who moves after whom, and who a player's opponent is.

The one place that knows how players follow each other; nothing else writes
``1 - player``. Players are indices ``0 .. count-1`` in the order the
``players`` statement lists them. Each table is a tuple indexed by player, so
the move loop pays one tuple index, no call.
"""

from __future__ import annotations

from typing import NamedTuple


class Seating(NamedTuple):
    """For each player: who moves next, who moved before, and the opponent."""

    next_player: tuple[int, ...]
    previous_player: tuple[int, ...]
    opponent: tuple[int, ...]  # with two players, the other one; with more, the next to move


def seating(count: int) -> Seating:
    """The order of play of ``count`` players taking turns in the listed order."""
    following = tuple((p + 1) % count for p in range(count))
    preceding = tuple((p - 1) % count for p in range(count))
    return Seating(following, preceding, following)
