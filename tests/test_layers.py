"""Dependencies run one way: the language <- the interpreter <- verify <- the command line.

Every module's imports are read with ``ast`` (imports inside functions count,
relative imports are resolved against the module's package), and an arrow
that runs the wrong way fails the test with the file and line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# folder on disk -> package it installs as (pyproject's package-dir)
FOLDERS = {"rulesdsl": "rulesdsl", "interpreter": "rulesdsl.interpreter", "cli": "rulesdsl.cli"}

# Layers from the bottom up; a module may import only from its own layer or those below it.
# The Python API (rulesdsl/api.py, and its OpenSpiel adapter rulesdsl/openspiel.py) is the top: it may
# draw a position with the command line's pictures (rulesdsl.cli.svg, for notebooks); nothing imports it.
LAYERS = ("language", "interpreter", "verify", "cli", "api")
API = ("api", "openspiel")


def layer_of(module: str) -> str | None:
    """The layer of a ``rulesdsl`` module (``None`` for the package root and for other packages)."""
    parts = module.split(".")
    if parts[0] != "rulesdsl" or len(parts) == 1:
        return None
    if parts[1] in API:
        return "api"
    if parts[1] in ("interpreter", "cli", "verify"):
        return parts[1]
    if parts[1] == "rules":
        return None  # data
    return "language"


def modules() -> list[tuple[Path, str]]:
    """Every Python file of the package with its dotted module name."""
    out = []
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.append((path, ".".join([package, *parts])))
    return out


def imports(path: Path, module: str) -> list[tuple[str, int]]:
    """The modules (and ``module.name`` targets) that a file imports, with line numbers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.append((base, node.lineno))
            found += [(f"{base}.{alias.name}", node.lineno) for alias in node.names]
    return found


def wrong_way() -> list[str]:
    """Every import that points to a higher layer."""
    bad = []
    for path, module in modules():
        mine = layer_of(module)
        if mine is None:  # the package root may name anything (it imports lazily)
            continue
        for target, line in imports(path, module):
            theirs = layer_of(target)
            if theirs is not None and LAYERS.index(theirs) > LAYERS.index(mine):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {mine} module {module} imports {target} ({theirs})")
    return sorted(set(bad))


def test_no_import_runs_the_wrong_way():
    assert wrong_way() == []


def test_the_reader_sees_imports_inside_functions_and_relative_ones(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text("def f():\n    from ..interpreter import compiler\n    import rulesdsl.cli.main\n")
    found = imports(source, "rulesdsl.verify.files")
    assert ("rulesdsl.interpreter.compiler", 2) in found
    assert ("rulesdsl.cli.main", 3) in found


@pytest.mark.parametrize("module, layer", [
    ("rulesdsl.checker", "language"), ("rulesdsl.directions", "language"),
    ("rulesdsl.interpreter.compile.load", "interpreter"), ("rulesdsl.verify.files", "verify"),
    ("rulesdsl.cli.main", "cli"), ("rulesdsl.api", "api"), ("rulesdsl.openspiel", "api"), ("rulesdsl", None),
    ("lark", None),
])
def test_layers_of_modules(module, layer):
    assert layer_of(module) == layer


def test_importing_the_language_and_the_package_root_loads_no_engine():
    import subprocess
    import sys

    code = ("import sys, rulesdsl, rulesdsl.checker, rulesdsl.loader, rulesdsl.parser;"
            "print([m for m in sys.modules if m.startswith(('rulesdsl.interpreter', 'rulesdsl.cli', "
            "'rulesdsl.api', 'rulesdsl.verify'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_only_the_players_module_knows_the_order_of_play():
    """No ``1 - player`` (two players hard-coded) outside ``interpreter/compile/seats.py``."""
    import re

    # 1 - player, 1 - turn, 1 - winner(...), 1 - r(state), threats[1 - p], f(board, 1 - p)
    # (a probability's 1 - p is not a player).
    pattern = re.compile(r"\b1\s*-\s*(player|turn|winner|mover|who|state\.turn|r\(|mover_of\()"
                         r"|\[1\s*-\s*p\]|,\s*1\s*-\s*p\)")
    found = []
    for path, _ in modules():
        if path.name == "seats.py" or path.parent.name == "cli":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line.split("#")[0]):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_test_files_import_their_helpers_as_a_fresh_clone_can():
    """pytest puts tests/ itself on the path (no package): 'from tests.helpers import ...' works only where
    something else happens to put the checkout on the path, as an editable install in a worktree does."""
    tests = Path(__file__).resolve().parent
    wrong = [p.name for p in sorted(tests.glob("*.py")) if re.search(r"^\s*(from|import) tests\.", p.read_text(), re.M)]
    assert wrong == []
