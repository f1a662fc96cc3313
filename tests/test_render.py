"""Board drawings: grids and hexagons, labels read off the cell names."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rulesdsl.cli.render import axis_labels, name_parts, render
from rulesdsl.interpreter.compile.game import State
from rulesdsl.interpreter.compile.geometry import NamePart, build_geometry
from rulesdsl.interpreter.compile.load import load_game, load_position

KONANE_START = '(w "" wbwb bwb- w-wb)'


def board_only(geometry, empty: str = "-") -> SimpleNamespace:
    """A stand-in game: render uses only the geometry and the empty symbol."""
    return SimpleNamespace(geometry=geometry, empty=empty)


def hexagon(side: int):
    """A hexagon named like GAMES.md §4: rows A.. from the top, diagonals 1.."""
    naming = (NamePart("row", "A", from_end=True), NamePart("column", 1))
    return build_geometry("hexagon", (side,), naming, top_first=True)


@pytest.fixture(scope="module")
def konane():
    return load_game("konane")


def test_name_parts_split_letters_and_numbers():
    assert name_parts("a1") == ("a", "1")
    assert name_parts("A4") == ("A", "4")
    assert name_parts("ab12") == ("ab", "12")


def test_konane_start_drawing(konane):
    text = render(konane, konane.parse_position(KONANE_START))
    assert text == "\n".join([
        "3 w b w b",
        "2 b w b .",
        "1 w . w b",
        "  a b c d",
    ])


def test_drawing_follows_the_position(konane):
    state = konane.parse_position("(b d1 wbw- b--- --wb)")
    lines = render(konane, state).splitlines()
    assert lines[0] == "3 w b w ."
    assert lines[1] == "2 b . . ."
    assert lines[2] == "1 . . w b"


def test_recompiled_board_is_drawn_at_its_size(konane):
    game, state = load_position(konane, '(w "" bwbw wbwb b--w wbwb)')
    lines = render(game, state).splitlines()
    assert [line.split()[0] for line in lines[:4]] == ["4", "3", "2", "1"]
    assert lines[-1].split() == ["a", "b", "c", "d"]
    assert lines[2] == "2 b . . w"


def test_two_digit_row_labels_line_up():
    naming = (NamePart("column", "a"), NamePart("row", 1))
    geometry = build_geometry("grid", (3, 11), naming, top_first=True)
    state = State("-" * len(geometry.cells), 0)
    lines = render(board_only(geometry), state).splitlines()
    assert lines[0] == "11 . . ."
    assert lines[2] == " 9 . . ."
    assert lines[-1] == "   a b c"
    assert {line.index(".") for line in lines[:-1]} == {3}


def test_hexagon_drawing_has_row_letters_and_diagonal_numbers():
    geometry = hexagon(4)
    board = "bbbb" "bbbbb" "--bb--" "-------" "--rr--" "rrrrr" "rrrr"
    assert len(board) == len(geometry.cells) == 37
    text = render(board_only(geometry), State(board, 0))
    assert text == "\n".join([
        "   A b b b b",
        "  B b b b b b",
        " C . . b b . .",
        "D . . . . . . .",
        " E . . r r . . 7",
        "  F r r r r r 6",
        "   G r r r r 5",
        "      1 2 3 4",
    ])


def test_hexagon_cells_sit_at_their_display_columns():
    geometry = hexagon(4)
    text = render(board_only(geometry), State("-" * 37, 0))
    lines = text.splitlines()
    shift = lines[3].index(".")  # D1, the leftmost cell
    for line, row in zip(lines[:-1], geometry.rows_listed, strict=True):  # listed top row first
        for index in row:
            assert line[shift + geometry.display_column(geometry.cells[index])] == "."


def test_hexagon_labels_come_from_cell_names():
    rows, diagonals = axis_labels(hexagon(4))
    assert sorted(rows.values()) == list("ABCDEFG")
    assert sorted(diagonals.values()) == [str(d) for d in range(1, 8)]


def test_wide_diagonal_labels_never_touch():
    geometry = hexagon(6)
    lines = render(board_only(geometry), State("-" * len(geometry.cells), 0)).splitlines()
    assert lines[-1].split() == ["1", "2", "3", "4", "5", "6"]
    assert lines[6].split()[-1] == "11"
    assert lines[7].split()[-1] == "10"
    assert lines[0].split()[0] == "A"
    assert lines[-2].split()[0] == "K"
