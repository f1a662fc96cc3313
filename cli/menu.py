"""The short menu ``rulesdsl play`` shows when no game is named.

The entries are data (``rules/menu.yaml``: a bundled game, its option
settings and one line about it), so no Python here names a game. The first
entry is played when the answer is empty (Enter).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import TextIO

import yaml

from rulesdsl import model as m
from rulesdsl.cli.common import setting_text
from rulesdsl.cli.repl import LineReader
from rulesdsl.errors import OptionError
from rulesdsl.loader import bundled_dir, resolve

MENU_FILE = "menu.yaml"
PROMPT = "game [1]> "


@dataclass(frozen=True)
class Choice:
    """One line of the menu: a bundled game, its settings (``NAME=VALUE``), its title and what it is about."""

    game: str
    settings: tuple[str, ...]
    title: str
    about: str

    def label(self) -> str:
        """``TITLE (rows=6, cols=6)``: the title, then the settings."""
        return self.title + (f" ({', '.join(self.settings)})" if self.settings else "")


def choices() -> list[Choice]:
    """The menu's entries, in order, from ``rules/menu.yaml``."""
    text = resources.files("rulesdsl.rules").joinpath(MENU_FILE).read_text(encoding="utf-8")
    out = []
    for entry in yaml.safe_load(text):
        game = str(entry["game"])
        titles = resolve(bundled_dir() / f"{game}.rules").of(m.GameTitle)
        settings = tuple(f"{k}={setting_text(v)}" for k, v in (entry.get("set") or {}).items())
        out.append(Choice(game, settings, titles[-1].title if titles else game, str(entry.get("about", ""))))
    return out


def menu_text(entries: list[Choice]) -> str:
    """The menu as it is printed: a line of help, then one numbered line per entry."""
    width = max(len(c.label()) for c in entries)
    lines = ["Which game? Enter plays the first; 'rulesdsl games' lists them all, 'rulesdsl play NAME' plays one."]
    lines += [f"  {n}  {c.label():<{width}}  {c.about}".rstrip() for n, c in enumerate(entries, 1)]
    return "\n".join(lines)


def pick(entries: list[Choice], answer: str) -> Choice:
    """The entry an answer names: empty for the first, its number, or its game's name.

    Raises :class:`OptionError` for anything else.
    """
    text = answer.strip().lower()
    if not text:
        return entries[0]
    if text.isdigit() and 1 <= int(text) <= len(entries):
        return entries[int(text) - 1]
    for entry in entries:
        if text in (entry.game, entry.title.lower()):
            return entry
    raise OptionError(f"choose a number from 1 to {len(entries)} (or a game's name), not {answer.strip()!r}")


LEAVE = ("quit", "exit", "q")  # the REPL's words for leaving end the menu too


def ask(reader: LineReader, out: TextIO) -> Choice | None:
    """Print the menu and read answers until one names an entry; ``None`` at end of input or on quit."""
    entries = choices()
    print(menu_text(entries), file=out, flush=True)
    while True:
        answer = reader.read(PROMPT, [c.game for c in entries])
        if answer is None or answer.strip().lower() in LEAVE:
            return None
        try:
            return pick(entries, answer)
        except OptionError as error:
            print(f"error: {error}", file=out, flush=True)

