"""Start-up as whole processes (issue 20's table, "How it is measured"), side by side and interleaved.

Run: ``.venv/bin/python benchmarks/startup.py [--runs N] [--other LABEL=PYTHON ...]``.

Each round runs every command once for each interpreter (this one, then each ``--other``: the Python of
another checkout's virtual environment, e.g. the previous commit's), so that a change in the machine's
load touches all of them alike; the table gives the median and the range of the wall times per command.
The commands:

- ``--version``: ``rulesdsl --version``;
- ``perft 1``: ``rulesdsl perft abalone --depth 1`` (warm caches);
- ``perft 1..5``: ``rulesdsl perft abalone --depth 5``, which prints depths 1 to 5, beside
  ``benchmarks/baselines/abalone.py`` counting perft 1 to 5 in a process of its own (the hand-written
  program);
- ``play``: ``rulesdsl play breakthrough --as all`` with ``quit`` on its input: the board is printed, then
  it ends;
- ``native``: a process that loads grid Abalone's cached machine code (``native_kernel(wait=True)``);
- ``play, new file``: ``play`` on a copy of ``rules/breakthrough.rules`` with a comment no earlier run had
  (a new rule file: parsed and checked, its model not yet cached; the grammar's tables are);
- ``play, cold``: ``play`` with an empty cache folder (``XDG_CACHE_HOME``): the grammar's tables are built,
  the rule file is parsed and checked, nothing is cached yet (first start on a new machine).

Python's bytecode cache is on (``PYTHONDONTWRITEBYTECODE`` is removed from the children's environment),
as in any install. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ("import sys; sys.path.insert(0, {folder!r}); import abalone; s = abalone.start({{}}); "
            "[print(d, abalone.perft(s, d)) for d in range(1, 6)]")
NATIVE = ("from rulesdsl.interpreter.compile.load import load_game; "
          "assert load_game('abalone').native_kernel(wait=True) is not None")
ENTRY = "from rulesdsl.cli.entry import main; import sys; sys.argv[0] = 'rulesdsl'; main()"


def commands(python: str, folder: Path) -> dict[str, tuple[list[str], str | None, bool]]:
    """Each measured command for one interpreter: (argv, standard input, cold cache folder); ``folder`` gets a
    new rule file each call."""
    cli = [python, "-c", ENTRY]
    new = folder / f"new-{time.time_ns()}.rules"
    new.write_text(f"# {new.name}\n" + (ROOT / "rules" / "breakthrough.rules").read_text())
    return {
        "--version": ([*cli, "--version"], None, False),
        "perft 1": ([*cli, "perft", "abalone", "--depth", "1"], None, False),
        "perft 1..5": ([*cli, "perft", "abalone", "--depth", "5"], None, False),
        "play": ([*cli, "play", "breakthrough", "--as", "all"], "quit\n", False),
        "native": ([python, "-c", NATIVE], None, False),
        "play, new file": ([*cli, "play", str(new), "--as", "all"], "quit\n", False),
        "play, cold": ([*cli, "play", "breakthrough", "--as", "all"], "quit\n", True),
    }


def timed(argv: list[str], stdin: str | None, cold: bool) -> float:
    """Wall seconds of one run (it must succeed)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as empty:
        if cold:
            env["XDG_CACHE_HOME"] = empty
        started = time.perf_counter()
        subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, check=True, timeout=600)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--other", action="append", default=[], metavar="LABEL=PYTHON",
                        help="another checkout's Python to measure beside this one")
    args = parser.parse_args()
    pythons = {"this": sys.executable, **dict(o.split("=", 1) for o in args.other)}
    rows: dict[tuple[str, str], list[float]] = {}
    baseline = [sys.executable, "-c", BASELINE.format(folder=str(ROOT / "benchmarks" / "baselines"))]
    print(f"load average before: {os.getloadavg()}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(2):  # warm every cache (bytecode, grammar, checked rule files, machine code)
            for python in pythons.values():
                for argv, stdin, cold in commands(python, Path(folder)).values():
                    if not cold:
                        timed(argv, stdin, cold)
        for done in range(args.runs):
            rows.setdefault(("hand-written perft 1..5", "-"), []).append(timed(baseline, None, False))
            for label, python in pythons.items():
                for name, (argv, stdin, cold) in commands(python, Path(folder)).items():
                    rows.setdefault((name, label), []).append(timed(argv, stdin, cold))
            print(f"round {done + 1} of {args.runs}", file=sys.stderr)
    print(f"load average after: {os.getloadavg()}", file=sys.stderr)
    print("| command | checkout | median s | min s | max s |\n|---|---|---|---|---|")
    for (name, label), times in rows.items():
        print(f"| {name} | {label} | {statistics.median(times):.3f} | {min(times):.3f} | {max(times):.3f} |")


if __name__ == "__main__":
    main()
