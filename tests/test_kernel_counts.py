"""The kernel's counting and scoring blocks: enclosing placements, scores, and (sowing) counts.

Held to independent numbers and to the reference (generic) path:

- perft from the rule files' ``example`` lines and OpenSpiel's published
  counts, on the Python kernel and in machine code where numba imports;
- positions chosen by hand: a line closing two boxes at once (both taken, the
  same player moves again), the last box of a board (best score wins), a
  drawn board;
- kernel against reference on random positions of other sizes (every child of
  ``expand``, every ply of a playout, the outcome);
- kernel against OpenSpiel in the same run: seeded random games where, at every
  ply, the kernel's children (boards and the player to move) are OpenSpiel's
  children, and the kernel's outcome is OpenSpiel's.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import positions

from rulesdsl.interpreter.compile.game import NO_CELL, generic_perft
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.loader import bundled_dir

NATIVE = native_module.enabled() and native_module.numba_available()
OPENSPIEL_GAMES = 100  # seeded random games compared with OpenSpiel per pairing (``-m deep``: 1,000)


class Chosen:
    """A random source that always answers ``index``."""

    def __init__(self, index: int):
        self.index = index

    def randrange(self, stop: int) -> int:
        return self.index


def python_children(game, state):
    """The Python kernel's ``expand`` of a state: ``(outcome, children)`` as :meth:`CompiledPlay.children`."""
    compiled = game._compiled
    kernel, bits, last, _ = compiled._encode(state)
    rows: list[tuple] = []
    result = kernel.expand(*bits, state.turn, last, rows.append)
    if result is not None:
        return compiled._playout(state, result, 0).outcome, []
    width = len(bits)
    return None, [compiled._state(kernel, row[:width], compiled._board(kernel, row[:width]), row[width],
                                  kernel.layout.cell_of(row[width + 1]) if row[width + 1] else NO_CELL)
                  for row in rows]


def kernel_children(game, state):
    """``(outcome, children)`` of the Python kernel, checked equal to the machine code's where numba imports."""
    found = python_children(game, state)
    if NATIVE:
        native = game._compiled.native(wait=True)
        assert native is not None
        outcome, children = game._compiled.children(state, native)
        assert outcome == found[0] and Counter(children) == Counter(found[1]), game.format_position(state)
    return found


def kernel_game(name: str, options: dict | None = None):
    game = load_game(name, options or {})
    assert game.has_fast_playout, f"{name} has a kernel"
    return game


# -- dots and boxes: place ... in REGION enclosing KIND in REGION again, best score wins ----------------------------
@pytest.mark.parametrize(("options", "published"), [
    ({}, [12, 132, 1320]),  # rules/dots-and-boxes.rules' example, and OpenSpiel's 2x2
    ({"rows": "1", "cols": "1"}, [4, 12, 24, 24]),  # the rule file's example
    ({"rows": "3", "cols": "3"}, [24, 552, 12144]),  # OpenSpiel's dots_and_boxes(num_rows=3,num_cols=3)
])
def test_boxes_perft_from_the_start_is_the_published_count(options, published):
    game = kernel_game("dots-and-boxes", options)
    assert [game.perft(game.initial_state(), d) for d in range(1, len(published) + 1)] == published


@pytest.mark.skipif(not NATIVE, reason="numba is not installed or RULESDSL_NATIVE=0")
def test_boxes_native_perft_4_is_openspiels():
    game = kernel_game("dots-and-boxes")
    assert game._compiled.native(wait=True) is not None, "25 cells: one word a symbol"
    assert game.perft(game.initial_state(), 4) == 11880  # OpenSpiel's dots_and_boxes 2x2, depth 4


# b4's sides are b5 a4 c4 b3, d4's are d5 c4 e4 d3: every one drawn but c4, which closes both.
TWO_BOXES = "(1 || |---| || ----- --)"


def test_one_line_closing_two_boxes_takes_both_and_the_mover_goes_on():
    game, state = load_position(kernel_game("dots-and-boxes"), TWO_BOXES)
    reached = [game.playout(state, Chosen(i), 1).state for i in range(6)]  # c4 a2 c2 e2 b1 d1: six lines
    _, closed = load_position(game, "(1 || |A|A| || ----- --)")
    assert closed in reached  # both boxes first's, first to move again
    others = [s for s in reached if s != closed]
    assert len(others) == 5 and all(s.turn == 1 and "A" not in s.board and "B" not in s.board for s in others)
    assert game.perft(state, 1) == 6
    assert game.perft(state, 2) == 5 + 5 * 5  # after c4 first draws one of five; after another, second does
    assert game.perft(state, 3) == 5 * 4 + 5 * 5 * 4  # the bottom boxes need two more lines each: none closes


