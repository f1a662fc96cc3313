"""The command line fed hostile input in a child process, under a memory and a time limit (issue 8).

Hypothesis writes rule files (bundled files with tokens deleted, swapped or
replaced, numbers made huge, expressions nested deep), suites, position
strings, REPL lines and command lines, and runs ``rulesdsl`` on them in a
child process whose address space is capped (``resource.setrlimit``) and
whose every command has a wall-clock alarm. Whatever the input, each command
must end with exit 0, 1 or 2, print no traceback, and keep stderr to a
bounded number of short lines.

The child imports rulesdsl once and forks for each command, so a command
costs its work, not a fresh interpreter. The default run is small and
derandomized (CI is deterministic, about a minute); ``pytest -m deep`` runs
many more examples.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.loader import bundled_dir, bundled_games

MEMORY = 1 << 30  # bytes of address space for each command
SECONDS = 30  # wall-clock alarm for each command
ALLOWED_EXITS = {0, 1, 2}
MAX_STDERR_LINES = 400
MAX_STDERR_BYTES = 64_000
JOBS_PER_EXAMPLE = 4

GAMES = bundled_games()
SOURCES = {name: (bundled_dir() / f"{name}.rules").read_text() for name in GAMES}
TOKEN = re.compile(r'"[^"\n]*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_-]*|[0-9]+|\.\.|[=!<>]=|\S')
NUMBER = re.compile(r"(?<![A-Za-z_])[0-9]+(?![A-Za-z_])")
WORDS = sorted({t for text in SOURCES.values() for t in TOKEN.findall(text) if not t.startswith("#")})
HUGE = ["0", "-1", "999999999999999999", "1000000000000000000", "9" * 40, "1" + "0" * 5000, "26", "27", "200"]

# The child: reads a JSON list of jobs, forks one process per job with the limits set, and prints
# one JSON result per job (exit code, signal, stdout, stderr). A job that escapes main() with an
# exception prints its traceback and exits 99.
DRIVER = r"""
import json, os, resource, signal, sys, tempfile, traceback
from rulesdsl.cli.main import main
jobs = json.load(open(sys.argv[1]))
memory, seconds = int(sys.argv[2]), int(sys.argv[3])
results = []
for job in jobs:
    files = [tempfile.TemporaryFile() for _ in range(3)]
    files[0].write(job["stdin"].encode("utf-8", "surrogateescape")); files[0].flush(); files[0].seek(0)
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            for fd, f in enumerate(files):
                os.dup2(f.fileno(), fd)
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.alarm(seconds)
            os.chdir(job["cwd"])
            sys.argv = ["rulesdsl", *job["args"]]
            main()
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 99
        try:
            sys.stdout.flush(); sys.stderr.flush()
        except BaseException:
            pass
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    texts = []
    for f in files[1:]:
        f.seek(0)
        texts.append(f.read().decode("utf-8", "replace"))
    results.append({"code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                    "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                    "stdout": texts[0], "stderr": texts[1]})
