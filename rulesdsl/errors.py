"""Errors for people: every one names its place and says what is wrong in one line."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field

from rulesdsl.limits import MAX_ECHO, is_unsafe_char, shown


@dataclass(frozen=True, order=True)
class Span:
    """A place in a source file: 1-based line and column, with the end."""

    line: int
    column: int
    end_line: int = 0
    end_column: int = 0
    file: str = field(default="<rules>", compare=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One finding of the checker: an error or a warning at a place."""

    span: Span
    message: str
    code: str = "E000"
    severity: str = "error"
    hint: str = ""
    source_line: str = ""

    def one_line(self) -> str:
        """``file:line:col: severity: message (hint)`` on one line.

        Whatever the input put in it is escaped (no control or bidi
        character reaches a terminal or a CI log) and each part is cut to
        a few hundred characters.
        """
        where = shown(str(self.span) if self.span.line else self.span.file)
        text = f"{where}: {self.severity}: {shown(self.message)}"
        if self.hint:
            text += f" ({shown(self.hint)})"
        return text

    def with_caret(self) -> str:
        """The one-line form, then the source line and a caret under the place.

        A long source line is shown as a window of about 300 characters around
        the place; control characters are shown as one replacement character
        each so that the caret stays under its column.
        """
        lines = [self.one_line()]
        if self.source_line and self.span.column:
            source = self.source_line.rstrip("\r\n").expandtabs(1)
            source = "".join("\ufffd" if is_unsafe_char(c) else c for c in source)
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            start = max(0, self.span.column - 1 - MAX_ECHO // 2)
            window = source[start:start + MAX_ECHO]
            prefix = "..." if start else ""
            suffix = "..." if start + MAX_ECHO < len(source) else ""
            lines.append("    " + prefix + window + suffix)
            column = self.span.column - 1 - start + len(prefix)
            lines.append("    " + " " * column + "^" * max(1, min(width, MAX_ECHO - column)))
        return "\n".join(lines)


def line_of(text: str, line: int) -> str:
    """Line ``line`` (1-based) of ``text``, as the parser counts lines; empty when out of range."""
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""


class RulesdslError(ValueError):
    """Base of every error the tool reports to a user (never a traceback).

    ``span`` is the place the error is about, when it has one (a span with
    line 0 names only the file); ``detail`` is the message without the place.
    The text is ``file:line:col: detail``, so nothing needs to parse it back.
    """

    def __init__(self, detail: str = "", span: Span | None = None):
        self.span = span
        self.detail = detail
        where = "" if span is None else (str(span) if span.line else span.file)
        super().__init__(f"{where}: {detail}" if where else detail)


class RulesError(RulesdslError):
    """A rule file that does not parse or check; carries all its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=lambda d: (d.span.file, d.span.line, d.span.column))
        super().__init__(self.diagnostics[0].one_line() if self.diagnostics else "invalid rules")


class OptionError(RulesdslError):
    """A bad ``--set NAME=VALUE``: unknown option, wrong type or out of range."""


class PositionError(RulesdslError):
    """A position string that does not fit the game."""


class MoveError(RulesdslError):
    """A move that is malformed or not legal in the position."""


class ArgumentError(RulesdslError):
    """A Python API call given an argument of the wrong type or out of range (``perft(-1)``, ``load(5)``)."""


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The closest known name to a misspelt one, if any is close (for did-you-mean hints)."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return found[0] if found else None
