"""Machine code for a board over 64 cells with hands, drops, a pawn drop that may not mate and a repetition draw.

tests/rules/drop-skirmish.rules is 9 x 9 (two words a bitboard): its kernel keeps earlier positions' keys
(``repetitions``, several words a key: kernel/native_helpers.py's ``key_lanes``) and calls ``canmove`` (the
other player's moves, for ``forbid dropping pawn giving mate``), which kernel/lanes_helpers.py rewrites as a
helper returning true or false. Figures: perft 1 and 2 from the start by hand (16 moves a side: five pawn
steps, four for each gold, three for the king; the sides too far apart to meet in two plies, so 16 * 16); the
move counts of the drop-mate positions by hand (see each test); everything else is the generic path's in the
same run.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import (
    assert_native_search_is_minimax,
    native_only,
    native_perft,
    native_playouts_are_the_python_kernels,
    random_positions,
    seeded_playouts_are_legal,
)

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import lanes
from rulesdsl.interpreter.kernel.codegen import check_source
from rulesdsl.interpreter.kernel.lanes_helpers import beyond_reach
from rulesdsl.interpreter.kernel.native_helpers import key_lanes

pytest.importorskip("numba")
pytestmark = native_only()
RULES = Path(__file__).resolve().parent / "rules" / "drop-skirmish.rules"
_GAMES: dict[str, object] = {}
# white king 1a walled in by its pawns 2a and 2b; black gold 2c guards 1b; black has a pawn in hand
WALLED = "(b P/- -------pk -------p- -------G- --------- --------- --------- --------- --------- ----K----)"
# the same without the gold: the king may take a pawn dropped on 1b
OPEN = "(b P/- -------pk -------p- --------- --------- --------- --------- --------- --------- ----K----)"


def native_game():
    """The game with its machine code loaded (compiled now, or from the cache)."""
    if "game" not in _GAMES:
        game = load_game(str(RULES))
        native = game._compiled.native(wait=True)
        assert native is not None and native.lanes is not None and native.lanes.lanes == 2
        assert native.history is not None
        _GAMES["game"] = game
    return _GAMES["game"]



def test_the_kernel_is_rewritten_for_lanes_with_its_keys_and_canmove():
    """Without compiling: the lanes source exists, passes the allow-list check, and holds ``canmove``; a key of
    ``hist`` is the bitboards' lanes and the player to move, and splits and joins back (words by hand)."""
    kernel = load_game(str(RULES)).kernel()
    assert kernel.past and max(kernel.layout.bit) >= 64
    assert "def canmove(" in kernel.source
    source = lanes.lanes_source(kernel)
    assert source is not None and "\ndef canmove(" in source and "hcount(hist, " in source
    check_source(source)
    keyed = key_lanes(kernel, lanes.layout_of(kernel))
    assert (keyed.lanes, keyed.boards, keyed.width) == (2, 8, 9)  # eight bitboards and the player to move
    key = (1 << 80 | 5, *range(7), 1)
    words = keyed.split(key)
    assert words[:2] == [5, 1 << 16] and words[-1] == 1 and len(words) == 17
    assert tuple(keyed.join(words)) == key


def test_a_kernel_sure_to_be_too_long_to_compile_is_not_rewritten(monkeypatch):
    """A kernel whose functions but the playout are already longer than a source in pieces may be (the limit
    lowered here to 300,000 characters, under shogi's 600,000 or so of Python) is refused at once, before the
    lanes rewriting, which only lengthens them; with a higher limit set it is rewritten."""
    from rulesdsl.interpreter.kernel import native

    monkeypatch.delenv(native.MAX_ENV, raising=False)
    monkeypatch.setattr(native, "MAX_PIECES", 300_000)
    kernel = load_game("shogi").kernel()
    assert beyond_reach(kernel) and lanes.lanes_source(kernel) is None
    assert not beyond_reach(load_game(str(RULES)).kernel())
    monkeypatch.setenv(native.MAX_ENV, "100000000")
    assert not beyond_reach(kernel)


def test_shogi_is_compiled_by_default(monkeypatch):
    """Without compiling: with no limit set, shogi's native source (written in pieces) passes the allow-list
    check and is one the default compiles (:func:`~.native.compiles_soon`); a move's legality test asks the
    position before the move (``hitafter``) and a child's row is written in one call (``putlanes``)."""
    from rulesdsl.interpreter.kernel import native

    monkeypatch.delenv(native.MAX_ENV, raising=False)
    kernel = load_game("shogi").kernel()
    assert not beyond_reach(kernel)
    source = native.native_source(kernel)
    assert source is not None and native.compiles_soon(source)
    check_source(source)
    assert "\ndef hitafter(" in source and "kids = putlanes(" in source and "\ndef hexpand(" in source


def test_native_perft_from_the_start_is_the_count_by_hand_and_the_generic_paths():
    game = native_game()
    start = game.initial_state()
    assert [native_perft(game, start, d) for d in (1, 2)] == [16, 16 * 16]
    for depth in (3, 4):
        assert native_perft(game, start, depth) == generic_perft(game, start, depth)


