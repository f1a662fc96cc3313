"""``rulesdsl check``: everything that can be known about rule files, reported at once.

For each file, in order:

1. syntax and semantics (errors ``E0xx``, warnings ``W0xx``), including the
   start position as the default options make it;
2. the file's inline examples (``E100``);
3. its suite ``NAME.tests.yaml``, when one lies beside it (``E3xx``);
4. random playouts from the start that test the Game interface's promises
   (``E2xx``; ``--playouts 0`` turns them off).

Steps 2-4 run only when step 1 found no error. Findings go to stderr as text
with carets (``--format text``), or to stdout as JSON or GitHub Actions
annotations. Exit 0 when clean (warnings allowed unless ``--strict``), 1 when
any error (or, with ``--strict``, any warning) was found, 2 on a usage error.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click

from rulesdsl.checker import check as static_check
from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.loader import find_rules, resolve
from rulesdsl.suites import SUITE_SUFFIX, check_suite, rules_for, suite_for

FORMATS = ("text", "json", "github")


@dataclass
class FileReport:
    """Everything ``check`` found for one rule file, and what it ran."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    examples: int = 0
    cases: int = 0
    playouts: int = 0
    plies: int = 0

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)


def _order(main: str):
    """Sort key: the checked file first, then by file; places in order, whole-file findings last."""
    return lambda d: (d.span.file != main, d.span.file, d.span.line == 0, d.span.line, d.span.column)


def check_file(spec: str, playouts: int = 20, seed: int = 0, max_plies: int = 200,
               suites: bool = True) -> FileReport:
    """Every finding for one rule file (named by path or bundled name)."""
    from rulesdsl.interpreter.examples import run_examples
    from rulesdsl.interpreter.selfcheck import selfcheck

    if spec.endswith(SUITE_SUFFIX):
        spec = str(rules_for(Path(spec)))
    path = find_rules(spec)
    if path is None:
        missing = Diagnostic(Span(0, 0, file=spec), "no such rule file or bundled game", "E002",
                             hint="give a path to a .rules file or a bundled game's name")
        return FileReport(spec, [missing])
    report = FileReport(str(path))
    suite_path = suite_for(path)
    try:
        resolved = resolve(path)
    except RulesError as error:
        report.diagnostics = list(error.diagnostics)
        if suites and suite_path.is_file():  # the suite's own mistakes are worth knowing now too
            report.diagnostics += check_suite(suite_path).diagnostics
        return report
    found = static_check(resolved)
    clean = not any(d.severity == "error" for d in found)
    if clean:
        report.examples = len(resolved.examples)
        found += run_examples(resolved)
    if suites and suite_path.is_file():
        result = check_suite(suite_path, resolved if clean else None)
        report.cases = result.cases
        found += result.diagnostics
    if clean and playouts > 0:
        dynamic, playout_report = selfcheck(resolved, playouts, seed, max_plies)
        found += dynamic
        if playout_report is not None:
            report.playouts, report.plies = playout_report.playouts, playout_report.plies
    report.diagnostics = sorted(found, key=_order(resolved.path))
    return report


def _safe_check(spec: str, **settings) -> FileReport:
    """``check_file``, with any crash turned into one finding (never a traceback)."""
    try:
        return check_file(spec, **settings)
    except Exception as error:  # a bug in rulesdsl: report it like any finding
        return FileReport(spec, [Diagnostic(Span(0, 0, file=spec), f"internal error: {type(error).__name__}: "
                                            f"{error}", "E999", hint="please report this rule file")])


# ---- output -------------------------------------------------------------------------


def as_json(diagnostic: Diagnostic) -> dict:
    """One finding as a JSON object."""
    span = diagnostic.span
    return {
        "file": span.file, "line": span.line, "column": span.column,
        "end_line": span.end_line or span.line, "end_column": span.end_column or span.column,
        "severity": diagnostic.severity, "code": diagnostic.code,
        "message": diagnostic.message, "hint": diagnostic.hint,
    }


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def as_github(diagnostic: Diagnostic) -> str:
    """One finding as a GitHub Actions workflow command (an annotation)."""
    span = diagnostic.span
    props = [f"file={_escape_property(span.file)}"]
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
    level = "error" if diagnostic.severity == "error" else "warning"
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
        key = str(found.resolve()) if found is not None else spec
        if key not in keys:
            keys.add(key)
            out.append(spec)
    return out


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1 on any warning).")
@click.option("--playouts", type=click.IntRange(min=0), default=20, show_default=True,
              help="Random games played from the start to test the compiled game (0: none).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random playouts.")
@click.option("--max-plies", type=click.IntRange(min=1), default=200, show_default=True,
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
    seen: set[tuple] = set()
    findings: list[Diagnostic] = []
    failed = False
    for spec in _distinct(files):
        report = _safe_check(spec, playouts=playouts, seed=seed, max_plies=max_plies, suites=suites)
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
    if output == "json":
        click.echo(json.dumps([as_json(d) for d in findings], indent=2))
    elif output == "github":
        for diagnostic in findings:
            click.echo(as_github(diagnostic))
    sys.exit(1 if failed else 0)
