"""Write docs/gallery.md and docs/gallery/*.svg (every bundled game's start picture).

Run after changing a rule file or the drawing: ``.venv/bin/python scripts/gallery.py``.
tests/test_gallery.py fails while the files in docs/ differ from what this writes.
"""

from __future__ import annotations

from pathlib import Path

from rulesdsl.cli.gallery import FOLDER, gallery_files

DOCS = Path(__file__).resolve().parent.parent / "docs"


def main() -> None:
    """Write the page and the pictures; remove pictures of games no longer bundled."""
    files = gallery_files(DOCS)
    (DOCS / FOLDER).mkdir(exist_ok=True)
    for old in (DOCS / FOLDER).glob("*.svg"):
        if f"{FOLDER}/{old.name}" not in files:
            old.unlink()
    for relative, text in files.items():
        (DOCS / relative).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files under {DOCS}")


if __name__ == "__main__":
    main()
