"""``rulesdsl play`` with no game: a short menu (rules/menu.yaml), Enter for its first entry."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.cli import menu
from rulesdsl.cli.repl import PipedLines
from rulesdsl.errors import OptionError
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.loader import parse_setting

ROOT = Path(__file__).resolve().parents[1]


def test_every_entry_loads_with_its_settings():
    entries = menu.choices()
    assert 3 <= len(entries) <= 8  # a short menu
    assert (entries[0].game, entries[0].settings) == ("konane", ("rows=6", "cols=6"))
    for entry in entries:
        game = load_game(entry.game, dict(parse_setting(s) for s in entry.settings))
        assert game.legal_moves(game.initial_state()), entry


def test_answers_enter_a_number_or_a_name():
    entries = menu.choices()
    assert menu.pick(entries, "") is entries[0]
    assert menu.pick(entries, " 2 ") is entries[1]
    assert menu.pick(entries, entries[2].game.upper()) is entries[2]
    for bad in ("0", str(len(entries) + 1), "chess?"):
        with pytest.raises(OptionError, match="choose a number from 1 to"):
            menu.pick(entries, bad)


def test_a_bad_answer_is_one_line_and_the_question_comes_again():
    out = io.StringIO()
    choice = menu.ask(PipedLines(io.StringIO("nine\n3\n"), out), out)
    assert choice == menu.choices()[2]
    lines = out.getvalue().splitlines()
    assert lines.count("game [1]> nine") == 1 and lines.count("game [1]> 3") == 1
    assert lines[lines.index("game [1]> nine") + 1].startswith("error: choose a number from 1 to ")
    assert menu.ask(PipedLines(io.StringIO(""), out), out) is None  # end of input: no game, no error


def test_quit_at_the_menu_leaves_without_an_error():
    for word in ("quit", "exit", " Q "):
        out = io.StringIO()
        assert menu.ask(PipedLines(io.StringIO(f"{word}\n3\n"), out), out) is None
        assert "error" not in out.getvalue()
    done = subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", "play"], input="quit\n",
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == "" and "error" not in done.stdout


def test_the_command_with_no_game_plays_konane_6x6_after_enter():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", "play", "--depth", "1"], input="\nquit\n",
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Which game?")
    assert lines[lines.index("game [1]> ") + 1].startswith("Konane (rows=6, cols=6): you play white")
    board = [line for line in lines if line[:1].isdigit() and " " in line]
    assert len(board) == 6 and all(len(line.split()) == 7 for line in board)  # six rows of six cells


def test_a_position_needs_a_game():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", "play", "--position", "(w)"], input="",
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 2 and "need a game" in done.stderr and "Traceback" not in done.stderr


def test_the_menu_at_a_terminal_reads_with_prompt_toolkit():
    from prompt_toolkit.application.current import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from rulesdsl.cli.repl import TerminalLines

    out = io.StringIO()
    with create_pipe_input() as keys:
        keys.send_text("2\n")
        with create_app_session(input=keys, output=DummyOutput()):
            choice = menu.ask(TerminalLines(), out)
    assert choice == menu.choices()[1]
    assert out.getvalue().startswith("Which game?")
