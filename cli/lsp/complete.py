"""Completion by place: what the grammar accepts at the cursor, and the names that fit there.

lark's interactive parser reads the text before the cursor and says which
terminals may come next; keywords are offered as they are, and a place where
a name fits is filled from the file's declarations, by what precedes it.
"""

from __future__ import annotations

import re

from lark.exceptions import UnexpectedInput
from lsprotocol import types as lsp

from rulesdsl.grammar import grammar_parser
from rulesdsl.words import _terminal_words, direction_names, language_words, named

from .navigate import declarations

WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
WORD_STARTS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
MAX_PREFIX = 200_000  # characters before the cursor that completion reads; past them it offers nothing
EXPRESSION_NAMES = ("col", "row", "rows", "cols")


def _accepted(prefix: str) -> tuple[set[str], list[str]] | None:
    """The terminals the grammar accepts after ``prefix``, and the tokens read; None if it does not parse."""
    parser = grammar_parser()
    try:
        interactive = parser.parse_interactive(prefix)
        tokens = [str(token) for token in interactive.iter_parse()]
        return interactive.accepts(), tokens
    except UnexpectedInput:
        return None


def _statement_start(text: str) -> int:
    """The offset of the last line that starts a statement at the left margin (a fallback parse starts there)."""
    statements = {w for w, k in language_words().items() if k == "statement"}
    offset = 0
    for match in re.finditer(r"^([a-z]+)\b", text, re.M):
        if match.group(1) in statements:
            offset = match.start()
    return offset


def _names_after(tokens: list[str], text: str) -> list[tuple[str, str]]:
    """The declared or built-in names that fit after these tokens: ``(name, what it is)``."""
    decls = declarations(text)
    of = {kind: [d.name for d in decls if d.kind == kind] for kind in ("option", "player", "piece", "direction set")}
    kinds, players, options = of["piece"], of["player"], of["option"]
    directions = sorted(direction_names()) + of["direction set"]
    previous = tokens[-1] if tokens else ""
    before = tokens[-2] if len(tokens) > 1 else ""
    words = language_words()
    actions = set(_terminal_words(next(t.pattern for t in grammar_parser().terminals if t.name == "ACTION")))
    if previous == "over":
        return [(n, "over") for n in named("over")]
    if previous == "to" and "{" in tokens:
        return [(n, "target") for n in named("to")] + [(k, "piece") for k in kinds]
    if previous in actions or previous in ("falling", "flanking", "=") and "directions" in tokens[:1] \
            or previous in ("falling", "flanking") or (previous == "," and any(t in actions for t in tokens[-8:])):
        return [(d, "direction") for d in directions]
    if tokens[:1] == ["forward"]:
        return [(p, "player") for p in players] if previous in ("forward", ",") else [(d, "direction")
                                                                                    for d in directions]
    if previous in ("{", "place", "promote") or (previous == "to" and before and tokens[:1] == ["promote"]) \
            or words.get(previous) == "keyword" and previous in _feature_words():
        return [(k, "piece") for k in kinds]
    if previous in kinds and tokens[:1] == ["start"]:
        return [(p, "player") for p in players]
    if previous in ("with", ",") and "example" in tokens:
        return [(o, "option") for o in options]
    return ([(o, "option") for o in options] + [(p, "player") for p in players] + [(k, "piece") for k in kinds]
            + [(n, "role") for n in named("roles")] + [(n, "function") for n in named("functions")]
            + [(n, "built-in") for n in EXPRESSION_NAMES if n not in options])


def _feature_words() -> set[str]:
    return set(_terminal_words(next(t.pattern for t in grammar_parser().terminals if t.name == "FEATURE")))


def _open_block(tokens: list[str]) -> str | None:
    """The statement keyword of the block the tokens leave open, if any."""
    depth, header = 0, None
    statements = {w for w, k in language_words().items() if k == "statement"}
    last_statement = None
    for token in tokens:
        if token in statements and depth == 0:
            last_statement = token
        elif token == "{":
            depth += 1
            header = last_statement
        elif token == "}":
            depth -= 1
    return header if depth > 0 else None


def _line_start(accepts: set[str], tokens: list[str], text: str) -> list[lsp.CompletionItem]:
    """At the start of a line: what starts a statement, or an item of the open block."""
    decls = declarations(text)
    block = _open_block(tokens)
    terminals = {t.name: t.pattern for t in grammar_parser().terminals}
    words = {w for name in accepts if name in terminals and name != "NAME" for w in _terminal_words(terminals[name])}
    if block is None:
        starters = {w for w, k in language_words().items() if k == "statement"}
        return [lsp.CompletionItem(label=w, kind=lsp.CompletionItemKind.Keyword, detail="statement")
                for w in sorted(words & starters)]
    names: list[tuple[str, str]] = []
    if block in ("moves", "then", "start"):
        names = [(d.name, "piece") for d in decls if d.kind == "piece"]
        words &= {"place", "empty", "}"}
    elif block == "end":
        names = [(d.name, "player") for d in decls if d.kind == "player"] + [(r, "role") for r in named("roles")]
        words &= {"draw", "}"}
    elif block == "evaluate":
        words &= _feature_words() | {"}"}
    items = [lsp.CompletionItem(label=w, kind=lsp.CompletionItemKind.Keyword) for w in sorted(words) if w != "}"]
    return items + [lsp.CompletionItem(label=n, kind=lsp.CompletionItemKind.Variable, detail=what)
                    for n, what in names]


def partial_start(line: str) -> int | None:
    """Where the name being typed at the end of ``line`` starts (a letter or ``_``, then word characters).

    One pass back from the end (a regular expression anchored at the end would retry every start: quadratic
    in a long word); ``None`` when the line does not end in a name.
    """
    start = len(line)
    while start > 0 and line[start - 1] in WORD_CHARS:
        start -= 1
    while start < len(line) and line[start] not in WORD_STARTS:
        start += 1
    return start if start < len(line) else None


def completions(text: str, line: int, character: int) -> list[lsp.CompletionItem]:
    """What may be typed at a 0-based position: keywords the grammar accepts there and names that fit."""
    lines = text.split("\n")
    if line >= len(lines):
        return []
    offset = sum(len(x) + 1 for x in lines[:line]) + min(character, len(lines[line]))
    if offset > MAX_PREFIX:
        return []
    prefix = text[:offset]
    typed = lines[line][:character]
    start = partial_start(typed)
    if start is not None:
        prefix = prefix[:len(prefix) - (len(typed) - start)]
    if "#" in prefix.rsplit("\n", 1)[-1]:
        return []
    found = _accepted(prefix)
    if found is None:
        start = _statement_start(prefix)
        found = _accepted(prefix[start:])
    if found is None:
        statements = sorted(w for w, k in language_words().items() if k == "statement")
        return [lsp.CompletionItem(label=w, kind=lsp.CompletionItemKind.Keyword) for w in statements]
    accepts, tokens = found
    if not lines[line][:character].strip():
        return _line_start(accepts, tokens, text)
    terminals = {t.name: t.pattern for t in grammar_parser().terminals}
    items: dict[str, lsp.CompletionItem] = {}
    for name in sorted(accepts):
        if name in terminals and name != "NAME":
            for word in _terminal_words(terminals[name]):
                items.setdefault(word, lsp.CompletionItem(label=word, kind=lsp.CompletionItemKind.Keyword,
                                                          detail=language_words().get(word, "keyword")))
    if "NAME" in accepts:
        for name, what in _names_after(tokens, text):
            items.setdefault(name, lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Variable,
                                                      detail=what))
    return list(items.values())
