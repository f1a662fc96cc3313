"""Connection games on the kernel: rings, corners and edges (havannah), links, ``connects ... by links`` and the
swap rule (twixt) play exactly what the generic path and OpenSpiel play.

rules/havannah.rules ends on ``forms a ring``, ``joins 2 corners`` and ``joins
3 edges`` (:mod:`rulesdsl.interpreter.kernel.connections`); rules/twixt.rules
keeps its links in words after the bitboards, places only in each player's
holes and lets blue swap (:mod:`rulesdsl.interpreter.kernel.links`,
:mod:`rulesdsl.interpreter.kernel.swapping`). Checked here:

- the rule files' published perft counts (OpenSpiel's) counted by the kernel,
  the Python one and the machine code (havannah size 4 and twixt 8 x 8 fit in
  64 bits; havannah size 8 does not and stays on the Python kernel);
- hand positions, each derived by hand in its comment: rings (around empty
  cells, around a stone, none around a border cell, none for the player who
  did not move), bridges, forks, links that would cross and are not made, the
  swap's turned hole;
- on positions of seeded random games, the kernel's children and outcomes
  are the generic path's, each ply of a playout is a legal move, and perft to
  depth 3 is the generic count;
- random games of OpenSpiel's havannah (size 4) and twixt (8 x 8) followed
  with the kernel's children (Python kernel and machine code): at every ply the
  same moves, the same board (and links), the same end and winner.
  ``RULESDSL_CONNECTION_GAMES`` sets how many (100 by default); ``-m deep``
  plays 1,000 of each on the machine code.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from helpers import kernel_children, kernel_plies_are_reference_moves, random_positions

from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.kernel import native as native_module

GAMES = int(os.environ.get("RULESDSL_CONNECTION_GAMES", "100"))


def native_of(game):
    """The game's machine code (skips where numba is missing or switched off)."""
    if not (native_module.enabled() and native_module.numba_available()):
        pytest.skip("numba is not installed or RULESDSL_NATIVE=0")
    native = game._compiled.native(wait=True)
    assert native is not None
    return native


# -- published counts -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,settings,counts", [
    ("havannah", {"size": "4"}, (37, 1332, 46620)),  # OpenSpiel's (the rule file's example)
    ("twixt", {}, (48, 2304)),  # OpenSpiel's (the rule file's example)
    ("havannah", {"size": "8"}, (169, 169 * 168)),  # by hand: no game ends in two plies
])
def test_published_counts_come_from_the_python_kernel(name, settings, counts):
    game = load_game(name, settings)
    assert game._compiled.available()
    for depth, count in enumerate(counts, 1):
        assert game._compiled.perft(game.initial_state(), depth) == count


@pytest.mark.parametrize("name,settings,counts", [
    ("havannah", {"size": "4"}, (37, 1332, 46620)),
    ("twixt", {}, (48, 2304)),
])
def test_published_counts_come_from_the_machine_code(name, settings, counts):
    import numpy as np

    game = load_game(name, settings)
    native = native_of(game)
    _, bits, last, _ = game._compiled._encode(game.initial_state())
    for depth, count in enumerate(counts, 1):
        assert int(native.perft(*native.words(bits), 0, np.uint64(last), None, depth)) == count


def test_havannah_size_8_takes_several_words_a_bitboard():
    """169 cells in a 15 x 15 box: more than one 64-bit word a symbol, so four (tests/test_native_lanes.py runs
    it natively)."""
    kernel = load_game("havannah")._compiled.kernel()
    assert kernel is not None and max(kernel.layout.bit) >= 192
    source = native_module.native_source(kernel)
    assert source is not None and "wand(" in source


def test_twixt_perft_3_is_openspiels():
    pytest.importorskip("pyspiel")
    from openspiel_side_by_side import load, spiel_perft

    game = load_game("twixt")
    assert game._compiled.perft(game.initial_state(), 3) == spiel_perft(load("twixt", {}).new_initial_state(), 3)


