"""Places and findings in the protocol's terms: 0-based lines and columns, URIs, LSP diagnostics."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp

from rulesdsl.errors import Diagnostic, Span

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "information": lsp.DiagnosticSeverity.Information}


def uri_to_path(uri: str) -> str:
    """A file URI as a path (other schemes are kept as they are, as a name)."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def path_to_uri(path: str | Path) -> str:
    """A path as a file URI."""
    return Path(path).resolve().as_uri()


def span_range(span: Span, lines: list[str]) -> lsp.Range:
    """The range of a span (1-based, end exclusive); a span without an end covers the word it starts."""
    if span.line <= 0:
        return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    line, column = span.line - 1, max(span.column - 1, 0)
    if span.end_line >= span.line and (span.end_line > span.line or span.end_column > span.column):
        return lsp.Range(lsp.Position(line, column), lsp.Position(span.end_line - 1, max(span.end_column - 1, 0)))
    text = lines[line] if line < len(lines) else ""
    end = column
    while end < len(text) and not text[end].isspace():
        end += 1
    return lsp.Range(lsp.Position(line, column), lsp.Position(line, max(end, column + 1)))


def to_lsp(diagnostic: Diagnostic, lines: list[str]) -> lsp.Diagnostic:
    """One finding for the editor: range, severity, code, the message and the hint."""
    message = diagnostic.message + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else "")
    return lsp.Diagnostic(range=span_range(diagnostic.span, lines), message=message,
                          severity=SEVERITY.get(diagnostic.severity, lsp.DiagnosticSeverity.Error),
                          code=diagnostic.code, source="rulesdsl")
