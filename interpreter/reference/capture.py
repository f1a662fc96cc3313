"""The Capture the Flag seed's ``capture`` function, on top of the generic engine.

The seed (GAMES.md §3) asks for ``capture(history, player, depth)``: the game's
boards as N*N-character strings, most recent first, the player to move
(``'w'`` or ``'b'``) and the search depth in plies. It returns the board after
the move that minimax (alpha-beta, exactly ``depth`` plies) picks. Everything
about the game itself lives in the bundled ``capture-the-flag`` rule file; this
module only checks the arguments, loads that file for the board's size and
hands the search to :func:`rulesdsl.interpreter.search.engine.think` (exactly ``depth`` plies). The rule
file's ``forbid repetition`` keeps every board of the history out of reach.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from rulesdsl.errors import OptionError, RulesdslError
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.search.engine import think
from rulesdsl.loader import bundled_dir

RULES = "capture-the-flag"
PLAYERS = ("w", "b")
SYMBOLS = frozenset("wWbB-")


class CaptureError(RulesdslError):
    """Arguments that ``capture`` cannot play from (bad boards, player or depth)."""


def _side(history: Sequence[str]) -> int:
    """N, the board's side, after checking every board of the history."""
    if isinstance(history, str) or not isinstance(history, Sequence):
        raise CaptureError("capture: the history must be a list of board strings, most recent first")
    if not history:
        raise CaptureError("capture: the history is empty; it needs at least the current board")
    length = None
    for number, board in enumerate(history, start=1):
        if not isinstance(board, str):
            raise CaptureError(f"capture: board {number} of the history is not a string: {board!r}")
        bad = sorted(set(board) - SYMBOLS)
        if bad:
            raise CaptureError(f"capture: board {number} {board!r} has the character {bad[0]!r}; "
                               f"boards use only w W b B -")
        if length is None:
            length = len(board)
            side = math.isqrt(length)
            if side * side != length:
                raise CaptureError(f"capture: board {number} {board!r} has {length} characters, "
                                   f"which is not N*N for any N")
        elif len(board) != length:
            raise CaptureError(f"capture: board {number} has {len(board)} characters but the current "
                               f"board has {length}; every board of the history must have the same size")
    return math.isqrt(length or 0)


@lru_cache(maxsize=8)
def _game(side: int):
    """The bundled rule file compiled for a side x side board (never a same-named local file)."""
    try:
        return load_game(str(bundled_dir() / f"{RULES}.rules"), {"size": str(side)})
    except OptionError as error:
        raise CaptureError(f"capture: a {side}x{side} board is not supported ({error})") from None


def capture(history: list[str], player: str, depth: int) -> str:
    """The board after ``player``'s best move, found by searching exactly ``depth`` plies.

    ``history[0]`` is the current board; the rest are the earlier boards, which
    no move may produce again. Raises :class:`CaptureError` (a
    :class:`~rulesdsl.errors.RulesdslError`) with a one-line message for bad
    arguments, and when the game is already over in the current position.
    """
    side = _side(history)
    if player not in PLAYERS:
        raise CaptureError(f"capture: the player must be 'w' or 'b', got {player!r}")
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise CaptureError(f"capture: the depth must be a whole number of plies, at least 1, got {depth!r}")

    game = _game(side)
    state = game.parse_position(f"({player} {history[0]})")
    state = game.with_history(state, list(history[1:]))
    choice = think(game, state, depth)
    if choice is None:
        outcome = game.outcome(state)
        winner = game.players[outcome.winner].name if outcome and outcome.winner is not None else None
        result = f"{winner} has won" if winner else "it is drawn"
        reason = f" ({outcome.reason})" if outcome else ""
        raise CaptureError(f"capture: the game is over in {history[0]!r}: {result}{reason}; "
                           f"{player} has no move to make")
    after = game.apply(state, choice.move)
    # The position string is "(T BOARD)"; the seed wants the board alone.
    return game.format_position(after)[1:-1].split()[1]
