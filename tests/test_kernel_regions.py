"""More than two players, regions and the turn's words on the kernel play exactly what the generic path plays.

three-way-race (bundled) and the small rule files below are games of three
players: the kernel hands the turn on in the seat order and reads ``mover``
and ``opponent`` from it. Camps reads regions as the kernel's constant masks:
a region per player (``goal``), one counted from each player's side
(``home``: ``rank == 1`` with three forward directions), one shared by all
(``middle``), read by ``from``, ``within`` and ``fills``. Hops (and the
bundled chinese-checkers, with 3 and 6 players) keeps words beside the
bitboards: ``turns played``, and the cells a ``to new cells`` hop chain has
stood on; a player without a move passes, a hop chain may stop; straight
Konane keeps the direction of an ``in same direction`` jump chain. On random positions
reached by random play: one ply of a playout reaches exactly the positions the
legal moves reach (the legal move sets), every ply of a seeded whole playout
is a legal move and its end is the outcome the rules give, and perft to depth
3 counts what the generic path counts. The numbers in the hand-made cases are
counted by hand (their comments say how).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import NO_SOURCE_LIMIT, Chosen, kernel_plies_are_reference_moves, positions

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.kernel import native as native_module

CAMPS = """game "Camps"
players red "r", green "g", blue "b"
forward red n, green e, blue s
board grid 5 x 5
position (turn rows)
piece scout red "R", green "G", blue "B"
piece rook red "S", green "T", blue "U"
region home where rank == 1
region goal red where row == 5 and col >= 4, green where col == 5 and row <= 2, blue where row == 1 and col <= 2
region middle where col >= 2 and col <= 4 and row >= 2 and row <= 4
start {
  scout red at a1, b1
  rook red at c1
  scout green at a3, a4
  rook green at a5
  scout blue at d5, e5
  rook blue at c5
}
moves {
  scout step forward, forward-left, forward-right to empty or enemy
  scout step backward from home
  rook slide orthogonal to empty or enemy within middle
  rook step forward-left, forward-right from home
}
end {
  mover wins if mover fills goal
  mover wins if count(opponent) == 0
  draw if no moves
}
"""


HOPS = """game "Hops"
players north "n", east "e", south "s"
board grid 6 x 6
position (turn last rows)
piece marble north "N", east "E", south "S"
region goal north where row == 6 and col <= 3, east where col == 6 and row >= 3 and row <= 4,
    south where row == 1 and col >= 4
