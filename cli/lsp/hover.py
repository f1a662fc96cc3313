"""Hovers: a keyword's one-line description and its section of ``docs/language.md``; a name's declaration."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from rulesdsl import vocabulary
from rulesdsl.grammar import grammar_parser
from rulesdsl.words import _terminal_words, direction_names, language_words

from .navigate import declarations, in_string_or_comment, word_at

DOCS = Path(__file__).resolve().parents[2] / "docs" / "language.md"
KIND_NAMES = {"statement": "statement", "keyword": "keyword", "constant": "constant", "builtin": "built-in name"}


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub and most Markdown viewers make it."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.strip().lower()).replace(" ", "-")


@lru_cache(maxsize=1)
def _sections() -> dict[str, tuple[str, str]]:
    """Statement keyword -> (anchor, first sentence) of its section of the language reference."""
    if not DOCS.is_file():
        return {}
    found: dict[str, tuple[str, str]] = {}
    text = DOCS.read_text(encoding="utf-8")
    parts = re.split(r"^(#{2,3} .+)$", text, flags=re.M)
    for heading, body in zip(parts[1::2], parts[2::2]):
        heading = heading.lstrip("#").strip()
        title = re.sub(r"^\d+\.\s*", "", heading).replace("`", "")
        words = title.split(":")[0].split()
        prose = [p for p in re.sub(r"```.*?```", "", body, flags=re.S).split("\n\n")
                 if p.strip() and p.strip()[0] not in "-|*#>"]
        sentence = re.split(r"(?<=\.)\s", " ".join(prose[0].split()), maxsplit=1)[0] if prose else ""
        if words:
            found.setdefault(words[0].lower(), (_slug(heading), sentence))
    return found


@lru_cache(maxsize=1)
def _statement_of() -> dict[str, str]:
    """Each grammar word -> the statement keyword whose rule uses it (expression words are left out)."""
    parser = grammar_parser()
    rules: dict[str, list[list[str]]] = {}
    for rule in parser.rules:
        rules.setdefault(rule.origin.name, []).append([s.name for s in rule.expansion])
    terminals = {t.name: _terminal_words(t.pattern) for t in parser.terminals}
    owner: dict[str, str] = {}
    for origin, expansions in rules.items():
        if not origin.endswith("_stmt"):
            continue
        heads = {w for e in expansions if e and e[0] in terminals for w in terminals[e[0]]}
        if not heads:
            continue
        head = sorted(heads)[0]
        seen, todo = set(), [origin]
        while todo:
            name = todo.pop()
            if name in seen or name in ("expr", "guard"):
                continue
            seen.add(name)
            for expansion in rules.get(name, []):
                for symbol in expansion:
                    if symbol in terminals:
                        for word in terminals[symbol]:
                            owner.setdefault(word, head)
                    else:
                        todo.append(symbol)
    return owner


def keyword_hover(word: str) -> str | None:
    """Markdown for a word of the language: its kind, one line about it, and a link to its section."""
    kind = language_words().get(word)
    if kind is None:
        return None
    statement = word if kind == "statement" else _statement_of().get(word, "expressions")
    if kind == "builtin" and word in direction_names():
        statement = "directions"
    anchor, sentence = _sections().get(statement, ("", ""))
    description = None if kind == "statement" else _registry_description(word)
    if description is None:
        where = f"the `{statement}` statement" if statement != "expressions" else "expressions"
        description = sentence if statement == word and sentence else f"a {KIND_NAMES[kind]} of {where}"
    lines = [f"**{word}** ({KIND_NAMES[kind]}): {description}"]
    if anchor:
        lines.append(f"[docs/language.md: {statement}]({DOCS.as_uri()}#{anchor})")
    return "\n\n".join(lines)


def _registry_description(word: str) -> str | None:
    """The one-line description of a word in the vocabulary registry (actions, modifiers, conditions...)."""
    for table, what in (("ACTIONS", "move action"), ("FEATURES", "evaluation feature"), ("FUNCTIONS", "function")):
        entry = getattr(vocabulary, table).get(word)
        if entry is not None:
            return f"{what}: {entry.summary}"
    modifier = vocabulary.MODIFIERS.get(word)
    if modifier is not None:
        owners = vocabulary.owners_of(word)
        return f"a move rule's modifier, {modifier.written}" + (f", for {', '.join(owners)}" if owners else "")
    for condition in vocabulary.CONDITIONS.values():
        if word in [w for w in condition.written.split() if w.islower()]:
            return f"end condition `{condition.written}`: {condition.summary}"
    return None


def hover(text: str, line: int, character: int) -> str | None:
    """Markdown for what is under the cursor: a declared name's declaration, or a keyword's description."""
    if in_string_or_comment(text, line, character):
        return None
    found = word_at(text, line, character)
    if found is None:
        return None
    word = found[0]
    for decl in declarations(text):
        if decl.name == word:
            return f"**{word}**: {decl.kind}, declared on line {decl.line + 1}\n\n```rules\n{decl.text}\n```"
    return keyword_hover(word)
