"""The caps that keep a hostile rule file, suite or command line bounded in time and memory.

Every input a stranger can write is capped here, in one place, and each cap
is reported as one clear error at the place it is exceeded (see
``docs/security.md``). The figures are far above what any sensible game
needs and low enough that checking a file ends in seconds.
"""

from __future__ import annotations

import unicodedata

# Rule files ---------------------------------------------------------------------------
MAX_DIGITS = 18              # a number literal, a --set value, a suite's count: at most 18 digits
MAX_NUMBER = 10 ** MAX_DIGITS - 1  # and every value an option expression works out stays within it
MAX_DEPTH = 100              # nesting of an expression: parentheses, 'not', '-', chained operators
MAX_EXTENDS = 32             # files in one extends chain
MAX_CELLS = 40_000           # cells of a board, whatever sets its size (defaults, --set, examples, suites)
MAX_SAME_FINDINGS = 20      # findings of one code reported for one file; then one line counts the rest
MAX_ECHO = 300               # characters of hostile text echoed back in one diagnostic

# Suites (NAME.tests.yaml) --------------------------------------------------------------
MAX_SUITE_BYTES = 2_000_000  # a suite file
MAX_SUITE_CASES = 10_000     # cases in one suite

# Long commands --------------------------------------------------------------------------
MAX_PLAYOUT_PLIES = 10_000   # check --max-plies
MAX_PLAYOUTS = 10_000        # check --playouts
MAX_GO_AGAIN = 100           # plies one player may make in a row: play stops the engine, check warns (W201)

# Bidirectional-text controls: they reorder what a terminal shows (CVE-2021-42574, "Trojan Source").
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_unsafe_char(char: str) -> bool:
    """True for a character that must never reach a terminal or a one-line report.

    Control characters (newline, tab, escape, DEL, the C1 range), line and
    paragraph separators, and bidirectional-text controls.
    """
    if char in BIDI:
        return True
    return unicodedata.category(char) in ("Cc", "Zl", "Zp")


def first_unsafe(text: str) -> int:
    """The index of the first unsafe character of ``text``, or -1."""
    for index, char in enumerate(text):
        if is_unsafe_char(char):
            return index
    return -1


def shown(text: str, limit: int = MAX_ECHO, keep: str = "") -> str:
    """``text`` made safe to echo: unsafe characters escaped (but those in ``keep``), cut to ``limit``."""
    if len(text) > limit:
        text = text[:limit] + f"... ({len(text) - limit} more characters)"
    if first_unsafe(text) < 0:
        return text
    return "".join(_escape(c) if is_unsafe_char(c) and c not in keep else c for c in text)


def _escape(char: str) -> str:
    code = ord(char)
    if char == "\n":
        return "\\n"
    if char == "\t":
        return "\\t"
    if char == "\r":
        return "\\r"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
