"""Boards of points and lines, hands, ``then after N in a row`` and ``fly`` on the kernel play what the generic
path plays.

Nine men's morris compiles to the kernel: its points sit on a masked 7 x 7
grid, a step goes to the next point of a line (one, two or three cells of the
grid away), the men come from a hand, a mill gives a second part (a removal
that spares men in mills), a player left with three men flies, and the game
is drawn after 200 turns. On positions of random games played to the end
(the placing, moving and flying phases), the kernel's children are the
generic path's (as many times each), one ply of a seeded playout is a legal
move at every ply, outcomes agree, and perft to depth 3 counts what the
generic path counts. A variant with diagonal lines, twelve men and removals
that spare nobody checks the same on another board, and a small placement
game the same for ``when`` and ``turns played`` without a hand. The perft counts of the
rule file's examples come from OpenSpiel; the random games against
OpenSpiel's nine_mens_morris (200 by default, ``RULESDSL_OPENSPIEL_GAMES``)
compare the kernel's children (the Python kernel's, and the machine code's
where numba imports) with OpenSpiel's at every ply; ``-m deep`` plays 1,000
on the machine code.
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter

import pytest
from helpers import kernel_children, random_positions, seeded_playouts_are_legal

from rulesdsl.interpreter.compile.game import NO_CELL, generic_perft
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.loader import bundled_dir

# Nine men's morris with diagonal lines through the corners, twelve men a side, a removal that may take any
# man, and men that step along every line (the steps are one or two cells of the grid long diagonally too).
TWELVE = (bundled_dir() / "nine-mens-morris.rules").read_text()
TWELVE = re.sub(r"^example .*$", "", TWELVE, flags=re.M)
TWELVE = TWELVE.replace("    a1 a4 a7,", "    a1 b2 c3, g1 f2 e3, a7 b6 c5, g7 f6 e5, a1 a4 a7,")
TWELVE = TWELVE.replace("hand man 9", "hand man 12").replace("remove man except 3 in a row", "remove man")
TWELVE = TWELVE.replace("man step orthogonal", "man step all")


# Without a hand or a second part: a rule that holds from three stones on, and a draw after nine turns.
TURNS = """game "Turns"
players white "w", black "b"
board grid 4 x 4
position (turn rows) top first
piece stone white "W", black "B"
start {}
moves {
  place stone
  stone step orthogonal when count(mover) >= 3
}
end {
  draw if turns played >= 9
  white wins if white has 3 in a row
  black wins if black has 3 in a row
}
"""
TEXTS = {"twelve": TWELVE, "turns": TURNS}
NAMES = ["nine-mens-morris", "twelve", "turns"]


def games(tmp_path, name: str):
    if name not in TEXTS:
        return load_game(name)
    path = tmp_path / f"{name}.rules"
    path.write_text(TEXTS[name])
    return load_game(str(path))


@pytest.mark.parametrize("name", NAMES)
def test_the_kernels_children_and_outcomes_are_the_generic_ones(tmp_path, name):
    game = games(tmp_path, name)
    assert game.has_fast_playout
    phases = Counter()
    for state in random_positions(game, seed=3, count=120):
        moves, outcome = game.status(state)
        got, children = kernel_children(game, state)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, mv) for mv in moves), game.format_position(state)
        if state.hand is not None:
            board_men = [sum(state.board.count(s) for s in game._compiled.tables.symbols_of(p)) for p in (0, 1)]
            phases["placing" if state.hand[state.turn] else "removing" if state.last != NO_CELL
                   else "flying" if board_men[state.turn] <= 3 else "moving"] += 1
    if name != "turns":
        assert min(phases[p] for p in ("placing", "removing", "moving", "flying")) > 0, phases


@pytest.mark.parametrize("name", NAMES)
def test_every_ply_of_a_seeded_playout_is_a_legal_move(tmp_path, name):
    game = games(tmp_path, name)
    seeded_playouts_are_legal(game, 6)


@pytest.mark.parametrize("name", NAMES)
def test_perft_to_depth_3_counts_what_the_generic_path_counts(tmp_path, name):
    game = games(tmp_path, name)
    for state in random_positions(game, seed=5, count=40, every=23):
        for depth in (1, 2, 3):
            assert game.perft(state, depth) == generic_perft(game, state, depth), game.format_position(state)


@pytest.mark.parametrize("position,counts", [
    (None, (24, 552, 12144)),  # OpenSpiel's counts (the rule file's example)
    ('(W "" 0/0 --- BBB --- --W--- -W- --- WW-)', (9,)),  # by hand: c4 3, d3 3, a1 1, d1 2 along the lines
    ('(W "" 0/0 W-- BBB --- ------ --- --- W-W)', (54,)),  # by hand: 3 men fly, each to 18 empty points
])
def test_published_and_hand_counts_come_from_the_kernel(position, counts):
    game = load_game("nine-mens-morris")
    state = game.initial_state() if position is None else load_position(game, position)[1]
    assert game._compiled.available()
    for depth, count in enumerate(counts, 1):
        assert game._compiled.perft(state, depth) == count


# -- against OpenSpiel, with the kernel playing ---------------------------------------------------------------
OPENSPIEL_GAMES = int(os.environ.get("RULESDSL_OPENSPIEL_GAMES", "200"))


def openspiel_key(state) -> tuple[str, int, tuple[int, int]]:
    """OpenSpiel's position as (points in our cell order, player to move, men to deploy)."""
    text = str(state)
    rows = text.split("\n")[:13]
    board = "".join(ch for row in rows for ch in row if ch in "WB.").replace(".", "-")
    player = 0 if "Current player: W" in text else 1
    hands = tuple(int(n) for n in re.search(r"Men to deploy: (\d+) (\d+)", text).groups())
    return board, player, hands


