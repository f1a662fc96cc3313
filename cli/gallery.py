"""``docs/gallery.md``: every bundled game's start picture, with its rule file's length.

:func:`gallery_files` builds the page and the pictures in memory;
``scripts/gallery.py`` writes them, and a test compares them with the files
in ``docs/`` so that a picture out of date fails the suite.
"""

from __future__ import annotations

from pathlib import Path

from rulesdsl import model as m
from rulesdsl.cli.svg import draw
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.loader import bundled_dir, bundled_games, resolve

PAGE = "gallery.md"
FOLDER = "gallery"
SCREENSHOTS = "web-*.png"  # the web board in Chromium, each with a caption beside it (web-NAME.txt)
HEADER = """# Gallery

Every bundled game's start position, drawn by `rulesdsl show` from the board's
geometry, beside the length of its rule file. This page and its pictures are
made by `python scripts/gallery.py`; a test fails when they are out of date.

| game | rule file | lines |
|---|---|---|
"""


def screenshots_section(docs: Path | None) -> str:
    """The page's part on the web board: every screenshot the browser tests wrote to ``docs/gallery``."""
    shots = sorted((docs / FOLDER).glob(SCREENSHOTS)) if docs is not None else []
    if not shots:
        return ""
    out = ["\n## The web board\n\n`rulesdsl serve` in Chromium, as tests/test_browser.py drives it; those tests "
           "write these pictures and their captions.\n"]
    for shot in shots:
        note = shot.with_suffix(".txt")
        caption = note.read_text(encoding="utf-8").strip() if note.is_file() else shot.stem
        out.append(f"\n![{caption.splitlines()[0]}]({FOLDER}/{shot.name})\n\n{caption}\n")
    return "".join(out)


def gallery_files(docs: Path | None = None) -> dict[str, str]:
    """``{path relative to docs/: text}`` for the page and one SVG per bundled game.

    With ``docs`` (the folder the page goes in), the page also shows the web board's screenshots found there.
    """
    files: dict[str, str] = {}
    rows, sections = [], []
    for name in bundled_games():
        path = bundled_dir() / f"{name}.rules"
        lines = len(path.read_text(encoding="utf-8").splitlines())
        titles = resolve(path).of(m.GameTitle)
        title = titles[-1].title if titles else name
        rows.append(f"| [{title}](#{name}) | `rules/{name}.rules` | {lines} |")
        sections.append(f'\n<a id="{name}"></a>\n## {title}\n\n`rulesdsl show {name}` ({lines} lines of rules)\n')
        try:
            game = load_game(name)
            state = game.initial_state()
        except RulesdslError as error:
            sections.append(f"\nNo picture: {error}\n")
            continue
        picture = f"{FOLDER}/{name}.svg"
        files[picture] = draw(game, state, title=f"{title}: the start")
        sections.append(f"\n![{title}: the start]({picture})\n")
    files[PAGE] = HEADER + "\n".join(rows) + "\n" + screenshots_section(docs) + "".join(sections)
    return files
