"""Where the checker's parts put what they find: errors and warnings with hints."""

from __future__ import annotations

from collections.abc import Iterable

from rulesdsl.errors import Diagnostic, Span, suggest


class Findings:
    """The diagnostics found so far for one resolved rule file.

    The checker's parts (names, types, warnings, the trial compile) all derive
    from this class and report through it.
    """

    def __init__(self, resolved) -> None:
        self.resolved = resolved
        self.found: list[Diagnostic] = []
        self.file: str = resolved.path

    def error(self, span: Span, message: str, code: str, hint: str = "") -> None:
        """Record an error."""
        self.found.append(Diagnostic(span, message, code, "error", hint))

    def warning(self, span: Span, message: str, code: str, hint: str = "") -> None:
        """Record a warning (fails ``check`` only with ``--strict``)."""
        self.found.append(Diagnostic(span, message, code, "warning", hint))

    def unknown(self, span: Span, what: str, name: str, known: Iterable[str], code: str) -> None:
        """An unknown name, with a did-you-mean or the list of known names as the hint."""
        names = sorted(set(known))
        close = suggest(name, names)
        if close:
            hint = f"did you mean {close!r}?"
        else:
            hint = f"known: {', '.join(names)}" if names else f"no {what}s are declared"
        self.error(span, f"unknown {what} {name!r}", code, hint)
