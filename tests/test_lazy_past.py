"""A kernel playout's earlier positions are decoded only when read (interpreter/kernel/lazy_past.py), and then
are exactly the generic path's.

The reference is the generic path's ``apply``: a seeded playout cut at ``k`` plies plays the first ``k`` plies of
the same playout cut later (one draw a ply from the same generator), so each cut's final state, earlier positions
included, must be the generic path's child of the previous cut's by one of its legal moves; the first cut's parent
is the start. Go 5 x 5, capture-the-flag and chess run in machine code where numba imports (else on the Python
kernel, which takes the same lazy path); go 9 x 9 on the Python kernel.
"""

from __future__ import annotations

import pickle
import random

import pytest
from helpers import python_kernel

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel.lazy_past import LazyHistory, LazyPast

GAMES = [("go", {"size": "5"}, 80, True), ("capture-the-flag", None, 80, True), ("chess", None, 60, True),
         ("go", {"size": "9"}, 30, False)]
_LOADED: dict[str, object] = {}


def loaded(name: str, settings, native: bool = True):
    """The game, its machine code made (or loaded) when numba imports and ``native``."""
    key = f"{name} {settings}"
    if key not in _LOADED:
        game = load_game(name, settings)
        if native:
            game._compiled.native(wait=True)
        _LOADED[key] = game
    return _LOADED[key]


def earlier(state):
    """The state's earlier positions: its history or its chain of them (whichever the game keeps)."""
    return state.history if state.history is not None else state.marks.past


def cuts_follow_the_generic_path(game, seed: int, most: int) -> int:
    """Check each cut of a seeded playout against the generic path's children of the cut before; the cuts made."""
    before = game.initial_state()
    whole = game.playout(before, random.Random(seed))
    for cap in range(1, min(whole.plies, most) + 1):
        cut = game.playout(game.initial_state(), random.Random(seed), cap)
        assert cut.plies == cap
        moves, outcome = game.status(before)
        assert outcome is None
        assert cut.state in [game.apply(before, move) for move in moves], (cap, game.format_position(before))
        before = cut.state
    if whole.plies <= most:
        assert whole.state == before and earlier(whole.state) == earlier(before)
    return min(whole.plies, most)


@pytest.mark.parametrize("name, settings, most, native", GAMES)
def test_every_cut_of_a_seeded_playout_is_the_generic_paths_state_earlier_positions_included(name, settings, most,
                                                                                          native):
    game = loaded(name, settings, native)
    if native:
        cuts = sum(cuts_follow_the_generic_path(game, seed, most) for seed in range(2))
    else:
        with python_kernel(game):
            cuts = cuts_follow_the_generic_path(game, 0, most)
    assert cuts >= min(most, 10)


@pytest.mark.parametrize("name, settings, most, native", GAMES[:3])
def test_a_playouts_earlier_positions_wait_unread_and_read_the_same_as_the_python_kernels(name, settings, most,
                                                                                          native):
    game = loaded(name, settings)
    for seed in range(3):
        played = game.playout(game.initial_state(), random.Random(seed))
        lazy = earlier(played.state)
        assert isinstance(lazy, (LazyHistory, LazyPast)) and lazy._make is not None  # nothing decoded yet
        with python_kernel(game):
            python = game.playout(game.initial_state(), random.Random(seed))
        assert played == python and hash(played.state) == hash(python.state)
        assert lazy._make is None  # decoded by the comparison
        cut = game.playout(game.initial_state(), random.Random(seed), 40).state  # pickled unread
        with python_kernel(game):
            assert pickle.loads(pickle.dumps(cut)) == game.playout(game.initial_state(), random.Random(seed), 40).state


def test_a_lazy_history_and_chain_read_as_the_eager_ones():
    from rulesdsl.interpreter.reference.history import History
    from rulesdsl.interpreter.reference.marks import Past

    boards = ["x..", ".x.", "..x"]
    lazy = LazyHistory(lambda: iter(boards))
    assert len(lazy) == 3 and "x.." in lazy and lazy == History(boards) and hash(lazy) == hash(History(boards))
    grown = LazyHistory(lambda: boards).with_board("xx.")
    assert grown == History([*boards, "xx."]) and "xx." not in History(boards)
    chain = Past(("a", 0, 0, ()), None)
    newer = LazyPast(lambda: Past(("b", 1, 0, ()), chain))
    assert newer.depth == 2 and newer.parent is chain and newer.count(("b", 1, 0, ())) == 1
    assert newer == Past(("b", 1, 0, ()), Past(("a", 0, 0, ()), None))
    with pytest.raises(AttributeError):
        newer.nothing  # noqa: B018 - a field neither class has is still missing


def test_an_mcts_from_a_position_with_earlier_boards_encodes_them_as_the_first_time():
    """The earlier boards' bitboards are remembered between calls: the second playout's start is encoded the same."""
    game = loaded("go", {"size": "5"})
    state = game.playout(game.initial_state(), random.Random(5), 12).state
    compiled = game._compiled
    first = compiled._encode(state)
    assert len(compiled._board_keys) >= len(state.history)
    again = compiled._encode(state)
    layout, symbols = first[0].layout, first[0].symbols
    assert first[3] == again[3] == {tuple(layout.encode(b, s) for s in symbols) for b in state.history}
    assert len(first[3]) == len(state.history) >= 8  # passes repeat a board


def test_a_chain_longer_than_the_recursion_limit_pickles_and_reads_back_equal():
    """A chain of earlier positions is pickled as its keys and rebuilt in a loop (each node inside its child's
    pickle would hit Python's recursion limit, about 1,000 frames; a long game's chain is deeper)."""
    import sys

    from rulesdsl.interpreter.reference.marks import Past, past_of

    keys = [(f"board {i}", i % 2, 0, ()) for i in range(sys.getrecursionlimit() * 3)]
    chain = past_of(keys)
    back = pickle.loads(pickle.dumps(chain))
    assert back == chain and back.depth == len(keys) and back.key == keys[-1] and back.count(keys[0]) == 1
    assert isinstance(back, Past) and past_of([]) is None
    lazy = LazyPast(lambda: chain)
    assert pickle.loads(pickle.dumps(lazy)) == chain and type(pickle.loads(pickle.dumps(lazy))) is Past
