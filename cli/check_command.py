"""``rulesdsl check``: parse, check and run the examples of rule files."""

from __future__ import annotations

import sys

import click

from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.checker import check as static_check
from rulesdsl.loader import find_rules, resolve


def check_file(spec: str) -> list[Diagnostic]:
    """Every finding for one rule file: syntax, semantics, then its examples."""
    from rulesdsl.interpreter.examples import run_examples

    path = find_rules(spec)
    if path is None:
        return [Diagnostic(Span(0, 0, file=spec), "no such rule file or bundled game", "E002")]
    try:
        resolved = resolve(path)
    except RulesError as error:
        return error.diagnostics
    found = static_check(resolved)
    if any(d.severity == "error" for d in found):
        return found
    return found + run_examples(resolved)


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def check(files: tuple[str, ...], strict: bool) -> None:
    """Check rule files: syntax, names, ranges and inline examples.

    Exit 0 when every file is clean, 1 when any has an error.
    """
    failed = False
    for spec in files:
        for diagnostic in check_file(spec):
            click.echo(diagnostic.with_caret(), err=True)
            if diagnostic.severity == "error" or strict:
                failed = True
    sys.exit(1 if failed else 0)
