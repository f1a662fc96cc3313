"""The chess family's building blocks on the kernel play exactly what the generic path plays.

Antichess: promotion choices (one move per kind), ``slide ... exactly 2 ...
passing`` and ``step ... to passed`` (en passant, in two words after the
bitboards), ``must capture by landing`` (a capture in passing does not
oblige), ``plies since KIND move or capture`` and ``repetitions`` (the earlier
positions' keys). Chess: ``forbid leaving KIND attacked``, castling (``unmoved
safe bringing``, a rights word), counts over both players and in a region,
``attacked(...)``. Xiangqi: blocked leaps, ``slide ... over one``, ``taking
KIND``, attacks within regions. Crazyhouse: captured pieces to hand, drops.
Perft from the start and from published positions is the published figure
(OpenSpiel's counted in the same run where it has the game); the hand-made
positions' counts are worked out by hand (their comments say how); on random
positions the kernel's plies, outcomes and perft are the generic path's; and
seeded games played by the kernel agree with OpenSpiel at every ply.
"""

from __future__ import annotations

import random

import pytest
from helpers import Chosen, kernel_plies_are_reference_moves
from helpers import kernel_side_by_side as side_by_side

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game


@pytest.fixture(scope="module")
def antichess():
    game = load_game("antichess")
    assert game.has_fast_playout
    return game


def successors(game, state) -> set:
    """The positions one kernel ply reaches (one per index the kernel is asked for)."""
    count = game.perft(state, 1)
    return {game.playout(state, Chosen(i), 1).state for i in range(count)}


def reference(game, state) -> set:
    return {game.apply(state, move) for move in game.legal_moves(state)}


@pytest.mark.parametrize("depth, count", [(1, 20), (2, 400), (3, 8067), (4, 153299)])
def test_antichess_perft_from_the_start_is_the_published_figure(antichess, depth, count):
    assert antichess.perft(antichess.initial_state(), depth) == count


def test_a_pawn_on_the_far_row_may_become_any_of_five_kinds(antichess):
    # a white pawn on e7, a black king on a1 out of reach: e7e8 as Q, R, B, N or K (5); nothing to take
    state = antichess.parse_position("(w - 0 -------- ----P--- -------- -------- -------- -------- -------- k-------)")
    assert antichess.perft(state, 1) == 5
    assert successors(antichess, state) == reference(antichess, state)
    rows = {antichess.format_position(s).split()[3] for s in successors(antichess, state)}
    assert rows == {"----Q---", "----R---", "----B---", "----N---", "----K---"}


def test_a_capture_onto_the_far_row_is_five_moves_and_compulsory(antichess):
    # pawn e7 takes d8 (five kinds) or steps to e8 (five); taking is compulsory: 5
    state = antichess.parse_position("(w - 0 ---r---- ----P--- -------- -------- -------- -------- -------- k-------)")
    assert antichess.perft(state, 1) == 5
    assert successors(antichess, state) == reference(antichess, state)


def test_a_double_step_opens_the_cell_for_one_ply(antichess):
    # black d7d5 beside a white pawn on e5: white may take on d6 in passing, or not (no capture obliges):
    # e5e6, e5d6 (taking d5) and the king's three moves from h1 (g1, g2, h2): 5
    state = antichess.parse_position("(b - 0 -------k ---p---- -------- ----P--- -------- -------- -------- -------K)")
    assert successors(antichess, state) == reference(antichess, state)  # the kernel's d7d5 opens d6 too
    after = antichess.apply(state, antichess.parse_move(state, "d7d5"))
    assert antichess.format_position(after).split()[1] == "d6"
    assert antichess.perft(after, 1) == 5
    assert successors(antichess, after) == reference(antichess, after)
    taken = [s for s in successors(antichess, after) if antichess.format_position(s).split()[5] == "---P----"]
    assert len(taken) == 1 and "p" not in antichess.format_position(taken[0]).split()[6]


def test_a_capture_in_passing_does_not_oblige_but_a_landing_capture_drops_it(antichess):
    # d6 open (black just played d7d5) and a black knight on g2: Kh1xg2 is the only capture by landing,
    # so it is the only move (e5xd6 in passing is dropped with the rest)
    state = antichess.parse_position("(w d6 0 -------k -------- -------- ---pP--- -------- -------- ------n- -------K)")
    assert antichess.perft(state, 1) == 1
    assert successors(antichess, state) == reference(antichess, state)


