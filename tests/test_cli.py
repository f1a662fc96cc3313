"""The command line: moves, perft, move and check, their options, and errors as one line.

Exit codes (cli/main.py): 0 success, 1 invalid rule file / position / move,
2 usage error (click's own, and bad ``--set``). Expected outputs are worked
out by hand from GAMES.md (Konane positions list the top row first).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli

START = '(w "" wbwb bwb- w-wb)'
AFTER_B2D2 = '(b "" wbwb b--w w-wb)'
BOARD_4 = "(b d1 wbw- b--- --wb)"


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    # Anything but a clean exit would be an uncaught exception: a traceback.
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def one_error_line(result, code: int) -> str:
    assert result.exit_code == code, (result.exit_code, result.output)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


# ---- moves ----------------------------------------------------------------------------


def test_moves_from_the_start():
    result = run("moves", "konane")
    assert result.exit_code == 0
    assert result.stdout == f"b2-d2\t{AFTER_B2D2}\n"


def test_moves_json():
    result = run("moves", "konane", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"over": False, "moves": [{"move": "b2-d2", "position": AFTER_B2D2}]}


def test_moves_from_a_position():
    # Board 4: d1-b1 leaves b3-d3 available (black goes on from b1); b3-d3
    # leaves d1-b1 (black goes on from d3); pass hands over to white.
    result = run("moves", "konane", "--position", BOARD_4)
    assert result.exit_code == 0
    assert set(result.stdout.splitlines()) == {
        "d1-b1\t(b b1 wbw- b--- -b--)",
        "b3-d3\t(b d3 w--b b--- --wb)",
        'pass\t(w "" wbw- b--- --wb)',
    }


def test_moves_with_set():
    # 4x4 start (w "" bwbw wbwb b--w wbwb): only b4 can jump (over b3 into b2);
    # then d4 can jump c4 into b4, so white goes on from b2.
    expected = "b4-b2\t(w b2 b-bw w-wb bw-w wbwb)\n"
    result = run("moves", "konane", "--set", "rows=4", "--set", "cols=4")
    assert result.exit_code == 0
    assert result.stdout == expected
    # A 4x4 position given to the default 3x4 game resizes it.
    result = run("moves", "konane", "-p", '(w "" bwbw wbwb b--w wbwb)')
    assert result.exit_code == 0
    assert result.stdout == expected


def test_moves_of_a_finished_game_says_the_result():
    # White to move has no jump: white loses, black (who moved last) wins.
    result = run("moves", "konane", "-p", '(w "" w--- ---- ---b)')
    assert result.exit_code == 0
    assert result.stdout == "game over: black wins (no moves)\n"
    result = run("moves", "konane", "-p", '(w "" w--- ---- ---b)', "--json")
    assert json.loads(result.stdout) == {"moves": [], "over": True, "winner": "black", "reason": "no moves"}


def test_moves_of_a_drawn_game():
    result = run("moves", "tic-tac-toe", "-p", "(x xox xoo oxx)")
    assert result.stdout == "game over: draw (no moves)\n"


# ---- perft ---------------------------------------------------------------------------


def test_perft_text_and_json():
    result = run("perft", "konane", "--depth", "3")
    assert result.exit_code == 0
    assert result.stdout == "1\t1\n2\t1\n3\t2\n"
    result = run("perft", "konane", "-d", "4", "--json")
    assert json.loads(result.stdout) == {"counts": [1, 1, 2, 3]}


def test_perft_divide():
    result = run("perft", "konane", "-d", "2", "--divide")
    assert result.stdout.splitlines() == ["1\t1", "2\t1", "b2-d2\t1"]


def test_perft_with_set():
    result = run("perft", "capture-the-flag", "--set", "size=4", "-d", "3", "--json")
    assert json.loads(result.stdout) == {"counts": [4, 20, 133]}
    result = run("perft", "abalone", "-s", "freeze=off", "-d", "2", "--json")
    assert json.loads(result.stdout) == {"counts": [15, 217]}


def test_perft_depth_zero_prints_nothing():
    result = run("perft", "konane", "-d", "0", "--json")
    assert json.loads(result.stdout) == {"counts": []}


# ---- move ----------------------------------------------------------------------------


def test_move_plays_the_only_move():
    result = run("move", "konane", "--depth", "1")
    assert result.exit_code == 0
    assert result.stdout == AFTER_B2D2 + "\n"


def test_move_takes_the_flag():
    before = "--W--" "-----" "--w--" "--B--" "-b-b-"
    after = "--W--" "-----" "-----" "-----" "-bwb-"
    result = run("move", "capture-the-flag", "--position", f"(w {before})", "-d", "2")
    assert result.exit_code == 0
    assert result.stdout == f"(b {after})\n"


def test_move_in_a_finished_game_is_an_error():
    line = one_error_line(run("move", "konane", "-p", '(w "" w--- ---- ---b)'), 1)
    assert "over" in line


# ---- check ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["konane", "konane-misere", "konane-same-stone", "abalone",
                                  "abalone-hex6", "capture-the-flag", "abalone-hex"])
def test_check_bundled_rules(name):
    result = run("check", name)
    assert result.exit_code == 0, result.output


def test_check_reports_a_broken_file(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text('game "Broken"\nplayers white "w", black "b"\nboard grid 3 x\n', encoding="utf-8")
    result = run("check", str(broken))
    assert result.exit_code == 1
    assert "broken.rules:" in result.stderr
    assert "Traceback" not in result.output


def test_check_missing_file():
    result = run("check", "no-such-game")
    assert result.exit_code == 1
    assert "no such rule file" in result.stderr


# ---- errors --------------------------------------------------------------------------


@pytest.mark.parametrize("args, code, words", [
    (["moves", "konane", "--set", "rows"], 2, "NAME=VALUE"),
    (["moves", "konane", "--set", "rows=x"], 2, "whole number"),
    (["moves", "konane", "--set", "rows=0"], 2, "between 1 and 26"),
    (["moves", "konane", "--set", "colour=4"], 2, "unknown option 'colour'"),
    (["perft", "abalone", "--set", "captures=6", "-d", "1"], 2, "captures"),
    (["moves", "konane", "--position", "(x)"], 1, "turn 'x'"),
    (["moves", "konane", "--position", "w wbwb bwb- w-wb"], 1, "parentheses"),
    (["moves", "konane", "--position", '(w "" wbwx bwb- w-wb)'], 1, "'x'"),
    (["moves", "konane", "--position", '(w z9 wbwb bwb- w-wb)'], 1, "'z9'"),
    (["moves", "konane", "--history", "wbwb"], 1, "repetition"),
    (["moves", "capture-the-flag", "--history", "abc"], 1, "abc"),
    (["moves", "no-such-game"], 1, "no such rule file"),
    (["perft", "no-such-game.rules", "-d", "1"], 1, "no such rule file"),
])
def test_bad_input_is_one_line(args, code, words):
    line = one_error_line(run(*args), code)
    assert words in line


@pytest.mark.parametrize("args", [
    ["perft", "konane", "--depth", "-1"],
    ["perft", "konane", "--depth", "two"],
    ["perft", "konane"],
    ["move", "konane", "--depth", "0"],
    ["moves", "konane", "--bogus"],
    ["moves"],
    ["frobnicate"],
])
def test_usage_errors_exit_2(args):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines  # one line, not click's usage block
    assert "--help" in lines[0]


def test_the_installed_command_prints_no_traceback():
    # A real process: what a user sees on stderr.
    for args, code in ((["moves", "konane", "--position", "(x)"], 1),
                       (["moves", "konane", "--set", "rows=99"], 2),
                       (["capture", "abc", "--player", "w"], 1)):
        done = subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", *args],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == code, done.stderr
        assert done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "Traceback" not in done.stderr


def test_games_lists_every_bundled_game_with_its_title_and_options():
    from rulesdsl.loader import bundled_games

    result = run("games")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == bundled_games()
    konane = next(line for line in lines if line.startswith("konane "))
    # rules/konane.rules: option rows = 3, cols = 4, misere = false
    assert "Konane" in konane and konane.endswith("options: rows=3 cols=4 misere=false")
    abalone = next(line for line in lines if line.startswith("abalone "))
    assert abalone.endswith("options: rows=4 cols=4 captures=2 misere=false freeze=strict")  # rules/abalone.rules


def test_a_misspelt_game_gets_did_you_mean():
    result = run("play", "konnae")
    assert result.exit_code == 1
    assert result.stderr.strip() == "konnae: error: no such rule file or bundled game (did you mean 'konane'?)"
    result = run("check", "abalon-hex")
    assert "did you mean 'abalone-hex'?" in result.stderr
