"""Abalone on a grid (GAMES.md §2): counts and hand-made positions worked out by hand.

Positions are ``(T row1 row2 ...)`` with the **bottom** row first; cells are
column letter plus row number. A move ``a1-b1`` picks the marble on a1 and
moves its line one cell towards b1. Captures are not stored: a side's captures
are the pieces the other side started with (n + m - 3) minus those on the board,
so the small positions below raise ``captures`` (or the pieces left would
already count as captures).
"""

from __future__ import annotations

import pytest
from helpers import after, moves_of

from rulesdsl.errors import OptionError
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft


def pos(turn: str, *rows: str) -> str:
    """A position string from the rows, bottom row (row 1) first."""
    return f"({turn} {' '.join(rows)})"


def game_with(**options: object):
    return load_game("abalone", {k: str(v) for k, v in options.items()})






def winner_name(game, state) -> str | None:
    outcome = game.outcome(state)
    assert outcome is not None, "the game is not over"
    return None if outcome.winner is None else game.players[outcome.winner].name


# ---- counts --------------------------------------------------------------------------


def test_default_start():
    game = load_game("abalone")
    assert game.format_position(game.initial_state()) == pos("b", "bbb-", "b--w", "b--w", "-www")


def test_perft_4x4_strict_freeze():
    game = load_game("abalone")
    state = game.initial_state()
    assert [perft(game, state, d) for d in (1, 2, 3, 4, 5)] == [15, 211, 2971, 37082, 464685]


def test_perft_4x4_without_freeze():
    game = game_with(freeze="off")
    state = game.initial_state()
    assert [perft(game, state, d) for d in (1, 2, 3, 4)] == [15, 217, 3307, 47774]


def test_perft_5x5_three_captures():
    game = game_with(rows=5, cols=5, captures=3)
    state = game.initial_state()
    assert [perft(game, state, d) for d in (1, 2, 3, 4)] == [23, 509, 11894, 270373]


# ---- options ------------------------------------------------------------------------


def test_captures_out_of_range_is_a_clear_option_error():
    # c ranges over 1 .. n + m - 3 = 5 on 4x4.
    with pytest.raises(OptionError) as caught:
        game_with(captures=6)
    message = str(caught.value)
    assert "\n" not in message
    assert "captures" in message and "1" in message and "5" in message
    with pytest.raises(OptionError):
        game_with(captures=0)
    assert game_with(captures=5).options["captures"] == 5
    assert game_with(rows=5, captures=6).options["captures"] == 6   # 5 + 4 - 3 = 6


def test_bad_freeze_mode_is_an_option_error():
    with pytest.raises(OptionError):
        game_with(freeze="sometimes")


# ---- freeze ------------------------------------------------------------------------

# Black a1, b1; white b2, b3. White's line b3-b2 could push b1 south off the
# board (two against one), so b1 is frozen; nothing white has can displace a1.
# Black's moves without freeze: a1-a2, a1-b1 (the line a1 b1 steps east),
# b1-c1, b1-c2, b1-a2. (a1-b2 and b1-b2 push one against one or against two:
# illegal; b1-a1 would push black's own a1 off the board.)
FREEZE = pos("b", "bb--", "-w--", "-w--", "----")


def test_freeze_strict_blocks_a_line_that_would_shift_a_frozen_piece():
    assert moves_of(game_with(captures=5), FREEZE) == {"a1-a2"}


def test_freeze_loose_lets_the_line_shift_a_frozen_piece():
    game = game_with(captures=5, freeze="loose")
    assert moves_of(game, FREEZE) == {"a1-a2", "a1-b1"}
    game, state = after(game, FREEZE, "a1-b1")
    assert game.format_position(state) == pos("w", "-bb-", "-w--", "-w--", "----")


def test_freeze_off_allows_every_push():
    assert moves_of(game_with(captures=5, freeze="off"), FREEZE) == {
        "a1-a2", "a1-b1", "b1-c1", "b1-c2", "b1-a2"}


