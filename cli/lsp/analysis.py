"""What ``rulesdsl check`` finds in a document: static findings as you type, examples and suites on save."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.interpreter.compile.trial import check_all
from rulesdsl.loader import resolve

#: Examples and suites run on save in a separate process, stopped after this many seconds.
SAVE_BUDGET = 20.0


def placed_here(found: list[Diagnostic], path: str, text: str) -> list[Diagnostic]:
    """Findings placed in this document; one in another file (a parent) is shown at the ``extends`` line."""
    extends_line = next((i + 1 for i, line in enumerate(text.split("\n")) if line.lstrip().startswith("extends")), 0)
    placed = []
    for d in found:
        if d.span.file in (path, str(Path(path))) or d.span.line == 0:
            placed.append(d)
        else:
            where = Span(extends_line, 1, file=path) if extends_line else Span(0, 0, file=path)
            placed.append(replace(d, span=where, message=f"in {d.span}: {d.message}"))
    return placed


def static_diagnostics(text: str, path: str) -> list[Diagnostic]:
    """Every error and warning of ``check``'s first step (syntax, names, types, trial compile) for ``text``."""
    try:
        resolved = resolve(Path(path), text=text)
    except RulesError as error:
        return placed_here(list(error.diagnostics), path, text)
    return placed_here(check_all(resolved), path, text)


def saved_diagnostics(path: str, budget: float = SAVE_BUDGET) -> list[Diagnostic]:
    """Everything ``rulesdsl check`` finds in the saved file but playouts: examples and the suite, time-bounded.

    Runs in another process so that a long perft cannot hold the editor up;
    past ``budget`` seconds it is stopped and one note says so.
    """
    command = [sys.executable, "-m", "rulesdsl.cli.main", "check", "--format", "json", "--playouts", "0", path]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=budget, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return [Diagnostic(Span(1, 1, file=path), f"the examples and suite did not finish within {budget:g} s",
                           "I001", "information", hint="run 'rulesdsl check' on the file to see them through")]
    try:
        found = json.loads(done.stdout or "[]")
    except json.JSONDecodeError:
        return []
    return [Diagnostic(Span(f["line"], f["column"], f["end_line"], f["end_column"], f["file"]), f["message"],
                       f["code"], f["severity"], f["hint"]) for f in found]