def test_nobody_can_take_in_passing_so_nothing_opens(antichess):
    # white e2e4 with no black pawn beside e4: the passed field stays empty, as in the reference
    state = antichess.parse_position("(w - 0 -------k -------- -------- -------- -------- -------- ----P--- -------K)")
    double = [s for s in successors(antichess, state) if antichess.format_position(s).split()[7] == "----P---"]
    assert len(double) == 1 and antichess.format_position(double[0]).split()[1] == "-"


def test_the_clock_counts_plies_since_a_pawn_move_or_capture(antichess):
    # clock 99: a king move makes it 100, a draw; a pawn move resets it
    state = antichess.parse_position("(w - 99 -------k -------- -------- -------- -------- -------- P------- -------K)")
    ends = {antichess.format_position(s).split()[2]: antichess.outcome(s) for s in successors(antichess, state)}
    assert set(ends) == {"0", "100"}
    assert ends["100"] is not None and ends["100"].winner is None and ends["0"] is None
    assert successors(antichess, state) == reference(antichess, state)


def test_the_third_repetition_is_a_draw_on_the_kernel(antichess):
    state = antichess.parse_position("(w - 0 -------k -------- -------- -------- -------- -------- -------- K-------)")
    shuffle = ("a1b1", "h8g8", "b1a1", "g8h8")
    for number in range(8):
        assert antichess.playout(state, Chosen(0), 0).outcome is None
        if number == 7:  # one ply before the third time: the kernel counts the positions before it
            assert successors(antichess, state) == reference(antichess, state)
            assert antichess.perft(state, 2) == generic_perft(antichess, state, 2)
        state = antichess.apply(state, antichess.parse_move(state, shuffle[number % 4]))
    end = antichess.playout(state, Chosen(0), 1)
    assert end.plies == 0 and end.outcome is not None and end.outcome.winner is None
    assert end.outcome == antichess.status(state)[1]


def test_antichess_kernel_plies_are_the_reference_moves(antichess):
    kernel_plies_are_reference_moves(antichess, games=3, seed=5, cap=120, perft_every=15)


def test_whole_antichess_playouts_end_as_the_rules_say(antichess):
    for seed in range(10):
        end = antichess.playout(antichess.initial_state(), random.Random(seed))
        assert end.outcome is not None and end.outcome == antichess.status(end.state)[1]



# -- chess: forbid leaving king attacked, castling (unmoved safe bringing), the draws by rule --------------------
# Published perft figures (the chess programming wiki's positions 2-5; 2 is "Kiwipete") as FEN.
PUBLISHED = [
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", (48, 2039, 97862)),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", (14, 191, 2812, 43238)),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", (6, 264, 9467)),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", (44, 1486, 62379)),
]
CASTLING_CELLS = {"K": ("e1", "h1"), "Q": ("e1", "a1"), "k": ("e8", "h8"), "q": ("e8", "a8")}


def position_of(fen: str) -> str:
    """A FEN as chess.rules' position string (turn, unmoved kings and rooks, passed cell, clock, rows)."""
    placement, turn, castling, passed, clock = fen.split()[:5]
    rows = ["".join("-" * int(ch) if ch.isdigit() else ch for ch in row) for row in placement.split("/")]
    unmoved = sorted({cell for letter in castling if letter in CASTLING_CELLS for cell in CASTLING_CELLS[letter]},
                     key=lambda cell: (cell[1], cell[0]))
    return f"({turn} {','.join(unmoved) or '-'} {passed} {clock} {' '.join(rows)})"


@pytest.fixture(scope="module")
def chess():
    game = load_game("chess")
    assert game.has_fast_playout
    return game


@pytest.mark.parametrize("depth, count", [(1, 20), (2, 400), (3, 8902), (4, 197281)])
def test_chess_perft_from_the_start_is_the_published_figure(chess, depth, count):
    assert chess.perft(chess.initial_state(), depth) == count


@pytest.mark.parametrize("fen, counts", PUBLISHED, ids=["kiwipete", "position3", "position4", "position5"])
def test_chess_perft_of_the_published_positions(chess, fen, counts):
    state = chess.parse_position(position_of(fen))
    assert [chess.perft(state, depth) for depth in range(1, len(counts) + 1)] == list(counts)


@pytest.mark.parametrize("fen, counts", PUBLISHED, ids=["kiwipete", "position3", "position4", "position5"])
def test_openspiel_counts_the_published_positions_as_the_kernel(chess, fen, counts):
    pyspiel = pytest.importorskip("pyspiel")
    from openspiel_side_by_side import spiel_perft

    theirs = pyspiel.load_game("chess").new_initial_state(fen)
    state = chess.parse_position(position_of(fen))
    assert chess.perft(state, 2) == spiel_perft(theirs, 2) == counts[1]


