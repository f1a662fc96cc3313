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
from rulesdsl.interpreter.compile.trial import check_all
from rulesdsl.limits import MAX_SAME_FINDINGS
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
        report.diagnostics = cap_repeats(report.diagnostics)
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
    report.diagnostics = cap_repeats(sorted(found, key=_order(resolved.path)))
    return report


def cap_repeats(found: list[Diagnostic], most: int = MAX_SAME_FINDINGS) -> list[Diagnostic]:
    """The first ``most`` findings of each code, then one finding per code counting the rest (in order)."""
    seen: dict[str, int] = {}
    kept = []
    for diagnostic in found:
        seen[diagnostic.code] = seen.get(diagnostic.code, 0) + 1
        if seen[diagnostic.code] <= most:
            kept.append(diagnostic)
    for code, count in seen.items():
        if count > most:
            first = next(d for d in found if d.code == code)
            kept.append(Diagnostic(Span(0, 0, file=first.span.file), f"{count - most:,} more {code} "
                                   f"{first.severity}s like the ones above, not shown", code, first.severity,
                                   hint=f"the first {most} of each kind are shown"))
    return kept


def safe_check(spec: str, **settings) -> FileReport:
    """``check_file``, with any crash turned into one finding (never a traceback)."""
    try:
        return check_file(spec, **settings)
    except Exception as error:  # a bug in rulesdsl: report it like any finding
        return FileReport(spec, [Diagnostic(Span(0, 0, file=spec), f"internal error: {type(error).__name__}: "
                                            f"{error}", "E999", hint="please report this rule file")])
