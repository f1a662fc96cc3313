"""Conformance with OpenSpiel for games whose turn may be several plies or actions: whole turns, side by side.

OpenSpiel's pentago plays a place-and-turn as one action ("a1t"); here it is
two plies by the same player (``a1``, then ``nw+``). So the comparison is made
turn by turn: our legal turns are every first ply followed, while the same
player is still to move, by every second ply, each written as the plies'
notations joined by a space ("a1 nw+"); each OpenSpiel action is translated to
that text. At every turn both must agree on the board (cell by cell, read from
OpenSpiel's printout), the side to move, the set of legal turns, whether the
game is over and the winner. Games with one-ply turns compare ply by ply.

Perft is compared the same way: OpenSpiel's counts at depth d, computed in the
same run, equal ours counted in whole turns; the issue's published counts are
asserted too. The default run plays as many seeded random games as fit in
about 10 seconds per game (at least a few); ``pytest -m deep`` plays 1,000.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pyspiel
import pytest
from openspiel_side_by_side import spiel_perft

from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.compile.load import load_game

SECONDS_PER_GAME = 10.0
DEEP_GAMES = 1000


class Divergence(AssertionError):
    """The two implementations disagree."""


# ---- pentago ---------------------------------------------------------------------------------------------------
# OpenSpiel's rotation letter: 's' + 2 * quadrant + (1 for clockwise); quadrants 0..3 are the top-left,
# top-right, bottom-right and bottom-left blocks (pentago.cc: Move, xy_to_bit).
PENTAGO_TURNS = dict(zip("stuvwxyz", ["nw-", "nw+", "ne-", "ne+", "se-", "se+", "sw-", "sw+"]))


def pentago_action(action: str) -> str:
    """``a1t``: place on a1, then turn the top-left block clockwise."""
    return f"{action[:2]} {PENTAGO_TURNS[action[2]]}"


def pentago_board(text: str) -> dict[str, str]:
    """The printout's rows (``v 1 O . . @ . . v``; row 1 on top): cell name -> our symbol."""
    cells = {}
    for line in text.splitlines():
        found = re.match(r"^.\s(\d)\s((?:[.O@]\s){6})", line)
        if found:
            for col, mark in enumerate(found.group(2).split()):
                cells[f"{chr(ord('a') + col)}{found.group(1)}"] = {".": "-", "O": "o", "@": "x"}[mark]
    return cells


# ---- havannah -------------------------------------------------------------------------------------------------
def havannah_board(text: str) -> dict[str, str]:
    """The printout's rows (``  4 . . O . @ . .``; ``[O]`` marks the last stone): row y + 1 starts at column
    max(0, y - size + 1)."""
    rows = [re.findall(r"[.O@]", m.group(2)) for m in re.finditer(r"^\s*(\d+)(.*)$", text, re.M)]
    size = (len(rows) + 1) // 2
    cells = {}
    for y, row in enumerate(rows):
        for i, mark in enumerate(row):
            cells[f"{chr(ord('a') + max(0, y - size + 1) + i)}{y + 1}"] = {".": "-", "O": "o", "@": "x"}[mark]
    return cells