@pytest.mark.parametrize("rows, unmoved, castles", [
    # both castlings open: e1g1 and e1c1 beside the king's five steps and the rooks' moves
    ("r---k--r -------- -------- -------- -------- -------- -------- R---K--R", "a1,e1,h1,a8,e8,h8", {"e1g1", "e1c1"}),
    # a black rook on f8 attacks f1, passed on the king's side; on c8 it attacks c1, where the king lands
    ("r---kr-- -------- -------- -------- -------- -------- -------- R---K--R", "a1,e1,h1,a8,e8", {"e1c1"}),
    ("--r-k--r -------- -------- -------- -------- -------- -------- R---K--R", "a1,e1,h1,e8,h8", {"e1g1"}),
    # b1 taken: the queen's side is shut though b1 is not passed; the king attacked: neither
    ("r---k--r -------- -------- -------- -------- -------- -------- RN--K--R", "a1,e1,h1,a8,e8,h8", {"e1g1"}),
    ("r---k--r -------- -------- -------- ----r--- -------- -------- R---K--R", "a1,e1,h1,a8,e8", set()),
    # the rights gone with the rook on h1 (only a1, e1 unmoved)
    ("r---k--r -------- -------- -------- -------- -------- -------- R---K--R", "a1,e1,a8,e8,h8", {"e1c1"}),
])
def test_castling_on_the_kernel(chess, rows, unmoved, castles):
    state = chess.parse_position(f"(w {unmoved} - 0 {rows})")
    kids = successors(chess, state)
    assert kids == reference(chess, state)
    first_rows = {chess.format_position(s)[1:-1].split()[-1] for s in kids}
    found = {"e1g1" for row in first_rows if row[4:] == "-RK-"} | {"e1c1" for row in first_rows
                                                                   if row[0] + row[2:5] == "-KR-"}
    assert found == castles


@pytest.mark.parametrize("rows, landings", [
    # a rook on e8 checks the king on e1: e2 stays on its file (the king's own cell no longer shields it)
    ("k---r--- -------- -------- -------- -------- -------- -------- ----K---", {"d1", "d2", "f1", "f2"}),
    # the bishop on e2 is pinned to the king by the rook: it has no move; the king's four as above
    ("k---r--- -------- -------- -------- -------- -------- ----B--- ----K---", {"d1", "d2", "f1", "f2"}),
    # a rook on e2 checks from beside the king; guarded from e8, it may not be taken; d2 and f2 on its row
    ("k---r--- -------- -------- -------- -------- -------- ----r--- ----K---", {"d1", "f1"}),
    # unguarded, the king takes it
    ("k------- -------- -------- -------- -------- -------- ----r--- ----K---", {"d1", "f1", "e2"}),
])
def test_a_move_is_legal_as_the_position_after_it_says(chess, rows, landings):
    """The kernel asks the position before a move whether the king would be attacked after it (``hitafter``):
    the cells each move leaves and lands on, counted by hand; the children are the generic path's."""
    state = chess.parse_position(f"(w - - 0 {rows})")
    kids = successors(chess, state)
    assert kids == reference(chess, state)
    found = set()
    for kid in kids:
        first = chess.format_position(kid)[1:-1].split()[-8:]
        (cell,) = {f"{'abcdefgh'[x]}{8 - y}" for y, row in enumerate(first) for x, c in enumerate(row) if c == "K"}
        found.add(cell)
    assert found == landings and len(kids) == len(landings)


def test_a_rook_that_moves_or_is_taken_ends_its_right_on_the_kernel(chess):
    # a white rook takes h8: black's king's side right goes with the rook taken, white's with the rook that left
    state = chess.parse_position("(w a1,e1,h1,a8,e8,h8 - 0 r---k--r -------- -------- -------- -------- -------- "
                                 "-------- R---K--R)")
    kids = successors(chess, state)
    assert kids == reference(chess, state)
    taken = [s for s in kids if chess.format_position(s).split()[4].endswith("R")]
    assert [set(chess.format_position(s).split()[1].split(",")) for s in taken] == [{"a1", "e1", "a8", "e8"}]