# ---- pushes ------------------------------------------------------------------------


def test_a_line_never_pushes_its_own_piece_off():
    # b1-a1 would move b1 onto a1 and a1 off the board.
    game = game_with(captures=5, freeze="off")
    assert "b1-a1" not in moves_of(game, FREEZE)
    # The same line pushed towards the inside is fine.
    assert "a1-b1" in moves_of(game, FREEZE)


def test_sandwich_is_illegal():
    game = game_with(captures=5, freeze="off")
    # a1 b1 against c1, with black's own d1 behind it.
    assert "a1-b1" not in moves_of(game, pos("b", "bbwb", "----", "----", "----"))
    # With d1 empty the same push is legal and c1 moves to d1.
    game, state = after(game, pos("b", "bbw-", "----", "----", "----"), "a1-b1")
    assert game.format_position(state) == pos("w", "-bbw", "----", "----", "----")


def test_numerical_superiority():
    # 4 rows x 5 columns: n + m - 3 = 6 pieces a side at the start.
    game = game_with(cols=5, captures=6, freeze="off")
    empty = "-----"
    assert "a1-b1" not in moves_of(game, pos("b", "bw---", empty, empty, empty))   # 1 vs 1
    assert "a1-b1" not in moves_of(game, pos("b", "bbww-", empty, empty, empty))   # 2 vs 2
    game2, state = after(game, pos("b", "bbw--", empty, empty, empty), "a1-b1")    # 2 vs 1
    assert game2.format_position(state) == pos("w", "-bbw-", empty, empty, empty)
    # 3 vs 2 at the edge: e1 falls off, d1 moves to e1.
    game3, state = after(game, pos("b", "bbbww", empty, empty, empty), "a1-b1")
    assert game3.format_position(state) == pos("w", "-bbbw", empty, empty, empty)
    assert state.board.count("w") == 1


# Black a1 b1 c1 a2 (one lost), white d1 d3 c4 d4 (one lost); nothing of black's
# is frozen (white's lines are blocked or push into empty cells).
CAPTURE = pos("b", "bbbw", "b---", "---w", "--ww")


def test_push_off_the_edge_captures():
    game = game_with(captures=3)
    game, state = after(game, CAPTURE, "b1-c1")
    assert game.format_position(state) == pos("w", "b-bb", "b---", "---w", "--ww")
    assert state.board.count("w") == 3
    assert game.outcome(state) is None   # black has 2 captures of 3


def test_reaching_the_captures_wins():
    game = load_game("abalone")   # c = 2
    assert moves_of(game, CAPTURE) >= {"b1-c1", "a1-b1"}
    for move in ("b1-c1", "a1-b1"):
        game2, state = after(game, CAPTURE, move)
        assert winner_name(game2, state) == "black"
        assert game2.legal_moves(state) == []


def test_misere_reaching_the_captures_loses():
    game, state = after(game_with(misere="true"), CAPTURE, "b1-c1")
    assert winner_name(game, state) == "white"


# Black's only marble a1 faces white on a2, b2 and b1: one against one
# everywhere, and every other direction leaves the board.
TRAPPED = pos("b", "bw--", "ww--", "----", "----")


def test_trapped_player_loses():
    game, state = load_position(game_with(captures=5), TRAPPED)
    assert game.legal_moves(state) == []
    assert winner_name(game, state) == "white"


def test_misere_trapped_player_wins():
    game, state = load_position(game_with(captures=5, misere="true"), TRAPPED)
    assert winner_name(game, state) == "black"


def test_six_direction_variant_has_no_nw_se_line():
    # Without freeze, the square grid's five moves lose b1-a2 (nw); b1-c2 (ne) stays.
    moves = moves_of(load_game("abalone-hex6", {"captures": "5", "freeze": "off"}), FREEZE)
    assert moves == {"a1-a2", "a1-b1", "b1-c1", "b1-c2"}
