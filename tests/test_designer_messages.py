"""What a designer met writing games from the docs alone (issue 18, "Diagnostics and bugs the designer
met", items 1-14): each is now a working construct or a message that says what to write instead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.errors import PositionError
from rulesdsl.grammar import grammar_parser
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft
from rulesdsl.syntax_errors import _terminal_info
from rulesdsl.verify.files import check_file

ROOT = Path(__file__).resolve().parent.parent
KONANE = (ROOT / "rules" / "konane.rules").read_text()
TRIANGLE = """game "Triangle"
option size = 5 in 2..19 "cells along an edge"
players white "w", black "b"
board grid size x size where col + row <= size + 1
position (turn last rows) top first
notation to
piece stone white "w", black "b"
start { }
moves { place stone }
end { draw if no moves }
"""


def findings(tmp_path, text: str, name: str = "game.rules") -> list[tuple[str, str, str]]:
    """(severity, code, one line) of every finding of a rule file, checked without playouts."""
    path = tmp_path / name
    path.write_text(text)
    report = check_file(str(path), playouts=0, suites=False)
    return [(d.severity, d.code, d.one_line()) for d in report.diagnostics]


def konane_with(old: str, new: str) -> str:
    assert old in KONANE
    return KONANE.replace(old, new)


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# 1. A grammar token's name is never shown: every terminal has words of the language.
def test_no_message_names_a_grammar_token(tmp_path):
    shown, _ = _terminal_info()
    # a terminal shown by its own name is fine only when that name is a word it stands for ('most')
    raw = [t.name for t in grammar_parser().terminals
           if t.pattern.type != "str" and shown[t.name] in (t.name, t.name.lower())
           and not re.fullmatch(t.pattern.to_regexp(), shown[t.name])]
    assert raw == []
    # the designer's line now declares leaps (vectors with their images); a set of words is still in words
    found = findings(tmp_path, konane_with("moves {", "directions knight = (1, 2), (2, 1)\nmoves {"))
    assert len(found) == 1 and "declared but no move rule uses it" in found[0][2]
    found = findings(tmp_path, konane_with("moves {", "directions odd = forward-left, (\nmoves {"))
    assert found and all("reldir" not in f[2].lower() for f in found)


# 2. Three sides in 'connects'.
def test_a_third_side_after_connects_says_connects_joins_two(tmp_path):
    hexfile = (ROOT / "rules" / "hex.rules").read_text()
    text = hexfile.replace("black connects top and bottom", "black connects top and left and bottom")
    found = findings(tmp_path, text)
    assert [(s, c) for s, c, _ in found] == [("error", "E074")]
    assert "'bottom' is a side of the board, not a condition: 'connects' joins exactly two sides" in found[0][2]
    assert "unknown option" not in found[0][2]


# 3. 'again after place' is a working construct: after a placement the same player places again or passes.
def test_again_after_place_goes_on_with_placements(tmp_path):
    path = tmp_path / "stones.rules"
    path.write_text("""players white "w", black "b"
