"""The chess family's building blocks, each on a small position worked out by hand.

Leaps along vectors, regions, ``exactly``, ``unmoved``/``bringing``/``safe``
(castling), ``passing``/``to passed`` (en passant), promotion choices,
``forbid leaving KIND attacked`` with checkmate and stalemate, the draws by
rule, position strings that carry the past, and the solver's refusal.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.compile.tables import vector_images
from rulesdsl.verify import check_file

KNIGHTS = """
game "Knights"
players white "w", black "b"
board grid 5 x 5
piece knight white "N", black "n"
start {
  knight white at a1, e1
  knight black at a5, e5
}
moves {
  knight step (1, 2) to empty or enemy
}
end {
  mover wins if opponent has no pieces
  opponent loses if no moves
}
"""


@pytest.fixture(scope="module")
def chess():
    return load_game("chess")


def game_of(tmp_path, text: str):
    """The game a rule file's text describes (written to a file first)."""
    path = tmp_path / "game.rules"
    path.write_text(text)
    return load_game(str(path))


def moves_of(game, state) -> set[str]:
    return {game.format_move(state, m) for m in game.legal_moves(state)}


def test_a_vector_stands_for_its_images():
    assert sorted(vector_images("(1, 2)")) == [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
    assert sorted(vector_images("(1, 1)")) == [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    assert sorted(vector_images("(0, 2)")) == [(-2, 0), (0, -2), (0, 2), (2, 0)]


def test_a_direction_set_of_vectors_reads_as_the_issue_wrote_it(tmp_path):
    sets = "directions knight = (1, 2), (2, 1)\n"
    game = game_of(tmp_path, KNIGHTS.replace("knight step (1, 2)", "knight step knight") + sets)
    assert moves_of(game, game.initial_state()) == {"a1-b3", "a1-c2", "e1-d3", "e1-c2"}


def test_knights_leap_and_the_kernel_agrees(tmp_path):
    game = game_of(tmp_path, KNIGHTS)
    start = game.initial_state()
    # a1: b3, c2; e1: d3, c2 (by hand)
    assert moves_of(game, start) == {"a1-b3", "a1-c2", "e1-d3", "e1-c2"}
    assert [game.perft(start, d) for d in (1, 2, 3)] == [generic_perft(game, start, d) for d in (1, 2, 3)]


def test_the_pawn_double_step_and_en_passant(chess):
    start = chess.initial_state()
    after = chess.apply(start, chess.parse_move(start, "e2e4"))
    # nobody can take on e3: the cell is not kept open
    assert chess.format_position(after).split()[2] == "-"
    state = chess.parse_position("(b - - 0 ----k--- ---p---- -------- ----P--- -------- -------- -------- ----K---)")
    state = chess.apply(state, chess.parse_move(state, "d7d5"))
    assert chess.format_position(state).split()[2] == "d6"
    assert {"e5d6", "e5e6"} <= moves_of(chess, state)
    taken = chess.apply(state, chess.parse_move(state, "e5d6"))
    rows = "----k--- -------- ---P---- -------- -------- -------- -------- ----K---"
    assert chess.format_position(taken).endswith(rows + ")")


def test_en_passant_is_open_for_one_ply_only(chess):
    state = chess.parse_position("(w - d6 0 ----k--- -------- -------- ---pP--- -------- -------- -------- K-------)")
    assert "e5d6" in moves_of(chess, state)
    state = chess.apply(state, chess.parse_move(state, "a1a2"))
    state = chess.apply(state, chess.parse_move(state, "e8d8"))
    assert "e5d6" not in moves_of(chess, state)


def test_castling_both_ways_and_the_rights_it_spends(chess):
    state = chess.parse_position("(w a1,e1,h1,a8,e8,h8 - 0 r---k--r -------- -------- -------- -------- -------- "
                                 "-------- R---K--R)")
    assert {"e1g1", "e1c1"} <= moves_of(chess, state)
    castled = chess.apply(state, chess.parse_move(state, "e1g1"))
    words = chess.format_position(castled)[1:-1].split()
    assert words[1] == "a8,e8,h8" and words[-1] == "R----RK-"
    castled = chess.apply(state, chess.parse_move(state, "e1c1"))
    assert chess.format_position(castled)[1:-1].split()[-1] == "--KR---R"


def test_no_castling_out_of_through_or_into_check_nor_after_the_rook_moved(chess):
    rows = "r---k--r -------- -------- -------- -------- -------- -------- R---K--R"
    base = chess.parse_position(f"(w a1,e1,h1,a8,e8,h8 - 0 {rows})")
    # a black rook on f8 attacks f1 (passed over on the king's side); on c8 attacks c1 (the landing cell)
    through = chess.parse_position(f"(w a1,e1,h1,a8,e8 - 0 {rows.replace('r---k--r', 'r---kr--')})")
    into = chess.parse_position(f"(w a1,e1,h1,e8,h8 - 0 {rows.replace('r---k--r', '--r-k--r')})")
    assert {"e1g1", "e1c1"} <= moves_of(chess, base)
    assert "e1g1" not in moves_of(chess, through) and "e1c1" in moves_of(chess, through)
    assert "e1c1" not in moves_of(chess, into) and "e1g1" in moves_of(chess, into)
    no_right = chess.parse_position(f"(w a1,e1,a8,e8,h8 - 0 {rows})")
    assert "e1g1" not in moves_of(chess, no_right) and "e1c1" in moves_of(chess, no_right)


def test_promotion_offers_four_kinds(chess):
    state = chess.parse_position("(w - - 0 -------k ----P--- -------- -------- -------- -------- -------- K-------)")
    assert {m for m in moves_of(chess, state) if m.startswith("e7")} == {"e7e8Q", "e7e8R", "e7e8B", "e7e8N"}
    knighted = chess.apply(state, chess.parse_move(state, "e7e8n"))
    assert chess.format_position(knighted).split()[4] == "----N--k"


def test_a_pinned_piece_may_not_move_and_check_must_be_answered(chess):
    pinned = chess.parse_position("(w - - 0 ----r--k -------- -------- -------- -------- -------- ----N--- ----K---)")
    assert not any(m.startswith("e2") for m in moves_of(chess, pinned))
    checked = chess.parse_position("(w - - 0 ----r--k -------- -------- -------- -------- -------- -------- ----K---)")
    assert moves_of(chess, checked) == {"e1d1", "e1f1", "e1d2", "e1f2"}


def test_fools_mate_and_a_stalemate(chess):
    state = chess.initial_state()
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        state = chess.apply(state, chess.parse_move(state, move))
    outcome = chess.outcome(state)
    assert outcome is not None and outcome.winner == 1
    rows = "k------- --Q----- -------- -------- -------- -------- -------- ----K---"
    stalemate = chess.parse_position(f"(b - - 0 {rows})")
    outcome = chess.outcome(stalemate)
    assert outcome is not None and outcome.winner is None


@pytest.mark.parametrize("rows, over", [
    ("----k--- -------- -------- -------- -------- -------- -------- ----K---", True),  # K v K
    ("----k--- -------- -------- -------- -------- -------- -------- --N-K---", True),  # K+N v K
    ("--b-k--- -------- -------- -------- -------- -------- -------- -----BK-", True),  # bishops c8 f1: both light
    ("---bk--- -------- -------- -------- -------- -------- -------- -----BK-", False),  # d8 dark, f1 light
    ("----kn-- -------- -------- -------- -------- -------- -------- --N-K---", False),  # a knight each
    ("----k--- -------- -------- -------- -------- -------- -------- -NN-K---", False),  # two knights
])
def test_insufficient_material_as_openspiel_counts_it(chess, rows, over):
    state = chess.parse_position(f"(w - - 0 {rows})")
    assert (chess.outcome(state) is not None) == over


def test_the_fifty_move_rule_and_threefold_repetition(chess):
    state = chess.parse_position("(w - - 99 ----k--- -------- -------- -------- -------- -------- -------- R---K---)")
    assert chess.outcome(state) is None
    state = chess.apply(state, chess.parse_move(state, "a1a2"))
    assert chess.outcome(state) is not None and chess.format_position(state).split()[3] == "100"
    state = chess.initial_state()
    for _ in range(2):
        for move in ("g1f3", "g8f6", "f3g1", "f6g8"):
            assert chess.outcome(state) is None
            state = chess.apply(state, chess.parse_move(state, move))
    outcome = chess.outcome(state)  # the start stands for the third time
    assert outcome is not None and outcome.winner is None


def test_kiwipete_reads_back(chess):
    text = "(w a8,e8,h8,a1,e1,h1 - 0 r---k--r p-ppqpb- bn--pnp- ---PN--- -p--P--- --N--Q-p PPPBBPPP R---K--R)"
    assert chess.format_position(chess.parse_position(text)) == text


def test_the_solver_refuses_chess_in_one_line():
    result = CliRunner().invoke(cli, ["solve", "chess"])
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert "unmoved" in result.stderr and "cannot solve" in result.stderr


def test_chess_has_a_kernel(chess):  # tests/test_kernel_chess_blocks.py holds it to the generic path
    assert chess.has_fast_playout


@pytest.mark.parametrize("body, code", [
    ("moves { pawn step forward from home }", "E054"),
    ("moves { pawn step forward exactly 2 }", "E061"),
    ("moves { pawn jump forward bringing king }", "E061"),
    ("moves { pawn slide forward exactly 0 }", "E062"),
    ("moves { king step (0, 0) }", "E050"),
    ("moves { pawn step forward }\nend { draw if count(mover pawn king) > 1 }", "E071"),
    ("moves { pawn step forward }\nend { draw if attacked(mover) > 0 }", "E071"),
    ("moves { pawn step forward }\nforbid leaving queen attacked", "E032"),
    ("moves { pawn step forward\n king slide e, w exactly 2 unmoved bringing pawn }", "W034"),
])
def test_checker_messages(tmp_path, body, code):
    base = """game "base"
players white "w", black "b"
forward white n, black s
board grid 8 x 8
piece pawn white "P", black "p"
piece king white "K", black "k"
start {
  pawn white where row == 2
  pawn black where row == 7
  king white at e1
  king black at e8
}
end { opponent loses if no moves }
"""
    path = tmp_path / "g.rules"
    path.write_text(base + body + "\n")
    report = check_file(str(path), playouts=0)
    assert code in {d.code for d in report.diagnostics}, [d.one_line() for d in report.diagnostics]


def test_vectors_are_for_grids(tmp_path):
    path = tmp_path / "h.rules"
    path.write_text('game "h"\nplayers a "a", b "b"\nboard hexagon 3\npiece t a "a", b "b"\n'
                    'moves { t step (1, 2) }\nend { opponent loses if no moves }\n')
    report = check_file(str(path), playouts=0)
    assert "E050" in {d.code for d in report.diagnostics}


def test_why_names_the_condition_that_failed(chess):
    from rulesdsl.interpreter.explain.reasons import explain_move

    start = chess.initial_state()
    said = explain_move(chess, start, "e2e5")
    assert not said.legal and "exactly 2 cells" in said.reasons[0].message
    pinned = chess.parse_position("(w - - 0 ----r--k -------- -------- -------- -------- -------- ----N--- ----K---)")
    assert "leave white's king attacked" in explain_move(chess, pinned, "e2c3").reasons[0].message
    moved = chess.parse_position("(w a1,e1,a8,e8 - 0 r---k--- -------- -------- -------- -------- -------- -------- "
                                 "R---K--R)")
    assert "has moved" in explain_move(chess, moved, "e1g1").reasons[0].message


def test_an_illegal_move_written_without_separator_is_named_as_illegal(chess):
    from rulesdsl.errors import MoveError

    with pytest.raises(MoveError, match="not a legal move here"):
        chess.parse_move(chess.initial_state(), "e2e5")


HORSES = """
game "Horses"
players red "r", black "b"
board grid 9 x 10
piece horse red "H", black "h"
piece soldier red "S", black "s"
start {
  horse red at b1
  soldier red at b2
  horse black at h10
  soldier black at h9
}
moves {
  horse step (1, 2) blocked to empty or enemy
  soldier step e, w
}
end { opponent loses if no moves }
"""


def test_a_blocked_leap_is_not_made_past_a_piece_on_its_first_step(tmp_path):
    game = game_of(tmp_path, HORSES)
    start = game.initial_state()
    # b1: the leaps north (a3, c3) pass b2, which holds the soldier; d2 passes c1, empty; a leap to
    # the west (-2, 1) would leave the board. By hand: d2 only, and the soldier's a2, c2.
    assert moves_of(game, start) == {"b1-d2", "b2-a2", "b2-c2"}


HORSE_CHECKS = """
game "Horse checks"
players red "r", black "b"
board grid 5 x 5
position (turn rows) top first
piece king red "K", black "k"
piece horse red "H", black "h"
piece soldier red "S", black "s"
moves {
  king step all to empty or enemy
  horse step (1, 2) blocked to empty or enemy
  soldier step e, w
}
forbid leaving king attacked
end { opponent loses if no moves }
"""


def test_a_blocked_leap_attacks_only_when_its_way_is_clear(tmp_path):
    game = game_of(tmp_path, HORSE_CHECKS)
    # The black horse on c3 attacks d1 (by c2) and e2 (by d3), not d2: the red king on e1 may go to d2 only.
    clear = game.parse_position("(r k---- ----- --h-- ----- ----K)")
    assert moves_of(game, clear) == {"e1-d2"}
    # A black soldier on d3 blocks the leap to e2.
    blocked = game.parse_position("(r k---- ----- --hs- ----- ----K)")
    assert moves_of(game, blocked) == {"e1-d2", "e1-e2"}


PALACE = """
game "Palace"
players red "r", black "b"
forward red n, black s
board grid 9 x 10
position (turn rows) top first
region palace where col >= 4 and col <= 6 and rank <= 3
piece general red "G", black "g"
piece chariot red "C", black "c"
moves {
  general step orthogonal within palace to empty or enemy
  chariot slide orthogonal to empty or enemy
}
forbid leaving general attacked
end { opponent loses if no moves }
"""


def test_a_piece_kept_in_its_region(tmp_path):
    game = game_of(tmp_path, PALACE)
    # The red general on d1 (the palace is d1-f3 for red, d8-f10 for black): c1 lies outside, so only e1 and d2.
    corner = game.parse_position("(r ----g---- --------- --------- --------- --------- --------- --------- "
                                 "--------- --------- ---G-----)")
    assert moves_of(game, corner) == {"d1-e1", "d1-d2"}