def test_a_pinned_piece_and_check_on_the_kernel(chess):
    # the knight on e2 is pinned by the rook on e8: only the king moves (d1, f1, d2, f2; e2 is its own knight's)
    pinned = chess.parse_position("(w - - 0 ----r--k -------- -------- -------- -------- -------- ----N--- ----K---)")
    assert chess.perft(pinned, 1) == 4 and successors(chess, pinned) == reference(chess, pinned)
    # en passant that would expose the king along the row is not a move: Kh5 and P on e5 beside d5, rook a5
    exposed = chess.parse_position("(w - d6 0 -------k -------- -------- r--pP--K -------- -------- -------- --------)")
    assert successors(chess, exposed) == reference(chess, exposed)
    assert not any(chess.format_position(s).split()[7] == "r------K" for s in successors(chess, exposed))
    # the king steps off the row
    assert any(chess.format_position(s).split()[7] == "r--pP---" for s in successors(chess, exposed))


def test_checkmate_stalemate_and_bare_kings_on_the_kernel(chess):
    state = chess.initial_state()
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        state = chess.apply(state, chess.parse_move(state, move))
    end = chess.playout(state, Chosen(0), 1)
    assert end.plies == 0 and end.outcome is not None and end.outcome.winner == 1
    rows = "k------- --Q----- -------- -------- -------- -------- -------- ----K---"
    stalemate = chess.parse_position(f"(b - - 0 {rows})")
    end = chess.playout(stalemate, Chosen(0), 1)
    assert end.outcome is not None and end.outcome.winner is None and end.outcome == chess.status(stalemate)[1]
    for rows, over in [("----k--- -------- -------- -------- -------- -------- -------- --N-K---", True),
                       ("--b-k--- -------- -------- -------- -------- -------- -------- -----BK-", True),
                       ("---bk--- -------- -------- -------- -------- -------- -------- -----BK-", False)]:
        state = chess.parse_position(f"(w - - 0 {rows})")
        assert (chess.playout(state, Chosen(0), 1).plies == 0) == over


def test_chess_kernel_plies_are_the_reference_moves(chess):
    kernel_plies_are_reference_moves(chess, games=2, seed=3, cap=150, perft_every=40)


def test_whole_chess_playouts_end_as_the_rules_say(chess):
    for seed in range(3):
        end = chess.playout(chess.initial_state(), random.Random(seed))
        assert end.outcome is not None and end.outcome == chess.status(end.state)[1]


# -- OpenSpiel side by side, the kernel playing ---------------------------------------------------------------
KERNEL_GAMES = {"chess": 6, "antichess": 6, "crazyhouse": 2}  # the default run's games; 50 each under -m deep


def kernel_side_by_side(game, seed: int, spiel_name: str) -> int:
    """One seeded random game played by the kernel and by OpenSpiel, compared at every ply as FENs
    (:func:`helpers.kernel_side_by_side`). Returns the game's length."""
    pyspiel = pytest.importorskip("pyspiel")
    from test_chess_openspiel import fen_of, seat

    if spiel_name == "crazyhouse":
        from test_crazyhouse_openspiel import our_fen, spiel_fen

        def ours(state) -> str:
            return our_fen(game, state)
    else:
        def ours(state) -> str:
            return " ".join(fen_of(game, state).split()[:4])

        def spiel_fen(text: str) -> str:
            return " ".join(text.split()[:4])

    return side_by_side(game, pyspiel.load_game(spiel_name).new_initial_state(), seed, ours, spiel_fen, seat)


@pytest.mark.parametrize("name", ["chess", "antichess", "crazyhouse"])
def test_kernel_games_agree_with_openspiel(name):
    game = load_game(name)
    assert game.has_fast_playout
    assert all(kernel_side_by_side(game, seed, name) > 0 for seed in range(KERNEL_GAMES[name]))


@pytest.mark.deep
@pytest.mark.parametrize("name", ["chess", "antichess", "crazyhouse"])
def test_fifty_kernel_games_agree_with_openspiel(name):
    game = load_game(name)
    assert all(kernel_side_by_side(game, seed, name) > 0 for seed in range(50))


# -- xiangqi: blocked leaps, a slide over one (the cannon), taking KIND (the flying general), within regions ---
def xiangqi_position(turn: str, rows: dict[int, str]) -> str:
    """A xiangqi position string from the rows that hold pieces (row number -> 9 cells), the others empty."""
    return f"({turn} {' '.join(rows.get(r, '-' * 9) for r in range(10, 0, -1))})"


@pytest.fixture(scope="module")
def xiangqi():
    game = load_game("xiangqi")
    assert game.has_fast_playout
    return game


@pytest.mark.parametrize("depth, count", [(1, 44), (2, 1920), (3, 79666)])
def test_xiangqi_perft_from_the_start_is_the_published_figure(xiangqi, depth, count):
    assert xiangqi.perft(xiangqi.initial_state(), depth) == count


