"""Chess (rules/chess.rules) against OpenSpiel's ``chess``: perft, and seeded random games side by side.

At every position of a random game both must agree on the board, the player
to move, the castling rights, the en passant cell, the plies since a capture
or pawn move, the set of legal moves and, at the end, the result. Moves are
compared as OpenSpiel's long algebraic strings (``Move.to_lan``: ``e2e4``,
``e1g1`` castles, ``e7e8q`` promotes); ours writes the new piece's symbol,
so white's ``e7e8Q`` is compared in lower case. A promotion is one action in
both. OpenSpiel's player 0 is black, ours is white (``seat``). Perft figures
are the published ones (the issue's table), and OpenSpiel's perft from the
same positions is counted in the same run.
"""

from __future__ import annotations

import os
import random
import time

import pyspiel
import pytest
from openspiel_side_by_side import castling_rights, fen_row, spiel_perft

from rulesdsl.interpreter.compile.load import load_game

KIWIPETE_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
KIWIPETE = "(w a1,e1,h1,a8,e8,h8 - 0 r---k--r p-ppqpb- bn--pnp- ---PN--- -p--P--- --N--Q-p PPPBBPPP R---K--R)"
SECONDS = float(os.environ.get("RULESDSL_CHESS_SECONDS", "15"))  # the default run plays games for this long
DEEP_GAMES = 1000


@pytest.fixture(scope="module")
def chess():
    return load_game("chess")


@pytest.mark.parametrize("depth, count", [(1, 20), (2, 400), (3, 8902)])
def test_perft_from_the_start(chess, depth, count):
    assert chess.perft(chess.initial_state(), depth) == count


@pytest.mark.parametrize("depth, count", [(1, 48), (2, 2039)])
def test_perft_kiwipete(chess, depth, count):
    assert chess.perft(chess.parse_position(KIWIPETE), depth) == count


def test_openspiel_counts_the_same_perft():
    spiel = pyspiel.load_game("chess")
    assert spiel_perft(spiel.new_initial_state(), 3) == 8902
    assert spiel_perft(spiel.new_initial_state(KIWIPETE_FEN), 2) == 2039


@pytest.mark.deep
def test_perft_deep(chess):
    assert chess.perft(chess.initial_state(), 4) == 197281
    assert chess.perft(chess.parse_position(KIWIPETE), 3) == 97862


def fen_of(game, state) -> str:
    """Our position as the first five fields of a FEN (a game without castling has no ``unmoved`` field)."""
    words = game.format_position(state)[1:-1].split()
    if len(words) == 11:  # turn, passed, clock and eight rows
        words.insert(1, "-")
    turn, unmoved, passed, clock, rows = words[0], words[1].split(","), words[2], words[3], words[4:]
    placement = "/".join(fen_row(row) for row in rows)
    rights = castling_rights(unmoved)
    return f"{placement} {turn} {rights} {passed} {clock}"


def seat(spiel_player: int) -> int:
    """Our player for OpenSpiel's: its chess seats black as player 0 and white as 1; ours white first."""
    return 1 - spiel_player


class Divergence(AssertionError):
    """The two implementations disagree."""


def chess_keys(theirs) -> dict[str, int]:
    """OpenSpiel's chess actions by their long algebraic strings."""
    board = theirs.board()
    return {pyspiel.chess.action_to_move(a, board).to_lan(): a for a in theirs.legal_actions()}


def child_keys(theirs) -> dict[str, int]:
    """OpenSpiel's actions by the position each leads to (its antichess state has no board to name them)."""
    return {" ".join(str(theirs.child(a)).split()[:4]): a for a in theirs.legal_actions()}


def our_child_keys(game, state, moves) -> dict[str, object]:
    """Our moves by the position each leads to, as :func:`child_keys` writes it."""
    return {" ".join(fen_of(game, game.apply(state, mv)).split()[:4]): mv for mv in moves}


