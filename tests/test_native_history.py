"""Machine code for the chess family and for games that forbid repetition (:mod:`~.kernel.native_helpers`).

The chess family's kernels call ``attacked``/``pinlines`` and keep the earlier positions (``repetitions``);
capture-the-flag keeps its earlier boards (``forbid repetition``). Natively those are one fixed-size array of
words. Perft figures are the published ones (the chess programming wiki; antichess from the variant's
published table); everything else is compared with the Python kernel and the generic path in the same run.
Where numba cannot be imported, or ``RULESDSL_NATIVE=0``, the tests are skipped (test_kernel_chess_blocks.py
and the game tests cover the Python kernel). The chess family's machine code takes minutes to compile (each
kernel is thousands of lines, cut in pieces by native_split.py: chess about 2 minutes of CPU, antichess 1), so
crazyhouse's tests (about twice chess's source) and antichess's run with ``-m deep``; chess's and
capture-the-flag's run by default.
"""

from __future__ import annotations

import ast
import random

import pytest
from helpers import native_only, positions, python_kernel, seeded_playouts_are_legal

from rulesdsl.interpreter.compile.game import generic_perft
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.kernel.codegen import check_source
from rulesdsl.interpreter.reference.history import History

pytest.importorskip("numba")
pytestmark = native_only()

KIWIPETE = "(w a1,e1,h1,a8,e8,h8 - 0 r---k--r p-ppqpb- bn--pnp- ---PN--- -p--P--- --N--Q-p PPPBBPPP R---K--R)"
_GAMES: dict[str, object] = {}
deep = pytest.mark.deep
FAMILY = ["chess", pytest.param("antichess", marks=deep), pytest.param("crazyhouse", marks=deep), "capture-the-flag"]


def native_game(name: str):
    """The game with its machine code loaded (compiled now, or from the cache)."""
    if name not in _GAMES:
        game = load_game(name)
        native = game.native_kernel(wait=True)
        assert native is not None and native.history is not None, "numba imports: the kernel gets machine code"
        _GAMES[name] = game
    return _GAMES[name]



@pytest.mark.parametrize("name, counts", [("chess", (20, 400, 8902, 197281)),
                                          pytest.param("antichess", (20, 400, 8067), marks=deep),
                                          pytest.param("crazyhouse", (20, 400, 8902, 197281), marks=deep)])
def test_native_perft_from_the_start_is_the_published_figure(name, counts):
    game = native_game(name)
    assert game.kernel_engine() == "native"
    assert [game.perft(game.initial_state(), d) for d in range(1, len(counts) + 1)] == list(counts)


def test_native_perft_of_capture_the_flag_is_the_rule_files_example():
    game = native_game("capture-the-flag")
    assert game.kernel_engine() == "native"
    assert [game.perft(game.initial_state(), d) for d in (1, 2, 3)] == [7, 49, 450]  # its ``example`` line


def test_native_perft_of_kiwipete_is_the_published_figure():
    chess = native_game("chess")
    state = chess.parse_position(KIWIPETE)
    assert [chess.perft(state, d) for d in (1, 2, 3)] == [48, 2039, 97862]


@pytest.mark.parametrize("name", FAMILY)
def test_native_perft_on_random_positions_is_the_python_kernels_and_the_generic_paths(name):
    game = native_game(name)
    compared = 0
    for number, state in enumerate(positions(game, games=2, seed=11, cap=120)):
        if number % 10 == 0:
            for depth in (1, 2):
                native = game.perft(state, depth)
                with python_kernel(game):
                    python = game.perft(state, depth)
                assert native == python == generic_perft(game, state, depth), game.format_position(state)
            compared += 1
    assert compared >= 4


@pytest.mark.parametrize("name", FAMILY)
def test_every_ply_of_a_seeded_native_playout_is_a_legal_reference_move(name):
    game = native_game(name)
    seeded_playouts_are_legal(game, 2)


@pytest.mark.parametrize("name", FAMILY)
def test_a_seeded_playout_ends_the_same_in_both_kernels_with_the_same_earlier_positions(name):
    game = native_game(name)
    for seed in range(4):
        native = game.playout(game.initial_state(), random.Random(seed))
        with python_kernel(game):
            python = game.playout(game.initial_state(), random.Random(seed))
        assert native == python
        assert native.state.history == python.state.history and native.state.marks == python.state.marks


def test_the_third_repetition_is_a_draw_natively():
    chess = native_game("chess")  # the kings step back and forth; neither rook gives check
    state = chess.parse_position("(w - - 0 -------k -------- -------- ----r--- ---R---- -------- -------- K-------)")
    shuffle = ("a1b1", "h8g8", "b1a1", "g8h8")
    for number in range(8):
        assert chess.playout(state, random.Random(number), 0).outcome is None
        if number == 7:  # one ply before the third time: the children of this position are draws
            assert chess.perft(state, 2) == generic_perft(chess, state, 2)
        state = chess.apply(state, chess.parse_move(state, shuffle[number % 4]))
    end = chess.playout(state, random.Random(0), 5)
    assert end.plies == 0 and end.outcome is not None and end.outcome.winner is None
    assert end.outcome == chess.status(state)[1]


def _forbidding_all_but_one(game):
    """A position of a seeded game with at least two legal moves and a history holding the boards every move but
    the last one leads to: the last move is then the only legal one."""
    for state in positions(game, games=4, seed=3, cap=40):
        moves, outcome = game.status(state)
        if outcome is None and len(moves) >= 2:
            after = [game.apply(state, move) for move in moves]
            repeated = History([*state.history, *(child.board for child in after[:-1])])
            if after[-1].board not in repeated:
                return state._replace(history=repeated), after[-1]
    raise AssertionError("no position with two moves")


def test_a_move_that_repeats_an_earlier_board_is_not_legal_natively():
    game = native_game("capture-the-flag")
    state, only = _forbidding_all_but_one(game)
    assert [game.apply(state, move).board for move in game.status(state)[0]] == [only.board]
    assert game.perft(state, 1) == 1 and game.perft(state, 2) == generic_perft(game, state, 2)
    for seed in range(5):
        step = game.playout(state, random.Random(seed), 1)
        assert step.plies == 1 and step.state.board == only.board
        assert step.state.history == History([*state.history, state.board])


def test_a_player_whose_every_move_repeats_has_no_move_natively():
    game = native_game("capture-the-flag")
    state, only = _forbidding_all_but_one(game)
    state = state._replace(history=History([*state.history, only.board]))
    outcome = game.status(state)[1]
    assert outcome is not None and game.perft(state, 1) == 0
    assert game.playout(state, random.Random(1), 10) == (state, outcome, 0)


@pytest.mark.parametrize("name", ["chess", "capture-the-flag"])
def test_the_native_source_passes_the_allow_list_and_calls_no_method(name):
    source = native_module.native_source(load_game(name).kernel())
    tree = check_source(source)
    methods = {ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert methods <= {"found.append"}  # hist's methods, bit_length and bit_count are calls of functions
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert {"playout", "playouts", "perft", "children", "hhas"} <= functions
    assert ("attacked" in functions) == (name == "chess")
