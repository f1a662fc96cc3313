"""Links (``link KIND DIRS``), ``connects ... by links`` and the swap rule, on hand-checked positions of
rules/twixt.rules.

On 5 x 5 the holes are b1 c1 d1 / a2 .. e2 / a3 .. e3 / a4 .. e4 / b5 c5 d5 (rows listed from the top); red
("x") may not use columns a and e, blue ("o") rows 1 and 5. Every link set, move count and result below is
worked out by hand from the rules (see docs/language.md, 'Links').
"""

from __future__ import annotations

import pytest
from helpers import after

from rulesdsl.cli.render import render
from rulesdsl.cli.svg import draw
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.compile.trial import check_all
from rulesdsl.interpreter.reference.linking import segments_cross
from rulesdsl.loader import resolve


@pytest.fixture(scope="module")
def small():
    return load_game("twixt", {"size": "5"})


def links(game, state) -> set[frozenset[str]]:
    names = [c.name for c in game.geometry.cells]
    return {frozenset((names[a], names[b])) for a, b in game.links(state)}


def pairs(*items: str) -> set[frozenset[str]]:
    return {frozenset(item.split("-")) for item in items}


def test_a_knight_link_crosses_nine_others():
    """Every link a knight's move long is crossed by exactly nine others (OpenSpiel's table lists nine each)."""
    knights = [(dx, dy) for dx in (-2, -1, 1, 2) for dy in (-2, -1, 1, 2) if abs(dx) != abs(dy)]
    others = {frozenset(((x, y), (x + dx, y + dy))) for x in range(-4, 5) for y in range(-4, 5) for dx, dy in knights}
    crossing = [o for o in others if o != frozenset(((0, 0), (1, 2))) and segments_cross((0, 0), (1, 2), *o)]
    assert len(crossing) == 9


def test_a_link_shares_an_end_without_crossing():
    assert not segments_cross((0, 0), (1, 2), (0, 0), (2, 1))
    assert segments_cross((0, 0), (2, 0), (1, 0), (3, 0))  # along each other: they overlap


def test_a_placement_links_to_each_own_peg_a_knights_move_away(small):
    # c3 is a knight's move from a2, e2, a4 and e4: four links, and they join column a to column e
    game, state = after(small, "(o - --- o---o ----- o---o ---)", "c3")
    assert links(game, state) == pairs("a2-c3", "c3-e2", "a4-c3", "c3-e4")
    assert game.outcome(state).winner == 1


def test_a_link_that_would_cross_is_not_made(small):
    # b3-d2 would cross c1-d3 (they meet at c1 + (0.6, 1.2)); with no red link it is made
    game, state = after(small, "(o c1-d3 -x- ---o- ---x- ----- ---)", "b3")
    assert links(game, state) == pairs("c1-d3")
    game, state = after(small, "(o - -x- ---o- ---x- ----- ---)", "b3")
    assert links(game, state) == pairs("b3-d2")


def test_a_players_own_link_blocks_too_and_a_shared_end_does_not(small):
    # red b3: b3-d2 crosses red's c1-d3 and is not made; b3-c1 meets c1-d3 only at c1 and is
    game, state = after(small, "(x c1-d3 -x- ---x- ---x- ----- ---)", "b3")
    assert links(game, state) == pairs("c1-d3", "b3-c1")


def test_touching_pegs_are_no_chain(small):
    state = small.parse_position("(o - -x- --x-- --x-- --x-- -x-)")
    assert small.outcome(state) is None


