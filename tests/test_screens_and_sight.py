"""Blocks the xiangqi family needs, each on a small position worked out by hand.

``slide ... over one`` (a screen: the cannon), ``taking KIND`` (a line of
sight: generals that may not face each other), ``drawn lines`` (the
markings a picture draws), and the checker's messages for each.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.cli.svg import Layout
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.explain.reasons import explain_move
from rulesdsl.verify import check_file

BASE = """game "base"
players red "r", black "b"
forward red n, black s
board grid 5 x 5
piece general red "G", black "g"
piece cannon red "C", black "c"
piece pawn red "P", black "p"
"""


def game_of(tmp_path, text: str):
    path = tmp_path / "game.rules"
    path.write_text(BASE + text)
    return load_game(str(path))


def moves_at(game, position: str) -> set[str]:
    state = game.parse_position(position)
    return {game.format_move(state, mv) for mv in game.legal_moves(state)}


def test_a_screen_cannon_moves_and_takes_only_past_one_piece(tmp_path):
    game = game_of(tmp_path, """moves {
  cannon slide orthogonal over one to empty or enemy
}
end { opponent loses if no moves }
""")
    # C on c3. North: c4 holds a pawn (the screen), c5 beyond is empty: c5. East: d3 empty, e3 a black
    # pawn as the screen, nothing beyond: none. South: c2 red pawn (screen), c1 black pawn: takes c1.
    # West: b3 empty, a3 empty: no screen, no move.
    rows = "----- --p-- --C-p --P-- --p--"
    assert moves_at(game, f"(r {rows})") == {"c3-c5", "c3-c1"}


def test_a_cannon_gives_check_through_a_screen(tmp_path):
    game = game_of(tmp_path, """moves {
  general step orthogonal to empty or enemy
  cannon slide orthogonal
  cannon slide orthogonal over one to enemy
}
forbid leaving general attacked
end { opponent loses if no moves }
""")
    # The black cannon on c5 looks down the c file over the red pawn on c3 at c2, c1: the red general on
    # b1 may not step to c1; a1 and b2 are free. The pawn has no rule, so it never moves.
    assert moves_at(game, "(r --c-- ----- --P-- ----- -G---)") == {"b1-a1", "b1-b2"}
    # With the pawn gone the cannon has no screen: c1 is free.
    assert moves_at(game, "(r --c-- ----- ----- ----- -G---)") == {"b1-a1", "b1-b2", "b1-c1"}


def test_taking_a_kind_makes_a_line_of_sight(tmp_path):
    game = game_of(tmp_path, """moves {
  general step orthogonal to empty or enemy
  general slide forward to enemy taking general
}
forbid leaving general attacked
end { opponent loses if no moves }
""")
    # The black general on c5: c1 (the open c file) is attacked, b2 and a1 are not.
    assert moves_at(game, "(r --g-- ----- ----- ----- -G---)") == {"b1-a1", "b1-b2"}
    # A black pawn on c3 blocks the sight; and the sliding general never takes it (only a general).
    assert moves_at(game, "(r --g-- ----- --p-- ----- -G---)") == {"b1-a1", "b1-b2", "b1-c1"}
    assert moves_at(game, "(r ----- ----- --p-- ----- --G--)") == {"c1-b1", "c1-d1", "c1-c2"}


@pytest.mark.parametrize("rule, code", [
    ("general step orthogonal taking general", "E061"),
    ("general step orthogonal to enemy taking queen", "E032"),
    ("cannon jump orthogonal over one", "E061"),
    ("cannon slide orthogonal over one exactly 2 to enemy", "E061"),
])
def test_checker_messages(tmp_path, rule, code):
    path = tmp_path / "g.rules"
    path.write_text(BASE + f"start {{ general red at a1 }}\nmoves {{ {rule} }}\nend {{ opponent loses if no moves }}\n")
    report = check_file(str(path), playouts=0)
    assert code in {d.code for d in report.diagnostics}, [d.one_line() for d in report.diagnostics]


def test_drawn_lines_are_what_the_picture_joins():
    game = load_game("xiangqi")
    at = game.geometry.index_of
    segments = set(Layout(game).segments)
    assert (at("d1"), at("f3")) in segments and (at("f8"), at("d10")) in segments  # the palaces' diagonals
    y = [cell.y for cell in game.geometry.cells]
    river = y[at("a5")]
    across = {(a, b) for a, b in segments if min(y[a], y[b]) <= river < max(y[a], y[b])}
    assert across == {(at("a1"), at("a10")), (at("i1"), at("i10"))}  # only the edge files cross the river
    # Moves do not follow the drawn lines: the chariot on a1 still goes up the file one cell at a time.
    assert "a1-a2" in moves_at(game, game.format_position(game.initial_state()))


def test_a_drawn_line_to_no_point_is_an_error(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(BASE + "drawn lines a1 e5, a5 z9\nstart { general red at a1 }\nmoves { general step all }\n"
                    "end { opponent loses if no moves }\n")
    report = check_file(str(path), playouts=0)
    assert any(d.code == "E090" and "'z9' is not a point" in d.message for d in report.diagnostics), \
        [d.one_line() for d in report.diagnostics]


def test_the_engine_plays_xiangqi_in_the_repl():
    out = CliRunner().invoke(cli, ["play", "xiangqi", "--depth", "1"], input="b3-e3\nquit\n")
    assert out.exit_code == 0, out.output
    assert "black plays" in out.output and " 3 . . . . C . . C ." in out.output


def test_why_names_the_screen_and_the_leg():
    game = load_game("xiangqi")
    # The start with a red soldier on b2 (the horse's leg) and a black soldier on b6 (a second piece on b3's file).
    state = game.parse_position("(r rheagaehr --------- -c-----c- s-s-s-s-s -s------- --------- S-S-S-S-S "
                                "-C-----C- -S------- RHEAGAEHR)")
    codes = {reason.code for reason in explain_move(game, state, "b3-b10").reasons}
    assert "no-screen" in codes
    assert any("b2" in reason.message for reason in explain_move(game, state, "b1-a3").reasons)
