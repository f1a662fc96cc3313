"""Conformance with OpenSpiel for the counting and scoring games: mancala (kalah) and dots and boxes.

Perft from the start is counted in OpenSpiel in the same run and compared with
ours and with the published numbers. Then seeded random games are played side
by side; at every ply both must agree on the whole board (every pit's seeds;
every line drawn and every box's owner), the side to move, the set of legal
moves, each player's score and, at the end, the result. The default run plays
as many games as fit in about 20 seconds (at least a few); ``pytest -m deep``
plays 1,000 of each.

Conventions: OpenSpiel's mancala numbers its 14 pits 0 (north's store), 1-6
(south's pits, left to right), 7 (south's store) and 8-13 (north's pits, right
to left); ours are b1-g1, h1, g2-b2 and a2, with pit i opposite pit 14 - i in
the same column. OpenSpiel's dots and boxes names a line ``(h,r,c)`` or
``(v,r,c)`` with row 0 at the top; our grid leaves the dots out and counts
rows from the bottom.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import pyspiel
import pytest
from openspiel_side_by_side import spiel_perft

from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.solver.encoding import SolveError, check_solvable

BUDGET_SECONDS = 20.0
DEEP_GAMES = 1000

# OpenSpiel's mancala pit i is our cell MANCALA_CELLS[i].
MANCALA_CELLS = ["a2", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "g2", "f2", "e2", "d2", "c2", "b2"]


@dataclass
class Pairing:
    """One game in both worlds: how a move and a board of OpenSpiel are written here."""

    ours: str
    theirs: str
    options: dict
    move: Callable[[object, int], str]  # (OpenSpiel state, action) -> our move text
    board: Callable[[object, Game], dict[str, str]]  # OpenSpiel state -> {our cell: our symbol} for every cell
    scores: Callable[[object], tuple[int, int]]  # OpenSpiel state -> each player's score


def mancala_counts(theirs) -> list[int]:
    """OpenSpiel's 14 pit counts (the observation begins with them)."""
    return [int(x) for x in theirs.observation_tensor(0)[:14]]


def mancala_board(theirs, game: Game) -> dict[str, str]:
    return {cell: str(n) if n else "-" for cell, n in zip(MANCALA_CELLS, mancala_counts(theirs))}


def mancala_scores(theirs) -> tuple[int, int]:
    """The seeds on each side, store included (what OpenSpiel's returns compare)."""
    pits = mancala_counts(theirs)
    return sum(pits[1:8]), sum(pits[8:]) + pits[0]


def dots_cell(kind: str, r: int, c: int, rows: int) -> str:
    """OpenSpiel's line ``(kind, r, c)`` (or box ``("b", r, c)``) as our cell name."""
    col, row_from_top = {"h": (2 * c + 1, 2 * r), "v": (2 * c, 2 * r + 1), "b": (2 * c + 1, 2 * r + 1)}[kind]
    return f"{chr(ord('a') + col)}{2 * rows + 1 - row_from_top}"


def dots_parts(theirs, rows: int, cols: int) -> dict[str, str]:
    """Read OpenSpiel's drawing: ``───`` a horizontal line, ``│`` a vertical one, ``1``/``2`` a box's owner."""
    lines = str(theirs).split("\n")
    out = {}
    for r in range(rows + 1):
        text = lines[2 * r].ljust(4 * cols + 1)
        for c in range(cols):
            out[dots_cell("h", r, c, rows)] = "|" if text[4 * c + 2] == "─" else "-"
    for r in range(rows):
        text = lines[2 * r + 1].ljust(4 * cols + 1)
        for c in range(cols + 1):
            out[dots_cell("v", r, c, rows)] = "|" if text[4 * c] == "│" else "-"
        for c in range(cols):
            out[dots_cell("b", r, c, rows)] = {"1": "A", "2": "B"}.get(text[4 * c + 2], "-")
    return out


