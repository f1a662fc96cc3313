"""Places on the kernel (``player finishes if ...``, ``player is out if ...``) play what the generic path plays.

A small race of three or four seats (pawns step and hop towards one goal cell
each, hop chains as in Chinese checkers, a blocked seat passes) ends in a
handful of plies, so random games reach every phase: seats finishing one after
another, the turn skipping them, the last seat taking the last place, and the
draw after ``max_moves`` turns sharing a place among the seats still racing.
On positions of such games the kernel's children and outcomes (places
included) are the generic path's, each ply of a seeded playout is a legal move,
and perft to depth 3 counts what the generic path counts. Chinese checkers for
every place checks the same near its end, and its examples' counts (OpenSpiel's)
and results (by hand) come from the kernel. Positions, turns and places in the
hand-made cases are derived by hand. A race with raids (a pawn jumping an enemy takes it;
a seat without pieces is out, the worst place open) reaches seats out, alone and
beside seats that finished, and is held to the generic path the same way.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import NO_SOURCE_LIMIT, kernel_children, random_positions, seeded_playouts_are_legal

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.kernel.places import canonical, pack, unpack

RACE = """game "Race for places"
option max_moves = 60 in 1..1000 "turns"
option seats = "3" in "3", "4" "how many race"
players red "1", green "2", blue "3" if seats == "3"
players red "1", green "2", blue "3", white "4"
forward red n, green n, blue n, white n
board grid 4 x 5
position (turn last rows)
piece pawn red "R", green "G", blue "B", white "W"
region goal red where row == 5 and col == 1, green where row == 5 and col == 2, blue where row == 5 and col == 3,
    white where row == 5 and col == 4
start {
  pawn red at a1
  pawn green at b1
  pawn blue at c1
  pawn white at d1
}
moves {
  pawn step forward, forward-left, forward-right, left, right
  pawn jump forward, left, right over any
}
again after jump with same piece to new cells or pass
pass when no moves
end {
  player finishes if player fills goal
  draw if turns played >= max_moves
}
"""
SETTINGS = [("race", {"seats": "3"}), ("race", {"seats": "4"}), ("race", {"seats": "4", "max_moves": "12"})]
# The race without go-again hops, a jump over an enemy taking it, and a seat with no pawn left out.
RAID = RACE.replace("""  pawn jump forward, left, right over any
}
again after jump with same piece to new cells or pass
""", """  pawn jump forward, left, right over enemy capture
}
""").replace("""  player finishes if player fills goal
""", """  player finishes if player fills goal
  player is out if player has no pieces
""")


pytestmark = NO_SOURCE_LIMIT


def race(tmp_path, settings, text: str = RACE):
    path = tmp_path / "race.rules"
    path.write_text(text)
    game = load_game(str(path), settings)
    assert game.has_fast_playout
    return game



# Every race above and the race with raids below (for the tests that hold the kernel to the generic path).
GAMES = [pytest.param(RACE, s, id=i) for (_, s), i in zip(SETTINGS, ["3", "4", "4-short"])] + [
    pytest.param(RAID, {"seats": n, "max_moves": "40"}, id=f"raid-{n}") for n in ("3", "4")]


def kernel_is_generic(game, state) -> None:
    """The kernel's outcome and children of ``state`` are the generic path's."""
    moves, outcome = game.status(state)
    got, children = kernel_children(game, state)
    assert got == outcome, game.format_position(state)
    assert Counter(children) == Counter(game.apply(state, mv) for mv in moves), game.format_position(state)


@pytest.mark.parametrize("settings", [s for _, s in SETTINGS], ids=["3", "4", "4-short"])
def test_children_and_outcomes_are_the_generic_ones(tmp_path, settings):
    game = race(tmp_path, settings)
    seen = Counter()
    for state in random_positions(game, seed=1, count=300, every=1):
        kernel_is_generic(game, state)
        outcome = game.status(state)[1]
        seen[sum(p > 0 for p in state.places)] += 1
        if outcome is not None:
            seen[outcome.reason] += 1
    assert seen[1], seen  # seats finished
    # games ended by places, or (12 turns) by the draw, some with a seat placed already
    assert seen["turns played >= max_moves" if settings.get("max_moves") == "12" else "every player has a place"]


@pytest.mark.parametrize("text,settings", GAMES)
def test_every_ply_of_a_seeded_playout_is_a_legal_move(tmp_path, text, settings):
    game = race(tmp_path, settings, text)
    seeded_playouts_are_legal(game, 8)


@pytest.mark.parametrize("text,settings", GAMES)
def test_perft_to_depth_3_counts_what_the_generic_path_counts(tmp_path, text, settings):
    game = race(tmp_path, settings, text)
    for state in random_positions(game, seed=2, count=60, every=1)[::3]:
        for depth in (1, 2, 3):
            assert game._compiled.perft(state, depth) == generic_perft(game, state, depth), game.format_position(state)


def children_by_board(game, position: str):
    """The kernel's children of a typed position, by their board."""
    state = load_position(game, position)[1]
    outcome, children = kernel_children(game, state)
    assert outcome is None
    return {child.board: child for child in children}