def play_side_by_side(game, seed: int, spiel_name: str = "chess") -> int:
    """One random game in both; returns its length in plies. Raises :class:`Divergence`."""
    spiel = pyspiel.load_game(spiel_name)
    ours, theirs = game.initial_state(), spiel.new_initial_state()
    rng = random.Random(seed)
    history: list[str] = []

    def fail(what: str) -> None:
        raise Divergence(f"seed {seed}, after {' '.join(history) or 'no move'}: {what}\n"
                         f"  ours: {game.format_position(ours)}\n  OpenSpiel: {theirs}")

    while True:
        mine = fen_of(game, ours)
        if mine != " ".join(str(theirs).split()[:5]):
            fail(f"positions differ: ours as a FEN {mine}")
        moves, outcome = game.status(ours)
        if (outcome is not None) != theirs.is_terminal():
            fail(f"over here: {outcome}, over in OpenSpiel: {theirs.is_terminal()}")
        if outcome is not None:
            returns = theirs.returns()
            winner = None if returns[0] == returns[1] else seat(0 if returns[0] > returns[1] else 1)
            if winner != outcome.winner:
                fail(f"winner here: {outcome.winner}, in OpenSpiel: {winner}")
            return len(history)
        if seat(theirs.current_player()) != game.to_move(ours):
            fail(f"to move here: {game.to_move(ours)}, in OpenSpiel: {theirs.current_player()}")
        if spiel_name == "chess":
            written = {game.format_move(ours, mv).lower(): mv for mv in moves}
            actions = chess_keys(theirs)
        else:
            written, actions = our_child_keys(game, ours, moves), child_keys(theirs)
        if set(written) != set(actions) or len(written) != len(moves):
            fail(f"only here: {sorted(set(written) - set(actions))}; "
                 f"only in OpenSpiel: {sorted(set(actions) - set(written))}")
        key = rng.choice(sorted(actions))
        history.append(key)
        ours = game.apply(ours, written[key])
        theirs.apply_action(actions[key])


def test_random_games_agree_with_openspiel(chess):
    """As many seeded games as fit in RULESDSL_CHESS_SECONDS (at least 3)."""
    began, seed, lengths = time.monotonic(), 0, []
    while seed < 3 or time.monotonic() - began < SECONDS:
        lengths.append(play_side_by_side(chess, seed))
        seed += 1
    assert min(lengths) > 0


@pytest.mark.deep
def test_a_thousand_random_games_agree_with_openspiel(chess):
    lengths = [play_side_by_side(chess, seed) for seed in range(DEEP_GAMES)]
    assert len(lengths) == DEEP_GAMES


def test_the_kiwipete_position_reads_as_its_fen(chess):
    assert fen_of(chess, chess.parse_position(KIWIPETE)) == " ".join(KIWIPETE_FEN.split()[:5])


@pytest.fixture(scope="module")
def antichess():
    return load_game("antichess")


@pytest.mark.parametrize("depth, count", [(1, 20), (2, 400), (3, 8067)])
def test_antichess_perft(antichess, depth, count):
    assert antichess.perft(antichess.initial_state(), depth) == count


def test_openspiel_counts_the_same_antichess_perft():
    assert spiel_perft(pyspiel.load_game("antichess").new_initial_state(), 3) == 8067


def test_random_antichess_games_agree_with_openspiel(antichess):
    """Antichess moves are compared by the position each leads to (OpenSpiel's antichess state lends no
    board to name them); as many seeded games as fit in a third of RULESDSL_CHESS_SECONDS."""
    began, seed, lengths = time.monotonic(), 0, []
    while seed < 3 or time.monotonic() - began < SECONDS / 3:
        lengths.append(play_side_by_side(antichess, seed, "antichess"))
        seed += 1
    assert min(lengths) > 0


@pytest.mark.deep
def test_a_thousand_random_antichess_games_agree_with_openspiel(antichess):
    lengths = [play_side_by_side(antichess, seed, "antichess") for seed in range(DEEP_GAMES)]
    assert len(lengths) == DEEP_GAMES


@pytest.mark.deep
def test_antichess_perft_4_is_openspiels(antichess):
    theirs = spiel_perft(pyspiel.load_game("antichess").new_initial_state(), 4)
    assert antichess.perft(antichess.initial_state(), 4) == theirs == 153299
