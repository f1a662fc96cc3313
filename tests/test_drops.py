"""Hands of several kinds, captured pieces that join the capturer's hand, and drops (interpreter/reference/drops.py).

The game is the docs' snippet (docs/language.md, section 15): men step
orthogonally, a lord steps all ways; a captured man joins the capturer's hand,
a captured lord joins it as a man; ``drop man in home`` puts one on an empty
cell of rows 1 and 2. Every count below is worked out by hand.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import moves_of

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.solver.encoding import SolveError, check_solvable
from rulesdsl.verify import check_file

RULES = """game "Drops"
players white "w", black "b"
board grid 3 x 3
position (turn hand rows) top first
notation from to
piece man white "M", black "m"
piece lord white "L", black "l"
region home where row <= 2
hand man 0
captured man to hand
captured lord to hand as man
start {
  man white at a1
  lord black at c3
}
moves {
  man step orthogonal to empty or enemy
  lord step all to empty or enemy
  drop man in home
}
end {
  opponent loses if no moves
}
"""


@pytest.fixture()
def game(tmp_path):
    path = tmp_path / "drops.rules"
    path.write_text(RULES)
    return load_game(str(path))


def test_a_drop_is_one_move_among_the_others(game):
    # a1 steps to a2 or b1; the man in hand drops on the five empty cells of rows 1 and 2.
    assert moves_of(game, "(w M/- -m- --- M--)") == {"a1a2", "a1b1", "M@a2", "M@b2", "M@c2", "M@b1", "M@c1"}


def test_an_empty_hand_drops_nothing(game):
    assert moves_of(game, "(w -/- -m- --- M--)") == {"a1a2", "a1b1"}


def test_a_drop_spends_the_piece(game):
    state = game.parse_position("(w MM/- -m- --- M--)")
    after = game.apply(state, game.parse_move(state, "M@b2"))
    assert game.format_position(after) == "(b 1/0 -m- -M- M--)"  # a hand of one kind is written as counts


def test_a_captured_man_joins_the_capturers_hand_in_its_colour(game):
    state = game.parse_position("(w -/- --- m-- M--)")
    after = game.apply(state, game.parse_move(state, "a1a2"))
    assert game.format_position(after) == "(b 1/0 --- M-- ---)"


def test_a_captured_lord_joins_as_a_man(game):
    state = game.parse_position("(b -/- --- -l- --M)")
    after = game.apply(state, game.parse_move(state, "b2c1"))
    assert game.format_position(after) == "(w 0/1 --- --- --l)"


def test_a_hand_of_one_kind_reads_as_counts_or_symbols(game):
    assert game.parse_position("(w 2/1 --- --- M--)").hand == game.parse_position("(w MM/m --- --- M--)").hand


@pytest.mark.parametrize("text, message", [
    ("(w X/- --- --- M--)", "'X' is not a piece white may hold"),
    ("(w M --- --- M--)", "is not each player's pieces in hand"),
])
def test_a_bad_hand_is_named(game, text, message):
    with pytest.raises(Exception, match=message):
        game.parse_position(text)


def test_the_solver_refuses_a_game_with_hands_in_one_line(game, tmp_path):
    with pytest.raises(SolveError, match="in hand"):
        check_solvable(game, game.initial_state())
    path = tmp_path / "drops.rules"
    path.write_text(RULES)
    done = CliRunner().invoke(cli, ["solve", str(path)])
    assert done.exit_code != 0 and "in hand" in done.output and len(done.output.strip().splitlines()) == 1


@pytest.mark.parametrize("change, code, message", [
    ("captured lord to hand as man", "captured lord to hand as lord", "the hand holds man pieces, not lord"),
    ("hand man 0\n", "", "'captured ... to hand' needs a 'hand' statement"),
    ("drop man in home", "drop lord in home", "the hand holds man pieces, not lord"),
])
def test_hand_mistakes(tmp_path, change, code, message):
    path = tmp_path / "bad.rules"
    path.write_text(RULES.replace(change, code).replace("position (turn hand rows)", "position (turn hand rows)"
                                                        if "hand man" in RULES.replace(change, code)
                                                        else "position (turn rows)"))
    errors = [d for d in check_file(str(path), playouts=0).diagnostics if d.severity == "error"]
    assert errors and all(d.code == "E064" for d in errors) and any(message in d.message for d in errors), errors


def test_a_drop_condition_is_read_in_the_position(tmp_path):
    """``drop man ... when count(mover man) < 3``: two men on the board and one in hand make three: no drop."""
    path = tmp_path / "when.rules"
    path.write_text(RULES.replace("drop man in home", "drop man in home when count(mover man) < 3"))
    game = load_game(str(path))
    assert moves_of(game, "(w M/- -m- --- MM-)") == {"a1a2", "b1b2", "b1c1"}
    assert "M@c1" in moves_of(game, "(w M/- -m- --- M--)")


# Why a drop is not legal: each reason read off shogi's position by hand. Black holds one pawn; the board is
# the start with black's pawn on 1g gone (so column 1 is free for a pawn) and white's lance on 1a gone.
WHY_DROP = ("(b P/- lnsgkgsn- -r-----b- ppppppppp --------- --------- --------- PPPPPPPP- -B-----R- LNSGKGSNL)")


@pytest.mark.parametrize("move, legal, said", [
    ("P@1e", True, "the rule 'drop pawn' makes this move"),
    ("P@5e", False, "black has a pawn in that column already"),  # black's pawn on 5g
    ("P@1a", False, "1a is not in black's short_of_last"),  # a pawn on the last row could never move
    ("P@2a", False, "2a is taken: a drop needs an empty cell"),
    ("N@1e", False, "black has no knight in hand"),
    ("P@z9", False, "'z9' is not a cell of this board"),
])
def test_why_a_drop_is_or_is_not_legal(move, legal, said):
    from rulesdsl.interpreter.explain.reasons import explain_move

    game = load_game("shogi")
    answer = explain_move(game, game.parse_position(WHY_DROP), move)
    assert answer.legal is legal and said in answer.text()