def test_the_swap_takes_red_s_first_peg_turned_a_quarter():
    game = load_game("twixt")  # 8 x 8: a hole (column k, row r) turns clockwise to (column 9 - r, row k)
    state = game.apply(game.initial_state(), game.parse_move(game.initial_state(), "c6"))
    assert "c6" in {game.format_move(state, mv) for mv in game.legal_moves(state)}
    assert len(game.legal_moves(state)) == 48  # blue's 48 holes, c6 itself being the swap
    swapped = game.apply(state, game.parse_move(state, "c6"))
    occupied = {c.name: swapped.board[c.index] for c in game.geometry.cells if swapped.board[c.index] != "-"}
    assert occupied == {"c3": "o"} and swapped.turn == 0
    assert len(game.legal_moves(swapped)) == 47  # red's 48 holes but c3
    later = game.apply(swapped, game.parse_move(swapped, "d5"))
    assert "d5" not in {game.format_move(later, mv) for mv in game.legal_moves(later)}  # one swap, on ply 2 only


def test_no_swap_of_a_peg_on_red_s_border():
    game = load_game("twixt")
    state = game.apply(game.initial_state(), game.parse_move(game.initial_state(), "e1"))
    written = {game.format_move(state, mv) for mv in game.legal_moves(state)}
    assert len(written) == 48 and "e1" not in written  # blue may not use row 1, so may not take e1 over


def test_positions_carry_the_links(small):
    text = "(x a2-c3,c3-e2 --- o---o --o-- ----- ---)"
    state = small.parse_position(text)
    assert small.parse_position(small.format_position(state)) == state
    assert links(small, state) == pairs("a2-c3", "c3-e2")


@pytest.mark.parametrize("text, why", [
    ("(x c1-d3,b3-d2 -x- ---o- -o-x- ----- ---)", "crosses another link"),
    ("(x c3-e2,c1-d3 -x- ----o --ox- ----- ---)", "crosses another link"),  # at c1 + (0.8, 1.6)
    ("(x c1-c3 -x- ----- --x-- ----- ---)", "not a link"),
    ("(x c1-d3 -x- ----- ---o- ----- ---)", "does not join two pieces of one player"),
    ("(x c1-q3 -x- ----- ---o- ----- ---)", "not two cells"),
])
def test_bad_links_are_named(small, text, why):
    with pytest.raises(Exception, match=why):
        small.parse_position(text)


def test_pictures_show_the_links(small):
    state = small.parse_position("(x a2-c3,c1-d3 -x- o---- --ox- ----- ---)")
    lines = render(small, state).splitlines()
    assert {line for line in lines if "links" in line} == {"o links a2-c3", "x links c1-d3"}
    assert draw(small, state).count('class="link"') == 2


SMALL = """
game "t"
players red "x", blue "o"
board grid 5 x 5
position {fmt}
piece peg red "x", blue "o"
{link}
start {{}}
moves {{ place peg
  {swap} }}
end {{ red wins if red connects top and bottom {by} }}
"""


def codes(tmp_path, fmt="(turn links rows)", link="link peg (1, 2)", swap="swap", by="by links") -> dict[str, str]:
    path = tmp_path / "t.rules"
    path.write_text(SMALL.format(fmt=fmt, link=link, swap=swap, by=by), encoding="utf-8")
    return {d.code: d.message for d in check_all(resolve(path))}


def test_check_names_the_mistakes(tmp_path):
    assert codes(tmp_path) == {}
    assert "no 'links' field" in codes(tmp_path, fmt="(turn rows)").get("E154", "")
    assert "needs links" in codes(tmp_path, link="").get("E154", "")
    assert "no end rule follows" in codes(tmp_path, by="").get("W154", "")
    assert "clockwise, anticlockwise or half round" in codes(tmp_path, swap="swap turning over").get("E155", "")
    assert "E032" in codes(tmp_path, link="link pin (1, 2)")


def test_the_web_board_draws_links_made_by_moves():
    from rulesdsl.cli.web_api import Api, entries_for

    api = Api(entries_for(()))
    position = "(x - -x- ----- ----- ----- ---)"  # red c1, red to move: d3 is a knight's move away
    data = api.move({"game": "twixt", "options": {"size": 5}, "position": position, "move": "d3"})
    assert data["position"].split()[1] == "c1-d3"
    assert data["svg"].count('class="link"') == 1