board grid 3 x 1
position (turn last rows)
notation to
piece stone white "w", black "b"
start { }
moves { place stone }
again after place with any piece or pass
end { mover loses if no moves }
""")
    assert [d for d in check_file(str(path), playouts=5).diagnostics if d.severity == "error"] == []
    game = load_game(str(path))
    # By hand: 3 first stones; then a second stone on one of 2 cells or a pass (3); then after two stones
    # a third or a pass (2 each, 6 lines), after a pass black's 2 placements (3 lines): 12 + 6 = 18.
    assert [perft(game, game.initial_state(), d) for d in (1, 2, 3)] == [3, 9, 18]
    game, state = load_position(game, '(w a1 w--)')
    assert sorted(game.format_move(state, mv) for mv in game.legal_moves(state)) == ["b1", "c1", "pass"]


# 4. 'notation from to' with nothing between the cells.
@pytest.fixture
def side_by_side(tmp_path):
    path = tmp_path / "joined.rules"
    path.write_text("\n".join(line for line in konane_with('notation from "-" to', "notation from to").splitlines()
                              if not line.startswith("example")) + "\n")
    return str(path)


def test_moves_written_side_by_side_read_as_two_cells(side_by_side):
    game = load_game(side_by_side)
    state = game.initial_state()
    assert [game.format_move(state, mv) for mv in game.legal_moves(state)] == ["b2d2"]
    with pytest.raises(Exception) as illegal:
        game.parse_move(state, "b1a1")
    assert str(illegal.value) == "'b1a1' is not a legal move here (legal: b2d2)"
    with pytest.raises(Exception) as unread:
        game.parse_move(state, "b1x1")
    assert "does not read as cells of this board written side by side (like 'b2d2')" in str(unread.value)


def test_why_reads_side_by_side_cells(side_by_side):
    why = invoke("moves", side_by_side, "--why", "b1a1").stdout
    assert "b1a1 is not legal" in why and "from b1 to a1" in why and "does not read" not in why
    assert "written side by side" in invoke("moves", side_by_side, "--why", "b1a9").stdout
    assert "b2d2 is legal" in invoke("moves", side_by_side, "--why", "b2d2").stdout


# 5. No 'forward': one error, in the file's own player names.
def test_a_missing_forward_is_one_error_naming_the_files_players(tmp_path):
    found = findings(tmp_path, """players sente "S", gote "G"
board grid 5 x 5
piece pawn sente "p", gote "q"
start { pawn sente at a1 pawn gote at e5 }
moves {
  pawn step forward
  pawn step forward-left, forward-right
  pawn step backward
}
end { mover loses if no moves }
""")
    assert [(s, c) for s, c, _ in found] == [("error", "E051")]
    assert "add e.g. forward sente n, gote s" in found[0][2] and "white" not in found[0][2]


# 6. An end condition the language writes another way; the block's brace is not part of it.
def test_board_full_says_draw_if_no_moves_without_the_brace(tmp_path):
    text = konane_with("  mover wins if no moves\n}", "  draw if board full }")
    found = findings(tmp_path, text)
    assert len(found) == 1
    assert "unknown end condition 'board full' (" in found[0][2]
    assert "write 'draw if no moves'" in found[0][2]


# 7. Two kinds in one move rule; the actions written before the kind.
def test_two_kinds_in_a_rule_say_one_kind_per_rule(tmp_path):
    found = findings(tmp_path, konane_with("stone jump orthogonal over enemy capture", "stone, gem step all"))
    assert "a move rule names one piece kind" in found[0][2] and "one rule per kind" in found[0][2]
    assert "place, fly and remove come before the kind" in found[0][2]


# 8. 'promote' inside 'moves', and what may go on a slide.
def test_promote_inside_moves_says_it_is_a_statement_of_its_own(tmp_path):
    found = findings(tmp_path, konane_with("stone jump orthogonal over enemy capture\n",
                                           "stone jump orthogonal over enemy capture\n  promote stone to gem\n"))
    assert "'promote' is a statement of its own, not a move rule: write it after the moves block's closing '}'" \
        in found[0][2]


def test_the_words_that_go_on_a_slide_are_the_slides(tmp_path):
    found = findings(tmp_path, konane_with("stone jump orthogonal over enemy capture",
                                           "stone slide orthogonal\n  gem king"))
    goes_on = re.search(r"may go on with (.*)\)", found[0][2]).group(1)
    assert "to" in goes_on and "over" in goes_on and "by" in goes_on
    assert "capture" not in goes_on and "line" not in goes_on and "flying" not in goes_on


# 9. A count in a start.
def test_a_count_in_a_start_says_a_cell_holds_one_piece(tmp_path):
    text = """players white "w", black "b"
