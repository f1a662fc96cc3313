"""Perft on the Python kernel through its table of positions already counted (interpreter/kernel/perft_table.py).

The counts are the published ones (tests/test_abalone.py, GAMES.md §2); what the table holds is held to the
number of different positions the generic path reaches at each ply, counted here move by move.
"""

from __future__ import annotations

import pytest

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel.perft_table import with_table


def distinct_by_ply(game, plies: int) -> list[int]:
    """How many different positions the generic path reaches after 0 .. ``plies`` - 1 plies."""
    layer, found = [game.initial_state()], []
    for _ in range(plies):
        found.append(len({game.format_position(s) for s in layer}))
        layer = [game.apply(s, m) for s in layer for m in game.legal_moves(s)]
    return found


def python_perft(game, depth: int) -> int:
    state = game.initial_state()
    kernel, bits, last, history = game._compiled._encode(state)
    return kernel.perft(*bits, state.turn, last, history, depth)


def test_each_position_is_counted_once_and_the_counts_are_the_published_ones():
    game = load_game("abalone")
    table = game._compiled.kernel().perft.table
    table.clear()  # (the kernel may be shared with earlier tests of this process)
    assert [python_perft(game, d) for d in (1, 2, 3, 4)] == [15, 211, 2971, 37082]
    # perft 1..4 enters every position with one ply or more left: plies 0..3, each position once a depth
    # left (the start with 1, 2, 3 and 4 left; its children with 1, 2 and 3; ...)
    distinct = distinct_by_ply(game, 4)  # [1, 15, 211, 1561]: 2,971 positions three plies deep, 1,561 different
    assert distinct[3] < 2971
    assert len(table) == sum(count * (4 - ply) for ply, count in enumerate(distinct))


def test_a_game_that_keeps_earlier_positions_is_counted_without_the_table():
    game = load_game("capture-the-flag")
    kernel = game._compiled.kernel()
    if not kernel.repetition:
        pytest.skip("capture-the-flag no longer forbids repetition")
    assert [python_perft(game, d) for d in (1, 2, 3)] == [7, 49, 450]
    assert kernel.perft.table == {}


def test_the_recursion_goes_through_the_table():
    calls = []
    namespace: dict = {}

    def perft(a, turn, last, hist, depth):  # a stand-in kernel: two moves a position, both to the same one
        calls.append((a, depth))
        return 1 if depth == 1 else 2 * namespace["perft"](a + 1, turn, last, hist, depth - 1)

    namespace["perft"] = perft
    counted = with_table(namespace)
    assert counted(0, 0, 0, None, 5) == 16
    assert counted(0, 0, 0, None, 5) == 16
    assert calls == [(0, 5), (1, 4), (2, 3), (3, 2), (4, 1)]  # each (position, depth) once, even asked again
