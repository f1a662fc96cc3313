"""Flipping: ``place KIND flanking DIRS``, ``pass when no moves`` and ``nobody can move``.

Perft counts from the Othello start are the widely published ones (no pass
happens before ply 9), not this program's output.
"""

from __future__ import annotations

from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft
from rulesdsl.verify import check_file

OTHELLO = [4, 12, 56, 244, 1396, 8200]


def test_othello_perft():
    game = load_game("othello")
    state = game.initial_state()
    assert [perft(game, state, d) for d in range(1, len(OTHELLO) + 1)] == OTHELLO


def test_a_placement_turns_the_outflanked_disc():
    game = load_game("othello")
    state = game.initial_state()
    # Rows from the top: d4 is white, d5 black; black on d3 outflanks d4.
    after = game.apply(state, game.parse_move(state, "d3"))
    assert game.format_position(after) == (
        "(w -------- -------- ---b---- ---bb--- ---bw--- -------- -------- --------)")


def test_every_outflanked_line_turns_at_once():
    # Rows from the top:  b - b -  /  w w - -  /  - w - -  /  b - - -   (black to move)
    game, state = load_position(load_game("othello", {"size": "4"}), "(b b-b- ww-- -w-- b---)")
    moves = sorted(game.format_move(state, m) for m in game.legal_moves(state))
    # a3: north a2 (w) then a1 (b); north-east b2 (w) then c1 (b): both turn.
    # c2: south-west b3 (w) then a4 (b).   c3: north-west b2 (w) then a1 (b).
    # Every other empty cell meets no white run closed by a black disc
    # (b1: south b2, b3 then empty b4; c4: north-west b3, a2 then the edge).
    assert moves == ["a3", "c2", "c3"]
    after = game.apply(state, game.parse_move(state, "a3"))
    assert game.format_position(after) == "(w b-b- bb-- bw-- b---)"


def test_a_player_without_a_move_passes_and_nobody_moving_ends_the_game():
    game, state = load_position(load_game("othello", {"size": "4"}), "(w bbbb bbbb bbbb bbw-)")
    assert [game.format_move(state, m) for m in game.legal_moves(state)] == ["pass"]
    after = game.apply(state, game.legal_moves(state)[0])
    assert game.format_position(after) == "(b bbbb bbbb bbbb bbw-)"
    assert [game.format_move(after, m) for m in game.legal_moves(after)] == ["d4"]
    final = game.apply(after, game.legal_moves(after)[0])
    outcome = game.outcome(final)  # the board is full: 16 black discs
    assert outcome is not None and game.players[outcome.winner].name == "black"


def test_equal_counts_when_nobody_can_move_is_a_draw():
    game, state = load_position(load_game("othello", {"size": "4"}), "(b bbbb bbbb wwww wwww)")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner is None


def test_the_rule_file_checks_clean():
    report = check_file("othello")
    assert [d.one_line() for d in report.diagnostics] == []
