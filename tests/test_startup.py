"""What a warm start of a short command loads (issue 20, "How it is measured": start-up). No timings here
(benchmarks/startup.py measures them): these check that the slow pieces stay out of the process."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata

from rulesdsl.interpreter.kernel import native
from rulesdsl.versions import installed_version

HEAVY = ("lark", "numba", "yaml", "rulesdsl.checker", "rulesdsl.parser", "rulesdsl.cli.menu", "importlib.metadata")


def modules_after(args: list[str], cache, stdin: str = "") -> tuple[str, set[str]]:
    """Run the command line in a child (its cache folder ``cache``): its output, and which of ``HEAVY`` it loaded."""
    script = ("import sys\nfrom rulesdsl.cli.entry import main\nsys.argv = ['rulesdsl', *sys.argv[1:]]\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              f"sys.stderr.write('LOADED ' + ' '.join(m for m in {HEAVY!r} if m in sys.modules) + '\\n')\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("RULESDSL_RULES_CACHE", None)
    done = subprocess.run([sys.executable, "-c", script, *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=300, check=True)
    loaded = done.stderr.rsplit("LOADED", 1)[1].split()
    return done.stdout, set(loaded)


def test_a_warm_perft_loads_no_parser_no_checks_and_no_machine_code(tmp_path):
    first, cold = modules_after(["perft", "abalone", "--depth", "2"], tmp_path)
    again, warm = modules_after(["perft", "abalone", "--depth", "2"], tmp_path)
    assert first == again == "1\t15\n2\t211\n"  # grid Abalone's counts (tests/test_perft_table.py, the issue)
    assert {"lark", "rulesdsl.checker"} <= cold  # the first start parsed and checked the file
    assert warm == set()


def test_play_with_a_named_game_reads_no_menu(tmp_path):
    modules_after(["play", "tic-tac-toe", "--as", "all"], tmp_path, "quit\n")
    shown, warm = modules_after(["play", "tic-tac-toe", "--as", "all"], tmp_path, "quit\n")
    assert "a1" in shown or "---" in shown  # the board was printed
    assert warm == set()


def test_numbas_version_is_read_without_importing_it():
    try:
        expected = metadata.version("numba")
    except metadata.PackageNotFoundError:
        expected = None
    native._numba_version.cache_clear()
    assert native._numba_version() == expected


def test_installed_versions_are_read_as_importlib_metadata_reads_them():
    for name in ("rulesdsl", "click", "lark", "PyYAML", "pyyaml", "typing-extensions"):
        assert installed_version(name) == metadata.version(name), name
    assert installed_version("no-such-distribution-here") is None


def test_version_needs_no_importlib_metadata(tmp_path):
    shown, loaded = modules_after(["--version"], tmp_path)
    assert shown == f"rulesdsl, version {metadata.version('rulesdsl')}\n"
    assert loaded == set()