# ---- ultimate tic-tac-toe -------------------------------------------------------------------------------------
def uttt_action(action: str) -> str:
    """``Local board 4: x(0,2)``: local boards and their rows count from the top left; ours from a1 at the
    bottom left of the whole board."""
    board, row, col = map(int, re.findall(r"\d+", action))
    top = (board // 3) * 3 + row
    return f"{chr(ord('a') + (board % 3) * 3 + col)}{9 - top}"


def uttt_board(text: str) -> dict[str, str]:
    """The printout's nine rows of ``x.. ... o..``, top first."""
    rows = [line.replace(" ", "") for line in text.splitlines() if re.fullmatch(r"[.xo]{3}( [.xo]{3}){2}", line)]
    return {f"{chr(ord('a') + c)}{9 - r}": {".": "-"}.get(mark, mark) for r, row in enumerate(rows)
            for c, mark in enumerate(row)}


@dataclass
class Pairing:
    """One game in both worlds: how an OpenSpiel action and board read here, and the published perft."""

    ours: str
    theirs: str
    to_ours: Callable[[str], str]
    board: Callable[[str], dict[str, str]]
    published: tuple[int, ...]
    turns: int = 0  # how many whole turns deep to compare with OpenSpiel's own count (computed in the run)
    options: dict[str, object] = field(default_factory=dict)
    params: dict[str, object] = field(default_factory=dict)


PAIRINGS = [
    Pairing("pentago", "pentago", pentago_action, pentago_board, (288, 80640), 2),
    Pairing("havannah", "havannah", str, havannah_board, (37, 1332, 46620), 3, {"size": "4"},
            {"board_size": 4}),
    Pairing("havannah", "havannah", str, havannah_board, (), 0, {"size": "8"}, {"board_size": 8}),
    Pairing("ultimate-tic-tac-toe", "ultimate_tic_tac_toe", uttt_action, uttt_board, (9, 81, 720), 3),
]


def whole_turns(game: Game, state: State) -> dict[str, State]:
    """Every legal turn from ``state``: its plies' notations joined by spaces -> the position after it."""
    out: dict[str, State] = {}
    for move in game.legal_moves(state):
        text, after = game.format_move(state, move), game.apply(state, move)
        if after.turn == state.turn and not game.is_over(after):  # the same player goes on: one turn
            for key, end in whole_turns(game, after).items():
                out[f"{text} {key}"] = end
        else:
            out[text] = after
    return out


def turn_perft(game: Game, state: State, depth: int) -> int:
    """Sequences of ``depth`` whole turns from ``state``."""
    if depth == 0:
        return 1
    turns = whole_turns(game, state)
    if depth == 1:
        return len(turns)
    return sum(turn_perft(game, after, depth - 1) for after in turns.values())


def spiel_turns(state, to_ours: Callable[[str], str]) -> dict[str, list[int]]:
    """Every turn of OpenSpiel's player to move: actions after which the same player moves again (choosing
    a local board) are followed by each of the next; keyed by the last action, translated."""
    out: dict[str, list[int]] = {}
    player = state.current_player()
    for action in state.legal_actions():
        child = state.child(action)
        if not child.is_terminal() and child.current_player() == player:
            for key, rest in spiel_turns(child, to_ours).items():
                out[key] = [action, *rest]
        else:
            out[to_ours(state.action_to_string(action))] = [action]
    return out


def spiel_turn_perft(state, depth: int, to_ours: Callable[[str], str]) -> int:
    """OpenSpiel's count of sequences of ``depth`` whole turns."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    turns = spiel_turns(state, to_ours)
    if depth == 1:
        return len(turns)
    total = 0
    for actions in turns.values():
        child = state.clone()
        for action in actions:
            child.apply_action(action)
        total += spiel_turn_perft(child, depth - 1, to_ours)
    return total


def our_board(game: Game, state: State) -> dict[str, str]:
    """Cell name -> symbol."""
    return {cell.name: state.board[cell.index] for cell in game.geometry.cells}


def play_side_by_side(pair: Pairing, seed: int) -> int:
    """One random game played in both, turn by turn; returns its number of turns. Raises :class:`Divergence`."""
    game = load_game(pair.ours, pair.options)
    spiel = pyspiel.load_game(pair.theirs, pair.params)
    ours, theirs = game.initial_state(), spiel.new_initial_state()
    rng = random.Random(seed)
    history: list[str] = []

    def fail(what: str) -> None:
        raise Divergence(f"{pair.ours}, seed {seed}, after {' / '.join(history) or 'no move'}: {what}\n"
                         f"  ours: {game.format_position(ours)}\n  OpenSpiel:\n{theirs}")

    while True:
        if our_board(game, ours) != pair.board(str(theirs)):
            fail("the boards differ")
        outcome = game.outcome(ours)
        if (outcome is not None) != theirs.is_terminal():
            fail(f"over here: {outcome is not None}, over in OpenSpiel: {theirs.is_terminal()}")
        if outcome is not None:
            returns = theirs.returns()
            winner = None if returns[0] == returns[1] else (0 if returns[0] > returns[1] else 1)
            if winner != outcome.winner:
                fail(f"winner here: {outcome.winner}, in OpenSpiel: {winner}")
            return len(history)
        if theirs.current_player() != game.to_move(ours):
            fail(f"to move here: {game.to_move(ours)}, in OpenSpiel: {theirs.current_player()}")
        turns = whole_turns(game, ours)
        actions = spiel_turns(theirs, pair.to_ours)
        if set(turns) != set(actions):
            fail(f"only here: {sorted(set(turns) - set(actions))[:10]}; "
                 f"only in OpenSpiel: {sorted(set(actions) - set(turns))[:10]}")
        key = rng.choice(sorted(actions))
        history.append(key)
        ours = turns[key]
        for action in actions[key]:
            theirs.apply_action(action)


def seeded_games(pair: Pairing, count: int | None) -> int:
    """Play seeds 0, 1, ... (``count`` of them, or as many as fit in the time budget); returns how many."""
    started, seed = time.monotonic(), 0
    while (seed < count) if count is not None else (seed < 3 or time.monotonic() - started < SECONDS_PER_GAME):
        assert play_side_by_side(pair, seed) > 0
        seed += 1
    return seed


@pytest.mark.parametrize("pair", [p for p in PAIRINGS if p.published], ids=lambda p: p.ours)
def test_perft_from_the_start_agrees_with_openspiel(pair):
    """OpenSpiel's published counts of actions; then ours against OpenSpiel's, in whole turns, as deep as the
    published counts go."""
    game = load_game(pair.ours, pair.options)
    spiel = pyspiel.load_game(pair.theirs, pair.params)
    for depth, published in enumerate(pair.published, start=1):  # OpenSpiel's actions
        assert spiel_perft(spiel.new_initial_state(), depth) == published
    for depth in range(1, pair.turns + 1):
        theirs = spiel_turn_perft(spiel.new_initial_state(), depth, pair.to_ours)
        assert turn_perft(game, game.initial_state(), depth) == theirs


@pytest.mark.parametrize("pair", PAIRINGS, ids=lambda p: f"{p.ours}{p.options.get('size', '')}")
def test_random_games_agree_with_openspiel(pair):
    assert seeded_games(pair, None) >= 3


@pytest.mark.deep
@pytest.mark.parametrize("pair", PAIRINGS, ids=lambda p: f"{p.ours}{p.options.get('size', '')}")
def test_a_thousand_random_games_agree_with_openspiel(pair):
    assert seeded_games(pair, DEEP_GAMES) == DEEP_GAMES


def test_a_wrong_translation_is_caught():
    wrong = Pairing("pentago", "pentago", lambda a: pentago_action(a).replace("+", "-"), pentago_board, ())
    with pytest.raises(Divergence) as caught:
        play_side_by_side(wrong, 0)
    assert "pentago, seed 0" in str(caught.value) and "only here" in str(caught.value)