def test_a_blocked_horse_and_the_flying_general(xiangqi):
    # red general e1, horse e5 with its own soldier on e6 (the leg north: no d7, f7), black general d10.
    # The general: f1, e2 (d1 would face the black general on an open file): 2; the horse: d3, f3, c6, c4, g6,
    # g4: 6; the soldier across the river: e7, d6, f6: 3. In all 11.
    state = xiangqi.parse_position(xiangqi_position("r", {10: "---g-----", 6: "----S----", 5: "----H----",
                                                          1: "----G----"}))
    assert xiangqi.perft(state, 1) == 11
    assert successors(xiangqi, state) == reference(xiangqi, state)


def test_a_cannon_takes_over_one_screen(xiangqi):
    # red cannon e3 behind its soldier e5, a black chariot e8: the cannon takes e8 over the screen, or slides to
    # e4, e2 and four cells each way along row 3: 11; the general f1, e2: 2; the soldier e6: 1. In all 14.
    state = xiangqi.parse_position(xiangqi_position("r", {10: "---g-----", 8: "----r----", 5: "----S----",
                                                          3: "----C----", 1: "----G----"}))
    assert xiangqi.perft(state, 1) == 14
    assert successors(xiangqi, state) == reference(xiangqi, state)
    assert xiangqi.perft(state, 3) == generic_perft(xiangqi, state, 3)


def test_xiangqi_kernel_plies_are_the_reference_moves(xiangqi):
    kernel_plies_are_reference_moves(xiangqi, games=2, seed=7, cap=120, perft_every=60)


def test_whole_xiangqi_playouts_end_as_the_rules_say(xiangqi):
    for seed in range(1):  # a random game of xiangqi runs hundreds of plies: about 17 s on the Python kernel
        end = xiangqi.playout(xiangqi.initial_state(), random.Random(seed))
        assert end.outcome is not None and end.outcome == xiangqi.status(end.state)[1]


# -- crazyhouse: captured pieces to hand, drops ------------------------------------------------------------------
@pytest.fixture(scope="module")
def crazyhouse():
    game = load_game("crazyhouse")
    assert game.has_fast_playout
    return game


@pytest.mark.parametrize("depth, count", [(1, 20), (2, 400), (3, 8902), (4, 197281)])
def test_crazyhouse_perft_from_the_start_is_the_published_figure(crazyhouse, depth, count):
    assert crazyhouse.perft(crazyhouse.initial_state(), depth) == count


def test_a_capture_fills_the_hand_and_the_kernel_drops_it(crazyhouse):
    # after 1. e4 d5 2. exd5 Qxd5 each side holds a pawn; white may drop it on e2, rows 3, 4 and 6 (8 each),
    # row 5 but d5 (7) and d7: 1 + 8 + 8 + 7 + 8 + 1 = 33 drops (as tests/test_crazyhouse_openspiel.py counts)
    state = crazyhouse.initial_state()
    for text in ("e2e4", "d7d5", "e4d5"):
        state = crazyhouse.apply(state, crazyhouse.parse_move(state, text))
    assert successors(crazyhouse, state) == reference(crazyhouse, state)  # the kernel's dxd5 fills the hand
    state = crazyhouse.apply(state, crazyhouse.parse_move(state, "d8d5"))
    kids = successors(crazyhouse, state)
    assert kids == reference(crazyhouse, state)
    assert sum(crazyhouse.format_position(kid).split()[3] == "-/p" for kid in kids) == 33


def test_a_promoted_piece_taken_joins_the_hand_as_a_pawn_on_the_kernel(crazyhouse):
    state = crazyhouse.parse_position("(b - - -/- ----k--- ----E--- -------- -------- -------- -------- "
                                      "-------- ----K---)")
    kids = successors(crazyhouse, state)
    assert kids == reference(crazyhouse, state)
    assert [crazyhouse.format_position(k).split()[3] for k in kids if "E" not in k.board] == ["-/p"]


def test_crazyhouse_kernel_plies_are_the_reference_moves(crazyhouse):
    kernel_plies_are_reference_moves(crazyhouse, games=2, seed=2, cap=100, perft_every=100)


def test_whole_crazyhouse_playouts_end_as_the_rules_say(crazyhouse):
    for seed in range(3):
        end = crazyhouse.playout(crazyhouse.initial_state(), random.Random(seed))
        assert end.outcome is not None and end.outcome == crazyhouse.status(end.state)[1]