def dots_pairing(rows: int, cols: int) -> Pairing:
    def move(theirs, action: int) -> str:
        text = theirs.action_to_string(action)  # P1(h,0,1)
        kind, r, c = text[text.index("(") + 1:-1].split(",")
        return dots_cell(kind, int(r), int(c), rows)

    def scores(theirs) -> tuple[int, int]:
        owners = list(dots_parts(theirs, rows, cols).values())
        return owners.count("A"), owners.count("B")

    return Pairing("dots-and-boxes", f"dots_and_boxes(num_rows={rows},num_cols={cols})",
                   {"rows": str(rows), "cols": str(cols)}, move,
                   lambda theirs, game: dots_parts(theirs, rows, cols), scores)


MANCALA = Pairing("mancala", "mancala", {}, lambda theirs, action: MANCALA_CELLS[action], mancala_board,
                  mancala_scores)
PAIRINGS = [MANCALA, dots_pairing(2, 2), dots_pairing(3, 3), dots_pairing(2, 3)]


class Divergence(AssertionError):
    """The two implementations disagree."""


def our_board(game: Game, state: State) -> dict[str, str]:
    """Every cell of ours as the comparison writes it: a count as a number, else the symbol."""
    text = game.format_position(state)[1:-1].split()[1:]  # the rows, after the turn
    cells = [c for row in game.geometry.rows_listed for c in row]
    items = [item for word in text for item in (word.split(",") if game.counted else list(word))]
    return {game.geometry.cells[c].name: item for c, item in zip(cells, items)}


def play_side_by_side(pair: Pairing, seed: int) -> int:
    """One random game played in both; returns its length. Raises :class:`Divergence`."""
    game = load_game(pair.ours, pair.options)
    theirs = pyspiel.load_game(pair.theirs).new_initial_state()
    ours = game.initial_state()
    rng = random.Random(seed)
    history: list[str] = []

    def fail(what: str) -> None:
        raise Divergence(f"{pair.theirs}, seed {seed}, after {' '.join(history) or 'no move'}: {what}\n"
                         f"  ours: {game.format_position(ours)}\n  OpenSpiel:\n{theirs}")

    while True:
        mine, other = our_board(game, ours), pair.board(theirs, game)
        if mine != other:
            wrong = sorted(c for c in other if mine.get(c) != other[c])
            fail(f"boards differ at {', '.join(wrong)}")
        if game.scores(ours) != pair.scores(theirs):
            fail(f"scores here: {game.scores(ours)}, in OpenSpiel: {pair.scores(theirs)}")
        moves, outcome = game.status(ours)
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
        written = {game.format_move(ours, mv): mv for mv in moves}
        actions = {pair.move(theirs, a): a for a in theirs.legal_actions()}
        if set(written) != set(actions):
            fail(f"only here: {sorted(set(written) - set(actions))}; "
                 f"only in OpenSpiel: {sorted(set(actions) - set(written))}")
        key = rng.choice(sorted(actions))
        history.append(key)
        ours = game.apply(ours, written[key])
        theirs.apply_action(actions[key])


@pytest.mark.parametrize(("pair", "published"), [
    (MANCALA, [6, 35, 185, 942]),
    (dots_pairing(2, 2), [12, 132, 1320, 11880]),
    (dots_pairing(3, 3), [24, 552, 12144]),
], ids=["mancala", "dots-and-boxes-2x2", "dots-and-boxes-3x3"])
def test_perft_from_the_start_agrees_with_openspiel(pair, published):
    game = load_game(pair.ours, pair.options)
    start = pyspiel.load_game(pair.theirs).new_initial_state()
    theirs = [spiel_perft(start, depth) for depth in range(1, len(published) + 1)]
    ours = [game.perft(game.initial_state(), depth) for depth in range(1, len(published) + 1)]
    assert theirs == published
    assert ours == published


@pytest.mark.parametrize("pair", PAIRINGS, ids=lambda p: p.theirs)
def test_random_games_agree_with_openspiel(pair):
    """As many seeded games as fit in the time budget (shared by the pairings), at least three."""
    deadline = time.monotonic() + BUDGET_SECONDS / len(PAIRINGS)
    seed, lengths = 0, []
    while seed < 3 or time.monotonic() < deadline:
        lengths.append(play_side_by_side(pair, seed))
        seed += 1
    assert min(lengths) > 0


@pytest.mark.deep
@pytest.mark.parametrize("pair", PAIRINGS, ids=lambda p: p.theirs)
def test_a_thousand_random_games_agree_with_openspiel(pair):
    lengths = [play_side_by_side(pair, seed) for seed in range(DEEP_GAMES)]
    assert len(lengths) == DEEP_GAMES and min(lengths) > 0


