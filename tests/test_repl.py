"""The REPL driven by piped lines, with Konane as the game."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.cli import repl
from rulesdsl.cli.repl import humans_for, run_repl
from rulesdsl.interpreter.compile.load import load_game

START = '(w "" wbwb bwb- w-wb)'
AFTER_B2D2 = '(b "" wbwb b--w w-wb)'
THREE_MOVES = "(b d1 wbw- b--- --wb)"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def konane():
    return load_game("konane")


def play(game, lines: str, state=None, **options) -> tuple[int, str]:
    """Run the REPL on piped ``lines``; the exit code and everything printed."""
    options.setdefault("as_player", "white")
    options.setdefault("depth", 2)
    out = io.StringIO()
    code = run_repl(game, state, stdin=io.StringIO(lines), stdout=out, interactive=False, **options)
    return code, out.getvalue()


def after(text: str, marker: str) -> str:
    """What was printed after the last ``marker``."""
    assert marker in text
    return text.rsplit(marker, 1)[1]


def test_start_shows_board_turn_and_position(konane):
    code, text = play(konane, "")
    assert code == 0
    assert "3 w b w b\n2 b w b .\n1 w . w b\n  a b c d\n" in text
    assert "white to move (you)" in text
    assert f"position: {START}" in text


def test_moves_lists_the_only_opening(konane):
    _, text = play(konane, "moves\n")
    assert after(text, "white> moves\n").splitlines()[0] == "1 legal move: b2-d2"


def test_bad_lines_get_one_line_each_and_the_game_goes_on(konane):
    bad = ["hello", "b2-b4", "z9-z7", "depth x", "depth 0", "load (nonsense", "undo", "#$%"]
    code, text = play(konane, "\n".join([*bad, "moves", ""]))
    assert code == 0
    assert "Traceback" not in text
    for line in bad:
        reply = after(text, f"white> {line}\n").splitlines()[0]
        assert reply.startswith(("error: ", "nothing to undo")), (line, reply)
        assert not reply.startswith("white>")
    assert after(text, "white> moves\n").splitlines()[0] == "1 legal move: b2-d2"


def test_all_humans_alternate_and_black_has_one_move(konane):
    code, text = play(konane, "b2-d2\nmoves\n", as_player="all")
    assert code == 0
    rest = after(text, "white> b2-d2\n")
    assert "black to move\n" in rest
    assert f"position: {AFTER_B2D2}" in rest
    assert after(text, "black> moves\n").splitlines()[0].startswith("1 legal move: ")


def test_load_then_moves_lists_three(konane):
    _, text = play(konane, f"load {THREE_MOVES}\nmoves\nposition\n", as_player="all")
    listing = after(text, "black> moves\n").splitlines()[0]
    assert listing.startswith("3 legal moves: ")
    assert set(listing.split(": ", 1)[1].split(", ")) == {"d1-b1", "b3-d3", "pass"}
    assert after(text, "black> position\n").splitlines()[0] == THREE_MOVES
    assert "black to move again (last move ended on d1)" in text


def test_load_of_a_bigger_board_redraws_it(konane):
    _, text = play(konane, 'load (w "" bwbw wbwb b--w wbwb)\nposition\n', as_player="all")
    assert "4 b w b w\n3 w b w b\n2 b . . w\n1 w b w b\n  a b c d" in text
    assert after(text, "white> position\n").splitlines()[0] == '(w "" bwbw wbwb b--w wbwb)'


def test_engine_replies_and_undo_takes_back_both(konane):
    code, text = play(konane, "b2-d2\nundo\nposition\nundo\n")
    assert code == 0
    reply = after(text, "white> b2-d2\n")
    assert reply.startswith("black plays ")
    undone = after(text, "white> undo\n").splitlines()
    assert undone[0] == "nothing to undo"
    first_undo = text.split("white> undo\n")[1].splitlines()[0]
    assert first_undo.startswith("took back ") and first_undo != "took back 1 ply"
    assert after(text, "white> position\n").splitlines()[0] == START


def test_undo_with_two_humans_takes_back_one_ply(konane):
    _, text = play(konane, "b2-d2\nundo\nposition\n", as_player="all")
    assert after(text, "black> undo\n").splitlines()[0] == "took back 1 ply"
    assert after(text, "white> position\n").splitlines()[0] == START


def test_hint_suggests_without_playing(konane):
    _, text = play(konane, "hint\nposition\n")
    assert after(text, "white> hint\n").startswith("hint: b2-d2 (")
    assert after(text, "white> position\n").splitlines()[0] == START


def test_depth_is_shown_and_set(konane):
    _, text = play(konane, "depth\ndepth 5\ndepth\n", depth=3)
    assert text.split("white> depth\n")[1].splitlines()[0] == "depth 3"
    assert after(text, "white> depth 5\n").splitlines()[0] == "depth 5"
    assert after(text, "white> depth\n").splitlines()[0] == "depth 5"


def test_quit_stops_reading(konane):
    code, text = play(konane, "quit\nb2-d2\n")
    assert code == 0
    assert "white> quit" in text
    assert "b2-d2\n" not in after(text, "white> quit")


def test_help_lists_every_command(konane):
    _, text = play(konane, "help\n")
    shown = after(text, "white> help\n")
    for command in repl.COMMANDS:
        assert f"  {command}" in shown


def test_engine_plays_itself_to_the_end(konane):
    code, text = play(konane, "", as_player="none")
    assert code == 0
    assert text.splitlines()[-1].endswith(")") and " wins (" in text.splitlines()[-1]
    assert "white plays b2-d2" in text
    assert "white>" not in text and "black>" not in text  # never prompted


def test_human_as_black_sees_the_engine_open(konane):
    _, text = play(konane, "moves\n", as_player="2")
    assert text.index("white plays b2-d2") < text.index("black> moves")
    assert "black to move (you)" in text


def test_the_end_is_announced_and_undo_still_works(konane):
    # black to move with no jump and no go-again: black has lost
    state = konane.parse_position('(b "" w--- ---- --w-)')
    code, text = play(konane, "a1-a3\nundo\n", state=state, as_player="black")
    assert code == 0
    assert "white wins" in text
    assert after(text, "game over> a1-a3\n").splitlines()[0].startswith("the game is over")
    assert after(text, "game over> undo\n").splitlines()[0] == "nothing to undo"


def test_unknown_side_is_one_line_and_exit_2(konane):
    err = io.StringIO()
    code, text = play(konane, "", as_player="green", stderr=err)
    assert code == 2 and text == ""  # the error goes to stderr (issue 22, old #33)
    assert err.getvalue().count("\n") == 1 and err.getvalue().startswith("error: unknown player 'green'")


def test_humans_for_names_symbols_and_numbers(konane):
    assert humans_for(konane, "white") == humans_for(konane, "w") == humans_for(konane, "1") == {0}
    assert humans_for(konane, "BLACK") == {1}
    assert humans_for(konane, "all") == {0, 1}
    assert humans_for(konane, "none") == frozenset()


def test_no_side_is_asked_for_the_human_plays_first_and_is_told_how_to_change(konane):
    code, text = play(konane, "quit\n", as_player=None)
    assert code == 0
    assert text.splitlines()[0] == ("Konane: you play white against the engine (depth 2). "
                                    "Type help for commands; play black with --as black.")
    assert "Play as" not in text and "white to move (you)" in text


def test_history_size_is_shown(konane):
    state = konane.initial_state()._replace(history=frozenset({"x", "y"}))
    _, text = play(konane, "", state=state)
    assert "history: 2 boards" in text


def test_unexpected_error_keeps_the_game(konane, monkeypatch):
    def broken(state, text):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(konane, "parse_move", broken)
    code, text = play(konane, "b2-d2\nposition\n")
    assert code == 0
    assert after(text, "white> b2-d2\n").splitlines()[0].startswith("internal error: ZeroDivisionError")
    assert after(text, "white> position\n").splitlines()[0] == START


def test_engine_failure_hands_its_side_over(konane, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no engine today")

    monkeypatch.setattr(repl, "choose", broken)
    code, text = play(konane, "b2-d2\nmoves\n")
    assert code == 0
    assert "engine stopped (no engine today); you now play black" in text
    assert after(text, "black> moves\n").startswith("1 legal move: ")


def test_interactive_session_uses_prompt_toolkit(konane):
    from prompt_toolkit.application.current import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    out = io.StringIO()
    with create_pipe_input() as keys:
        keys.send_text("moves\nquit\n")
        with create_app_session(input=keys, output=DummyOutput()):
            code = run_repl(konane, as_player="2", depth=2, stdout=out, interactive=True)
    assert code == 0
    text = out.getvalue()
    assert "white plays b2-d2" in text
    assert "1 legal move: " in text


def test_piped_session_through_the_cli_ends_cleanly():
    session = "hello\nmoves\nb2-d2\nnot a move\nundo\ndepth banana\nload (x\n"
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "rulesdsl.cli.main", "play", "konane"],
        input=session, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "b2-d2" in done.stdout
    assert done.stdout.count("error: ") >= 4


def test_a_broken_game_ends_with_one_line_and_the_position(konane, monkeypatch):
    def broken(state):
        raise KeyError("rules bug")

    monkeypatch.setattr(konane, "status", broken)
    code, text = play(konane, "moves\n")
    assert code == 1
    assert "Traceback" not in text
    assert text.splitlines()[-1] == f"internal error: KeyError: 'rules bug'; position: {START}"


def test_load_takes_earlier_boards_for_a_game_that_forbids_repetition():
    game = load_game("capture-the-flag")
    start = "-wWw--www-------bbb--bBb-"
    moved = "-wWw--www------b-bb--bBb-"  # black's b2 pawn stepped left to a2
    lines = f"load (b {moved})\nmoves\nload (b {moved}) {start}\nmoves\nquit\n"
    out = io.StringIO()
    run_repl(game, game.initial_state(), as_player="all", depth=1, stdin=io.StringIO(lines), stdout=out,
             interactive=False)
    first, second = out.getvalue().split("history: 1 board\n")
    # Stepping back to b2 would make the start board again: legal without history, not with it.
    assert "a2-b2" in first.split("legal move")[-1]
    assert "a2-b2" not in second.split("legal move")[-1]


def test_an_unknown_word_is_an_unknown_command_not_a_cell(konane):
    _, text = play(konane, "clear\nhlep\nb2-d2x\n")
    reply = after(text, "white> clear\n").splitlines()[0]
    assert reply.startswith("error: unknown command 'clear' (commands: moves, hint, value, why, trace, undo, ")
    assert reply.endswith("; or a move, e.g. b2-d2)")  # the only legal move at the start (GAMES.md §1)
    assert after(text, "white> hlep\n").startswith("error: unknown command 'hlep'; did you mean 'help'? (commands: ")
    assert "unknown command" not in after(text, "white> b2-d2x\n").splitlines()[0]  # looks like a move


def test_pass_is_a_move_word_not_an_unknown_command(konane):
    _, text = play(konane, "pass\n")  # no go-again at the start: pass is not legal, but it is a move
    reply = after(text, "white> pass\n").splitlines()[0]
    assert reply.startswith("error: ") and "unknown command" not in reply


def test_the_board_marks_where_the_last_move_landed_and_counts_captures(konane):
    _, text = play(konane, "b2-d2\n", depth=1)
    # GAMES.md §1 start: each side has 5 stones, none captured yet.
    assert "white 5 on the board, captured 0; black 5 on the board, captured 0" in text
    reply = after(text, "white> b2-d2\n")
    black = [line.split()[-1] for line in reply.splitlines() if line.startswith("black plays ")]
    assert black, reply
    board = reply.split("white to move")[0]
    for move in black:
        if move != "pass":  # the cell each of black's jumps landed on is in brackets
            target = move.split("-")[1]
            row = [line for line in board.splitlines() if line.startswith(target[1])][0]
            column = "abcd".index(target[0])
            assert row[2 + 2 * column - 1] + row[2 + 2 * column + 1] == "()", (row, target)
    # b2-d2 took one black stone; each black jump took one white stone.
    jumps = sum(1 for m in black if m != "pass")
    assert f"white {5 - jumps} on the board, captured 1; black 4 on the board, captured {jumps}" in reply


def test_the_hint_says_what_its_score_means(konane):
    _, text = play(konane, "hint\n", depth=1)
    hint = after(text, "white> hint\n").splitlines()[0]
    # depth 1 sees no end: the score is konane.rules' default evaluation (no evaluate block: mobility)
    assert hint.startswith("hint: b2-d2 (score ")
    assert hint.endswith(" from white's view: mobility 1, each white's minus black's)")


def test_options_away_from_their_defaults_are_named_in_the_first_line():
    game = load_game("konane", {"rows": "6", "cols": "6"})
    _, text = play(game, "")
    assert text.startswith("Konane (rows=6, cols=6): you play white against the engine")


def test_board_redraws_the_marks_and_undo_clears_them(konane):
    _, text = play(konane, "b2-d2\nboard\nundo\n", depth=1)
    redrawn = after(text, "white> board\n").split("white to move")[0]
    assert "(" in redrawn and ")" in redrawn
    back = after(text, "white> undo\n")
    assert "3 w b w b\n2 b w b .\n1 w . w b\n" in back  # the start again, nothing in brackets