def test_the_last_box_ends_the_game_for_the_best_score():
    game, state = load_position(kernel_game("dots-and-boxes", {"rows": "1", "cols": "1"}), "(2 | |-| -)")
    end = game.playout(state, random.Random(0))
    assert end.plies == 1 and end.state.board.count("B") == 1 and end.state.turn == 1  # second took it, moves on
    assert end.outcome.winner == 1 and end.outcome == game.status(end.state)[1]
    assert game.perft(state, 1) == 1 and game.perft(state, 2) == 0


def test_a_board_of_equal_scores_is_a_draw_and_one_more_box_wins():
    game = kernel_game("dots-and-boxes")
    _, drawn = load_position(game, "(1 || |A|B| || |A|B| ||)")
    _, won = load_position(game, "(1 || |A|B| || |A|A| ||)")
    assert game.playout(drawn, random.Random(0)).outcome.winner is None
    assert game.playout(won, random.Random(0)).outcome.winner == 0
    assert kernel_children(game, drawn) == (game.status(drawn)[1], [])
    assert kernel_children(game, won)[0].winner == 0


@pytest.mark.parametrize("options", [{"rows": "1", "cols": "1"}, {"rows": "2", "cols": "3"},
                                     {"rows": "3", "cols": "3"}])
def test_boxes_kernel_is_the_reference_on_random_positions(options):
    game = kernel_game("dots-and-boxes", options)
    for number, state in enumerate(positions(game, games=4, seed=7)):
        moves, outcome = game.status(state)
        got, children = kernel_children(game, state)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, mv) for mv in moves), game.format_position(state)
        assert Counter(game.playout(state, Chosen(i), 1).state for i in range(len(moves))) == \
            Counter(game.apply(state, mv) for mv in moves)
        if number % 5 == 0:
            assert game.perft(state, 3) == generic_perft(game, state, 3), game.format_position(state)


def test_score_in_an_end_rule_on_the_kernel_is_the_reference(tmp_path):
    """``first wins if score(first) >= 1``: the first box decides (tests/test_counting.py's race to points)."""
    text = (bundled_dir() / "dots-and-boxes.rules").read_text()
    text = text.replace("  best score wins if no moves", "  first wins if score(first) >= 1\n"
                        "  second wins if score(second) >= 1")
    (tmp_path / "race.rules").write_text(text)
    game = kernel_game(str(tmp_path / "race.rules"), {"rows": "2", "cols": "3"})
    _, state = load_position(game, "(1 |-- |------ |-- ------- ---)")  # b5 a4 b3 drawn: c4 closes b4
    boxed = [child for child in reached(game, state) if "A" in child.board]
    assert len(boxed) == 1 and game.playout(boxed[0], random.Random(0)).outcome.winner == 0
    for state in positions(game, games=6, seed=5):
        moves, outcome = game.status(state)
        got, children = kernel_children(game, state)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, mv) for mv in moves), game.format_position(state)


def test_a_score_of_piece_counts_or_totals_is_a_weight_per_symbol_and_cell(tmp_path):
    from rulesdsl.interpreter.search.score_terms import score_terms

    text = (bundled_dir() / "dots-and-boxes.rules").read_text().replace(
        "score first count(first box), second count(second box)",
        "score first 2 * count(first box) - count(second) + 3, second -count(second box) * 4")
    (tmp_path / "scored.rules").write_text(text)
    game = kernel_game(str(tmp_path / "scored.rules"))
    compiled = game._compiled
    # count(second) is every piece of second's: its box B (the lines belong to nobody)
    cells = len(game.geometry.cells)
    assert score_terms(compiled.active, compiled.tables) == [({"A": [2.0] * cells, "B": [-1.0] * cells}, 3.0),
                                                             ({"B": [-4.0] * cells}, 0.0)]
    sowing = load_game("mancala")  # total(PLAYER REGION): one a cell of the region, times its count
    south = [1.0 if sowing.geometry.cells[c].name[1] == "1" else 0.0 for c in range(len(sowing.geometry.cells))]
    north = [1.0 - w for w in south]
    assert score_terms(sowing._compiled.active, sowing._compiled.tables) == [({"o": south}, 0.0), ({"o": north}, 0.0)]


# -- mancala: counts, sow ... along TRACK skipping ... again in ... capture ... into ..., total(), best score --------
def test_sowing_perft_from_the_start_is_the_published_count():
    game = kernel_game("mancala")
    assert [game.perft(game.initial_state(), d) for d in range(1, 5)] == [6, 35, 185, 942]  # the rule file, OpenSpiel