print(json.dumps(results))
"""


# ---- inputs ---------------------------------------------------------------------------------


@st.composite
def rule_files(draw) -> str:
    """A bundled rule file with a few hostile edits."""
    text = SOURCES[draw(st.sampled_from(GAMES), label="game")]
    for _ in range(draw(st.integers(0, 3), label="edits")):
        kind = draw(st.sampled_from(["delete", "swap", "replace", "huge", "nest", "not", "line", "garbage"]),
                    label="edit")
        spans = [t.span() for t in TOKEN.finditer(text)]
        if kind == "huge" and NUMBER.search(text):
            numbers = [n.span() for n in NUMBER.finditer(text)]
            a, b = numbers[draw(st.integers(0, len(numbers) - 1), label="number")]
            text = text[:a] + draw(st.sampled_from(HUGE), label="huge") + text[b:]
        elif kind in ("nest", "not") and NUMBER.search(text):
            numbers = [n.span() for n in NUMBER.finditer(text)]
            a, b = numbers[draw(st.integers(0, len(numbers) - 1), label="number")]
            depth = draw(st.sampled_from([10, 99, 101, 1000, 20000]), label="depth")
            inner = text[a:b]
            text = text[:a] + ("(" * depth + inner + ")" * depth if kind == "nest"
                               else "not " * depth + inner) + text[b:]
        elif kind == "line":
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1), label="line")
            lines.insert(i, lines[i] * draw(st.sampled_from([1, 2, 50]), label="times"))
            text = "\n".join(lines)
        elif kind == "garbage":
            at = draw(st.integers(0, len(text)), label="at")
            text = text[:at] + draw(st.text(max_size=8), label="garbage") + text[at:]
        elif spans:
            i = draw(st.integers(0, len(spans) - 1), label="token")
            a, b = spans[i]
            if kind == "delete":
                text = text[:a] + text[b:]
            elif kind == "replace":
                text = text[:a] + draw(st.sampled_from(WORDS), label="word") + text[b:]
            else:
                j = draw(st.integers(0, len(spans) - 1), label="other")
                (a, b), (c, d) = sorted([spans[i], spans[j]])
                if b <= c:
                    text = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
    return text


SUITE_PIECES = [
    "- name: start\n  perft: [1, 2]\n", "- name: x\n  moves: [a1-b1]\n", "- options: {rows: 999999}\n  perft: [1]\n",
    "- perft: [1:00]\n", "- perft: [" + "9" * 5000 + "]\n", "- position: '(w ---)'\n  result: draw\n",
    "- &a {name: a}\n- *a\n", "- !!python/object/apply:os.system ['true']\n", "[" * 500 + "]" * 500 + "\n",
    "- history: [abc, 1]\n  moves: []\n", "not: [a list\n", "- name: \x1b[31mred\n  perft: [1]\n",
]


@st.composite
def suites(draw) -> str:
    """A NAME.tests.yaml: a few pieces of odd YAML."""
    return "".join(draw(st.lists(st.sampled_from(SUITE_PIECES), min_size=1, max_size=3), label="suite"))


POSITIONS = st.one_of(
    st.text(max_size=30),
    st.lists(st.sampled_from(["(", ")", "w", "b", "-", "W", "B", '""', "a1", "'", " ", "x", "\n", "9" * 30]),
             max_size=20).map("".join),
)
OPTION_NAMES = ["rows", "cols", "size", "line", "misere", "captures", "quiet", "chains", "nope", ""]
OPTION_VALUES = [*HUGE, "true", "false", "abc", "1e5", "", "-5", "3.5", "\x1b[2J"]
REPL_LINES = ["moves", "hint", "value", "why", "trace", "undo", "undo", "depth 1", "depth 99", "time 0",
              "engine mcts", "position", "board", "help", "load (w", "load " + "(" * 200, "quit", "a1-b2",
              "x" * 5000, "\x1b[31m", ""]


@st.composite
def command_lines(draw, rules: str) -> tuple[list[str], str]:
    """Arguments for ``rulesdsl`` on the rule file ``rules``, and what stdin holds."""
    command = draw(st.sampled_from(["check", "check", "moves", "perft", "move", "play", "fmt", "show",
                                    "capture", "junk"]), label="command")
    stdin = ""
    if command == "check":
        args = ["check", "--playouts", str(draw(st.integers(0, 3), label="playouts")),
                "--max-plies", str(draw(st.integers(1, 60), label="plies"))]
        if draw(st.booleans(), label="format"):
            args += ["--format", draw(st.sampled_from(["json", "github", "text", "xml"]), label="fmt")]
        args.append(rules)
    elif command == "fmt":
        args = ["fmt", "--check", rules] if draw(st.booleans(), label="check") else ["fmt", rules]
    elif command == "capture":
        boards = draw(st.lists(POSITIONS, min_size=1, max_size=3), label="boards")
        args = ["capture", "-p", draw(st.sampled_from(["w", "b", "x"]), label="player"), "-d", "1", "--", *boards]
    elif command == "junk":
        args = draw(st.lists(st.sampled_from(["--set", "--json", "-d", "--depth", "999", "--", "-", rules, "--x",
                                              "check", "perft", "--position", "\x00"]), max_size=6), label="junk")
        args = [a for a in args if "\x00" not in a]
    else:
        args = [command, rules]
        if command == "perft":
            args += ["--depth", str(draw(st.integers(0, 2), label="depth"))]
        elif command == "move":
            args += ["--depth", "1"]
        elif command == "play":
            args += ["--as", draw(st.sampled_from(["white", "b", "none", "all", "W", "3"]), label="as"),
                     "--depth", "1"]
            stdin = "\n".join(draw(st.lists(st.sampled_from(REPL_LINES), max_size=6), label="lines")) + "\n"
        for _ in range(draw(st.integers(0, 2), label="settings")):
            name = draw(st.sampled_from(OPTION_NAMES), label="option")
            args += ["--set", f"{name}={draw(st.sampled_from(OPTION_VALUES), label='value')}"]
        if draw(st.booleans(), label="with position"):
            args += ["--position", draw(POSITIONS, label="position")]
    return args, stdin


# ---- running ----------------------------------------------------------------------------------


def run_jobs(jobs: list[dict], tmp: Path) -> list[dict]:
    """Run ``jobs`` in one child process (one fork each); their results, in order."""
    path = tmp / "jobs.json"
    path.write_text(json.dumps(jobs))
    done = subprocess.run([sys.executable, "-c", DRIVER, str(path), str(MEMORY), str(SECONDS)],
                          capture_output=True, text=True, timeout=SECONDS * len(jobs) + 60)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def assert_clean(job: dict, result: dict) -> None:
    """Exit 0, 1 or 2, no traceback, no hang, a bounded stderr of short lines."""
    what = f"rulesdsl {' '.join(job['args'])!r} (stdin {job['stdin'][:200]!r})"
    assert result["signal"] is None, f"{what}: killed by signal {result['signal']} (14: the alarm, a hang)"
    output = result["stdout"] + result["stderr"]
    assert "Traceback" not in output, f"{what}:\n{output[-3000:]}"
    assert result["code"] in ALLOWED_EXITS, f"{what}: exit {result['code']}\n{result['stderr'][-2000:]}"
    assert "internal error" not in output, f"{what}:\n{output[-2000:]}"
    err = result["stderr"]
    assert len(err.encode()) <= MAX_STDERR_BYTES and err.count("\n") <= MAX_STDERR_LINES, \
        f"{what}: {len(err)} characters, {err.count(chr(10))} lines of stderr"


def fuzz(data, tmp: Path) -> None:
    jobs = []
    for number in range(JOBS_PER_EXAMPLE):
        folder = tmp / f"job{number}"
        folder.mkdir()
        rules = folder / "game.rules"
        rules.write_text(data.draw(rule_files(), label="rules"), encoding="utf-8", errors="surrogatepass")
        if data.draw(st.booleans(), label="with suite"):
            (folder / "game.tests.yaml").write_text(data.draw(suites(), label="suite"), encoding="utf-8")
        args, stdin = data.draw(command_lines(str(rules)), label="command line")
        jobs.append({"args": args, "stdin": stdin, "cwd": str(folder)})
    for job, result in zip(jobs, run_jobs(jobs, tmp)):
        assert_clean(job, result)


COMMON = dict(deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture])


@settings(max_examples=6, **COMMON)
@given(data=st.data())
def test_hostile_command_lines_end_cleanly(data, tmp_path_factory):
    fuzz(data, tmp_path_factory.mktemp("fuzz"))


@pytest.mark.deep
@settings(max_examples=150, **COMMON)
@given(data=st.data())
def test_hostile_command_lines_end_cleanly_deep(data, tmp_path_factory):
    fuzz(data, tmp_path_factory.mktemp("fuzz"))