def test_a_seat_that_finishes_takes_first_place_and_the_turn_skips_it(tmp_path):
    game = race(tmp_path, {"seats": "3"})
    # Red (to move) steps a4-a5 onto its goal: first place; green moves next.
    kids = children_by_board(game, '(1 -/-/- "" ---- R--- ---- ---- -GB-)')
    done = kids["R--- ---- ---- ---- -GB-".replace(" ", "")]
    assert done.places == (1, 0, 0) and done.turn == 1
    # Green has finished; after red's move (not onto its goal) blue moves, not green.
    kids = children_by_board(game, '(1 -/1/- "" -G-- ---- ---- R--- --B-)')
    assert {child.turn for child in kids.values()} == {2}
    assert all(child.places == (0, 1, 0) for child in kids.values())
    # Red has finished, blue moves onto its goal: second; green, the last one racing, is third and it is over.
    kids = children_by_board(game, '(3 1/-/- "" R--- --B- ---- -G-- ----)')
    last = kids["R-B- ---- ---- -G-- ----".replace(" ", "")]
    assert last.places == (1, 3, 2)
    outcome, _ = kernel_children(game, last)
    assert outcome.places == (1, 3, 2) and outcome.winner == 0 and outcome.reason == "every player has a place"


def test_the_draw_shares_the_next_place_among_the_seats_still_racing(tmp_path):
    game = race(tmp_path, {"seats": "4", "max_moves": "12"})
    state = load_position(game, '(1 -/1/-/- "" -G-- ---- ---- R--- --BW)')[1]._replace(turns=12)
    outcome, children = kernel_children(game, state)
    assert children == [] and outcome.places == (2, 1, 2, 2) and outcome.winner == 1


def test_places_that_no_placing_rule_gives_stay_on_the_generic_path(tmp_path):
    game = race(tmp_path, {"seats": "3"})
    state = load_position(game, '(1 -/2/- "" -G-- ---- ---- R--- --B-)')[1]  # second, with two seats playing
    assert not canonical(state.places) and game._compiled.perft(state, 1) is None
    assert game.perft(state, 2) == generic_perft(game, state, 2)
    assert canonical((1, 3, 2)) and canonical((0, 1, 1, 0)) and not canonical((0, 2, 0))
    # out from the worst end: alone, two at once (sharing 3rd, covering 4th), beside a seat that finished
    assert canonical((0, 3, 0)) and canonical((0, 3, 3, 0)) and canonical((1, 0, 0, 4)) and not canonical((0, 3, 0, 0))
    assert unpack(pack((3, 0, 1, 2)), 4) == (3, 0, 1, 2) and unpack(pack((1, 0, 0, 4)), 4) == (1, 0, 0, 4)
    assert pack((1, 0, 0, 4)) == 1 | (4 | 8) << 12  # the seat out has its field's fourth bit


@pytest.mark.parametrize("seats", ["3", "4"])
def test_raids_put_seats_out_as_the_generic_path_does(tmp_path, seats):
    game = race(tmp_path, {"seats": seats, "max_moves": "40"}, RAID)  # the kernel compiles ``is out``
    out = finished = 0
    for state in random_positions(game, seed=5, count=300, every=1):
        kernel_is_generic(game, state)
        out += int(seats) in state.places and 0 in state.places
        finished += 1 in state.places and int(seats) in state.places
    assert out and finished, (out, finished)  # seats out while others play, and beside a seat that finished


def test_a_seat_raided_of_its_last_pawn_is_out_last_and_the_turn_skips_it(tmp_path):
    game = race(tmp_path, {"seats": "3"}, RAID)
    # Red (a1) jumps green's only pawn (b1) to c1: green is out, third; blue (d1) moves next.
    kids = children_by_board(game, '(1 -/-/- "" ---- ---- ---- ---- RG-B)')
    raided = kids["---- ---- ---- ---- --RB".replace(" ", "")]
    assert raided.places == (0, 3, 0) and raided.turn == 2
    game = race(tmp_path, {"seats": "4"}, RAID)
    # Red has finished; blue (d1) jumps white (c1) to b1: white is out, fourth; past white and red, green moves.
    kids = children_by_board(game, '(3 1/-/-/- "" R--- ---- ---- ---- G-WB)')
    raided = kids["R--- ---- ---- ---- GB--".replace(" ", "")]
    assert raided.places == (1, 0, 0, 4) and raided.turn == 1
    # Then blue (c1) jumps green (b1) to a1: green is out, third (fourth is taken); blue, alone, takes second.
    kids = children_by_board(game, '(3 1/-/-/4 "" R--- ---- ---- ---- -GB-)')
    last = kids["R--- ---- ---- ---- B---".replace(" ", "")]
    assert last.places == (1, 3, 2, 4)
    outcome, _ = kernel_children(game, last)
    assert outcome.places == (1, 3, 2, 4) and outcome.winner == 0 and outcome.reason == "every player has a place"


