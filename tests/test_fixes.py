"""Regression tests for mistakes found while writing the reference (each once a bug)."""

from __future__ import annotations

import pytest

from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.verify import check_file

TINY = """
game "tiny"
players white "w", black "b"
board grid 3 x 3
position (turn rows) top first
piece pawn white "w", black "b"
start '(w --- --- w--)'
moves { pawn step n to enemy }
end { mover wins if no moves }
"""


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def codes(report) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.column) for d in report.diagnostics if d.severity == "error"]


def test_to_enemy_alone_does_not_step_onto_an_empty_cell(tmp_path):
    game = load_game(write(tmp_path, "tiny.rules", TINY))
    state = game.initial_state()
    assert game.legal_moves(state) == []  # a2 is empty, and only enemies may be stepped onto
    game, state = load_position(game, "(w --- b-- w--)")
    assert [game.format_move(state, m) for m in game.legal_moves(state)] == ["a1-a2"]


def test_a_variant_overriding_an_option_keeps_the_option_order(tmp_path):
    write(tmp_path, "parent.rules", TINY.replace('game "tiny"', 'game "tiny"\noption a = 3 in 1..9\n'
                                                 'option b = a * 2 in 1..99'))
    child = write(tmp_path, "child.rules", 'extends "parent"\noption a = 4 in 1..9\n')
    game = load_game(child)
    assert game.options["b"] == 8


def test_a_second_extends_is_an_error(tmp_path):
    write(tmp_path, "one.rules", TINY)
    path = write(tmp_path, "two.rules", 'extends "one"\nextends "one"\n')
    assert codes(check_file(path, playouts=0))[0] == ("E005", 2, 1)


def test_placing_a_kind_a_player_has_no_symbol_for_is_an_error(tmp_path):
    text = TINY.replace("start '(w --- --- w--)'", "start {\n  pawn white at a1\n  king black at c3\n}")
    text = text.replace('piece pawn white "w", black "b"', 'piece pawn white "w", black "b"\npiece king white "K"')
    report = check_file(write(tmp_path, "king.rules", text), playouts=0)
    first = next(d for d in report.diagnostics if d.severity == "error")
    assert (first.code, first.span.line) == ("E033", 10)  # the "king black at c3" line
    assert "black has no king" in first.message


def test_a_go_again_game_needs_last_in_its_position(tmp_path):
    text = TINY.replace("end {", "again with any piece or pass\nend {")
    report = check_file(write(tmp_path, "again.rules", text), playouts=0)
    assert codes(report)[0] == ("E045", 5, 1)


def test_an_example_that_expects_a_loss_fails_on_a_draw(tmp_path):
    text = TINY.replace("mover wins if no moves", "draw if no moves") + (
        "example position '(w --- --- ---)' result white loses\n")
    report = check_file(write(tmp_path, "draw.rules", text), playouts=0)
    assert [d.code for d in report.diagnostics if d.severity == "error"] == ["E100"]


def test_division_by_zero_in_an_end_rule_is_a_clean_error(tmp_path):
    text = TINY.replace("mover wins if no moves", "mover wins if count(mover) / count(opponent) > 1")
    game, state = load_position(load_game(write(tmp_path, "zero.rules", text)), "(w --- --- b--)")
    with pytest.raises(RulesdslError, match="division by zero"):
        game.status(state)  # black, the mover, has 1 piece; white has none


def test_a_move_rule_for_a_kind_that_never_appears_is_a_warning(tmp_path):
    pieces = 'piece pawn white "w", black "b"'
    text = TINY.replace(pieces, pieces + '\npiece king white "K", black "k"')
    text = text.replace("moves { pawn step n to enemy }", "moves {\n  pawn step n to enemy\n  king step all\n}")
    report = check_file(write(tmp_path, "king.rules", text), playouts=0)
    found = [(d.code, d.severity, d.span.line) for d in report.diagnostics]
    assert ("W033", "warning", 11) in found
    assert not any(d.severity == "error" for d in report.diagnostics)
