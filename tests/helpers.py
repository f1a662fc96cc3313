"""Small helpers shared by the game tests."""

from __future__ import annotations

import os
import random
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from rulesdsl.interpreter.compile.load import load_position

REQUIRE_SYSTEM_TOOLS = "RULESDSL_REQUIRE_SYSTEM_TOOLS"  # set to 1 by .ci/run after it installs the packages


def param(*values, id: str, deep: bool = False):  # noqa: A002 - pytest.param's own name for it
    """One test parameter named ``id``; ``deep``: only under ``-m deep`` (a first compile the default run skips)."""
    return pytest.param(*values, id=id, marks=[pytest.mark.deep] if deep else [])


def system_program(name: str, package: str) -> str:
    """The path of the system program ``name`` that a test drives.

    Where it is missing the test is skipped, naming the program and the Debian
    package that installs it; with ``RULESDSL_REQUIRE_SYSTEM_TOOLS=1`` (as
    ``.ci/run`` sets after installing them) the test fails instead, so CI
    never skips silently.
    """
    found = shutil.which(name)
    if found:
        return found
    message = f"{name} is not installed: apt-get install {package}"
    if os.environ.get(REQUIRE_SYSTEM_TOOLS) == "1":
        pytest.fail(f"{message} ({REQUIRE_SYSTEM_TOOLS}=1 requires every system program)", pytrace=False)
    pytest.skip(message)


def positions(game, games: int, seed: int, cap: int = 80) -> Iterator:
    """The positions of a few seeded random games played through status and apply (each game's end included,
    at most ``cap`` positions a game)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.initial_state()
        for _ in range(cap):
            yield state
            moves, outcome = game.status(state)
            if outcome is not None:
                break
            state = game.apply(state, rng.choice(moves))


def spaced_positions(game, seed: int, plies: int = 40, every: int = 4) -> Iterator:
    """The start and every ``every``-th position of one seeded random game of at most ``plies`` plies (until it
    ends)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for ply in range(plies):
        moves, outcome = game.status(state)
        if outcome is not None:
            return
        if ply % every == 0:
            yield state
        state = game.apply(state, rng.choice(moves))


def moves_of(game, position: str) -> set[str]:
    """The notations of the legal moves in a position string (the game resizes if needed)."""
    game, state = load_position(game, position)
    return {game.format_move(state, mv) for mv in game.legal_moves(state)}


def after(game, position: str, move: str):
    """``(game, state)`` after playing ``move`` from a position string."""
    game, state = load_position(game, position)
    return game, game.apply(state, game.parse_move(state, move))


@contextmanager
def web_server(*args, **kwargs) -> Iterator[str]:
    """The web board's server (``make_server``'s arguments) on a free port of 127.0.0.1, serving in a
    thread; yields its base URL, without a trailing slash."""
    from rulesdsl.cli.serve import make_server

    srv = make_server(*args, port=0, **kwargs)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


class Chosen:
    """A random source that always answers ``index``."""

    def __init__(self, index: int):
        self.index = index

    def randrange(self, stop: int) -> int:
        return self.index


def kernel_plies_are_reference_moves(game, games: int, seed: int, cap: int, perft_every: int) -> int:
    """On positions of seeded random games: one kernel ply per legal move reaches what the moves reach, a finished
    position's playout is its outcome, and every ``perft_every``-th position's perft to depth 3 is the generic one.
    Returns how many unfinished positions were compared."""
    from collections import Counter

    from rulesdsl.interpreter.compile.game import generic_perft

    seen = 0
    for number, state in enumerate(positions(game, games=games, seed=seed, cap=cap)):
        moves, outcome = game.status(state)
        if outcome is not None:
            assert game.playout(state, Chosen(0), 1) == (state, outcome, 0), game.format_position(state)
            continue
        seen += 1
        reached = Counter(game.playout(state, Chosen(i), 1).state for i in range(len(moves)))
        assert reached == Counter(game.apply(state, move) for move in moves), game.format_position(state)
        if number % perft_every == 0:
            for depth in (1, 2, 3):
                assert game.perft(state, depth) == generic_perft(game, state, depth), game.format_position(state)
    return seen


def seeded_playouts_are_legal(game, seeds: int) -> None:
    """Every ply of a seeded random playout, one ply at a time, is one of the generic path's legal moves, it stops
    exactly where the game is over with the same outcome, and a whole playout ends in the outcome of its last
    position."""
    for seed in range(seeds):
        rng, state = random.Random(seed), game.initial_state()
        while True:
            moves, outcome = game.status(state)
            step = game.playout(state, rng, 1)
            if outcome is not None:
                assert step.outcome == outcome and step.plies == 0
                break
            assert step.outcome is None and step.plies == 1
            assert step.state in {game.apply(state, mv) for mv in moves}, game.format_position(state)
            state = step.state
        whole = game.playout(game.initial_state(), random.Random(seed))
        assert whole.outcome == game.status(whole.state)[1]