def test_random_games_reach_every_effect():
    """The seeded games are not all alike: a mancala capture, a go-again into the store, a box closed with the
    turn kept, a drawn dots-and-boxes game and a won one all happen in the first hundred."""
    game = load_game("mancala")
    seen = set()
    for seed in range(100):
        rng, state = random.Random(seed), game.initial_state()
        while True:
            moves, outcome = game.status(state)
            if outcome is not None:
                break
            move = moves[rng.randrange(len(moves))]
            seen.update({"capture"} if move.captures else set())
            seen.update({"again"} if move.bonus else set())
            state = game.apply(state, move)
    boxes = load_game("dots-and-boxes")
    for seed in range(100):
        rng, state = random.Random(seed), boxes.initial_state()
        while True:
            moves, outcome = boxes.status(state)
            if outcome is not None:
                seen.add("drawn" if outcome.winner is None else "won")
                break
            move = moves[rng.randrange(len(moves))]
            after = boxes.apply(state, move)
            seen.update({"box kept the turn"} if move.bonus and after.turn == state.turn else set())
            state = after
    assert seen == {"capture", "again", "box kept the turn", "drawn", "won"}


def test_a_divergence_names_both_positions():
    wrong = Pairing("mancala", "mancala", {}, lambda theirs, action: MANCALA_CELLS[action - 1], mancala_board,
                    mancala_scores)
    with pytest.raises(Divergence) as caught:
        play_side_by_side(wrong, 0)
    assert "mancala, seed 0" in str(caught.value) and "ours: (S -,4,4,4,4,4,4 4,4,4,4,4,4,-)" in str(caught.value)


def test_the_solver_refuses_counts_in_one_line():
    game = load_game("mancala")
    with pytest.raises(SolveError) as caught:
        check_solvable(game, game.initial_state())
    assert "counts" in str(caught.value) and "\n" not in str(caught.value)


def test_the_solver_takes_dots_and_boxes_whose_key_carries_the_score():
    """A box's owner is on the board, so the key holds the score; 1 x 1: the second player draws the fourth line."""
    game = load_game("dots-and-boxes", {"rows": "1", "cols": "1"})
    check_solvable(game, game.initial_state())


@pytest.mark.deep
@pytest.mark.parametrize(("pair", "depth"), [(MANCALA, 6), (dots_pairing(3, 3), 4), (dots_pairing(2, 2), 5)],
                         ids=["mancala-6", "dots-and-boxes-3x3-4", "dots-and-boxes-2x2-5"])
def test_deeper_perft_agrees_with_openspiel(pair, depth):
    game = load_game(pair.ours, pair.options)
    start = pyspiel.load_game(pair.theirs).new_initial_state()
    assert game.perft(game.initial_state(), depth) == spiel_perft(start, depth)


def spiel_value(state, memo: dict) -> float:
    """OpenSpiel's exact value for the player to move (+1 win, 0 draw, -1 loss): minimax over its own states,
    with the same player moving again where OpenSpiel says so."""
    key = (str(state), state.current_player())
    if key not in memo:
        me, best = state.current_player(), -2.0
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            value = child.returns()[me] if child.is_terminal() else \
                spiel_value(child, memo) * (1 if child.current_player() == me else -1)
            best = max(best, value)
        memo[key] = best
    return memo[key]


@pytest.mark.parametrize(("rows", "cols"), [(1, 2), (2, 2)])
def test_the_solver_agrees_with_openspiel_on_small_dots_and_boxes(rows, cols, tmp_path):
    """The solver keys the board (lines and box owners, so the scores) and the turn; a closed box keeps the
    turn, which its retrograde analysis must follow."""
    from rulesdsl.interpreter.solver import solve

    game = load_game("dots-and-boxes", {"rows": str(rows), "cols": str(cols)})
    theirs = spiel_value(pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})").new_initial_state(),
                         {})
    ours = solve(game, game.initial_state(), use_db=False, workers=1)
    assert {1.0: "win", 0.0: "draw", -1.0: "lose"}[theirs] == ours.value
