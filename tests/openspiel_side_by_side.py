"""Random games played side by side here and in OpenSpiel, comparing every position in full.

At each position both must agree on the board (cell by cell, where the pairing
says how to read OpenSpiel's), the player to move, the set of legal moves,
whether the game is over and who won. A game
pairing says how OpenSpiel's actions and boards are written in ours.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pyspiel

from rulesdsl.interpreter.compile.game import Game, Outcome, State


class Divergence(AssertionError):
    """The two implementations disagree."""


@dataclass
class Side:
    """One game in both worlds."""

    game: Game
    spiel: object  # the pyspiel game
    move_of: Callable[[str], str]  # OpenSpiel's action string -> our move notation (or its key)
    board_of: Callable[[str], dict[str, str]] | None = None  # OpenSpiel's state string -> {our cell: our symbol}
    key: Callable[[str], str] = staticmethod(lambda text: text)  # type: ignore[assignment]  # our notation -> key
    name: str = ""  # named in a divergence's message
    seat_of: Callable[[int], int] = staticmethod(lambda player: player)  # type: ignore[assignment]  # theirs -> ours
    # OpenSpiel's finished state -> the winner's seat in ours (None: a draw); by default read from its returns
    winner: Callable[[object], int | None] | None = None
    # OpenSpiel's state and action -> our key, where the action's string alone cannot say (by default move_of)
    action_key: Callable[[object, int], str] | None = None
    # OpenSpiel's state past which it cannot be followed (a known fault of its own): the game stops being compared
    stop: Callable[[object], bool] | None = None
    # Where OpenSpiel's action strings are hard to read (SAN needs the board): our position written as
    # OpenSpiel's state string (normalised by ``spiel_key``); then the positions are compared at every
    # ply and the moves are keyed by the position each leads to (``move_of`` is not used).
    position_of: Callable[[Game, State], str] | None = None
    spiel_key: Callable[[str], str] = staticmethod(lambda text: text)  # type: ignore[assignment]
    # more than the board: our position and OpenSpiel's state, each as a dict (a game's links, say)
    ours_of: Callable[[Game, State], dict[str, str]] | None = None
    theirs_of: Callable[[object], dict[str, str]] | None = None


# Chess's castling rights (FEN letter, king's cell, rook's cell), read from the cells of unmoved pieces.
CASTLING = (("K", "e1", "h1"), ("Q", "e1", "a1"), ("k", "e8", "h8"), ("q", "e8", "a8"))


def castling_rights(unmoved: list[str]) -> str:
    """The FEN castling field of our ``unmoved`` cells (``-`` for none)."""
    return "".join(letter for letter, king, rook in CASTLING if king in unmoved and rook in unmoved) or "-"


def fen_row(row: str, cell: Callable[[str], str] = lambda ch: ch) -> str:
    """One of our rows (``-`` for empty) as a FEN row: runs of empty cells as digits, pieces through ``cell``."""
    out, run = "", 0
    for ch in row:
        if ch == "-":
            run += 1
            continue
        out += (str(run) if run else "") + cell(ch)
        run = 0
    return out + (str(run) if run else "")


def spiel_perft(state, depth: int) -> int:
    """OpenSpiel's own perft: action sequences of exactly ``depth`` actions (fewer where the game ends)."""
    if depth == 0 or state.is_terminal():
        return 1 if depth == 0 else 0
    if depth == 1:
        return len(state.legal_actions())
    return sum(spiel_perft(state.child(a), depth - 1) for a in state.legal_actions())


def our_board(game: Game, state: State) -> dict[str, str]:
    """Our board as ``{cell name: symbol}``."""
    return {cell.name: state.board[cell.index] for cell in game.geometry.cells}


def winner_of(returns: list[float]) -> int | None:
    """The winner's index from OpenSpiel's returns: the one player with the highest (``None``: a draw)."""
    best = max(returns)
    leaders = [p for p, value in enumerate(returns) if value == best]
    return leaders[0] if len(leaders) == 1 else None


def play(side: Side, seed: int) -> tuple[int, Outcome | None]:
    """One random game in both; returns its length in plies and its outcome (``None`` where ``side.stop`` ended
    the comparison before the end). Raises :class:`Divergence`."""
    game = side.game
    ours, theirs = game.initial_state(), side.spiel.new_initial_state()
    rng = random.Random(seed)
    played: list[str] = []

    def fail(what: str) -> None:
        label = f"{side.name}, seed {seed}" if side.name else f"seed {seed}"
        raise Divergence(f"{label}, after {' '.join(played) or 'no move'}: {what}\n"
                         f"  ours: {game.format_position(ours)}\n  OpenSpiel:\n{theirs}")

    while True:
        if side.board_of is not None and our_board(game, ours) != side.board_of(str(theirs)):
            fail("the boards differ")
        if side.position_of is not None and side.position_of(game, ours) != side.spiel_key(str(theirs)):
            fail(f"the positions differ: ours written as OpenSpiel's {side.position_of(game, ours)}")
        if side.ours_of is not None and side.theirs_of is not None:
            mine, theirs_too = side.ours_of(game, ours), side.theirs_of(theirs)
            if mine != theirs_too:
                fail(f"the positions differ: ours {mine}, OpenSpiel's {theirs_too}")
        moves, outcome = game.status(ours)
        if (outcome is not None) != theirs.is_terminal():
            fail(f"over here: {outcome is not None}, over in OpenSpiel: {theirs.is_terminal()}")
        if outcome is not None:
            theirs_won = (side.winner(theirs) if side.winner is not None else
                          None if (w := winner_of(theirs.returns())) is None else side.seat_of(w))
            if theirs_won != outcome.winner:
                fail(f"winner here: {outcome.winner} ({outcome.reason}), in OpenSpiel: {theirs.returns()}")
            return len(played), outcome
        if side.seat_of(theirs.current_player()) != game.to_move(ours):
            fail(f"to move here: {game.to_move(ours)}, in OpenSpiel: {theirs.current_player()}")
        if side.position_of is not None:
            written = {side.position_of(game, game.apply(ours, mv)): mv for mv in moves}
            actions = {side.spiel_key(str(theirs.child(a))): a for a in theirs.legal_actions()}
        else:
            written = {side.key(game.format_move(ours, mv)): mv for mv in moves}
            actions = {side.action_key(theirs, a) if side.action_key is not None else
                       side.move_of(theirs.action_to_string(theirs.current_player(), a)): a
                       for a in theirs.legal_actions()}
        if set(written) != set(actions) or (side.position_of is not None and len(written) != len(moves)):
            fail(f"only here: {sorted(set(written) - set(actions))}; "
                 f"only in OpenSpiel: {sorted(set(actions) - set(written))}")
        if side.stop is not None and side.stop(theirs):
            return len(played), None
        key = rng.choice(sorted(actions))
        played.append(key)
        ours = game.apply(ours, written[key])
        theirs.apply_action(actions[key])


def load(name: str, params: dict) -> object:
    """A pyspiel game with parameters."""
    return pyspiel.load_game(name, params)