board grid 3 x 3
piece stone white "w", black "b"
start { stone black at a1 count 4 }
moves { stone step all }
end { mover loses if no moves }
"""
    found = findings(tmp_path, text)
    assert len(found) == 1 and "a cell holds one piece" in found[0][2]


# 10. 'then' without 'last' talks about the second part of a turn.
def test_then_without_last_speaks_of_the_second_part_of_a_turn(tmp_path):
    amazons = (ROOT / "rules" / "amazons.rules").read_text()
    found = findings(tmp_path, amazons.replace("position (turn last rows)", "position (turn rows)"))
    assert [c for _, c, _ in found] == ["E045"]
    assert "the second part of a turn" in found[0][2] and "go-again" not in found[0][2]


# 11. A position of another size on a board cut by 'where' resizes the game.
def test_a_smaller_position_on_a_board_cut_by_where_resizes(tmp_path):
    path = tmp_path / "triangle.rules"
    path.write_text(TRIANGLE)
    game, state = load_position(load_game(str(path)), '(w "" - -- --- ----)')
    assert game.options["size"] == 4 and len(game.legal_moves(state)) == 10  # 1 + 2 + 3 + 4 empty cells
    with pytest.raises(Exception) as wrong:
        load_position(load_game(str(path)), '(w "" -- -- --- ----)')
    assert "it does not fit --set size=4 either" in str(wrong.value)


# 12. A rhombus cut by 'where' keeps its column letters under the board, not at the ends of rows.
def test_a_cut_rhombus_draws_its_labels_on_the_edges(tmp_path):
    from rulesdsl.cli.render import render

    path = tmp_path / "corner.rules"
    path.write_text(TRIANGLE.replace("board grid size x size where col + row <= size + 1",
                                     "board rhombus size x size where col <= row"))
    game = load_game(str(path))
    lines = render(game, game.initial_state()).splitlines()
    assert [line.split()[0] for line in lines[:-1]] == ["5", "4", "3", "2", "1"]
    assert all(set(line.split()[1:]) == {"."} for line in lines[:-1])  # nothing but cells after the row label
    assert lines[-1].split() == ["a", "b", "c", "d", "e"]


# 13. Legality that reads a count the position string does not carry.
def test_a_move_rule_reading_turns_played_is_warned(tmp_path):
    found = findings(tmp_path, konane_with("stone jump orthogonal over enemy capture",
                                           "stone jump orthogonal over enemy capture when turns played > 0"))
    assert ("warning", "W042") in [(s, c) for s, c, _ in found]
    line = next(text for _, c, text in found if c == "W042")
    assert "'turns played', which position strings do not carry" in line
    carried = with_turns(konane_with("stone jump orthogonal over enemy capture",
                                     "stone jump orthogonal over enemy capture when turns played > 0"))
    assert "W042" not in [c for _, c, _ in findings(tmp_path, carried, "carried.rules")]


def with_turns(text: str) -> str:
    """A Konane text whose positions carry the turns played (the field after ``turn``, 0 in each string)."""
    text = text.replace("position (turn last rows)", "position (turn turns last rows)")
    return re.sub(r"'\(([wb]) ", r"'(\1 0 ", text)


def test_a_position_carries_the_turns_played(tmp_path):
    text = konane_with("stone jump orthogonal over enemy capture",
                       "stone jump orthogonal over enemy capture when turns played > 3")
    path = tmp_path / "turns.rules"
    path.write_text(with_turns(text))
    game = load_game(str(path))
    # The same board: with 3 turns played no jump is allowed yet; with 4, white b2 over c2 to d2 (the only one).
    board = 'wbwb bwb- w-wb'
    early = game.parse_position(f'(w 3 "" {board})')
    late = game.parse_position(f'(w 4 "" {board})')
    assert early.turns == 3 and game.legal_moves(early) == []
    assert [game.format_move(late, mv) for mv in game.legal_moves(late)] == ["b2-d2"]
    assert game.format_position(late) == f'(w 4 "" {board})'
    with pytest.raises(PositionError, match="turns 'x' is not a number of turns"):
        game.parse_position(f'(w x "" {board})')


# 14. More than two players: three to six play; seven get a message saying how many may.
def test_three_players_play_and_seven_are_refused(tmp_path):
    three = """players red "r", green "g", blue "b"
board grid 3 x 3
piece stone red "r", green "g", blue "b"
start { }
moves { place stone }
end { draw if no moves }
"""
    assert [c for _, c, _ in findings(tmp_path, three) if c == "E012"] == []
    seven = three.replace('blue "b"', 'blue "b", gold "y", grey "e", pink "p", cyan "c"', 1)
    line = next(text for _, c, text in findings(tmp_path, seven) if c == "E012")
    assert "7 players declared; a game has 2 to 6" in line and "docs/language.md" in line
