"""Rule files, suites and command lines written by an attacker (issue 8).

Each test is named after the item of the issue it pins (``test_item_04_...``).
Every one fails without its fix: a leak, a runaway, a traceback, a wrong
result or a misleading message. Whatever the input, the answer is a clean
result or one escaped, short line per problem and a non-zero exit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.limits import MAX_CELLS, MAX_DEPTH, shown
from rulesdsl.loader import bundled_dir

# A small game whose size options have no range: only the compile-time caps stand in the way.
FREE = """\
game "free"
option rows = 3
option cols = 4
option small = true
players white "w", black "b"
board grid cols x rows if small
piece stone white "w", black "b"
start { stone white at a1 }
moves { stone step orthogonal }
end { mover loses if no moves }
"""


def run(*args: str, input: str | None = None):
    """The command line in-process: ``(exit code, stdout, stderr)``."""
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, text: str, name: str = "game.rules") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def konane_with(old: str, new: str) -> str:
    text = (bundled_dir() / "konane.rules").read_text()
    assert old in text
    return text.replace(old, new)


def assert_clean_lines(err: str, limit: int = 2000) -> None:
    """No control character but line breaks, no traceback, and short."""
    assert "Traceback" not in err
    assert all(ch == "\n" or ch.isprintable() for ch in err), repr(err[:200])
    assert len(err) < limit, len(err)


# ---- leaks and injection ----------------------------------------------------------------


def test_item_02_control_characters_in_strings_are_refused(tmp_path):
    path = write(tmp_path, konane_with('notation from "-" to', 'notation from "\\n::error title=injected::pwned " to'))
    code, out, err = run("check", "--playouts", "0", path)
    assert code == 1 and "U+000A" in err and "\n::error" not in out + err
    code, out, _ = run("check", "--playouts", "0", "--format", "github", path)
    assert code == 1 and out.count("::error") == 1


@pytest.mark.parametrize("raw", ["\x1b[31m", "\t", "\u202e", "\x85"])
def test_item_02_raw_control_and_bidi_characters_are_refused(tmp_path, raw):
    path = write(tmp_path, konane_with('piece stone white "w"', f'piece stone white "w{raw}"'))
    code, out, err = run("check", "--format", "json", "--playouts", "0", path)
    assert code == 1
    assert [d["code"] for d in json.loads(out)][:1] == ["E006"]
    _, _, err = run("check", "--playouts", "0", path)
    assert_clean_lines(err)


def test_item_02_echoes_are_escaped_and_cut(tmp_path):
    path = write(tmp_path, "game \x1b[2J" + "x" * 200_000 + "\n")
    code, _, err = run("check", path)
    assert code == 1
    assert_clean_lines(err, 3000)


def test_shown_escapes_and_cuts():
    assert shown("a\nb\x1b\u202e") == "a\\nb\\x1b\\u202e"
    assert len(shown("y" * 10_000)) < 400


# ---- runaway work -----------------------------------------------------------------------


@pytest.mark.parametrize("setting", ["rows=99999999999999999", "rows=4000000", "cols=1000000"])
def test_item_04_board_cap_holds_for_set(tmp_path, setting):
    code, _, err = run("moves", write(tmp_path, FREE), "--set", setting)
    assert code != 0 and f"at most {MAX_CELLS}" in err


def test_item_04_board_cap_holds_for_a_position_that_implies_a_size(tmp_path):
    board = "-" * 50_000
    code, _, err = run("moves", write(tmp_path, FREE), "--position", f"(w {board})")
    assert code == 1 and f"at most {MAX_CELLS}" in err


def test_item_04_board_cap_holds_for_an_example(tmp_path):
    path = write(tmp_path, FREE + "example start with rows = 5000000 moves\n")
    code, out, _ = run("check", "--format", "json", "--playouts", "0", path)
    assert code == 1 and any(f"at most {MAX_CELLS}" in d["message"] for d in json.loads(out))


def test_item_06_squaring_options_stop_at_the_cap(tmp_path):
    chain = "option a0 = 2\n" + "".join(f"option a{i} = a{i - 1} * a{i - 1}\n" for i in range(1, 41))
    code, out, _ = run("check", "--format", "json", "--playouts", "0", write(tmp_path, chain + FREE))
    found = json.loads(out)
    assert code == 1 and found[0]["code"] == "E022" and found[0]["line"] == 7  # a6 = a5 * a5 is 2**64


@pytest.mark.parametrize("expr", ["9" * 4400, "+".join(["1"] * 1000), "not " * 5000 + "true",
                                  "-" * 3000 + "1", "(" * 5000 + "1" + ")" * 5000 + " + " + "-" * 200 + "1"])
def test_item_06_huge_numbers_and_deep_expressions_are_one_error_at_the_place(tmp_path, expr):
    path = write(tmp_path, FREE.replace("option small = true", f"option huge = {expr}\noption small = true"))
    code, out, _ = run("check", "--format", "json", "--playouts", "0", path)
    found = json.loads(out)
    assert code == 1 and found[0]["code"] == "E007" and found[0]["line"] == 4, found


def test_item_06_a_huge_set_value_is_an_option_error(tmp_path):
    code, _, err = run("moves", write(tmp_path, FREE), "--set", "rows=" + "9" * 5000)
    assert code == 2 and "more than 18 digits" in err and len(err) < 300


def test_item_06_depth_cap_allows_ordinary_nesting(tmp_path):
    expr = "(" * (MAX_DEPTH - 5) + "3" + ")" * (MAX_DEPTH - 5) + " + 0" * 50
    code, _, err = run("moves", write(tmp_path, FREE.replace("option rows = 3", f"option rows = {expr}")))
    assert code == 0, err


class Counted(int):
    """An int that counts the comparisons made with it: a quadratic scan shows as a huge count."""

    calls = 0

    def __eq__(self, other):
        Counted.calls += 1
        return int(self) == other

    def __lt__(self, other):
        Counted.calls += 1
        return int(self) < other

    def __gt__(self, other):
        Counted.calls += 1
        return int(self) > other

    __hash__ = int.__hash__


def test_item_07_a_tall_board_compiles_and_draws_in_linear_time(tmp_path, monkeypatch):
    from rulesdsl.cli.render import render
    from rulesdsl.interpreter.compile import geometry
    from rulesdsl.interpreter.compile.load import load_game

    rows = 3000
    plain = geometry.lattice_points
    monkeypatch.setattr(geometry, "lattice_points",
                        lambda shape, size: [(Counted(x), Counted(y)) for x, y in plain(shape, size)])
    Counted.calls = 0
    game = load_game(write(tmp_path, FREE), {"cols": "1", "rows": str(rows)})
    render(game, game.initial_state())
    assert game.geometry.rows_listed[0] == (0,) and len(game.geometry.rows_listed) == rows
    assert Counted.calls < 50 * rows, Counted.calls  # a scan per row or per cell would be rows**2 / 2


# ---- crashes ----------------------------------------------------------------------------


def test_item_09_a_board_turned_off_by_set_is_one_line(tmp_path):
    code, _, err = run("moves", write(tmp_path, FREE), "--set", "small=false")
    assert code == 1 and "no 'board' statement holds" in err and "Traceback" not in err


# ---- wrong results ----------------------------------------------------------------------


def test_item_15_columns_past_z_are_refused(tmp_path):
    code, _, err = run("moves", write(tmp_path, FREE), "--set", "cols=27")
    assert code == 1 and "name only 26" in err


# ---- messages ---------------------------------------------------------------------------


def test_item_19_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.rules"
    path.write_bytes(b"\xef\xbb\xbf" + FREE.encode())
    code, _, err = run("check", "--playouts", "2", str(path))
    assert code == 0, err


def test_item_21_a_size_of_zero_is_a_clear_error(tmp_path):
    code, _, err = run("moves", write(tmp_path, FREE), "--set", "rows=0")
    assert code == 1 and "at least 1" in err and "min()" not in err


def test_item_23_a_non_ascii_letter_axis_is_refused(tmp_path):
    path = write(tmp_path, FREE.replace("board grid", 'cells column "\u03b1" row 1\nboard grid'))
    code, out, _ = run("check", "--format", "json", "--playouts", "0", path)
    found = json.loads(out)
    assert code == 1 and found[0]["code"] == "E041" and "-822" not in out


# ---- output that cannot be written, input that is closed, Ctrl-C ------------------------


def subprocess_run(args: list[str], **streams):
    """The installed command in a child process: ``(exit code, stdout, stderr)``."""
    import subprocess
    import sys

    command = [sys.executable, "-c", "from rulesdsl.cli.main import main; main()", *args]
    done = subprocess.run(command, stderr=subprocess.PIPE, timeout=120, **streams)
    return done.returncode, done.stdout, done.stderr.decode()


def test_item_11_a_full_disk_is_exit_74_in_one_line():
    with open("/dev/full", "w") as full:
        for args in (["moves", "konane"], ["check", "--format", "json", "--playouts", "1", "konane"]):
            code, _, err = subprocess_run(args, stdout=full)
            assert code == 74 and "Traceback" not in err and err.count("\n") == 1, err


def test_item_11_play_with_stdin_closed_ends_cleanly():
    import subprocess

    code, out, err = subprocess_run(["play", "konane", "--as", "white"], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE)
    assert code == 0 and "Traceback" not in err
    # and closed outright (<&-): the child gets no stdin at all
    code, out, err = subprocess_run(["play", "konane"], stdout=subprocess.PIPE, stdin=None,
                                    preexec_fn=lambda: __import__("os").close(0))
    assert code == 0 and "Traceback" not in err, err


def test_item_17_stdout_closed_is_not_success():
    import os

    code, _, err = subprocess_run(["moves", "konane"], preexec_fn=lambda: os.close(1))
    assert code == 74 and "closed" in err


def test_item_17_a_closed_pipe_is_141_not_1():
    import os

    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line is written
    try:
        code, _, err = subprocess_run(["moves", "konane"], stdout=write)
    finally:
        os.close(write)
    assert code == 141 and "Traceback" not in err and "Exception ignored" not in err


def test_item_17_ctrl_c_while_the_engine_plays_itself_exits_130(monkeypatch):
    import dataclasses

    from rulesdsl.cli import repl

    real = repl.Session.think

    def interrupted(self):  # the engine answers Ctrl-C with the best move found so far
        return dataclasses.replace(real(self), interrupted=True)

    monkeypatch.setattr(repl.Session, "think", interrupted)
    code, out, _ = run("play", "konane", "--as", "none")
    assert code == 130 and "interrupted" in out


def test_item_24_check_json_on_ctrl_c_is_still_json(monkeypatch):
    from rulesdsl.cli import check_command

    real = check_command.safe_check

    def second_is_interrupted(spec, **settings):
        if spec == "konane-misere":
            raise KeyboardInterrupt
        return real(spec, **settings)

    monkeypatch.setattr(check_command, "safe_check", second_is_interrupted)
    code, out, _ = run("check", "--format", "json", "--playouts", "0", "konane", "konane-misere")
    assert code == 130
    assert [d["code"] for d in json.loads(out)] == ["E998"]


def test_item_24_perft_keeps_the_depths_it_finished(monkeypatch):
    from rulesdsl.cli import main as main_module

    real = main_module.perft

    def slow_at_two(game, state, depth):
        if depth == 2:
            raise KeyboardInterrupt
        return real(game, state, depth)

    # GAMES.md's 3 x 4 start (w "" wbwb bwb- w-wb): white's only jump is b2 over c2 to d2.
    monkeypatch.setattr(main_module, "perft", slow_at_two)
    code, out, _ = run("perft", "konane", "-d", "5")
    assert code == 130 and out == "1\t1\n"
    code, out, _ = run("perft", "konane", "-d", "5", "--json")
    assert code == 130 and json.loads(out) == {"counts": [1], "interrupted": True}


@pytest.mark.parametrize("args", [["perft", "konane", "-d", "x", "--json"], ["moves", "--json"],
                                  ["check", "--format", "json", "--playouts", "-1", "konane"]])
def test_item_24_usage_errors_under_json_print_json(args):
    code, out, err = run(*args)
    assert code == 2 and json.loads(out)["exit"] == 2 and err.count("\n") == 1


# ---- what a rule file and a command line may name ----------------------------------------


def test_item_01_extends_never_reads_outside_the_files_folder(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("API_TOKEN=hunter2\n")
    (tmp_path / "pr").mkdir()
    for target in ("/proc/self/environ", str(secret), "../secret.txt", "../secret"):
        path = write(tmp_path / "pr", f'extends "{target}"\n')
        code, out, err = run("check", "--playouts", "0", path)
        assert code == 1 and "hunter2" not in out + err and "PATH=" not in out + err, err
        assert "absolute path" in err or "out of this file's folder" in err


def test_item_01_a_symlink_out_of_the_folder_is_not_followed(tmp_path):
    secret = tmp_path / "secret.rules"
    secret.write_text("API_TOKEN=hunter2\n")
    (tmp_path / "pr").mkdir()
    (tmp_path / "pr" / "base.rules").symlink_to(secret)
    code, _, err = run("check", write(tmp_path / "pr", 'extends "base.rules"\n'))
    assert code == 1 and "hunter2" not in err and "out of this file's folder" in err
    (tmp_path / "pr" / "env.rules").symlink_to("/proc/self/environ")
    code, _, err = run("check", str(tmp_path / "pr" / "env.rules"))
    assert code == 1 and "not a .rules file" in err and "PATH=" not in err


def test_item_01_extends_below_the_folder_works(tmp_path):
    (tmp_path / "base").mkdir()
    write(tmp_path / "base", FREE, "free.rules")
    code, _, err = run("moves", write(tmp_path, 'extends "base/free.rules"\ngame "child"\n'))
    assert code == 0, err


def test_item_03_a_missing_path_is_never_the_bundled_game():
    code, out, _ = run("check", "--format", "json", "/nonexistent/dir/othello.rules")
    assert code == 1 and json.loads(out)[0]["code"] == "E002"
    code, _, err = run("moves", "./konane")
    assert code == 1 and "no such rule file" in err


@pytest.mark.parametrize("kind", ["directory", "fifo", "device", "loop"])
def test_item_20_what_cannot_be_read_says_what_it_is(tmp_path, kind):
    import os

    path = tmp_path / "thing.rules"
    words = {"directory": "a directory", "fifo": "FIFO", "device": "a device", "loop": "loop of symbolic links"}
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/zero")
    else:
        path.symlink_to(tmp_path / "other.rules")
        (tmp_path / "other.rules").symlink_to(path)
    code, _, err = run("check", str(path))
    assert code == 1 and words[kind] in err and "no such" not in err, err


def test_item_26_a_local_file_may_extend_the_bundled_game_of_its_name(tmp_path):
    path = write(tmp_path, 'extends "konane"\ngame "my konane"\n', "konane.rules")
    code, _, err = run("check", "--playouts", "1", path)
    assert code == 0 and "cycle" not in err, err


def test_item_26_a_path_is_never_silently_the_bundled_game(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    path = write(tmp_path / "a" / "b", 'extends "../../x/konane"\n')
    code, _, err = run("check", path)
    assert code == 1 and "out of this file's folder" in err
    path = write(tmp_path, 'extends "x/konane"\n')
    code, _, err = run("check", path)
    assert code == 1 and "no such rule file" in err


def test_item_06_a_long_extends_chain_is_one_error(tmp_path):
    write(tmp_path, FREE, "f0.rules")
    for i in range(1, 200):
        write(tmp_path, f'extends "f{i - 1}"\n', f"f{i}.rules")
    code, out, _ = run("check", "--format", "json", "--playouts", "0", str(tmp_path / "f199.rules"))
    assert code == 1 and "E008" in [d["code"] for d in json.loads(out)]
    code, _, err = run("check", "--playouts", "0", str(tmp_path / "f20.rules"))
    assert code == 0, err


# ---- suites ------------------------------------------------------------------------------


def check_suite_text(tmp_path, text: str) -> list[dict]:
    write(tmp_path, FREE, "free.rules")
    (tmp_path / "free.tests.yaml").write_text(text, encoding="utf-8")
    code, out, err = run("check", "--format", "json", "--playouts", "0", str(tmp_path / "free.rules"))
    assert code == 1 and "Traceback" not in err
    return json.loads(out)


@pytest.mark.parametrize("count", ["1:00", "9" * 5000, "0x10", "1.5"])
def test_item_12_odd_perft_counts_are_one_error_at_the_place(tmp_path, count):
    found = check_suite_text(tmp_path, f"- name: first\n  perft: [2]\n- name: odd\n  perft: [{count}]\n")
    assert [d["code"] for d in found] == ["E301"] and found[0]["line"] == 4, found
    assert len(found[0]["message"]) < 400


def test_item_12_deep_nesting_is_one_error(tmp_path):
    found = check_suite_text(tmp_path, "- perft: " + "[" * 10_000 + "]" * 10_000 + "\n")
    assert [d["code"] for d in found] == ["E300"] and "nested" in found[0]["message"]


def test_item_07_yaml_aliases_are_refused(tmp_path):
    laughs = "- &a {perft: [1]}\n" + "".join("- *a\n" for _ in range(20_000))
    found = check_suite_text(tmp_path, laughs)
    assert [d["code"] for d in found] == ["E300"] and "aliases" in found[0]["message"]


def test_item_07_suite_size_and_case_caps(tmp_path):
    from rulesdsl.limits import MAX_SUITE_BYTES, MAX_SUITE_CASES

    found = check_suite_text(tmp_path, "- perft: [2]\n" * (MAX_SUITE_CASES + 1))
    assert [d["code"] for d in found] == ["E301"] and str(MAX_SUITE_CASES) in found[0]["message"]
    found = check_suite_text(tmp_path, "#" * (MAX_SUITE_BYTES + 1) + "\n- perft: [2]\n")
    assert [d["code"] for d in found] == ["E300"] and str(MAX_SUITE_BYTES) in found[0]["message"]


def test_item_07_source_lines_are_split_once_per_file():
    from rulesdsl.errors import Span
    from rulesdsl.loader import Resolved

    class Counting(dict):
        gets = 0

        def get(self, *args):
            Counting.gets += 1
            return super().get(*args)

    resolved = Resolved("f", [], Counting({"f": "a\n" * 5000}))
    assert all(resolved.source_line(Span(n, 1, file="f")) == "a" for n in range(1, 5001))
    assert Counting.gets <= 2


def test_item_07_playout_length_is_capped():
    code, _, err = run("check", "--max-plies", "100000", "konane")
    assert code == 2 and "10000" in err


# A go-again rule that never gives the turn away: a king may always step, and every step goes again.
ENDLESS_TURN = """\
game "endless turn"
players white "w", black "b"
board grid 3 x 3
position (turn last board) top first
piece king white "K", black "k"
start {
  king white at a1
  king black at c3
}
moves { king step all }
again after step with any piece
end { mover loses if no moves }
"""


def test_item_05_check_warns_at_the_again_rule_that_never_ends(tmp_path):
    path = write(tmp_path, ENDLESS_TURN)
    code, out, err = run("check", path)
    assert code == 0  # a warning
    line = next(line for line in (out + err).splitlines() if "W201" in line or "never ends" in line)
    assert line.startswith(f"{path}:11:1: warning:") and "white moved 100 plies in a row" in line
    code, _, _ = run("check", "--strict", path)
    assert code == 1


def test_item_05_bundled_go_again_games_are_not_warned():
    code, out, err = run("check", "--strict", "konane", "checkers", "draughts")
    assert code == 0 and "W201" not in out + err


def test_item_05_play_stops_the_engine_after_100_plies_in_a_row(tmp_path):
    import io

    from rulesdsl.cli.repl import run_repl
    from rulesdsl.interpreter.compile.load import load_game

    game = load_game(write(tmp_path, ENDLESS_TURN))
    out = io.StringIO()
    code = run_repl(game, as_player="black", depth=1, stdin=io.StringIO("moves\n"), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert text.count("white plays") == 100
    assert "white has moved 100 plies in a row without the turn passing" in text
    # The game is kept: the human now plays white, from the position the engine reached.
    assert "you now play white" in text and "white> moves" in text


# An end rule that divides by zero once the opponent is down to one man.
DIVIDES = """\
game "divides"
players white "w", black "b"
board grid 3 x 3
position (turn board) top first
piece man white "w", black "b"
start {
  man white at a1
  man white at c1
  man black at a3
  man black at c3
}
moves {
  man step orthogonal
  man step diagonal to enemy
}
end {
  mover wins if 6 / (count(opponent man) - 1) > 100
  mover loses if no moves
}
"""
BROKEN_HERE = "(w --b-b-w--)"  # white's only man: 6 / (1 - 1)
FINE_HERE = "(w b-b---w-w)"


def test_item_13_an_end_rule_error_is_one_line_at_the_rule_and_play_goes_on(tmp_path):
    path = write(tmp_path, DIVIDES)
    code, out, err = run("play", path, "--as", "white", "--depth", "1", "--position", BROKEN_HERE,
                         input=f"a1-b2\nload {FINE_HERE}\nmoves\nquit\n")
    assert "internal error" not in out + err and "EndRulesError" not in out + err
    assert err.splitlines() == [f"{path}:17:17: error: division by zero in this position"]
    assert "white> moves\n4 legal moves" in out  # the session survived the error and goes on
    assert code == 0


def test_item_13_an_end_rule_error_fails_the_other_commands(tmp_path):
    path = write(tmp_path, DIVIDES)
    for args in (["moves"], ["move", "--depth", "1"], ["perft", "--depth", "1"]):
        code, out, err = run(*args, path, "--position", BROKEN_HERE)
        assert code == 1, args
        assert err.count("\n") == 1 and f"{path}:17:17:" in err and "division by zero" in err, (args, err)


def connect_four_with_line(default: str) -> str:
    text = (bundled_dir() / "connect-four.rules").read_text()
    old = next(line for line in text.splitlines() if line.startswith("option line = "))
    return text.replace(old, f"option line = {default}")  # no range: only the check at the place stands


def row_rule_place(text: str) -> str:
    number, line = next((n, line) for n, line in enumerate(text.splitlines(), 1) if "line in a row" in line)
    return f"{number}:{line.index('line in a row') + 1}"


@pytest.mark.parametrize("value", ["0", "-3"])
def test_item_18_a_row_of_no_pieces_set_by_an_option_is_e072s_error_at_the_place(tmp_path, value):
    text = connect_four_with_line("4")
    path = write(tmp_path, text)
    code, out, err = run("moves", path, "--set", f"line={value}")
    assert code == 1 and out == ""
    assert err.strip() == f"rulesdsl: {path}:{row_rule_place(text)}: a row has at least 1 piece, but this is " \
                          f"{value} with these options"


def test_item_18_a_default_of_no_pieces_is_e072_in_check(tmp_path):
    text = connect_four_with_line("0")
    path = write(tmp_path, text)
    code, out, _ = run("check", "--format", "json", path)
    found = json.loads(out)
    assert code == 1 and [d["code"] for d in found] == ["E072"]
    assert f"{found[0]['line']}:{found[0]['column']}" == row_rule_place(text)


CTF_START = "-wWw-" "-www-" "-----" "-bbb-" "-bBb-"  # GAMES.md §3, white to move


@pytest.mark.parametrize("args", [
    ["-p", "w", "-d", "1", "--", CTF_START],
    ["--", CTF_START, "-p", "w", "-d", "1"],  # what the help allows: the options after the boards
    [CTF_START, "--player", "w", "--depth", "1"],
    ["-p", "w", "--", CTF_START, "--", "-d", "1"],
])
def test_item_25_capture_boards_after_double_dash_as_the_help_says(args):
    code, out, err = run("capture", *args)
    assert (code, err) == (0, "")
    assert len(out.strip()) == 25 and out.strip() != CTF_START
    help_code, help_text, _ = run("capture", "--help")
    assert help_code == 0 and '"--"' in help_text


def test_item_25_usage_errors_list_choices_on_one_line():
    code, _, err = run("capture", "--", CTF_START)
    assert code == 2 and err.count("\n") == 1 and "\\n" not in err and "Choose from: w, b" in err


# Item 8: every command that can run long has a cap on its work, a time limit or a progress line.
@pytest.mark.parametrize("args", [
    ["perft", "konane", "--depth", "65"],
    ["move", "konane", "--depth", "65"],
    ["move", "konane", "--time", "3601"],
    ["play", "konane", "--depth", "65"],
    ["play", "konane", "--time", "3601"],
    ["check", "--max-plies", "10001", "konane"],
    ["check", "--playouts", "10001", "konane"],
    ["analyze", "konane", "--games", "10000001"],
    ["analyze", "konane", "--max-plies", "1000001"],
    ["analyze", "konane", "--time", "3601"],
    ["capture", "-p", "w", "-d", "65", "-wWw--www-------bbb--bBb-"],
])
def test_item_08_work_beyond_the_caps_is_a_usage_error(args):
    code, out, err = run(*args)
    assert code == 2 and out == "" and err.count("\n") == 1, (args, err)
    assert "range" in err or "<=" in err, err


@pytest.mark.parametrize("command", ["move", "play"])
def test_item_08_the_engine_thinks_one_second_by_default(monkeypatch, command):
    from rulesdsl.interpreter.search import engines

    asked = []
    real = engines.think

    def spy(game, state, depth, seconds, **rest):
        asked.append((depth, seconds))
        return real(game, state, 1, None, **rest)  # answer at once

    monkeypatch.setattr(engines, "think", spy)
    code, _, _ = run(command, "konane", *(["--as", "black"] if command == "play" else []), input="")
    assert code == 0 and asked and all(a == (None, 1.0) for a in asked), asked


def test_item_08_perft_shows_each_depth_as_it_is_counted(monkeypatch):
    # Konane's start: perft 1, 1, 2, 3 (GAMES.md §1, the rule file's example); each depth is printed
    # before the next one starts, so a long count is never silent.
    from rulesdsl.cli import main as main_module

    printed_before: list[str] = []
    real = main_module.click.echo

    def echo(message=None, *args, **kwargs):
        printed_before.append(str(message))
        return real(message, *args, **kwargs)

    monkeypatch.setattr(main_module.click, "echo", echo)
    code, out, _ = run("perft", "konane", "--depth", "4")
    assert code == 0 and [line.split()[-1] for line in out.splitlines()] == ["1", "1", "2", "3"]
    assert len(printed_before) == 4  # one echo per depth, not one at the end


@pytest.mark.parametrize("command, args", [
    ("analyze", ["konane", "--games", "3", "--engine", "random", "--workers", "1"]),
])
def test_item_08_long_jobs_write_a_progress_line(monkeypatch, command, args):
    from rulesdsl.cli import progress

    real_init = progress.ProgressLine.__init__

    def every_call(self, stream=None, noun="positions", every=None):
        real_init(self, stream, noun, every=0.0)

    monkeypatch.setattr(progress.ProgressLine, "__init__", every_call)
    code, _, err = run(command, *args)
    assert code == 0, err
    assert "games" in err and " MB" in err


# Item 10: a weight far beyond any score keeps the search sane: a proven win still outranks it.
HUGE = "999999999999999999"  # the largest number a rule file may hold (18 digits)
QUICK = "(w " "Ww---" "w----" "bww--" "-----" "----B" ")"  # test_search: a4-a2 wins at once


@pytest.mark.parametrize("weights", [
    f"  advancement pawn {HUGE}\n  mobility -{HUGE}\n",
    f"  material pawn -{HUGE}\n  threatened flag {HUGE}\n",
])
def test_item_10_huge_weights_keep_a_win_a_win(tmp_path, weights):
    import math

    from rulesdsl.interpreter.compile.load import load_game, load_position
    from rulesdsl.interpreter.search.engine import think
    from rulesdsl.interpreter.search.minimax import WIN, best_move

    text = (bundled_dir() / "capture-the-flag.rules").read_text()
    start, end = text.index("evaluate {\n") + len("evaluate {\n"), text.index("}\n", text.index("evaluate {"))
    path = write(tmp_path, text[:start] + weights + text[end:])
    code, out, err = run("check", "--playouts", "3", path)
    assert code == 0, out + err
    game, state = load_position(load_game(path), QUICK)
    for depth in (1, 2, 3):
        assert game.format_move(state, best_move(game, state, depth).move) == "a4-a2"
        result = think(game, state, depth)
        assert game.format_move(state, result.move) == "a4-a2" and result.score == WIN - 1
    other = game.apply(state, game.parse_move(state, "b5-b4"))
    score = think(game, other, 1).score
    assert math.isfinite(score) and abs(score) < WIN - 100
    code, out, err = run("move", path, "--position", QUICK, "--depth", "3", "--verbose")
    assert code == 0 and "nan" not in err.lower() and "Traceback" not in err


def test_item_05_again_after_every_move_is_warned_without_playing(tmp_path):
    path = write(tmp_path, ENDLESS_TURN.replace("again after step with any piece", "again with any piece"))
    code, out, err = run("check", "--playouts", "0", path)
    assert code == 0
    assert f"{path}:11:1: warning: 'again with any piece' without 'after' or 'or pass'" in out + err
    for fine in ("again with any piece or pass", "again after capture with any piece", "again with same piece"):
        code, out, err = run("check", "--playouts", "0", "--strict", write(tmp_path, ENDLESS_TURN.replace(
            "again after step with any piece", fine), name="fine.rules"))
        assert "W041" not in out + err and "goes on after every move" not in out + err, fine


@pytest.mark.parametrize("command", [["check", "--playouts", "0"], ["fmt", "--check"], ["fmt"], ["moves"]])
def test_item_06_parentheses_nested_past_the_cap_are_e007_for_every_command(tmp_path, command):
    # Found by tests/test_hostile_fuzz.py: parentheses leave no node in the syntax tree, so they
    # escaped the depth cap, and fmt walked 20,000 of them recursively into a RecursionError.
    deep = "(" * 20_000 + "3" + ")" * 20_000
    path = write(tmp_path, FREE.replace("option rows = 3", f"option rows = {deep}"))
    code, out, err = run(*command, path)
    assert code == 1 and "Traceback" not in out + err
    assert f"{path}:2:{len('option rows = ') + MAX_DEPTH + 1}: " in err + out
    assert "nested more than 100 levels deep" in err + out and len(err) < 2000


def test_item_06_parentheses_in_strings_and_comments_do_not_count(tmp_path):
    text = FREE.replace('game "free"', 'game "' + "(" * 300 + '"  # ' + "(" * 300)
    code, out, err = run("fmt", "--check", write(tmp_path, text))
    assert "nested" not in out + err and "Traceback" not in out + err
