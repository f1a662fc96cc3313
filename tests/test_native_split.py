"""A large native kernel written in pieces (:mod:`rulesdsl.interpreter.kernel.native_split`).

The outlining is checked in plain Python first (a hand-written generator and its outlined form give the same
children on random inputs), then on a small game made to split (Breakthrough, whose ``example`` line gives the
perft figures, an independent source), natively: perft, and seeded playouts that play the very game the Python
kernel plays (the children are written in the order the Python playout counts its moves). The chess family's
split kernels are tested in test_native_history.py (published perft figures, playouts against the Python kernel).
"""

from __future__ import annotations

import ast
import itertools
import random
import textwrap

import pytest

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native, native_split
from rulesdsl.interpreter.kernel.codegen import check_source

GENERATOR = textwrap.dedent('''
    def gen(a, b, turn, out):
        kids = 0
        e = ~(a | b) & 255
        if turn == 0:
            m0 = (a << 1) & e
            m1 = (a << 1) & b
            cur = a, b
            while m0:
                t = m0 & -m0
                m0 ^= t
                a ^= (t >> 1) | t
                out.append((a, b))
                kids += 1
                a, b = cur
            while m1:
                t = m1 & -m1
                m1 ^= t
                a ^= (t >> 1) | t
                b ^= t
                out.append((a, b))
                kids += 1
                a, b = cur
            if kids == 0:
                return -2
            return kids
        else:
            m0 = (b >> 1) & e
            cur = a, b
            while m0:
                t = m0 & -m0
                m0 ^= t
                b ^= (t << 1) | t
                out.append((a, b))
                kids += 1
                a, b = cur
            return kids
''')


def _run(functions: list[ast.FunctionDef], a: int, b: int, turn: int) -> tuple[int, list]:
    namespace: dict = {}
    exec(compile(ast.fix_missing_locations(ast.Module(functions, [])), "<test>", "exec"), namespace)  # noqa: S102 - the test's own source
    out: list = []
    return namespace["gen"](a, b, turn, out), out


def test_read_first_names_what_a_block_reads_before_it_assigns_it():
    block = ast.parse("x = y + 1\nwhile m:\n    t = m & -m\n    m ^= t\n    z += t\nout[k, 0] = x").body
    assert native_split.read_first(block) == {"y", "m", "z", "out", "k"}


def test_outlined_generator_writes_the_same_children_as_the_whole_one():
    whole = ast.parse(GENERATOR).body
    pieces = native_split.outline(ast.parse(GENERATOR).body[0], itertools.count(), limit=50)
    names = [f.name for f in pieces]
    assert names[-1] == "gen" and len(names) >= 4  # a function per turn branch and per move loop, at least
    main = ast.unparse(pieces[-1])
    assert "while" not in main  # every loop moved out
    rng = random.Random(5)
    for _ in range(300):
        a, b, turn = rng.randrange(256), rng.randrange(256), rng.randrange(2)
        b &= ~a
        assert _run(pieces, a, b, turn) == _run(whole, a, b, turn)


def test_names_a_loop_leaves_changed_flow_out_of_its_piece():
    source = textwrap.dedent('''
        def gen(a, b, turn, out):
            kids = 0
            cur = a, b
            while a:
                a &= a - 1
                out.append((a, b))
                kids += 1
            return kids + a + b
    ''')
    pieces = native_split.outline(ast.parse(source).body[0], itertools.count(), limit=1)
    assert len(pieces) >= 2 and "while" not in ast.unparse(pieces[-1])
    for a, b in [(0, 0), (5, 3), (255, 1), (96, 7)]:
        assert _run(pieces, a, b, 0) == _run(ast.parse(source).body, a, b, 0)


def test_a_name_two_tests_of_the_same_flag_share_is_no_argument_of_the_piece():
    source = textwrap.dedent('''
        def gen(a, b, turn, out):
            kids = 0
            g = a > 3
            m = 0
            if g:
                w = b | 1
            if g:
                m = w & a
            cur = a, b
            while m:
                m &= m - 1
                out.append((m, b))
                kids += 1
            return kids
    ''')
    pieces = native_split.outline(ast.parse(source).body[0], itertools.count(), limit=200)  # one chunk
    assert any("w = b | 1" in ast.unparse(f) for f in pieces[:-1])  # the flag's two tests moved out together
    assert all("w" not in [a.arg for a in f.args.args] for f in pieces)  # unassigned where it would be passed
    for a, b in [(0, 0), (5, 3), (255, 1), (96, 7), (2, 9)]:
        assert _run(pieces, a, b, 0) == _run(ast.parse(source).body, a, b, 0)