def test_sowing_native_perft_6_is_openspiels():
    pyspiel = pytest.importorskip("pyspiel")
    from openspiel_side_by_side import spiel_perft

    game = kernel_game("mancala")
    if NATIVE:
        assert game._compiled.native(wait=True) is not None, "14 cells: one word each"
    assert game.perft(game.initial_state(), 6) == spiel_perft(pyspiel.load_game("mancala").new_initial_state(), 6)


def reached(game, state) -> list:
    """The positions one ply of a kernel playout reaches, one per legal move."""
    return [game.playout(state, Chosen(i), 1).state for i in range(game.perft(state, 1))]


def test_the_last_seed_in_the_store_and_the_mover_sows_again():
    game = kernel_game("mancala")
    start = game.initial_state()
    _, again = load_position(game, "(S -,4,4,4,4,4,4 4,4,-,5,5,5,1)")  # d1's four seeds: e1 f1 g1 and the store
    assert again in reached(game, start) and again.turn == 0
    assert game.perft(again, 1) == 5  # the rule file's example: b1 c1 e1 f1 g1


def test_a_seed_alone_in_an_empty_pit_takes_the_pit_across_and_ends_the_game():
    game, state = load_position(kernel_game("mancala"), "(S -,-,5,-,-,-,- 1,-,-,-,-,-,-)")
    _, taken = load_position(game, "(N -,-,-,-,-,-,- -,-,-,-,-,-,6)")
    end = game.playout(state, random.Random(0))
    assert (end.state, end.plies, end.outcome.winner) == (taken, 1, 0)  # south 6, north 0
    assert [game.perft(state, d) for d in (1, 2)] == [1, 0]  # the rule file's example


def test_a_lap_passes_the_other_store_and_ends_on_the_emptied_pit():
    # b1's 13 seeds: one in each of the 12 cells after it (a2, north's store, passed over) and the last in b1,
    # alone there with b2's 2 + 1 across: 1 + 3 go to h1.
    game, state = load_position(kernel_game("mancala"), "(S -,2,-,-,-,-,- 13,-,-,-,-,-,-)")
    _, after = load_position(game, "(N -,-,1,1,1,1,1 -,1,1,1,1,1,5)")
    assert reached(game, state) == [after]
    # g1's 14 seeds: a lap ends on g1, the 14th lands in the store: south sows again.
    game, state = load_position(game, "(S -,1,-,-,-,-,- -,-,-,-,-,14,-)")
    _, after = load_position(game, "(S -,2,1,1,1,1,1 1,1,1,1,1,1,2)")
    assert reached(game, state) == [after]


@pytest.mark.parametrize(("position", "winner"), [("(N -,-,-,-,-,-,- -,-,-,-,-,-,6)", 0),
                                                  ("(N 3,-,-,-,-,-,- -,-,-,-,-,-,3)", None),
                                                  ("(S 7,-,-,-,-,-,1 -,-,-,-,-,-,6)", 1)])
def test_the_best_score_decides_when_a_side_is_empty(position, winner):
    game, state = load_position(kernel_game("mancala"), position)
    end = game.playout(state, random.Random(0))
    assert end.plies == 0 and end.outcome.winner == winner and end.outcome == game.status(state)[1]
    assert kernel_children(game, state) == (end.outcome, [])


@pytest.mark.parametrize("seeds", ["1", "3", "12"])
def test_sowing_kernel_is_the_reference_on_random_positions(seeds):
    game = kernel_game("mancala", {"seeds": seeds})
    for number, state in enumerate(positions(game, games=4, seed=int(seeds))):
        moves, outcome = game.status(state)
        got, children = python_children(game, state)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, mv) for mv in moves), game.format_position(state)
        assert Counter(reached(game, state)) == Counter(game.apply(state, mv) for mv in moves)
        if number % 5 == 0:
            assert game.perft(state, 3) == generic_perft(game, state, 3), game.format_position(state)


@pytest.mark.parametrize("variant", ["little kalah", "plain sowing, best score loses"])
def test_other_sowing_rules_on_the_kernel_are_the_reference(tmp_path, variant):
    from test_counting import KALAH

    text = KALAH
    if variant != "little kalah":  # every cell on the track sown into, no effect of the last seed; misere of scores
        text = text.replace("along round skipping store again in store capture forward into store", "along round")
        text = text.replace("best score wins", "best score loses")
    path = tmp_path / "sowing.rules"
    path.write_text(text)
    game = kernel_game(str(path), {})
    for number, state in enumerate(positions(game, games=6, seed=3)):
        moves, outcome = game.status(state)
        got, children = python_children(game, state)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, mv) for mv in moves), game.format_position(state)
        if number % 3 == 0:
            assert game.perft(state, 4) == generic_perft(game, state, 4), game.format_position(state)