def native_playouts_are_the_python_kernels(game, seeds: int = 3) -> None:
    """Seeded whole playouts (in machine code where the game has it loaded) end where the Python kernel's do,
    each after at least one ply and with an outcome or at the cap."""
    for seed in range(seeds):
        whole = game.playout(game.initial_state(), random.Random(seed))
        assert whole.plies > 0
        with python_kernel(game):
            assert game.playout(game.initial_state(), random.Random(seed)) == whole


def kernel_children(game, state):
    """The outcome and the children of ``state`` from the Python kernel's ``expand``."""
    from rulesdsl.interpreter.compile.game import NO_CELL

    compiled = game._compiled
    kernel, bits, last, _ = compiled._encode(state)
    rows = []
    result = kernel.expand(*bits, state.turn, last, rows.append)
    if result is not None:
        return compiled._playout(state, result, 0).outcome, []
    children = []
    for *words, turn, cell in rows:
        where = kernel.layout.cell_of(cell) if cell else NO_CELL
        children.append(compiled._state(kernel, words, compiled._board(kernel, words), turn, where))
    return None, children


def random_positions(game, seed: int, count: int, every: int = 7, cap: int | None = None):
    """Every ``every``-th position of seeded random games played to the end (or ``cap`` plies) through the
    generic path, and each game's last position."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state, ply = game.initial_state(), 0
        while cap is None or ply < cap:
            if ply % every == 0:
                found.append(state)
            moves, outcome = game.status(state)
            if outcome is not None:
                if ply % every:
                    found.append(state)
                break
            state = game.apply(state, rng.choice(moves))
            ply += 1
    return found


def kernel_side_by_side(game, theirs, seed: int, ours, spiel_key, seat=lambda player: player) -> int:
    """One seeded random game played by the kernel (each child from a one-ply playout) and by OpenSpiel (``theirs``,
    its start state): at every ply the same position (``ours(state)`` and ``spiel_key(str(spiel_state))``), the
    same children, the same end and winner (``seat``: our player of OpenSpiel's). Returns the game's length."""
    mine = game.initial_state()
    rng = random.Random(seed)
    plies = 0
    while True:
        assert ours(mine) == spiel_key(str(theirs)), (seed, plies)
        first = game.playout(mine, Chosen(0), 1)
        assert (first.plies == 0) == theirs.is_terminal(), (seed, plies, first.outcome)
        if first.plies == 0:
            returns = theirs.returns()
            winner = None if returns[0] == returns[1] else seat(0 if returns[0] > returns[1] else 1)
            assert first.outcome.winner == winner, (seed, plies)
            return plies
        count = game.perft(mine, 1)
        kids = {ours(kid): kid for kid in (game.playout(mine, Chosen(i), 1).state for i in range(count))}
        actions = {spiel_key(str(theirs.child(a))): a for a in theirs.legal_actions()}
        assert len(kids) == count and set(kids) == set(actions), (seed, plies, set(kids) ^ set(actions))
        key = rng.choice(sorted(actions))
        mine = kids[key]
        theirs.apply_action(actions[key])
        plies += 1


class python_kernel:  # noqa: N801 - used as a context: ``with python_kernel(game):``
    """A context where the game's machine code is not used (the Python kernel answers)."""

    def __init__(self, game):
        self.compiled = game._compiled

    def __enter__(self):
        self.compiled.use_native = False

    def __exit__(self, *exc):
        self.compiled.use_native = True


NO_SOURCE_LIMIT = pytest.mark.usefixtures("no_source_limit")  # the fixture is tests/conftest.py's


def native_only() -> list:
    """A module's ``pytestmark`` for tests of machine code: skipped under ``RULESDSL_NATIVE=0``, with no limit
    on the native source's length (:func:`no_source_limit`)."""
    from rulesdsl.interpreter.kernel import native

    return [pytest.mark.skipif(not native.enabled(), reason="RULESDSL_NATIVE=0"),
            NO_SOURCE_LIMIT]



def assert_native_search_is_minimax(game, state, depth: int) -> None:
    """``think`` on the native kernel at a fixed ``depth`` gives plain minimax's value (alpha-beta's from depth 3,
    the same value, sooner) on the generic path, and the move it returns is worth that value."""
    from rulesdsl.interpreter.search.engine import think
    from rulesdsl.interpreter.search.minimax import alphabeta, minimax

    result = think(game, state, depth=depth, kernel=True)
    assert result.kernel == "native"
    reference = minimax(game, state, depth) if depth < 3 else alphabeta(game, state, depth)
    assert result.score == pytest.approx(reference, abs=1e-9), (depth, game.format_position(state))
    child = game.apply(state, result.move)
    value = alphabeta(game, child, depth - 1, ply=1)
    if game.to_move(child) != game.to_move(state):
        value = -value
    assert value == pytest.approx(result.score, abs=1e-9), (depth, game.format_position(state))


def native_perft(game, state, depth: int) -> int:
    """Perft of ``state`` in the game's machine code (waited for), whatever depth (the game's own ``perft`` takes
    the machine code only from some depth on)."""
    compiled = game._compiled
    _, bits, last, history = compiled._encode(state)
    native = compiled.native(wait=True)
    return int(native.perft(*native.words(bits), state.turn, native.last_word(last), history, depth))