# -- hand positions -----------------------------------------------------------------------------------------
# Size 3, rows from the top: c5 d5 e5 / b4 c4 d4 e4 / a3 b3 c3 d3 e3 / a2 b2 c2 d2 / a1 b1 c1; corners a1 c1 e3
# e5 c5 a3. Size 4: d7..g7 / c6..g6 / b5..g5 / a4..g4 / a3..f3 / a2..e2 / a1..d1. A cell's neighbours are
# one step along (1, 0), (0, 1), (1, 1) and back: b1, a2 and b2 touch a1.
HAVANNAH = [
    # the rule file's examples: white ("o") has just moved (black to move)
    ("3", "(x --- -o-- -o-o- -oo- ---)", None),  # five of the six cells around c3
    ("3", "(x --- -oo- -o-o- -oo- ---)", (0, 0)),  # all six around c3: a ring
    ("3", "(x --- -oo- -ooo- -oo- ---)", (0, 0)),  # around a stone of its own
    ("3", "(x --- ---- ----- ---- ooo)", (0, 1)),  # a1 b1 c1: a bridge of two corners
    ("3", "(x --- ---- ----- oooo -o-)", (0, 2)),  # a2 b2 c2 d2 b1: the edges of a2, d2, b1
    ("3", "(x --- ---- ----- oooo o--)", None),  # a1 is a corner, no edge: two edges only
    # b1, a2, b2 close round a1, but a1 is on the border: it reaches the outside, no ring
    ("3", "(x --- ---- ----- oo-- -o-)", None),
    # b2 c2 b3 d3 c4 e4 d5 e5 close round c3 and d4 (both inside): a ring around two empty cells
    ("4", "(x ---- ----- --oo-- --o-o-- -o-o-- -oo-- ----)", (0, 0)),
    # without e5 the two cells reach the border through e5 and f6: no ring (and every stone is inside)
    ("4", "(x ---- ----- --o--- --o-o-- -o-o-- -oo-- ----)", None),
    # black's ring, but white made the last move: the rules ask about the mover only
    ("4", "(x ---- ----- --xx-- --x-x-- -x-x-- -xx-- ----)", None),
    ("4", "(o ---- ----- --xx-- --x-x-- -x-x-- -xx-- ----)", (1, 0)),
]


@pytest.mark.parametrize("size,position,result", HAVANNAH)
def test_havannah_hand_positions_on_the_kernel(size, position, result):
    game, state = load_position(load_game("havannah", {"size": size}), position)
    outcome, children = kernel_children(game, state)
    if result is None:
        assert outcome is None and len(children) == state.board.count("-")
    else:
        assert (outcome.winner, outcome.rule.number - 1) == result
    assert outcome == game.outcome(state)


# Size 5, rows from the top: b1 c1 d1 / a2 .. e2 / a3 .. e3 / a4 .. e4 / b5 c5 d5; red ("x") may not use columns
# a and e, blue ("o") rows 1 and 5.
TWIXT = [
    ("(o c1-d3,c5-d3 -x- ----- ---x- ----- -x-)", 0),  # the rule file's: c1-d3-c5 joins top and bottom
    ("(o - -x- --x-- --x-- --x-- -x-)", None),  # touching pegs are not linked
    ("(x a2-c3,c3-e2 --- o---o --o-- ----- ---)", 1),  # a2-c3-e2 joins left and right
    ("(x a2-c3 --- o---o --o-- ----- ---)", None),  # c3 is not linked to e2: not joined
]


@pytest.mark.parametrize("position,winner", TWIXT)
def test_twixt_hand_positions_on_the_kernel(position, winner):
    game, state = load_position(load_game("twixt", {"size": "5"}), position)
    outcome, _ = kernel_children(game, state)
    assert (outcome.winner if outcome is not None else None) == winner
    assert outcome == game.outcome(state)


def links_of(game, state) -> set[frozenset[str]]:
    names = [c.name for c in game.geometry.cells]
    return {frozenset((names[a], names[b])) for a, b in game.links(state)}


def child_with(game, state, cell: str, symbol: str):
    """The kernel's child of ``state`` with ``symbol`` newly on ``cell``."""
    index = game.geometry.index_of(cell)
    _, children = kernel_children(game, state)
    found = [c for c in children if c.board[index] == symbol and state.board[index] == "-"]
    assert len(found) == 1
    return found[0]


def test_a_link_that_would_cross_is_not_made_on_the_kernel():
    game = load_game("twixt", {"size": "5"})
    # blue b3 would link to d2 (a knight's move), but b3-d2 crosses red's c1-d3: only c1-d3 stays
    _, state = load_position(game, "(o c1-d3 -x- ---o- ---x- ----- ---)")
    assert links_of(game, child_with(game, state, "b3", "o")) == {frozenset(("c1", "d3"))}
    # without red's link, b3-d2 is made
    _, state = load_position(game, "(o - -x- ---o- ---x- ----- ---)")
    assert links_of(game, child_with(game, state, "b3", "o")) == {frozenset(("b3", "d2"))}