start {
  marble north at a1, b1, c1
  marble east at a3, a4
  marble south at d6, e6, f6
}
moves {
  marble step all
  marble jump all over any
}
again after jump with same piece to new cells or pass
pass when no moves
end {
  mover wins if mover fills goal
  draw if turns played >= 40
}
"""
TEXTS = {"camps": CAMPS, "hops": HOPS}


pytestmark = NO_SOURCE_LIMIT


def game_of(tmp_path, name: str, settings: dict | None = None):
    if name in TEXTS:
        path = tmp_path / f"{name}.rules"
        path.write_text(TEXTS[name])
        return load_game(str(path))
    return load_game(name, settings or {})


GAMES = ["three-way-race", "camps", "hops"]
CASES = [(name, {}) for name in GAMES] + [("chinese-checkers", {"players": p}) for p in ("3", "6")] + [
    ("konane-straight", {"rows": "6", "cols": "6"})]
IDS = [f"{n}-{'-'.join(s.values())}" for n, s in CASES]


@pytest.mark.parametrize("name,settings", CASES, ids=IDS)
def test_the_kernel_plays_the_generic_moves_outcomes_and_counts(tmp_path, name, settings):
    game = game_of(tmp_path, name, settings)
    assert game.has_fast_playout
    assert kernel_plies_are_reference_moves(game, games=12, seed=3, cap=80, perft_every=4) > 20


@pytest.mark.parametrize("name,settings", CASES, ids=IDS)
def test_every_ply_of_a_seeded_playout_is_a_legal_move_and_its_end_the_rules_outcome(tmp_path, name, settings):
    game = game_of(tmp_path, name, settings)
    winners = set()
    for seed in range(20 if name in GAMES else 2):
        state, plies = game.initial_state(), 0
        while True:  # the same seed replayed one ply further each time: each ply is one of the legal moves
            step = game.playout(state, random.Random(seed * 1000 + plies), 1)
            moves, outcome = game.status(state)
            if outcome is not None:
                assert step == (state, outcome, 0)
                winners.add(outcome.winner)
                break
            assert step.state in {game.apply(state, move) for move in moves}, game.format_position(state)
            state, plies = step.state, plies + 1
        end = game.playout(game.initial_state(), random.Random(seed), 500)
        assert end.outcome == game.status(end.state)[1] or (end.outcome is None and end.plies == 500)
    assert len(winners) >= (2 if name in ("three-way-race", "camps") else 1)  # these end in more than one way


def test_three_way_race_counts_from_the_start():
    game = load_game("three-way-race")
    state = game.initial_state()
    assert [game.perft(state, depth) for depth in range(1, 6)] == [2, 4, 3, 7, 0]  # the rule file's example


def test_regions_confine_the_moves_by_hand(tmp_path):
    game = game_of(tmp_path, "camps")
    state = game.initial_state()
    # Red's scout on a1: a2, b2 (its home row, but backward leaves the board); b1: a2, b2, c2. The rook on c1
    # slides up c2, c3, c4 (c5 is blue's but outside the middle) and not along row 1 (outside the middle), and
    # steps diagonally from its home row to b2, d2: 2 + 3 + 5 = 10.
    assert game.perft(state, 1) == 10 == len(game.legal_moves(state))
    # Green's goal is e1 and e2 (column 5, rows 1 and 2); green (forward east) holds e2, blue's scout stands on
    # e1. Green's scout on d1 takes it stepping east: the one move after which green fills its goal and wins
    # (the scout on e2 has no move, d1's other forward cells are e2, its own, and off the board).
    game, state = load_position(game, "(g ----- ----- --R-- ----G U--GB)")
    moves = game.legal_moves(state)
    ends = [game.status(game.apply(state, move))[1] for move in moves]
    assert sum(1 for end in ends if end is not None and end.winner == 1 and end.reason.startswith("mover fills")) == 1


def test_the_mover_is_the_seat_before_the_player_to_move(tmp_path):
    game = game_of(tmp_path, "camps")
    # Red to move with no piece left: blue, the seat before red, made the last ply and took red's last piece,
    # so blue wins by 'mover wins if count(opponent) == 0' (red is blue's opponent: the next seat).
    game, state = load_position(game, "(r ----- ----- ----- ----G ----B)")
    outcome = game.status(state)[1]
    assert outcome is not None and outcome.winner == 2
    assert game.playout(state, Chosen(0), 1).outcome == outcome


@pytest.mark.skipif(not (native_module.enabled() and native_module.numba_available()),
                    reason="numba is not installed or RULESDSL_NATIVE=0")
@pytest.mark.parametrize("name", GAMES)
def test_the_machine_code_counts_and_plays_as_the_python_kernel(tmp_path, name):
    game = game_of(tmp_path, name)
    native = game._compiled.native(wait=True)
    assert native is not None
    for number, state in enumerate(positions(game, games=4, seed=9, cap=60)):
        moves, outcome = game.status(state)
        got, children = game._compiled.children(state, native)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, move) for move in moves), game.format_position(state)
        if number % 5 == 0:
            assert game.perft(state, 3) == generic_perft(game, state, 3)


def test_a_hop_chain_never_lands_where_the_turn_has_stood(tmp_path):
    game = game_of(tmp_path, "hops")
    # North's marbles a1, b1, c1: a1 steps to a2, b2; b1 to a2, b2, c2; c1 to b2, c2, d2, d1; b1 hops over c1 to
    # d1 (the other hops land on a piece or hop over an empty cell): 2 + 3 + 4 + 1 = 10.
    assert game.perft(game.initial_state(), 1) == 10
    # North's one marble on a1, east's on a2 and b4: a1 steps to b1, b2 or hops a2 to a3 (3 moves). From a3 the
    # chain may hop b4 to c5 or stop; hopping a2 back would land on a1, where it stood: 2 moves.
    game, state = load_position(game, '(n "" -----S ------ -E---- ------ E----- N-----)')
    assert game.perft(state, 1) == 3
    hop = next(move for move in game.legal_moves(state) if game.format_move(state, move) == "a1-a3")
    after = game.apply(state, hop)
    assert after in {game.playout(state, Chosen(i), 1).state for i in range(3)}  # the kernel's hop is the same
    assert game.perft(after, 1) == 2


@pytest.mark.parametrize("players,counts", [("2", [14, 196, 4144]), ("3", [14, 196, 2744]),
                                            ("4", [14, 194, 2656]), ("6", [14, 194, 2628])])
def test_chinese_checkers_counts_from_the_kernel(players, counts):
    game = load_game("chinese-checkers", {"players": players})
    assert game.has_fast_playout
    state = game.initial_state()
    assert [game.perft(state, depth) for depth in (1, 2, 3)] == counts  # OpenSpiel's (the rule file's examples)


def test_a_straight_jump_chain_goes_on_in_its_direction_only():
    game = load_game("konane-straight")
    # The rule file's hand-made cases: white a1 jumps b1 to c1, then may jump d1 to e1 (straight on) or stop;
    # black's turn then has no move: perft 1, 2, 1, 0.
    game, state = load_position(game, '(w "" wb-b-)')
    assert game.has_fast_playout
    assert [game.perft(state, depth) for depth in (1, 2, 3, 4)] == [1, 2, 1, 0]
    # White a1 jumps b1 to c1; from c1 the one jump left turns north (over c2 to c3): not straight on, so the turn
    # ends there and black, whose c2 has no jump, has no move: perft 1, 0, 0 (the rule file's first case). In
    # plain Konane white's turn goes on from c1: c1-c3 (black has no piece left) or a pass (black's c2 has no
    # jump): perft 1, 2, 0.
    for name, counts in (("konane-straight", [1, 0, 0]), ("konane", [1, 2, 0])):
        game, state = load_position(load_game(name), '(w "" --- --b wb-)')
        assert game.has_fast_playout
        after = game.playout(state, Chosen(0), 1).state
        assert after == game.apply(state, game.legal_moves(state)[0])
        assert (after.turn == 0) == (name == "konane")
        assert [game.perft(state, depth) for depth in (1, 2, 3)] == counts
