"""Boards beside the moves: a list of moves drawn as SVG files with an HTML page, or as text side by side.

A :class:`Step` is a caption (the move and what is known of it), the move
and the positions before and after it. :func:`write_steps` writes one SVG
per position (the move marked, :func:`rulesdsl.cli.svg.draw`) and an
``index.html`` that shows each board beside its caption; :func:`text_steps`
draws the same boards as text (:func:`rulesdsl.cli.render.render`), as many
side by side as fit the width.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

from rulesdsl.cli.render import render
from rulesdsl.cli.svg import draw
from rulesdsl.interpreter.compile.game import Game, Move, State


@dataclass(frozen=True)
class Step:
    """One board to draw: ``after``, reached by ``move`` from ``before`` (both ``None`` for the first board)."""

    caption: str
    after: State
    move: Move | None = None
    before: State | None = None


def write_steps(game: Game, steps: list[Step], folder: Path, title: str) -> Path:
    """``000.svg``, ``001.svg``, ... and ``index.html`` (the boards beside their captions) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for number, step in enumerate(steps):
        name = f"{number:03d}.svg"
        picture = draw(game, step.after, move=step.move, before=step.before,
                       title=f"{step.caption}: {game.format_position(step.after)}")
        (folder / name).write_text(picture, encoding="utf-8")
        rows.append(f'<tr><td><img src="{name}" alt="{escape(step.caption)}"></td>'
                    f"<td><b>{escape(step.caption)}</b><br><code>{escape(game.format_position(step.after))}</code>"
                    "</td></tr>")
    page = (f'<!doctype html>\n<html><head><meta charset="utf-8"><title>{escape(title)}</title>'
            "<style>body{font-family:sans-serif}td{vertical-align:middle;padding:4px 12px}"
            "img{max-width:360px}</style></head>\n"
            f"<body><h1>{escape(title)}</h1>\n<table>\n" + "\n".join(rows) + "\n</table></body></html>\n")
    index = folder / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def side_by_side(blocks: list[str], width: int = 100, gap: int = 4) -> str:
    """Text blocks laid out left to right, wrapping to a new band when the next would pass ``width``."""
    bands: list[list[list[str]]] = [[]]
    used = 0
    for block in blocks:
        lines = block.split("\n")
        wide = max(len(line) for line in lines)
        if bands[-1] and used + gap + wide > width:
            bands.append([])
            used = 0
        used += (gap if bands[-1] else 0) + wide
        bands[-1].append([line.ljust(wide) for line in lines])
    out = []
    for band in bands:
        height = max(len(b) for b in band)
        for row in range(height):
            parts = [b[row] if row < len(b) else " " * len(b[0]) for b in band]
            out.append((" " * gap).join(parts).rstrip())
        out.append("")
    return "\n".join(out).rstrip("\n")


def text_steps(game: Game, steps: list[Step], width: int = 100) -> str:
    """The boards of ``steps`` as text, each under its caption, side by side as the width allows."""
    return side_by_side([f"{step.caption}\n{render(game, step.after)}" for step in steps], width)