def test_chinese_checkers_examples_on_the_kernel():
    game = load_game("chinese-checkers-places", {"players": "3"})
    assert game.has_fast_playout
    state = game.initial_state()
    for depth, count in enumerate((14, 196, 2744), 1):  # OpenSpiel's counts (the rule file's example)
        assert game._compiled.perft(state, depth) == count
    rows = ('n nn nnn nnnn ------------- ------------ ----------- ---------- --------- w--------d ww-------dd '
            'www------ddd wwww-----dddd ---- --- -- -')
    over = load_position(game, f'(1 -/1/2 "" {rows})')[1]
    outcome, _ = kernel_children(game, over)
    assert outcome.places == (3, 1, 2)  # by hand: southeast first, southwest second, north third
    racing = load_position(game, f'(1 -/1/- "" {rows})')[1]
    outcome, children = kernel_children(game, racing)
    assert outcome is None and children and all(child.turn != 1 for child in children)


def test_chinese_checkers_near_the_end_plays_as_the_generic_path():
    game = load_game("chinese-checkers-places", {"players": "3"})
    # Southeast has finished; north and southwest each need one more marble in their goals.
    rows = ('n nn nnn nnnn ------------- ------------ ----------- ---------- --------- w--------d ww-------dd '
            'www------ddd wwww-----dddd ---- --- -- -')
    start = load_position(game, f'(1 -/1/- "" {rows})')[1]
    rng = random.Random(4)
    for _ in range(3):
        state = start
        for _ in range(12):
            moves, outcome = game.status(state)
            got, children = kernel_children(game, state)
            assert got == outcome
            if outcome is not None:
                break
            assert Counter(children) == Counter(game.apply(state, mv) for mv in moves)
            state = game.apply(state, rng.choice(moves))
    for depth in (1, 2):
        assert game._compiled.perft(start, depth) == generic_perft(game, start, depth)


def test_a_hop_chain_back_into_the_goal_finishes_at_the_pass():
    game = load_game("chinese-checkers-places", {"players": "3"})
    # Southeast has finished; north's goal is full but for one cell (the row of three), and its marble above it
    # hops back in: the pass that ends the hop chain completes north's turn, north takes second place and
    # southwest, left alone, third (derived by hand from the rules: 'player finishes if player fills goal').
    middle = ('------------- ------------ ----------- ---------- --------- w--------d ww-------dd www------ddd '
              'wwwwn----dddd')
    state = load_position(game, f'(1 -/1/- "" - -- --- ---- {middle} nnnn -nn nn n)')[1]
    hop = next(mv for mv in game.legal_moves(state) if game.format_move(state, mv) == "M5-O5")
    mid_turn = game.apply(state, hop)  # north may hop on or pass
    ends = [outcome for _, outcome in map(game.status, (game.apply(mid_turn, mv) for mv in game.legal_moves(
        mid_turn))) if outcome is not None]
    assert [outcome.places for outcome in ends] == [(2, 1, 3)]
    _, children = kernel_children(game, mid_turn)
    assert Counter(children) == Counter(game.apply(mid_turn, mv) for mv in game.legal_moves(mid_turn))
    finished = [kernel_children(game, child)[0] for child in children]
    assert [outcome.places for outcome in finished if outcome is not None] == [(2, 1, 3)]


@pytest.mark.parametrize("text", [RACE, RAID], ids=["race", "raid"])
def test_the_machine_code_plays_the_same_playouts(tmp_path, text):
    if not (native_module.enabled() and native_module.numba_available()):
        pytest.skip("numba is not installed or RULESDSL_NATIVE=0")
    game = race(tmp_path, {"seats": "3"}, text)  # four seats: about 100,000 characters of source, 75 s to compile
    native = game._compiled.native(wait=True)
    assert native is not None
    for state in random_positions(game, seed=3, count=80, every=1)[::4]:
        assert game._compiled.children(state, native) == kernel_children(game, state)
    for seed in range(5):
        whole = game.playout(game.initial_state(), random.Random(seed))
        assert whole.outcome == game.status(whole.state)[1]
        assert whole.outcome.places is not None


def test_raids_are_searched_natively_as_generically(tmp_path):
    """Paranoid and max^n at depths 1 and 2 on the machine code give the generic searches' moves and values on
    positions of seeded raids, seats out among them (their reward: the place the word gives them)."""
    if not (native_module.enabled() and native_module.numba_available()):
        pytest.skip("numba is not installed or RULESDSL_NATIVE=0")
    from rulesdsl.interpreter.search.kernel_players import players_view
    from rulesdsl.interpreter.search.maxn import think_maxn
    from rulesdsl.interpreter.search.paranoid import think_paranoid

    game = race(tmp_path, {"seats": "3"}, RAID)
    assert players_view(game, wait=True) is not None
    out = 0
    for state in random_positions(game, seed=7, count=60, every=3):
        if game.status(state)[1] is not None:
            continue
        out += 3 in state.places
        for depth in (1, 2):
            for think in (think_paranoid, think_maxn):
                native, generic = think(game, state, depth=depth, kernel=True), think(game, state, depth=depth,
                                                                                      kernel=False)
                where = (depth, game.format_position(state))
                assert native.kernel == "native" and generic.kernel == "generic", where
                assert native.move == generic.move and native.score == pytest.approx(generic.score, abs=1e-9), where
    assert out  # positions with a seat out
