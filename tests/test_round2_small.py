"""Small findings of the second hostile round (issue 22: N13, N14, N16, N17, old #30, old #33)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

import rulesdsl
from rulesdsl.errors import ArgumentError, MoveError, PositionError, RulesdslError

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(["rulesdsl", *args], env=ENV, input=stdin, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def start():
    return rulesdsl.load("konane").start()


@pytest.mark.parametrize("depth", [-1, 1.5, "2", None, True])
def test_n13_perft_refuses_a_depth_that_is_not_a_count(start, depth):
    with pytest.raises(ArgumentError, match="depth"):
        start.perft(depth)


def test_n13_perft_0_and_1_still_count(start):
    assert start.perft(0) == 1 and start.perft(1) == 1  # GAMES.md §1: the 3x4 start has the one move b2-d2


@pytest.mark.parametrize(("call", "error"), [
    (lambda g, s: g.position(None), PositionError),
    (lambda g, s: g.position(5), PositionError),
    (lambda g, s: s.play(5), MoveError),
    (lambda g, s: s.play(None), MoveError),
    (lambda g, s: s.best_move(depth=0), ArgumentError),
    (lambda g, s: s.best_move(depth="3"), ArgumentError),
    (lambda g, s: rulesdsl.load(5), ArgumentError),
    (lambda g, s: rulesdsl.load("konane", rows=[4]), ArgumentError),
])
def test_n14_wrong_arguments_raise_the_documented_errors(start, call, error):
    game = rulesdsl.load("konane")
    with pytest.raises(error) as raised:
        call(game, start)
    assert isinstance(raised.value, RulesdslError) and "\n" not in str(raised.value)


@pytest.mark.parametrize("command", [["analyze", "konane", "--time"], ["move", "konane", "--time"],
                                     ["serve", "--max-seconds"]])
@pytest.mark.parametrize("value", ["nan", "NaN", "-nan"])
def test_n16_nan_seconds_are_refused(command, value):
    done = run(*command, value)
    assert done.returncode == 2 and "not a number of seconds" in done.stderr and "Traceback" not in done.stderr


def test_n17_every_command_option_named_in_the_security_page_exists():
    from rulesdsl.cli.main import cli

    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    named = re.findall(r"`(?:rulesdsl )?([a-z]+) (--[a-z-]+)", text)
    assert named, "the page names no command option: the pattern is stale"
    for command, option in named:
        found = cli.get_command(click.Context(cli), command)  # commands load lazily: cli.commands may not hold it yet
        assert found is not None, f"docs/security.md names a command {command!r} that does not exist"
        options = {o for p in found.params if isinstance(p, click.Option) for o in p.opts}
        assert option in options, f"docs/security.md names `{command} {option}`, which does not exist"


def test_old30_load_quotes_the_position_as_typed():
    done = run("play", "konane", "--as", "all", stdin="load (\nquit\n")
    assert "bad position '(':" in done.stdout and "'()'" not in done.stdout and "closing ')'" in done.stdout


def test_old33_an_unknown_side_is_an_error_on_stderr():
    done = run("play", "konane", "--as", "zebra")
    assert done.returncode == 2
    assert "unknown player 'zebra'" in done.stderr and "zebra" not in done.stdout