def test_a_peg_links_up_and_down_on_the_kernel():
    game = load_game("twixt", {"size": "5"})
    # red c3 is a knight's move from b1, d1, b5 and d5 (and from no hole a or e red may use): four links
    _, state = load_position(game, "(x - x-x ----- ----- ----- x-x)")
    child = child_with(game, state, "c3", "x")
    assert links_of(game, child) == {frozenset(("c3", c)) for c in ("b1", "d1", "b5", "d5")}
    assert game.outcome(child).winner == 0 == kernel_children(game, child)[0].winner


def test_the_swap_on_the_kernel():
    game = load_game("twixt")
    # 8 x 8, a1 the top-left corner: a quarter turn clockwise takes column x, row y (from 0 at the top left)
    # to column 7 - y, row x: red's c6 (2, 5) becomes blue's c3 (2, 2), and red's peg leaves
    state = game.apply(game.initial_state(), game.parse_move(game.initial_state(), "c6"))
    _, children = kernel_children(game, state)
    assert len(children) == 48  # 47 empty holes of blue's and the swap
    swapped = [c for c in children if "x" not in c.board]
    assert len(swapped) == 1 and swapped[0].board.count("o") == 1
    assert swapped[0].board[game.geometry.index_of("c3")] == "o" and swapped[0].turn == 0
    # red's e1 is on red's border, which blue may not take over: 48 holes, no swap
    state = game.apply(game.initial_state(), game.parse_move(game.initial_state(), "e1"))
    _, children = kernel_children(game, state)
    assert len(children) == 48 and all("x" in c.board for c in children)


# -- kernel against the generic path on random positions ----------------------------------------------------------
# The same conditions on a square grid of eight directions: a ring closes round a cell with eight stones, the
# four corners are a1 e1 a5 e5, and the four edges the rest of the border.
LOOPS = """game "Loops"
players white "o", black "x"
board grid 5 x 5
position (turn rows) top first
piece stone white "o", black "x"
start {}
moves {
  place stone
}
end {
  mover wins if mover forms a ring
  mover wins if mover joins 3 corners
  mover wins if mover joins 4 edges
  draw if no moves
}
"""
SETTINGS = [("havannah", {"size": "4"}), ("havannah", {"size": "5"}), ("havannah", {"size": "8"}),
            ("twixt", {"size": "5"}), ("twixt", {"size": "6"}), ("twixt", {}), ("loops", {})]


def loaded(tmp_path, name: str, settings: dict):
    """A bundled game, or the rule file above."""
    if name != "loops":
        return load_game(name, settings)
    path = tmp_path / "loops.rules"
    path.write_text(LOOPS)
    return load_game(str(path), settings)


@pytest.mark.parametrize("name,settings", SETTINGS, ids=[f"{n}-{s.get('size', '8')}" for n, s in SETTINGS])
def test_the_kernels_children_and_outcomes_are_the_generic_ones(tmp_path, name, settings):
    game = loaded(tmp_path, name, settings)
    assert game.has_fast_playout
    ends = Counter()
    for state in random_positions(game, seed=3, count=60, every=5):
        moves, outcome = game.status(state)
        got, children = kernel_children(game, state)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, mv) for mv in moves), game.format_position(state)
        if outcome is not None:
            ends[outcome.reason] += 1
    assert ends  # the random games reached their ends


@pytest.mark.parametrize("name,settings", [("havannah", {"size": "4"}), ("twixt", {"size": "5"}), ("twixt", {}),
                                           ("loops", {})])
def test_kernel_plies_and_perft_are_the_generic_ones(tmp_path, name, settings):
    kernel_plies_are_reference_moves(loaded(tmp_path, name, settings), games=3, seed=11, cap=200, perft_every=9)


def test_every_end_rule_of_havannah_fires_on_the_kernel():
    """Rings, bridges and forks all end seeded random games of size 5, and the kernel agrees on each."""
    game = load_game("havannah", {"size": "5"})
    seen = set()
    for seed in range(60):
        end = game.playout(game.initial_state(), random.Random(seed))
        assert end.outcome == game.status(end.state)[1]
        seen.add(end.outcome.rule.number)
    assert seen >= {1, 2, 3}


@pytest.mark.parametrize("name,settings", [("havannah", {"size": "5"}), ("havannah", {"size": "8"}), ("loops", {})])
def test_no_end_is_missed_in_a_whole_playout(tmp_path, name, settings):
    """A playout looks for a new corner or edge in the newest piece's group only (after each player's first
    piece): at every ply of seeded whole playouts (the same seed plays the same game whatever the cap), the
    position reached is over exactly when the playout ends there, with the same outcome."""
    game = loaded(tmp_path, name, settings)
    for seed in range(4 if name == "havannah" and settings["size"] == "8" else 12):
        whole = game.playout(game.initial_state(), random.Random(seed))
        for cap in range(whole.plies):
            cut = game.playout(game.initial_state(), random.Random(seed), cap)
            assert cut.plies == cap and game.status(cut.state)[1] is None, (seed, game.format_position(cut.state))
        assert whole.outcome is not None and whole.outcome == game.status(whole.state)[1]


