"""The history of a game that forbids repetition: a set of boards that grows in O(1) per ply.

Issue 8, item 7: the history was a frozenset copied at every ply, so a
playout cost time quadratic in its length. Here growing it by one board
never copies the set (asserted on the set object itself, not with a clock),
and every older history still answers as the set it was.
"""

from __future__ import annotations

import random

import pytest

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.reference.history import History, as_history


def underlying(history: History) -> set[str]:
    return history._boards()


def test_a_history_is_a_set_of_boards():
    h = History(["a", "b", "a"])
    assert len(h) == 2 and "a" in h and "c" not in h
    assert h == frozenset({"a", "b"}) and frozenset({"a", "b"}) == h
    assert h == History(["b", "a"]) and hash(h) == hash(History(["b", "a"]))
    assert h != History(["a"]) and h != frozenset({"a", "c"})
    assert sorted(h) == ["a", "b"]
    assert h | {"c"} == {"a", "b", "c"} and len(h) == 2


def test_growing_by_one_board_never_copies_the_set():
    root = History(["start"])
    boards = underlying(root)
    h = root
    for number in range(10_000):
        h = h.with_board(f"board {number}")
        assert underlying(h) is boards
    assert len(h) == 10_001 and h.with_board("board 7") is h


def test_an_older_history_still_answers_as_it_was():
    root = History(["s"])
    first = root.with_board("x")
    deeper = first.with_board("y").with_board("z")
    # Asked again after its set went on to a larger history: rebuilt, and right.
    assert "y" not in first and "x" in first and len(first) == 2 and first == {"s", "x"}
    assert deeper == {"s", "x", "y", "z"} and root == {"s"}
    # Two branches from one history do not see each other's boards.
    left, right = first.with_board("L"), first.with_board("R")
    assert left == {"s", "x", "L"} and right == {"s", "x", "R"}
    assert "R" not in left and "L" not in right and deeper == {"s", "x", "y", "z"}


def test_equal_histories_hash_equal_whatever_order_they_grew_in():
    one = History().with_board("a").with_board("b")
    two = History().with_board("b").with_board("a")
    assert one == two and hash(one) == hash(two)


def test_a_long_chain_is_freed_without_recursion():
    h = root = History()
    for number in range(200_000):
        h = h.with_board(str(number))
    del h
    assert len(root) == 0
    del root  # would overflow the C stack if the chain were freed recursively


def test_a_frozenset_is_taken_as_a_history():
    assert isinstance(as_history(frozenset({"a"})), History) and as_history(None) == frozenset()


@pytest.fixture(scope="module")
def ctf():
    return load_game("capture-the-flag", {"size": "8"})


def test_a_random_game_keeps_one_set_and_the_right_boards(ctf):
    rng = random.Random(8)
    state = ctf.initial_state()
    earlier: list[str] = []
    sets = set()
    for _ in range(400):
        moves, outcome = ctf.status(state)
        if outcome is not None:
            break
        earlier.append(state.board)
        state = ctf.apply(state, rng.choice(moves))
        sets.add(id(underlying(state.history)))
        # Computed independently: every board the game has been on before this one.
        assert state.history == set(earlier)
        assert state.board not in earlier
    assert len(earlier) > 30
    assert len(sets) == 1  # one set carried from ply to ply, never a copy


def test_a_search_still_sees_each_line_apart(ctf):
    # Two moves from the start, then the positions they lead to compared with
    # the histories recomputed by hand: branching shares nothing it should not.
    start = ctf.initial_state()
    for first in ctf.legal_moves(start):
        after = ctf.apply(start, first)
        for second in ctf.legal_moves(after):
            leaf = ctf.apply(after, second)
            assert leaf.history == {start.board, after.board}
        assert after.history == {start.board}