def ours_key(state) -> tuple[str, int, tuple[int, int]]:
    return state.board, state.turn, tuple(state.hand)


def against_openspiel(engine: str, seeds: range) -> None:
    """Random games of OpenSpiel's nine_mens_morris with the kernel's children (``python`` or ``native``) beside
    OpenSpiel's at every ply: the same positions as many times each, the same end and winner."""
    pyspiel = pytest.importorskip("pyspiel")
    game, spiel = load_game("nine-mens-morris"), pyspiel.load_game("nine_mens_morris")
    children_of = kernel_children
    if engine == "native":
        if not (native_module.enabled() and native_module.numba_available()):
            pytest.skip("numba is not installed or RULESDSL_NATIVE=0")
        native = game._compiled.native(wait=True)
        assert native is not None

        def children_of(game, state):  # the machine code's children in place of the Python kernel's
            return game._compiled.children(state, native)
    for seed in seeds:
        rng = random.Random(seed)
        ours, theirs = game.initial_state(), spiel.new_initial_state()
        while True:
            assert ours_key(ours) == openspiel_key(theirs), (seed, str(theirs))
            outcome, children = children_of(game, ours)
            assert (outcome is not None) == theirs.is_terminal(), (seed, str(theirs))
            if outcome is not None:
                returns = theirs.returns()
                assert outcome.winner == (None if returns[0] == returns[1] else 0 if returns[0] > returns[1] else 1)
                break
            actions = theirs.legal_actions()
            assert Counter(map(ours_key, children)) == Counter(openspiel_key(theirs.child(a)) for a in actions)
            theirs.apply_action(rng.choice(actions))
            ours = next(child for child in children if ours_key(child) == openspiel_key(theirs))


@pytest.mark.parametrize("engine", ["python", "native"])
def test_random_games_on_the_kernel_agree_with_openspiel(engine):
    against_openspiel(engine, range(OPENSPIEL_GAMES))


@pytest.mark.deep
def test_a_thousand_random_games_on_the_native_kernel_agree_with_openspiel():
    against_openspiel("native", range(1000))
