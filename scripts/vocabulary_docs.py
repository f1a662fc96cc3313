"""Write the vocabulary tables of ``docs/language.md`` from ``rulesdsl.vocabulary``.

Run: ``.venv/bin/python scripts/vocabulary_docs.py`` after adding or changing a
word. Each table sits between ``<!-- vocabulary: NAME -->`` and
``<!-- end vocabulary -->``; ``tests/test_vocabulary.py`` fails when a table
is stale. ``--check`` exits 1 (writing nothing) when the file would change.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from rulesdsl.vocabulary import ACTIONS, CONDITIONS, FEATURES, FUNCTIONS, MODIFIERS

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"
BLOCK = re.compile(r"(<!-- vocabulary: (\w+) -->\n)(.*?)(<!-- end vocabulary -->)", re.S)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def tables() -> dict[str, str]:
    """Each generated table, by name, as Markdown."""
    actions = ["| action | moves | options |", "|---|---|---|"]
    for action in ACTIONS.values():
        options = ", ".join(MODIFIERS[name].written for name in action.modifiers)
        actions.append(f"| `{action.name}` | {action.summary} | {_cell(options)} |")
    conditions = ["| condition | value |", "|---|---|"]
    for condition in CONDITIONS.values():
        conditions.append(f"| `{condition.written}` | {condition.summary} |")
    for function in FUNCTIONS.values():
        forms = f"`{function.name}(PLAYER)`, `{function.name}(PLAYER KIND)`"
        conditions.append(f"| {forms} | {function.summary} |")
    conditions.append("| an option's name | its value |")
    features = ["| feature | for one player |", "|---|---|"]
    for feature in FEATURES.values():
        written = f"{feature.name} [KIND]" if feature.takes_kind else feature.name
        features.append(f"| `{written}` | {feature.summary} |")
    return {"actions": "\n".join(actions) + "\n", "conditions": "\n".join(conditions) + "\n",
            "features": "\n".join(features) + "\n"}


def update(text: str) -> str:
    """``text`` with every vocabulary table replaced by its generated form."""
    generated = tables()
    return BLOCK.sub(lambda mt: mt.group(1) + generated[mt.group(2)] + mt.group(4), text)


def main(argv: list[str]) -> int:
    """Rewrite the tables (or, with ``--check``, only say whether they are stale)."""
    text = DOC.read_text(encoding="utf-8")
    new = update(text)
    if "--check" in argv:
        print("docs/language.md: vocabulary tables are " + ("up to date" if new == text else "stale"))
        return 0 if new == text else 1
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
