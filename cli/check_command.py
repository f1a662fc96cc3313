"""``rulesdsl check``: everything that can be known about rule files, reported at once.

For each file, in order:

1. syntax and semantics (errors ``E0xx``, warnings ``W0xx``), including the
   start position as the default options make it;
2. the file's inline examples (``E100``);
3. its suite ``NAME.tests.yaml``, when one lies beside it (``E3xx``);
4. random playouts from the start that test the Game interface's promises
   (``E2xx``; ``--playouts 0`` turns them off).

Steps 2-4 run only when step 1 found no error. The work is the verify stage's
(:func:`rulesdsl.verify.check_file`); this module is the command and its output. Findings go to stderr as text
with carets (``--format text``), or to stdout as JSON or GitHub Actions
annotations. Exit 0 when clean (warnings allowed unless ``--strict``), 1 when
any error (or, with ``--strict``, any warning) was found, 2 on a usage error.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from rulesdsl.cli.common import EXIT_INTERRUPTED
from rulesdsl.errors import Diagnostic, Span
from rulesdsl.limits import MAX_ECHO, MAX_PLAYOUT_PLIES, MAX_PLAYOUTS, shown
from rulesdsl.loader import find_rules
from rulesdsl.verify.files import FileReport, safe_check
from rulesdsl.verify.suites import SUITE_SUFFIX, rules_for

FORMATS = ("text", "json", "github")


# ---- output -------------------------------------------------------------------------


def as_json(diagnostic: Diagnostic) -> dict:
    """One finding as a JSON object."""
    span = diagnostic.span
    return {
        "file": span.file, "line": span.line, "column": span.column,
        "end_line": span.end_line or span.line, "end_column": span.end_column or span.column,
        "severity": diagnostic.severity, "code": diagnostic.code,
        "message": shown(diagnostic.message), "hint": shown(diagnostic.hint),
    }


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def as_github(diagnostic: Diagnostic) -> str:
    """One finding as a GitHub Actions workflow command (an annotation)."""
    span = diagnostic.span
    props = [f"file={_escape_property(shown(span.file))}"]
    if span.line:
        props.append(f"line={span.line}")
        if span.column:
            props.append(f"col={span.column}")
        if span.end_line:
            props.append(f"endLine={span.end_line}")
            if span.end_column:
                props.append(f"endColumn={span.end_column}")
    props.append(f"title={_escape_property(diagnostic.code)}")
    message = diagnostic.message + (f" ({diagnostic.hint})" if diagnostic.hint else "")
    message = shown(message, 2 * MAX_ECHO, keep="\r\n")  # line breaks: escaped as GitHub wants below
    level = {"error": "error", "information": "notice"}.get(diagnostic.severity, "warning")
    return f"::{level} {','.join(props)}::{_escape_data(message)}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(report: FileReport) -> str:
    """``FILE: ok (2 examples, 5 suite cases, 20 playouts)`` or the counts of findings."""
    ran = [_plural(report.examples, "example")]
    if report.cases:
        ran.append(_plural(report.cases, "suite case"))
    if report.playouts:
        plies = "1 ply" if report.plies == 1 else f"{report.plies} plies"
        ran.append(f"{_plural(report.playouts, 'playout')}, {plies} in all")
    if not report.diagnostics:
        verdict = "ok"
    else:
        verdict = ", ".join(part for part in (_plural(report.errors, "error") if report.errors else "",
                                              _plural(report.warnings, "warning") if report.warnings else "")
                            if part)
    return f"{report.path}: {verdict} ({', '.join(ran)})"


def _distinct(files: tuple[str, ...]) -> list[str]:
    """The files in order, each rule file once (a suite and its rule file are one)."""
    out, keys = [], set()
    for spec in files:
        target = str(rules_for(Path(spec))) if spec.endswith(SUITE_SUFFIX) else spec
        found = find_rules(target)
        key = os.path.realpath(found) if found is not None else spec  # realpath: never raises on a loop
        if key not in keys:
            keys.add(key)
            out.append(spec)
    return out


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1 on any warning).")
@click.option("--playouts", type=click.IntRange(0, MAX_PLAYOUTS), default=20, show_default=True,
              help="Random games played from the start to test the compiled game (0: none).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random playouts.")
@click.option("--max-plies", type=click.IntRange(1, MAX_PLAYOUT_PLIES), default=200, show_default=True,
              help="Stop each playout after this many plies.")
@click.option("--suites/--no-suites", default=True, show_default=True,
              help="Run the NAME.tests.yaml suite beside each rule file.")
@click.option("--format", "output", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: findings with carets on stderr; json: a JSON list on stdout; "
                   "github: GitHub Actions annotations on stdout.")
def check(files: tuple[str, ...], strict: bool, playouts: int, seed: int, max_plies: int, suites: bool,
          output: str) -> None:
    """Check rule files: syntax, names, ranges, examples, suites and random playouts.

    FILES are paths to .rules files (a NAME.tests.yaml stands for its NAME.rules)
    or names of bundled games. Exit 0 when clean (warnings allowed unless
    --strict), 1 when any error was found, 2 on a usage error.
    """
    findings: list[Diagnostic] = []
    failed = False
    try:
        failed = _check_each(files, findings, strict, output, playouts=playouts, seed=seed, max_plies=max_plies,
                             suites=suites)
    except KeyboardInterrupt:  # Ctrl-C: the findings so far, still in the format asked for
        interrupted = Diagnostic(Span(0, 0, file="rulesdsl"), "interrupted (Ctrl-C): the files after this "
                                 "point were not checked", "E998")
        findings.append(interrupted)
        if output == "text":
            click.echo(interrupted.one_line(), err=True)
        _print_findings(findings, output)
        sys.exit(EXIT_INTERRUPTED)
    _print_findings(findings, output)
    sys.exit(1 if failed else 0)


def _check_each(files: tuple[str, ...], findings: list[Diagnostic], strict: bool, output: str,
                **settings) -> bool:
    """Check each file, adding its new findings to ``findings``; True when any failed."""
    seen: set[tuple] = set()
    failed = False
    for spec in _distinct(files):
        report = safe_check(spec, **settings)
        fresh = []
        for diagnostic in report.diagnostics:  # a parent file shared by variants is reported once
            key = (diagnostic.span, diagnostic.span.file, diagnostic.code, diagnostic.message)
            if key not in seen:
                seen.add(key)
                fresh.append(diagnostic)
        failed = failed or report.errors > 0 or (strict and report.warnings > 0)
        findings += fresh
        if output == "text":
            for diagnostic in fresh:
                click.echo(diagnostic.with_caret(), err=True)
            click.echo(summary(report), err=True)
    return failed


def _print_findings(findings: list[Diagnostic], output: str) -> None:
    """The findings on stdout as JSON or GitHub annotations (text went to stderr as it came)."""
    if output == "json":
        click.echo(json.dumps([as_json(d) for d in findings], indent=2))
    elif output == "github":
        for diagnostic in findings:
            click.echo(as_github(diagnostic))
