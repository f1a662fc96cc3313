"""Every word of the language, by kind, read from the grammar and the vocabularies.

Highlighters (the Pygments lexer, the TextMate grammar) and the language
server's completion take their words from here, so a keyword added to
``grammar.lark`` or a name added to a vocabulary is coloured and offered
without another list to keep in step. The kinds:

- ``statement``: a word that starts a statement (``game``, ``moves``, ``end``...);
- ``keyword``: every other word of the grammar (``if``, ``over``, ``step``, ``wins``...);
- ``constant``: ``true`` and ``false``;
- ``builtin``: names the language knows without a declaration: direction
  names and sets, roles (``mover``), targets (``enemy``), functions (``count``).
"""

from __future__ import annotations

import re
from functools import lru_cache

try:  # the regular-expression parser, to list the words a keyword terminal matches
    from re import _parser as sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse  # type: ignore[no-redef]

from rulesdsl import checker, directions, vocabulary
from rulesdsl.grammar import grammar_parser

WORD = re.compile(r"[a-z][a-z-]*[a-z]|[a-z]")
KINDS = ("statement", "keyword", "constant", "builtin")


def _expand(parsed) -> list[str] | None:
    """The strings a finite regular expression matches (``\\s+`` as one space); None if not finite."""
    found = [""]
    for op, arg in parsed:
        name = str(op)
        if name == "LITERAL":
            options = [chr(arg)]
        elif name == "AT":
            options = [""]
        elif name == "SUBPATTERN":
            options = _expand(arg[-1])
        elif name == "BRANCH":
            branches = [_expand(b) for b in arg[1]]
            options = [s for b in branches if b is not None for s in b] or None
        elif ((name in ("MAX_REPEAT", "MIN_REPEAT") and _is_space(arg[2]) and arg[0] >= 1)
              or (name == "IN" and _is_space(((op, arg),)))):
            options = [" "]
        else:
            options = None
        if options is None:
            return None
        found = [f + o for f in found for o in options]
    return found


def _is_space(parsed) -> bool:
    """Whether a parsed pattern is one whitespace class (``\\s``)."""
    items = list(parsed)
    return (len(items) == 1 and str(items[0][0]) == "IN"
            and [str(x) for pair in items[0][1] for x in pair] == ["CATEGORY", "CATEGORY_SPACE"])


def _terminal_words(pattern) -> list[str]:
    """The words a grammar terminal can be: a quoted keyword, or each word of a finite regex's phrases."""
    if type(pattern).__name__ == "PatternStr":
        return [pattern.value] if WORD.fullmatch(pattern.value) else []
    phrases = _expand(sre_parse.parse(pattern.value)) or []
    return sorted({w for p in phrases for w in p.split() if WORD.fullmatch(w)})


@lru_cache(maxsize=1)
def grammar_words() -> dict[str, str]:
    """The grammar's words: ``statement`` for the first word of a statement, ``keyword`` or ``constant``."""
    parser = grammar_parser()
    by_terminal = {t.name: _terminal_words(t.pattern) for t in parser.terminals}
    kinds: dict[str, str] = {}
    for terminal_words in by_terminal.values():
        for word in terminal_words:
            kinds[word] = "keyword"
    for rule in parser.rules:
        first = rule.expansion[0].name if rule.expansion else None
        if rule.alias in ("true_lit", "false_lit"):
            for word in by_terminal.get(first, []):
                kinds[word] = "constant"
        elif rule.origin.name.endswith("_stmt") and first in by_terminal:
            for word in by_terminal[first]:
                kinds[word] = "statement"
    return kinds


def direction_names() -> set[str]:
    """Every built-in direction name and set, absolute and relative, of every board shape."""
    names: set[str] = set(directions.RELATIVE)
    for shape in ("grid", "hexagon"):
        names |= set(directions.absolute_directions(shape)) | set(directions.builtin_sets(shape))
    return names


def named(what: str) -> tuple[str, ...]:
    """The built-in names of one use: ``over`` (what a jump hops), ``to`` (where a step may end),
    ``roles`` (``mover``, ``opponent``) or ``functions`` (``count``...)."""
    return {"over": vocabulary.MODIFIERS["over"].values, "to": vocabulary.MODIFIERS["to"].values,
            "roles": checker.ROLES, "functions": tuple(vocabulary.FUNCTIONS)}[what]


def builtin_names() -> set[str]:
    """Names the language knows without a declaration (directions, roles, targets, functions)."""
    names = direction_names()
    for what in ("over", "to", "roles", "functions"):
        names |= set(named(what))
    return names


@lru_cache(maxsize=1)
def language_words() -> dict[str, str]:
    """Every word of the language and its kind (see the module's docstring)."""
    kinds = {name: "builtin" for name in builtin_names()}
    kinds.update(grammar_words())
    return dict(sorted(kinds.items()))


def words_of(kind: str) -> list[str]:
    """The words of one kind, longest first (so that ``forward-left`` is tried before ``forward``)."""
    return sorted((w for w, k in language_words().items() if k == kind), key=lambda w: (-len(w), w))