THREE_SEATS = """
game "Three-seat sowing"
option seeds = 3 in 1..9 "seeds in each pit"
players a "A", b "B", c "C"
board grid 4 x 3 where not (row == 2 and (col == 2 or col == 3))
piece seed "o"
counts seed
region pit a a1 b1, b d1 d2, c c3 b3 a3
region store a c1, b d3, c a2
track round a1 b1 c1 d1 d2 d3 c3 b3 a3 a2
start {
  put seeds seed in pit
}
notation from
moves {
  sow seed from pit along round skipping store again in store
}
score a total(a pit) + total(a store), b total(b pit) + total(b store), c total(c pit) + total(c store)
end {
  best score wins if total(a pit) == 0 or total(b pit) == 0 or total(c pit) == 0
}
"""


@pytest.mark.parametrize("seeds", ["1", "3", "9"])
def test_three_seats_sowing_on_the_kernel_is_the_reference(tmp_path, seeds):
    """Three players round a ring of ten cells: the turn goes round the seats, each passes the others' stores."""
    (tmp_path / "three.rules").write_text(THREE_SEATS)
    game = kernel_game(str(tmp_path / "three.rules"), {"seeds": seeds})
    for number, state in enumerate(positions(game, games=6, seed=1)):
        moves, outcome = game.status(state)
        got, children = python_children(game, state)
        assert got == outcome, game.format_position(state)
        assert Counter(children) == Counter(game.apply(state, mv) for mv in moves), game.format_position(state)
        if number % 4 == 0:
            assert game.perft(state, 4) == generic_perft(game, state, 4), game.format_position(state)


# -- kernel against OpenSpiel ---------------------------------------------------------------------------------------
def play_kernel_against_openspiel(game, pair, seed: int) -> int:
    """One seeded random game of ``game`` (``pair.ours``), the kernel's children against OpenSpiel's at every ply;
    returns its length."""
    import pyspiel
    from test_openspiel_counting import our_board

    theirs = pyspiel.load_game(pair.theirs).new_initial_state()
    ours = game.initial_state()
    rng = random.Random(seed)
    plies = 0

    def key(board: dict[str, str]) -> tuple:
        return tuple(sorted(board.items()))

    while True:
        where = f"{pair.theirs}, seed {seed}, ply {plies}: {game.format_position(ours)}"
        outcome, children = kernel_children(game, ours)
        assert (outcome is not None) == theirs.is_terminal(), where
        if outcome is not None:
            returns = theirs.returns()
            assert outcome.winner == (None if returns[0] == returns[1] else 0 if returns[0] > returns[1] else 1), where
            return plies
        assert game.to_move(ours) == theirs.current_player(), where
        spiel = {}  # each child's board -> the action and the player to move there (None: the game is over)
        for action in theirs.legal_actions():
            child = theirs.child(action)
            spiel[key(pair.board(child, game))] = action, None if child.is_terminal() else child.current_player()
        mine = {key(our_board(game, child)): child for child in children}
        assert len(spiel) == len(theirs.legal_actions()) and len(mine) == len(children), where  # boards tell apart
        assert set(mine) == set(spiel), where
        assert all(game.to_move(mine[board]) == turn for board, (_, turn) in spiel.items() if turn is not None), where
        board = rng.choice(sorted(spiel))
        action = spiel[board][0]
        ours = mine[board]
        theirs.apply_action(action)
        plies += 1


def openspiel_pairs():
    pyspiel = pytest.importorskip("pyspiel")
    from test_openspiel_counting import MANCALA, dots_pairing

    assert {"dots_and_boxes", "mancala"} <= set(pyspiel.registered_names())
    return {"dots-2x2": dots_pairing(2, 2), "dots-2x3": dots_pairing(2, 3), "mancala": MANCALA}


@pytest.mark.parametrize("name", ["dots-2x2", "dots-2x3", "mancala"])
def test_kernel_against_openspiel(name):
    pair = openspiel_pairs()[name]
    game = kernel_game(pair.ours, pair.options)
    lengths = [play_kernel_against_openspiel(game, pair, seed) for seed in range(OPENSPIEL_GAMES)]
    assert min(lengths) > 0


@pytest.mark.deep
@pytest.mark.parametrize("name", ["dots-2x2", "dots-2x3", "mancala"])
def test_kernel_against_openspiel_a_thousand_games(name):
    pair = openspiel_pairs()[name]
    game = kernel_game(pair.ours, pair.options)
    assert min(play_kernel_against_openspiel(game, pair, seed) for seed in range(1000)) > 0
