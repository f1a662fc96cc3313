"""Check one rule file: everything that can be known about it, as one report.

In order: syntax and semantics with the trial compile (``E0xx``/``W0xx``),
the inline examples (``E100``), the suite ``NAME.tests.yaml`` beside it
(``E3xx``), and random playouts from the start (``E2xx``). Steps 2-4 run only
when step 1 found no error. ``rulesdsl check`` prints what this finds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulesdsl.errors import Diagnostic, RulesError, Span, suggest
from rulesdsl.interpreter.trial import check_all
from rulesdsl.loader import bundled_games, find_rules, resolve
from rulesdsl.verify.examples import run_examples
from rulesdsl.verify.selfcheck import selfcheck
from rulesdsl.verify.suites import SUITE_SUFFIX, check_suite, rules_for, suite_for

__all__ = ["FileReport", "check_file", "safe_check"]


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
    if spec.endswith(SUITE_SUFFIX):
        spec = str(rules_for(Path(spec)))
    path = find_rules(spec)
    if path is None:
        close = suggest(spec, bundled_games())
        missing = Diagnostic(Span(0, 0, file=spec), "no such rule file or bundled game", "E002",
                             hint=f"did you mean {close!r}?" if close else
                             "give a path to a .rules file or a bundled game's name")
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
    found = check_all(resolved)
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


def safe_check(spec: str, **settings) -> FileReport:
    """``check_file``, with any crash turned into one finding (never a traceback)."""
    try:
        return check_file(spec, **settings)
    except Exception as error:  # a bug in rulesdsl: report it like any finding
        return FileReport(spec, [Diagnostic(Span(0, 0, file=spec), f"internal error: {type(error).__name__}: "
                                            f"{error}", "E999", hint="please report this rule file")])
