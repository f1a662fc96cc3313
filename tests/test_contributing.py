"""The walk-throughs of ``docs/contributing.md`` hold: forgetting a step fails a test.

Words of the language are guarded by ``tests/test_vocabulary.py``; this file
guards commands: each ``cli/*_command.py`` is registered with the ``rulesdsl``
group, and each registered command is listed in the README's command table.
"""

from __future__ import annotations

import ast
from pathlib import Path

import click
import pytest

from rulesdsl.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
COMMAND_FILES = sorted((ROOT / "cli").glob("*_command.py"))


def commands_defined(path: Path) -> list[str]:
    """The names of the click commands a module defines (decorated functions)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                call = deco.func if isinstance(deco, ast.Call) else deco
                if ast.unparse(call) in ("click.command", "click.group"):
                    named = [k.value.value for k in getattr(deco, "keywords", []) if k.arg == "name"]
                    names.append(named[0] if named else node.name.replace("_", "-"))
    return names


def test_the_command_modules_are_found():
    assert {"check_command.py", "capture_command.py"} <= {p.name for p in COMMAND_FILES}


@pytest.mark.parametrize("path", COMMAND_FILES, ids=lambda p: p.name)
def test_every_command_module_is_registered(path):
    for name in commands_defined(path):
        registered = {c.name for c in cli.all_commands().values()}
        assert name in registered, f"{path.name} defines '{name}': add it to COMMAND_MODULES in cli/main.py"


def test_every_command_is_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [name for name, command in cli.all_commands().items()
               if isinstance(command, click.Command) and not command.hidden and f"| `rulesdsl {name}" not in readme]
    assert missing == [], "add a row to the command table of README.md"
