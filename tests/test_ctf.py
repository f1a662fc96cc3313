"""Capture the Flag (GAMES.md §3) and the seed's ``capture`` function, checked by hand.

Boards are N*N characters, top row first (white's home row), written below as
one string per row. Cells are named column letter plus row number from the
bottom, so on 5x5 the top row is a5..e5 and black's home row a1..e1. White
moves down the board, black up.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rulesdsl import capture
from rulesdsl.cli.main import cli
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.reference.capture import CaptureError
from rulesdsl.interpreter.search.minimax import perft

START = "-wWw-" "-www-" "-----" "-bbb-" "-bBb-"


def board(*rows: str) -> str:
    return "".join(rows)


@pytest.fixture(scope="module")
def ctf():
    return load_game("capture-the-flag")


def state_of(game, player: str, current: str, *earlier: str):
    game, state = load_position(game, f"({player} {current})")
    if earlier:
        state = game.with_history(state, list(earlier))
    return game, state


def moves_of(game, player: str, current: str, *earlier: str) -> set[str]:
    game, state = state_of(game, player, current, *earlier)
    return {game.format_move(state, mv) for mv in game.legal_moves(state)}


def winner_after(game, player: str, current: str, move: str) -> str | None:
    game, state = state_of(game, player, current)
    state = game.apply(state, game.parse_move(state, move))
    outcome = game.outcome(state)
    assert outcome is not None, f"the game goes on after {move}"
    return None if outcome.winner is None else game.players[outcome.winner].name


# ---- counts --------------------------------------------------------------------------


def test_default_start(ctf):
    assert ctf.format_position(ctf.initial_state()) == f"(w {START})"


def test_sized_starts():
    # Pawns in every column but the first and last on each side's two home
    # rows; the flag replaces the back-row pawn in column N//2 (from 0).
    assert load_game("capture-the-flag", {"size": "4"}).initial_state().board == board(
        "-wW-", "-ww-", "-bb-", "-bB-")
    assert load_game("capture-the-flag", {"size": "6"}).initial_state().board == board(
        "-wwWw-", "-wwww-", "------", "------", "-bbbb-", "-bbBb-")


@pytest.mark.parametrize("size, counts", [
    (5, [7, 49, 450, 4062, 38716]),
    (4, [4, 20, 133, 909, 5903]),
    (6, [8, 64, 704, 7695]),
])
def test_perft(size, counts):
    game = load_game("capture-the-flag", {"size": str(size)})
    state = game.initial_state()
    assert [perft(game, state, d) for d in range(1, len(counts) + 1)] == counts


# White's seven first moves from the start, by hand: b5 and d5 step sideways
# out (a5, e5); the second-row pawns step down (b3, c3, d3) or out (a4, e4).
SEVEN = {
    board("w-Ww-", "-www-", "-----", "-bbb-", "-bBb-"),   # b5-a5
    board("-wW-w", "-www-", "-----", "-bbb-", "-bBb-"),   # d5-e5
    board("-wWw-", "--ww-", "-w---", "-bbb-", "-bBb-"),   # b4-b3
    board("-wWw-", "-w-w-", "--w--", "-bbb-", "-bBb-"),   # c4-c3 (the seed's example)
    board("-wWw-", "-ww--", "---w-", "-bbb-", "-bBb-"),   # d4-d3
    board("-wWw-", "w-ww-", "-----", "-bbb-", "-bBb-"),   # b4-a4
    board("-wWw-", "-ww-w", "-----", "-bbb-", "-bBb-"),   # d4-e4
}


def test_the_seven_first_moves(ctf):
    state = ctf.initial_state()
    assert {ctf.apply(state, mv).board for mv in ctf.legal_moves(state)} == {
        ctf.parse_board(b) for b in SEVEN}
    assert moves_of(ctf, "w", START) == {"b5-a5", "d5-e5", "b4-b3", "c4-c3", "d4-d3", "b4-a4", "d4-e4"}


# ---- repetition --------------------------------------------------------------------

# The "infinite cha-cha": the flags step left and back.
CHA_A = board("--W--", "-w---", "-----", "---b-", "--B--")
CHA_B = board("-W---", "-w---", "-----", "---b-", "--B--")   # white flag c5-b5
CHA_C = board("-W---", "-w---", "-----", "---b-", "-B---")   # black flag c1-b1
CHA_D = board("--W--", "-w---", "-----", "---b-", "-B---")   # white flag b5-c5


def test_repetition_forbids_a_move(ctf):
    # Black in D: flag b1 up, left or right (back to c1); pawn d2 up, left, right.
    free = {"b1-b2", "b1-a1", "b1-c1", "d2-d3", "d2-c2", "d2-e2"}
    assert moves_of(ctf, "b", CHA_D) == free
    # b1-c1 would bring back board A.
    assert moves_of(ctf, "b", CHA_D, CHA_C, CHA_B, CHA_A) == free - {"b1-c1"}


def test_the_history_grows_as_the_game_goes(ctf):
    game, state = state_of(ctf, "w", CHA_A)
    for move in ("c5-b5", "c1-b1", "b5-c5"):
        state = game.apply(state, game.parse_move(state, move))
    assert state.board == game.parse_board(CHA_D)
    assert "b1-c1" not in {game.format_move(state, mv) for mv in game.legal_moves(state)}


def test_history_from_the_command_line():
    runner = CliRunner()
    result = runner.invoke(cli, ["moves", "capture-the-flag", "--position", f"(b {CHA_D})",
                                 "--history", CHA_C, "--history", CHA_B, "--history", CHA_A])
    assert result.exit_code == 0, result.output
    assert {line.split("\t")[0] for line in result.stdout.splitlines()} == {
        "b1-b2", "b1-a1", "d2-d3", "d2-c2", "d2-e2"}


# ---- the end -------------------------------------------------------------------------


def test_flag_past_every_pawn_wins(ctf):
    # Black's only pawn is on a4 (row 4). White's flag on c4 is level with it;
    # one step down to c3 puts it strictly beyond: white wins.
    current = board("----w", "b-W--", "-----", "-----", "----B")
    assert winner_after(ctf, "w", current, "c4-c3") == "white"
    # Level is not beyond: d4 keeps the game going.
    game, state = state_of(ctf, "w", current)
    state = game.apply(state, game.parse_move(state, "c4-d4"))
    assert game.outcome(state) is None


def test_capturing_the_flag_wins(ctf):
    current = board("--W--", "-----", "--w--", "--B--", "-b-b-")
    assert winner_after(ctf, "w", current, "c3-c1") == "white"


def test_capturing_the_last_pawn_wins(ctf):
    current = board("W----", "-----", "-w---", "-b---", "----B")
    assert winner_after(ctf, "w", current, "b3-b1") == "white"


# Black's flag a1 and pawn b1 are walled in by white on a2, b2, b3 and c1.
WALLED = board("--W--", "-----", "-w---", "ww-w-", "Bbw--")


def test_opponent_without_moves_loses(ctf):
    # After d2-d1 black's pawn cannot jump c1 (d1 taken) nor b2 (b3 taken).
    assert winner_after(ctf, "w", WALLED, "d2-d1") == "white"


def test_the_history_counts_for_having_no_move(ctf):
    # Black's only move is b1 jumping c1 into d1; if that board was seen
    # before, black has no legal move and white (the last mover) has won.
    current = board("--W--", "-----", "-w---", "ww---", "Bbw--")
    only = board("--W--", "-----", "-w---", "ww---", "B--b-")
    assert moves_of(ctf, "b", current) == {"b1-d1"}
    game, state = state_of(ctf, "b", current, only)
    assert game.legal_moves(state) == []
    assert game.players[game.outcome(state).winner].name == "white"


# ---- capture() ---------------------------------------------------------------------


def test_capture_from_the_start_is_one_of_whites_seven_boards():
    result = capture([START], "w", 2)
    assert result in SEVEN


def test_capture_returns_a_board_in_the_same_format():
    result = capture([START], "w", 1)
    assert len(result) == 25 and set(result) <= set("wWbB-")


FLAG_IN_REACH = board("--W--", "-----", "--w--", "--B--", "-b-b-")
FLAG_TAKEN = board("--W--", "-----", "-----", "-----", "-bwb-")


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_capture_takes_the_flag(depth):
    assert capture([FLAG_IN_REACH], "w", depth) == FLAG_TAKEN


@pytest.mark.parametrize("depth", [1, 2])
def test_capture_never_repeats_a_board_of_the_history(depth):
    # The flag capture is the best move, but its board is in the history.
    result = capture([FLAG_IN_REACH, FLAG_TAKEN], "w", depth)
    assert result != FLAG_TAKEN
    assert result in {board("-W---", "-----", "--w--", "--B--", "-b-b-"),   # c5-b5
                      board("---W-", "-----", "--w--", "--B--", "-b-b-"),   # c5-d5
                      board("-----", "--W--", "--w--", "--B--", "-b-b-"),   # c5-c4
                      board("--W--", "-----", "-w---", "--B--", "-b-b-"),   # c3-b3
                      board("--W--", "-----", "---w-", "--B--", "-b-b-")}   # c3-d3


def test_capture_for_black_with_a_history():
    result = capture([CHA_D, CHA_C, CHA_B, CHA_A], "b", 2)
    assert result not in {CHA_D, CHA_C, CHA_B, CHA_A}
    assert result in {board("--W--", "-w---", "-----", "-B-b-", "-----"),   # b1-b2
                      board("--W--", "-w---", "-----", "---b-", "B----"),   # b1-a1
                      board("--W--", "-w---", "---b-", "-----", "-B---"),   # d2-d3
                      board("--W--", "-w---", "-----", "--b--", "-B---"),   # d2-c2
                      board("--W--", "-w---", "-----", "----b", "-B---")}   # d2-e2


def test_capture_on_a_3x3_board():
    # No default start for N = 3, but positions work. White's pawn b2 may
    # step to a2 or c2; a jump over the flag b1 would leave the board.
    result = capture([board("-W-", "-w-", "bB-")], "w", 1)
    assert result in {board("-W-", "w--", "bB-"), board("-W-", "--w", "bB-"),
                      board("W--", "-w-", "bB-"), board("--W", "-w-", "bB-")}


@pytest.mark.parametrize("history, player, depth, words", [
    ([], "w", 2, "empty"),
    ("-wWw--www-------bbb--bBb-", "w", 2, "list"),
    ([START[:-1]], "w", 2, "24 characters"),
    ([START.replace("B", "x")], "w", 2, "'x'"),
    ([START, "-" * 16], "w", 2, "same size"),
    ([START, 7], "w", 2, "not a string"),
    (["----"], "w", 2, "2x2"),
    ([START], "x", 2, "'w' or 'b'"),
    ([START], "W", 2, "'w' or 'b'"),
    ([START], "w", 0, "at least 1"),
    ([START], "w", -3, "at least 1"),
    ([START], "w", 1.5, "whole number"),
    ([START], "w", True, "whole number"),
    (["-" * 25], "w", 2, "over"),
])
def test_capture_bad_inputs(history, player, depth, words):
    with pytest.raises(CaptureError) as caught:
        capture(history, player, depth)
    assert isinstance(caught.value, RulesdslError)
    message = str(caught.value)
    assert words in message
    assert "\n" not in message


def test_capture_when_the_player_has_no_move():
    # Black to move in the walled-in position has no move: white has won.
    walled = board("--W--", "-----", "-w---", "ww---", "Bbww-")
    with pytest.raises(CaptureError, match="white has won"):
        capture([walled], "b", 2)


# ---- the capture command -----------------------------------------------------------


def test_capture_command_prints_the_board():
    runner = CliRunner()
    result = runner.invoke(cli, ["capture", FLAG_IN_REACH, "--player", "w", "--depth", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout == FLAG_TAKEN + "\n"


def test_capture_command_takes_the_history():
    runner = CliRunner()
    result = runner.invoke(cli, ["capture", START, "--player", "w", "--depth", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() in SEVEN
    result = runner.invoke(cli, ["capture", "-p", "w", "-d", "1", "--", FLAG_IN_REACH, FLAG_TAKEN])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() not in (FLAG_IN_REACH, FLAG_TAKEN)


def test_capture_command_bad_board_is_one_line_exit_1():
    runner = CliRunner()
    result = runner.invoke(cli, ["capture", "-wWw-", "--player", "w"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "5 characters" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    [START, "--player", "x"],
    [START, "--player", "w", "--depth", "0"],
    [START, "--player", "w", "--depth", "two"],
    [START],
    ["--player", "w"],
])
def test_capture_command_usage_errors_exit_2(args):
    result = CliRunner().invoke(cli, ["capture", *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
