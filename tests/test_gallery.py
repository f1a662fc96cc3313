"""Pictures: every bundled game draws, from its geometry; docs/gallery.md is up to date."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli.gallery import gallery_files
from rulesdsl.cli.main import cli
from rulesdsl.cli.svg import draw
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.loader import bundled_games

DOCS = Path(__file__).resolve().parent.parent / "docs"
SVG = "{http://www.w3.org/2000/svg}"


def _shapes(svg: str) -> dict[str, int]:
    root = ET.fromstring(svg)
    counts: dict[str, int] = {}
    for element in root.iter():
        tag = element.tag.removeprefix(SVG)
        counts[tag] = counts.get(tag, 0) + 1
    return counts


@pytest.mark.parametrize("name", bundled_games())
def test_every_bundled_game_draws(name):
    game = load_game(name)
    state = game.initial_state()
    svg = draw(game, state, interactive=True)
    root = ET.fromstring(svg)  # well-formed XML
    cells = [e for e in root.iter() if e.get("class") == "cell"]
    pieces = [e for e in root.iter() if e.get("class") == "piece"]
    assert len(cells) == len(game.geometry.cells)
    assert len(pieces) == sum(1 for s in state.board if s != game.empty)
    assert {e.get("data-cell") for e in cells} == {c.name for c in game.geometry.cells}


def test_the_hexagon_has_37_hexagonal_cells_and_22_tokens():
    counts = _shapes(draw(*_start("abalone-hex")))
    assert counts["polygon"] == 37  # GAMES.md §4: a hexagon of side 4
    assert counts["circle"] == 22  # 11 tokens each


def test_a_grid_has_square_cells_and_labels():
    game, state = _start("konane")
    svg = draw(game, state)
    counts = _shapes(svg)
    assert counts["rect"] == 1 + 12  # the background and 3 x 4 cells
    texts = [e.text for e in ET.fromstring(svg).iter(f"{SVG}text")]
    assert texts == ["1", "2", "3", "a", "b", "c", "d"]


def test_the_last_move_is_marked():
    game, state = _start("konane")
    move = game.parse_move(state, "b2-d2")
    svg = draw(game, game.apply(state, move), move=move)
    assert svg.count('fill="#f0d000"') == 2 and "<line " in svg
    game, state = load_position(game, '(b d1 wbw- b--- --wb)')  # a go-again turn from d1
    assert draw(game, state).count('fill="#f0d000"') == 1


def test_show_writes_an_svg(tmp_path):
    out = tmp_path / "k.svg"
    result = CliRunner().invoke(cli, ["show", "konane", "--set", "rows=4", "--move", "b4-b2", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert _shapes(out.read_text())["rect"] == 1 + 16
    result = CliRunner().invoke(cli, ["show", "abalone-hex", "-p", "(b bbbb bbbbb --bb-- ------- --rr-- rrrrr rrrr)"])
    assert result.exit_code == 0 and result.output.startswith("<svg")
    result = CliRunner().invoke(cli, ["show", "konane", "--move", "a1-a9"])
    assert result.exit_code == 1 and "a9" in result.output


def test_the_gallery_is_up_to_date():
    stale = []
    for relative, text in gallery_files(DOCS).items():
        path = DOCS / relative
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(relative)
    extra = {f"gallery/{p.name}" for p in (DOCS / "gallery").glob("*.svg")} - set(gallery_files(DOCS))
    assert not stale and not extra, f"out of date: {sorted(stale) + sorted(extra)}; run: python scripts/gallery.py"


def _start(name):
    game = load_game(name)
    return game, game.initial_state()
