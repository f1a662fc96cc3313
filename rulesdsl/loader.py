"""Find rule files, resolve ``extends`` and read options: the language's side of loading.

Checking and compiling a loaded file into a Game is the interpreter's:
:mod:`rulesdsl.interpreter.compile.load` (``load_rules``, ``load_game``, ``load_position``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from rulesdsl import model as m
from rulesdsl.errors import Diagnostic, RulesError, Span, line_of
from rulesdsl.limits import MAX_EXTENDS
from rulesdsl.options import option_values, parse_setting
from rulesdsl.sources import SourceError, command_line_file, extends_target, what_it_is

__all__ = ["Resolved", "bundled_dir", "bundled_games", "find_rules", "option_values", "parse_setting", "resolve"]

SUFFIX = ".rules"


def bundled_dir() -> Path:
    """The folder of the rule files shipped with the package."""
    return Path(str(resources.files("rulesdsl.rules")))


def bundled_games() -> list[str]:
    """Names of the bundled games: the stems of the ``.rules`` files shipped in the package."""
    return sorted(p.stem for p in bundled_dir().glob(f"*{SUFFIX}"))


def find_rules(spec: str, relative_to: Path | None = None) -> Path | None:
    """A rule file named on the command line (or, with ``relative_to``, by ``extends`` in a file there).

    See :mod:`rulesdsl.sources`: a path-like name is a path, never the bundled game of that name.
    """
    if relative_to is not None:
        try:
            return extends_target(spec, relative_to / "_", bundled_dir())
        except SourceError:
            return None
    return command_line_file(spec, bundled_dir())


@dataclass
class Resolved:
    """A rule file with its ``extends`` chain merged: the statements in force."""

    path: str
    statements: list[m.Statement]
    texts: dict[str, str] = field(default_factory=dict)
    examples: list[m.Example] = field(default_factory=list)
    _lines: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    # each ``extends`` of the chain: (the file, the name it gives, the file that name found)
    links: list[tuple[str, str, str]] = field(default_factory=list, repr=False, compare=False)

    def of(self, kind: type) -> list:
        """All statements of one type, in order."""
        return [s for s in self.statements if isinstance(s, kind)]

    def source_line(self, span: Span) -> str:
        """The text of the line a span points into (for carets); each file is split once."""
        if span.file not in self._lines:
            self._lines[span.file] = self.texts.get(span.file, "").split("\n")  # lines as the parser counts them
        lines = self._lines[span.file]
        return lines[span.line - 1] if 0 < span.line <= len(lines) else ""

    def attach(self, diagnostic: Diagnostic) -> Diagnostic:
        """The diagnostic with its source line filled in."""
        if diagnostic.source_line:
            return diagnostic
        return replace(diagnostic, source_line=self.source_line(diagnostic.span))


def read_file(path: Path) -> m.RuleFile:
    """Parse one file (no ``extends`` resolution)."""
    problem = what_it_is(path)
    if problem:
        raise RulesError([Diagnostic(Span(0, 0, file=str(path)), f"cannot read file: it {problem}", "E002")])
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        data = error.object
        line_start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, error.start) + 1
        column = len(data[line_start:error.start].decode("utf-8", errors="replace")) + 1
        source = data[line_start:].split(b"\n", 1)[0].decode("utf-8", errors="replace")
        bad = data[error.start:error.end].hex(" ")
        raise RulesError([Diagnostic(Span(line, column, line, column + 1, str(path)),
                                     f"the file is not UTF-8 text: cannot read byte {bad}", "E002",
                                     hint="save the file as UTF-8", source_line=source)]) from None
    except OSError as error:
        raise RulesError([Diagnostic(Span(0, 0, file=str(path)), f"cannot read file: {error}", "E002")]) from None
    return parse_text(text, str(path))


def parse_text(text: str, path: str) -> m.RuleFile:
    """:func:`rulesdsl.parser.parse_text`, imported at the first parse (a cached checked file needs no parser, so a
    warm start never loads lark or the grammar: :mod:`rulesdsl.interpreter.compile.rules_cache`)."""
    from rulesdsl.parser import parse_text as parse

    return parse(text, path)


def resolve(path: Path, _chain: tuple[str, ...] = (), text: str | None = None) -> Resolved:
    """Parse ``path`` and merge the files it extends, parent first.

    A statement of the child replaces every parent statement with the same key
    (``option rows`` replaces ``option rows``; ``moves`` replaces ``moves``).
    Examples are not inherited: each file pins its own meaning. ``text``, when
    given, is read instead of the file at ``path`` (an editor's unsaved buffer).
    """
    rule_file = read_file(path) if text is None else parse_text(text, str(path))
    texts = {rule_file.path: rule_file.text}
    links: list[tuple[str, str, str]] = []
    own = rule_file.statements
    parent: Resolved | None = None
    extends = [s for s in own if isinstance(s, m.Extends)]
    if len(extends) > 1:
        raise RulesError([Diagnostic(extends[1].span, "a file can extend only one other file", "E005",
                                     hint=f"first 'extends' at line {extends[0].span.line}",
                                     source_line=_line(rule_file.text, extends[1].span))])
    for stmt in own:
        if isinstance(stmt, m.Extends):
            if len(_chain) >= MAX_EXTENDS - 1:
                raise RulesError([Diagnostic(stmt.span, f"more than {MAX_EXTENDS} files extend one another", "E008",
                                             hint="shorten the chain of extends",
                                             source_line=_line(rule_file.text, stmt.span))])
            try:
                target = extends_target(stmt.target, path, bundled_dir())
            except SourceError as error:
                raise RulesError([Diagnostic(stmt.span, error.message, error.code, hint=error.hint,
                                             source_line=_line(rule_file.text, stmt.span))]) from None
            if target is None:
                raise RulesError([Diagnostic(stmt.span, f"extends {stmt.target!r}: no such rule file", "E003",
                                             hint="give a path relative to this file or a bundled game's name",
                                             source_line=_line(rule_file.text, stmt.span))])
            key = os.path.realpath(target)
            here = os.path.realpath(path)
            if key in _chain or key == here:
                cycle = (*_chain, here, key)
                raise RulesError([Diagnostic(stmt.span, f"extends {stmt.target!r} makes a cycle", "E004",
                                             hint=" -> ".join(Path(p).name for p in cycle[cycle.index(key):]),
                                             source_line=_line(rule_file.text, stmt.span))])
            try:
                parent = resolve(target, (*_chain, here))
            except RulesError as error:
                cycles = [d for d in error.diagnostics if d.code == "E004"]
                if _chain or not cycles:
                    raise
                # Report the cycle where the file being read enters it, not deep inside another file.
                message = f"extends {stmt.target!r} makes a cycle"
                raise RulesError([replace(cycles[0], span=stmt.span, message=message,
                                          source_line=_line(rule_file.text, stmt.span))]) from None
            texts.update(parent.texts)
            links += [(rule_file.path, stmt.target, str(target)), *parent.links]
    body = [s for s in own if not isinstance(s, (m.Extends, m.Example))]
    examples = [s for s in own if isinstance(s, m.Example)]
    if parent is None:
        return Resolved(rule_file.path, body, texts, examples, links=links)
    merged = _merge(parent.statements, body)
    return Resolved(rule_file.path, merged, texts, examples, links=links)


def _merge(parent: list[m.Statement], child: list[m.Statement]) -> list[m.Statement]:
    """The child's statements replace the parent's with the same key, in the parent's place.

    Keeping the place keeps options in order, so ``option b = a * 2`` in the
    parent still sees a child's ``option a``. New keys come after the parent's.
    """
    by_key: dict[str, list[m.Statement]] = {}
    for stmt in child:
        by_key.setdefault(stmt.key, []).append(stmt)
    merged: list[m.Statement] = []
    placed: set[str] = set()
    for stmt in parent:
        if stmt.key not in by_key:
            merged.append(stmt)
        elif stmt.key not in placed:
            merged.extend(by_key[stmt.key])
            placed.add(stmt.key)
    merged.extend(s for s in child if s.key not in placed)
    return merged


def _line(text: str, span: Span) -> str:
    return line_of(text, span.line)
