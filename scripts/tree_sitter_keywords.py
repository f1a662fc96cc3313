"""List what the tree-sitter grammar still lacks after a change to ``rulesdsl/grammar.lark``.

Run: ``.venv/bin/python scripts/tree_sitter_keywords.py``. It prints three
lists and exits 1 when any is non-empty:

- keywords of ``rulesdsl/grammar.lark`` missing from
  ``editors/tree-sitter-rulesdsl/grammar.js``, each with the grammar.lark
  lines that use it (the rules to mirror);
- keywords of grammar.js that ``queries/highlights.scm`` does not colour;
- whether ``src/grammar.json`` is stale (run ``tree-sitter generate``).

``tests/test_tree_sitter.py`` asserts the same three things with these
functions. The steps of a sync are in docs/contributing.md.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LARK = ROOT / "rulesdsl" / "grammar.lark"
GRAMMAR = ROOT / "editors" / "tree-sitter-rulesdsl"

# Terminals of grammar.lark that are not keyword sets (their letters are character classes, not words).
NOT_KEYWORDS = {"NAME", "INT", "DECIMAL", "SIGNED_NUMBER", "STRING", "COMMENT", "RELDIR", "COMPARE", "ADD_OP",
                "MUL_OP"}

# Keywords that highlights.scm colours through a named node of theirs (action, result, boolean, feature_name).
IN_NAMED_NODES = {"step", "jump", "slide", "push", "wins", "loses", "true", "false", "material", "mobility",
                  "advancement", "centrality", "captures", "threatened", "area"}


def _lark_text() -> str:
    """grammar.lark less its comment lines."""
    return re.sub(r"^\s*//[^\n]*", "", LARK.read_text(encoding="utf-8"), flags=re.M)


def lark_words() -> set[str]:
    """Every keyword of grammar.lark: its quoted literals and the words of its keyword terminals."""
    lark = _lark_text()
    words = {w for w in re.findall(r'"([^"\s]+)"', lark) if re.fullmatch(r"[a-z][a-z-]*", w)}
    for name, body in re.findall(r"^([A-Z_]+)(?:\.\d+)?:\s*(.*)$", lark, flags=re.M):
        if name not in NOT_KEYWORDS:
            words |= set(re.findall(r"[a-z][a-z-]*", re.sub(r"\\[a-z]", " ", body)))
    return words


def js_literals() -> set[str]:
    """The literal tokens written in grammar.js (not field names, comments or regular expressions)."""
    text = (GRAMMAR / "grammar.js").read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    text = re.sub(r"field\('[^']*',|name: '[^']*'", "", text)
    text = re.sub(r"([(,>] ?)/(?:[^/\n\\]|\\.)+/", r"\1", text)
    return set(re.findall(r"'([^'\s]+)'", text))


def generated_literals() -> set[str]:
    """The literal tokens of src/grammar.json, which ``tree-sitter generate`` writes from grammar.js."""
    strings: set[str] = set()

    def walk(rule: object) -> None:
        if isinstance(rule, dict):
            if rule.get("type") == "STRING":
                strings.add(rule["value"])
            for value in rule.values():
                walk(value)
        elif isinstance(rule, list):
            for value in rule:
                walk(value)

    walk(json.loads((GRAMMAR / "src" / "grammar.json").read_text(encoding="utf-8"))["rules"])
    return strings


def uncoloured() -> set[str]:
    """Keywords of grammar.js that highlights.scm neither quotes nor colours through a named node."""
    queries = (GRAMMAR / "queries" / "highlights.scm").read_text(encoding="utf-8")
    keywords = {w for w in js_literals() if re.fullmatch(r"[a-z][a-z-]*", w)}
    return keywords - IN_NAMED_NODES - set(re.findall(r'"([^"\s]+)"', queries))


def lark_lines(word: str) -> list[str]:
    """The lines of grammar.lark (``number: text``) that use ``word``."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
    lines = LARK.read_text(encoding="utf-8").splitlines()
    return [f"{number}: {line.strip()}" for number, line in enumerate(lines, 1)
            if not line.lstrip().startswith("//") and pattern.search(line.replace("\\s", " "))]


def main() -> int:
    """Print what is missing; 0 when the tree-sitter grammar is in step with grammar.lark."""
    missing = sorted(lark_words() - js_literals())
    for word in missing:
        print(f"missing from grammar.js: {word!r}")
        for line in lark_lines(word):
            print(f"    grammar.lark:{line}")
    for word in sorted(uncoloured()):
        print(f"not coloured in queries/highlights.scm: {word!r}")
    stale = js_literals() != generated_literals()
    if stale:
        print("src/grammar.json is stale: run `tree-sitter generate` in editors/tree-sitter-rulesdsl")
    if not (missing or uncoloured() or stale):
        print("the tree-sitter grammar has every keyword of grammar.lark")
    return 1 if missing or uncoloured() or stale else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
