"""The solver's batch expansion in machine code gives what the generic path gives.

The solver expands a batch of position keys with one call into the native
kernel (``expandall``), which writes every position's children one after
another into a buffer and stops when the next position's children might not
fit. On positions of seeded random games, each key's outcome code, move count,
children's keys and turn flips (in any order) must equal what the generic path says: the
game's ``status`` and ``apply``, each child encoded again. A buffer of one
position's worth of children makes the batch call stop and resume at every
position.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import positions

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.solver import successors
from rulesdsl.interpreter.solver.encoding import PositionCodec
from rulesdsl.interpreter.solver.successors import DRAW, LOSE, OPEN, WIN, Expander, reference_children

pytestmark = pytest.mark.skipif(not (native_module.enabled() and native_module.numba_available()),
                                reason="numba is not installed or RULESDSL_NATIVE=0")

CASES = [("konane", {"rows": "4", "cols": "5"}), ("konane-misere", {"rows": "4", "cols": "4"}),
         ("abalone", {"rows": "3", "cols": "3", "captures": "1", "misere": "true"}),
         ("abalone", {"rows": "4", "cols": "4"}), ("breakthrough", {"rows": "5", "cols": "4"}),
         ("konane-same-stone", {"rows": "4", "cols": "4"})]


def _expected(game, codec, state) -> tuple[int, list[int], list[bool]]:
    moves, outcome = game.status(state)
    if outcome is not None:
        code = DRAW if outcome.winner is None else WIN if outcome.winner == state.turn else LOSE
        return code, [], []
    children = [game.apply(state, move) for move in moves]
    return OPEN, reference_children(game, codec, state), [child.turn != state.turn for child in children]


@pytest.mark.parametrize("small_buffer", [False, True])
@pytest.mark.parametrize("name,settings", CASES, ids=[f"{n}-{'-'.join(s.values())}" for n, s in CASES])
def test_native_batch_expansion_is_the_generic_path(name, settings, small_buffer, monkeypatch):
    if small_buffer:
        monkeypatch.setattr(successors, "BATCH_ROWS", 1)
    game = load_game(name, settings)
    codec = PositionCodec(game)
    expander = Expander(game, codec)
    assert expander.bitboards is not None and expander.bitboards.native is not None
    states = list(positions(game, 30, seed=7))
    keys = codec.keys([codec.encode(state) for state in states])
    outcome, degree, child, flip = expander.bitboards.expand(keys)
    outcome = np.frombuffer(outcome, dtype=np.uint8)
    degree = np.frombuffer(degree, dtype=np.uint32)
    child = codec.ints(np.frombuffer(child, dtype=codec.key_dtype)).tolist()
    flip = np.frombuffer(flip, dtype=np.uint8).tolist()
    assert len(outcome) == len(states) and set(outcome) & {WIN, LOSE, DRAW} or name == "breakthrough"
    at = 0
    for i, state in enumerate(states):
        code, children, flips = _expected(game, codec, state)
        assert outcome[i] == code, state
        assert degree[i] == len(children), state
        # the kernel lists the moves in its own order: the solver never depends on it
        got = sorted(zip(child[at:at + len(children)], flip[at:at + len(children)]))
        assert got == sorted(zip(children, flips)), state
        at += len(children)
    assert at == len(child)