def test_a_bridge_standing_before_the_playout_counts_at_its_first_ply():
    """White's a1 b1 c1 stand when the playout begins with white to move (black made the last move, so nobody
    asked about white's groups): whatever white plays, the bridge is white's at the first ply, by hand (four
    stones make no ring, and touch one edge or two)."""
    game, state = load_position(load_game("havannah", {"size": "3"}), "(o --- ---- ----- ---- ooo)")
    for seed in range(12):
        end = game.playout(state, random.Random(seed))
        assert end.plies == 1 and (end.outcome.winner, end.outcome.rule.number) == (0, 2)


# -- kernel against OpenSpiel -----------------------------------------------------------------------------------
def children_source(game, engine: str):
    """``children(state)`` -> (outcome, children) from the Python kernel or the machine code."""
    if engine == "python":
        return lambda state: kernel_children(game, state)
    native = native_of(game)
    return lambda state: game._compiled.children(state, native)


def move_key(game, parent, child) -> str:
    """The move from ``parent`` to ``child`` as OpenSpiel writes it: the hole that filled, or for a swap the
    hole whose peg left."""
    names = [c.name for c in game.geometry.cells]
    left = [names[i] for i, (a, b) in enumerate(zip(parent.board, child.board)) if a != "-" and a != b]
    filled = [names[i] for i, (a, b) in enumerate(zip(parent.board, child.board)) if a == "-" and b != "-"]
    return (left or filled)[0]


def against_openspiel(name: str, settings: dict, params: dict, engine: str, seeds: range) -> None:
    """Random games of OpenSpiel's game followed with the kernel's children: at every ply the same moves, the
    same board (and links, for twixt at 8 x 8), the same end and winner."""
    pytest.importorskip("pyspiel")
    from openspiel_side_by_side import load, our_board, winner_of

    game, spiel = load_game(name, settings), load(name, params)
    if name == "havannah":
        from test_openspiel_turns import havannah_board as board_of
        links_of_theirs = None
    else:
        from test_twixt_openspiel import our_links, spiel_links, spiel_pegs
        board_of, links_of_theirs = spiel_pegs(params["board_size"]), spiel_links(params["board_size"])
    children_of = children_source(game, engine)
    winners = set()
    for seed in seeds:
        rng = random.Random(seed)
        ours, theirs = game.initial_state(), spiel.new_initial_state()
        while True:
            where = (name, seed, game.format_position(ours), str(theirs))
            assert our_board(game, ours) == board_of(str(theirs)), where
            if links_of_theirs is not None:
                assert our_links(game, ours) == links_of_theirs(theirs), where
            outcome, children = children_of(ours)
            assert (outcome is not None) == theirs.is_terminal(), where
            if outcome is not None:
                assert outcome.winner == winner_of(theirs.returns()), where
                winners.add(outcome.winner)
                break
            assert all(child.turn == theirs.current_player() ^ 1 for child in children), where
            mine = {move_key(game, ours, child): child for child in children}
            actions = {theirs.action_to_string(theirs.current_player(), a).lstrip("xo"): a
                       for a in theirs.legal_actions()}
            assert len(mine) == len(children) and set(mine) == set(actions), where
            key = rng.choice(sorted(actions))
            ours = mine[key]
            theirs.apply_action(actions[key])
    assert len(seeds) < 20 or winners >= {0, 1}  # both sides win some


PAIRS = [("havannah", {"size": "4"}, {"board_size": 4}), ("twixt", {}, {"board_size": 8, "ansi_color_output": False})]


@pytest.mark.parametrize("engine", ["python", "native"])
@pytest.mark.parametrize("name,settings,params", PAIRS, ids=["havannah-4", "twixt-8"])
def test_random_games_on_the_kernel_agree_with_openspiel(name, settings, params, engine):
    against_openspiel(name, settings, params, engine, range(GAMES))


@pytest.mark.deep
@pytest.mark.parametrize("name,settings,params", PAIRS, ids=["havannah-4", "twixt-8"])
def test_a_thousand_random_games_on_the_machine_code_agree_with_openspiel(name, settings, params):
    against_openspiel(name, settings, params, "native", range(1000, 2000))
