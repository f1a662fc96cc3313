"""Chinese checkers agrees with OpenSpiel's ``chinese_checkers(players=N)``, action by action.

Granularity: OpenSpiel splits a hop chain into actions (``cell * 6 + direction``
for each hop, then 726, "pass", to stop); the rule file's ``again ... to new
cells or pass`` makes each hop a ply of its own and the stop a ``pass``, so a
ply here is an action there. A step is one action in both. Each of our moves
is mapped to OpenSpiel's action by its origin and direction: cells are matched
by place (OpenSpiel numbers the holes row by row from the top, left to right;
rows here count up from the bottom), directions by their vector.

Perft comes from OpenSpiel in the same run (and the issue's 14, 196, 2744 for
three players). Every random game compares, at every ply, the board, the
player to move (and the cell a hop chain goes on from), the set of legal
actions, and at the end the returns. ``max_moves`` is cut short in most games,
so that games end by the move limit too; the default run plays as many games
as fit in about 10 seconds, ``-m deep`` plays 1,000.
"""

from __future__ import annotations

import random
import time

import pytest

from rulesdsl.interpreter.compile.load import load_game

pyspiel = pytest.importorskip("pyspiel")

from openspiel_side_by_side import spiel_perft  # noqa: E402

PASS = 726
# OpenSpiel's directions 0..5 (up-left, up-right, left, right, down-left, down-right) as (dx, dy) here.
DIRECTIONS = ((0, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (0, -1))
COUNTS = (2, 3, 4, 6)
BUDGET_SECONDS = 10.0  # the default run plays on until then
MINIMUM_GAMES = 12  # whatever the machine's speed (eleven end by a short move limit, one runs 1000 turns)


class Pair:
    """The rule file's game and OpenSpiel's, with the maps between their cells and actions."""

    def __init__(self, players: int, max_moves: int = 1000) -> None:
        self.game = load_game("chinese-checkers", {"players": str(players), "max_moves": str(max_moves)})
        self.spiel = pyspiel.load_game(f"chinese_checkers(players={players},max_moves={max_moves})")
        cells = self.game.geometry.cells
        top = max(c.y for c in cells)
        # OpenSpiel's order: by row from the top, then left to right (on screen a cell sits at 2x - y)
        order = sorted(cells, key=lambda c: (top - c.y, 2 * c.x - c.y))
        self.spiel_index = {c.index: i for i, c in enumerate(order)}
        self.xy = {c.index: (c.x, c.y) for c in cells}

    def action(self, move) -> int:
        """OpenSpiel's action for one of our moves."""
        if move.origin < 0:
            return PASS
        (x0, y0), (x1, y1) = self.xy[move.origin], self.xy[move.target]
        dx, dy = x1 - x0, y1 - y0
        if max(abs(dx), abs(dy)) == 2:
            dx, dy = dx // 2, dy // 2
        return self.spiel_index[move.origin] * 6 + DIRECTIONS.index((dx, dy))

    def board(self, state) -> list[int]:
        """Our board as OpenSpiel's list of owners per hole (-1: empty)."""
        owners = [-1] * 121
        for cell, symbol in enumerate(state.board):
            if symbol in self.game.piece_names:
                owners[self.spiel_index[cell]] = self.game.piece_names[symbol][1]
        return owners


def spiel_board(state) -> list[int]:
    """OpenSpiel's board, read from its picture (holes in order, '1'.. for players 0..)."""
    rows = str(state).splitlines()[:17]
    return [-1 if ch == "." else int(ch) - 1 for row in rows for ch in row if ch != " "]


def hopping_from(state) -> int:
    """The hole a hop chain goes on from in OpenSpiel's picture, or -1."""
    last = str(state).splitlines()[-1]
    return int(last.split("hopping from ")[1].rstrip(")")) if "hopping from" in last else -1


@pytest.mark.parametrize("players", COUNTS)
def test_perft_agrees(players):
    pair = Pair(players)
    ours = [pair.game.perft(pair.game.initial_state(), d) for d in (1, 2, 3)]
    assert ours == [spiel_perft(pair.spiel.new_initial_state(), d) for d in (1, 2, 3)]
    if players == 3:
        assert ours == [14, 196, 2744]  # the figures


def play_one(pair: Pair, rng: random.Random) -> int:
    """One random game played in both, compared at every ply; returns the plies played."""
    game, state, spiel = pair.game, pair.game.initial_state(), pair.spiel.new_initial_state()
    plies = 0
    while True:
        moves, outcome = game.status(state)
        assert pair.board(state) == spiel_board(spiel), f"board differs after {plies} plies"
        if outcome is not None or spiel.is_terminal():
            assert outcome is not None and spiel.is_terminal(), f"only one side ended after {plies} plies"
            n = len(game.players)
            expected = [0.0] * n if outcome.winner is None else [
                n - 1.0 if p == outcome.winner else -1.0 for p in range(n)]
            assert spiel.returns() == expected
            # the per-player rewards are OpenSpiel's returns scaled to -1 .. +1 (the winner's n - 1 to 1)
            assert outcome.returns(n) == pytest.approx([r / (n - 1) for r in spiel.returns()])
            return plies
        assert game.to_move(state) == spiel.current_player()
        chain = pair.spiel_index[state.last] if state.last >= 0 else -1
        assert chain == hopping_from(spiel)
        actions = {pair.action(m): m for m in moves}
        assert len(actions) == len(moves) and sorted(actions) == sorted(spiel.legal_actions()), f"ply {plies}"
        choice = sorted(actions)[rng.randrange(len(actions))]
        state = game.apply(state, actions[choice])
        spiel.apply_action(choice)
        plies += 1


def run_games(count: int, seconds: float | None = None) -> int:
    """Random games over every player count: ``count`` of them, then more until ``seconds`` have passed;
    returns the games played."""
    started, played = time.monotonic(), 0
    pairs = {}
    while played < count or (seconds is not None and time.monotonic() - started < seconds):
        players = COUNTS[played % len(COUNTS)]
        limit = 1000 if played % 10 == 9 else 30 + played % 40  # most games end by a short move limit
        if (players, limit) not in pairs:
            pairs[(players, limit)] = Pair(players, limit)
        play_one(pairs[(players, limit)], random.Random(played))
        played += 1
    return played


def test_random_games_agree():
    assert run_games(MINIMUM_GAMES, BUDGET_SECONDS) >= MINIMUM_GAMES  # every game played was compared


@pytest.mark.deep
def test_a_thousand_random_games_agree():
    assert run_games(1000) == 1000