def test_a_name_two_tests_of_a_flag_share_is_no_argument_of_a_turn_branch():
    """A function without move loops (as ``mobility``) cut per branch of ``if turn == ...``: a name assigned and
    read only under the same flag's two tests is no argument of the branch's piece (the caller has no value for
    it: in plain Python passing it raises NameError, and numba refuses to compile the caller)."""
    source = textwrap.dedent('''
        def gen(a, b, turn, out):
            e = a | b
            if turn == 0:
                g = a > 3
                m = e
                if g:
                    w = b | 1
                    w ^= a
                if g:
                    m = w & a
                return m + 1
            else:
                return e - 1
    ''')
    pieces = native_split.outline_straight(ast.parse(source).body[0], itertools.count(), limit=10)
    assert len(pieces) >= 3, "cut per branch"
    assert all("w" not in [a.arg for a in f.args.args] for f in pieces)
    for a, b in [(0, 0), (5, 3), (255, 1), (96, 7), (2, 9)]:
        for turn in (0, 1):
            assert _run(pieces, a, b, turn) == _run(ast.parse(source).body, a, b, turn)


@pytest.fixture
def split_everything(monkeypatch, tmp_path):
    """Every kernel written in pieces of a few hundred characters, compiled into a cache folder of its own."""
    monkeypatch.setattr(native_split, "SPLIT_SOURCE", 0)
    monkeypatch.setattr(native_split, "WHOLE_SOURCE", 0)
    monkeypatch.setattr(native_split, "CHUNK", 400)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("RULESDSL_NATIVE_MAX", "100000000")


def test_a_split_source_passes_the_allow_list_and_plays_over_expand(split_everything):
    source = native.native_source(load_game("breakthrough").kernel())
    tree = check_source(source)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert sum(name.startswith("part") for name in functions) >= 4
    calls = {node.func.id for node in ast.walk(functions["playout"]) if isinstance(node, ast.Call)}
    assert "expand" in calls and len(ast.unparse(functions["playout"])) < 1000


def test_a_split_native_kernel_counts_and_plays_as_the_python_kernel(split_everything):
    pytest.importorskip("numba")
    if not native.enabled():
        pytest.skip("RULESDSL_NATIVE=0")
    from helpers import python_kernel

    game = load_game("breakthrough")
    assert game.native_kernel(wait=True) is not None and game.kernel_engine() == "native"
    assert [game.perft(game.initial_state(), d) for d in (1, 2, 3)] == [22, 484, 11132]  # its ``example`` line
    for seed in range(20):
        ours = game.playout(game.initial_state(), random.Random(seed))
        with python_kernel(game):
            theirs = game.playout(game.initial_state(), random.Random(seed))
        assert ours == theirs and ours.outcome is not None


CHILDREN = textwrap.dedent('''
    def children(a, b, turn, last, hist, depth, out, rs, pick):
        kids = 0
        m0 = a & ~b & 255
        m1 = b & 255
        total = bin(m0).count("1") + bin(m1).count("1")
        if not total:
            return -2
        if depth == 1:
            return total
        if total > 2048:
            return -1
        cur = a, b
        while m0:
            t = m0 & -m0
            m0 ^= t
            a ^= t
            kids = putrow(out, kids, (a, b, 1, 0))
            a, b = cur
        while m1:
            t = m1 & -m1
            m1 ^= t
            b ^= t
            a |= t
            kids = putrow(out, kids, (a, b, 1, 0))
            a, b = cur
        return kids
''')


def _children(function: ast.FunctionDef, a: int, b: int, pick: int, state: int) -> tuple[int, dict, int]:
    namespace: dict = {}

    def putrow(out, k, row):
        out[k] = row
        return k + 1

    def draw(rs, n):  # the native runtime's xorshift64 draw, in Python
        rs[0] = _step(rs[0])
        return rs[0] % n

    namespace.update(putrow=putrow, draw=draw)
    exec(compile(ast.fix_missing_locations(ast.Module([function], [])), "<test>", "exec"), namespace)  # noqa: S102
    out: dict = {}
    rs = [state]
    return namespace["children"](a, b, 0, 0, None, 2, out, rs, pick), out, rs[0]


def _step(s: int) -> int:
    mask = (1 << 64) - 1
    s ^= (s << 13) & mask
    s ^= s >> 7
    return s ^ ((s << 17) & mask)


def test_a_children_function_that_picks_makes_only_the_drawn_child():
    picking = ast.parse(CHILDREN).body[0]
    assert native_split.pick_one(picking)
    rng = random.Random(3)
    for _ in range(200):
        a, b, state = rng.randrange(256), rng.randrange(256), rng.randrange(1, 1 << 64)
        count, every, _ = _children(ast.parse(CHILDREN).body[0], a, b, -1, state)
        picked, one, after = _children(picking, a, b, -2, state)
        assert picked == count  # every move counted
        if count > 0:
            assert len(one) == 1 and one == {after % count: every[after % count]}  # the drawn one, at its row
        assert _children(picking, a, b, -1, state)[:2] == (count, every)  # pick -1: every child, as before


def test_children_with_a_row_outside_a_move_loop_are_left_as_they_are():
    row = "    kids = putrow(out, kids, (a, b, 1, 0))\n"  # a row written after the loops
    source = CHILDREN.replace("    return kids\n", row + "    return kids\n")
    assert source != CHILDREN
    function = ast.parse(source).body[0]
    assert not native_split.pick_one(function)
    assert ast.unparse(function) == ast.unparse(ast.parse(source).body[0])
