"""Light for CI: checking rule files needs only the core install (lark, click, pyyaml); every other
dependency sits in an extra, is imported only by the commands that use it, and a missing one is one line
naming the extra (issue 23, item 7). The command line loads its commands lazily."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.extras import EXTRA_OF

ROOT = Path(__file__).resolve().parent.parent
CORE = {"lark", "click", "pyyaml", "tqdm"}  # tqdm: pure Python, no dependencies (progress lines)
OPTIONAL = sorted(EXTRA_OF)  # numpy, platformdirs, prompt_toolkit, pygls, lsprotocol, pygments


def run_without(modules: list[str], *args: str, code: str = "") -> subprocess.CompletedProcess:
    """Run the console entry with ``modules`` impossible to import (as if not installed)."""
    script = (f"import sys\nfor name in {modules!r}:\n    sys.modules[name] = None\n{code}\n"
              "from rulesdsl.cli.entry import main\nsys.argv = ['rulesdsl', *sys.argv[1:]]\nmain()\n")
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


def test_the_core_dependencies_are_the_language_and_nothing_else():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[<>=\[ ]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    assert names == CORE
    extras = project["optional-dependencies"]
    for module, extra in EXTRA_OF.items():
        wanted = module.replace("_", "-") if module != "lsprotocol" else "pygls"  # lsprotocol comes with pygls
        listed = {re.split(r"[<>=\[ ]", d, maxsplit=1)[0].lower().replace("_", "-") for d in extras[extra]}
        assert wanted in listed, (module, extra)
    assert any(d.startswith("rulesdsl[all") for d in extras["test"])


def test_every_dependency_says_why_it_is_there():
    text = (ROOT / "pyproject.toml").read_text()
    block = text.split("dependencies = [", 1)[1].split("[project.scripts]", 1)[0]
    lines = [line for line in block.splitlines() if line.strip().startswith('"')]
    assert lines and all("#" in line for line in lines), [line for line in lines if "#" not in line]


def test_checking_the_bundled_rule_files_needs_no_optional_dependency():
    rules = sorted(str(p) for p in (ROOT / "rules").glob("*.rules"))
    done = run_without(OPTIONAL, "check", "--playouts", "1", *rules)
    assert done.returncode == 0, done.stderr + done.stdout
    reported = [line.split(": ", 1)[0] for line in done.stderr.splitlines()]  # check reports on stderr
    assert set(reported) == set(rules)


def test_fmt_and_moves_need_no_optional_dependency():
    assert run_without(OPTIONAL, "fmt", "--check", "rules/konane.rules").returncode == 0
    done = run_without(OPTIONAL, "moves", "konane")
    assert done.returncode == 0 and "\t" in done.stdout


@pytest.mark.parametrize(("modules", "args", "extra"), [
    (["numpy"], ["solve", "konane"], "solve"),
    (["platformdirs"], ["solve", "konane"], "solve"),
    (["numpy"], ["bench", "--solver", "konane"], "solve"),
])
def test_a_command_whose_extra_is_missing_says_which_to_install(modules, args, extra):
    done = run_without(modules, *args)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"pip install 'rulesdsl[{extra}]'" in lines[0] and modules[0] in lines[0]


def test_the_repl_value_command_without_the_solver_says_which_extra():
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['numpy'] = None\n"
         "from rulesdsl.cli.entry import main; sys.argv = ['rulesdsl', 'play', 'konane', '--as', 'all']; main()"],
        input="value\nquit\n", capture_output=True, text=True, timeout=120)
    assert "value: this needs numpy, which is not installed: pip install 'rulesdsl[solve]'" in done.stdout


def test_starting_the_command_line_loads_no_engine():
    code = ("import sys\nfrom rulesdsl.cli.main import cli\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('rulesdsl', 'numpy', 'lark')))))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
                 .stdout.split())
    heavy = {"numpy", "lark", "rulesdsl.model", "rulesdsl.parser", "rulesdsl.checker",
             "rulesdsl.interpreter.compile.compiler", "rulesdsl.interpreter.solver", "rulesdsl.cli.serve",
             "rulesdsl.cli.check_command"}
    assert loaded & heavy == set()


def test_version_answers_without_loading_a_command():
    done = run_without(OPTIONAL + ["lark"], "--version")
    assert done.returncode == 0 and done.stdout.startswith("rulesdsl, version ")