def test_a_pawn_drop_that_would_mate_is_not_counted_natively():
    """WALLED: 68 pawn drops (72 cells of rows b to i, less 2b, 2c and 5i, less P@1b, the mate), 6 gold moves
    (2b taking, 2d, 1c, 3c, 3b, 1b) and 5 king moves: 79. OPEN: 70 drops, P@1b among them (the king takes it),
    and 5 king moves: 75."""
    game = native_game()
    walled, open_ = game.parse_position(WALLED), game.parse_position(OPEN)
    moves = {game.format_move(walled, m) for m in game.legal_moves(walled)}
    assert "P@1b" not in moves and "P@1c" in moves
    assert native_perft(game, walled, 1) == len(moves) == 79
    assert "P@1b" in {game.format_move(open_, m) for m in game.legal_moves(open_)}
    assert native_perft(game, open_, 1) == 75
    for state in (walled, open_):
        assert native_perft(game, state, 2) == generic_perft(game, state, 2)


def test_the_third_time_a_position_stands_is_a_draw_natively():
    """The kings step out and back twice: after seven plies white's king stepping back makes the start stand a
    third time, a draw, so that child has no replies (16 otherwise): perft 2 is 16 less than the same position's
    without its past."""
    game = native_game()
    state = game.initial_state()
    for move in ("5i5h", "5a5b", "5h5i", "5b5a", "5i5h", "5a5b", "5h5i"):
        state = game.apply(state, game.parse_move(state, move))
    back = game.apply(state, game.parse_move(state, "5b5a"))
    assert game.status(back)[1] is not None and game.status(back)[1].winner is None
    fresh = game.parse_position(game.format_position(state))  # the same position, no earlier ones
    assert native_perft(game, state, 2) == native_perft(game, fresh, 2) - 16
    assert native_perft(game, state, 2) == generic_perft(game, state, 2)
    assert native_perft(game, state, 3) == generic_perft(game, state, 3)


def test_native_perft_on_random_positions_is_the_generic_paths():
    """Positions of seeded random games (captures, drops from the hands, the positions they passed through):
    depths 1 and 2 on each, 3 on a few."""
    game = native_game()
    states = random_positions(game, seed=5, count=12, every=17, cap=160)
    for i, state in enumerate(states):
        for depth in (1, 2, 3) if i % 4 == 0 else (1, 2):
            assert native_perft(game, state, depth) == generic_perft(game, state, depth), game.format_position(state)


def test_seeded_native_playouts_play_legal_moves_and_the_python_kernels_games():
    game = native_game()
    seeded_playouts_are_legal(game, seeds=2)
    native_playouts_are_the_python_kernels(game, seeds=3)
    whole = game.playout(game.initial_state(), random.Random(11))
    assert whole.outcome is None or whole.outcome == game.status(whole.state)[1]


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_native_alpha_beta_is_minimax_on_the_generic_path(depth):
    game = native_game()
    states = [game.initial_state(), game.parse_position(WALLED),
              *random_positions(game, seed=3, count=3, every=23, cap=120)]
    for state in states:
        if game.status(state)[1] is None:
            assert_native_search_is_minimax(game, state, depth)


def test_on_seven_by_seven_one_word_keeps_canmove_and_the_keys_too():
    """size 7 fits one word a bitboard (kernel/native_helpers.py's rewriting, ``canmove`` returning its word):
    14 moves a side from the start (three pawn steps, four for each gold, three for the king), 14 * 14 in two
    plies; the walled king of WALLED on 7 x 7: 38 pawn drops (42 cells of rows b to g, less 2b, 2c and 4g, less
    P@1b), 6 gold moves and 5 king moves, 49."""
    game = load_game(str(RULES), {"size": "7"})
    native = game._compiled.native(wait=True)
    assert native is not None and native.lanes is None and native.history is not None
    start = game.initial_state()
    assert [native_perft(game, start, d) for d in (1, 2)] == [14, 14 * 14]
    assert native_perft(game, start, 3) == generic_perft(game, start, 3)
    walled = game.parse_position("(b P/- -----pk -----p- -----G- ------- ------- ------- ---K---)")
    assert native_perft(game, walled, 1) == 49
    for state in random_positions(game, seed=4, count=6, every=13, cap=120):
        for depth in (1, 2):
            assert native_perft(game, state, depth) == generic_perft(game, state, depth), game.format_position(state)
    native_playouts_are_the_python_kernels(game, seeds=2)


@pytest.mark.deep
def test_native_shogi_perft_is_the_published_figures():
    """Shogi itself (rules/shogi.rules): a source of about 640,000 characters in pieces, about 6 CPU minutes and
    1.8 GB to compile once. Perft 1 to 4 are the published figures (the rule file's example,
    tests/test_shogi_openspiel.py's); its native search is minimax's on the generic path."""
    game = load_game("shogi")
    native = game._compiled.native(wait=True)
    assert native is not None and native.lanes is not None and native.history is not None
    start = game.initial_state()
    assert [native_perft(game, start, d) for d in (1, 2, 3, 4)] == [30, 900, 25470, 719731]
    for state in random_positions(game, seed=2, count=3, every=29, cap=120):
        assert native_perft(game, state, 2) == generic_perft(game, state, 2), game.format_position(state)
        assert_native_search_is_minimax(game, state, 2)
