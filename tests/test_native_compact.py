"""The shorter native source (interpreter/kernel/native_compact.py): put-backs and rows word by word, recurring runs
outlined once, equal tables aliased.

Each rewrite is run in Python beside the function it came from, on seeded inputs: both must return the same and
write the same rows (the functions below are small generators of the generated kernel's shape, so their results
are worked out by running the unchanged function, not this module). The crazyhouse source's size is held to the
limit compiled by default; its machine code's perft is checked against the published figures in
tests/test_native_history.py (``-m deep``: the first compile takes minutes).
"""

from __future__ import annotations

import ast
import copy
import random
import textwrap

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import native
from rulesdsl.interpreter.kernel.native_compact import compact, outline_same, restore_changed

MOVES = textwrap.dedent('''
    def children(a, b, c, d, turn, out):
        kids = 0
        m0 = a & ~b & 255
        m1 = b & 255
        cur = (u64(a), u64(b), u64(c), u64(d))
        while m0:
            t = m0 & -m0
            m0 ^= t
            if c & t:
                d += 1
            elif b & t:
                d += 2
            c &= ~t
            b &= ~t
            a ^= t
            kids = putrow(out, kids, (u64(a), u64(b), u64(c), u64(d), u64(1), u64(0)))
            a, b, c, d = cur
        sv = (a, b, c, d)
        while m1:
            t = m1 & -m1
            m1 ^= t
            if c & t:
                d += 1
            elif b & t:
                d += 2
            c &= ~t
            b &= ~t
            b ^= t
            chk = (a | b) & 7
            a, b, c, d = sv
            if chk:
                continue
            kids = putrow(out, kids, (u64(a), u64(b), u64(c), u64(d), u64(1), u64(0)))
            a, b, c, d = cur
        kids = putrow(out, kids, (u64(a), u64(b), u64(c), u64(d), u64(0), u64(0)))
        return kids
''')


def _run(functions: list[ast.FunctionDef], args: tuple[int, ...]) -> tuple[int, dict]:
    """Call ``children`` of ``functions`` in Python: its count and the rows it wrote."""
    def putrow(out, k, row):
        out[k] = tuple(row)
        return k + 1

    def putdiff(out, k, base, at, values, rest):
        row = list(base)
        for i, v in zip(at, values):
            row[i] = v
        out[k] = (*row, *rest)
        return k + 1

    namespace: dict = {"u64": lambda x: x, "putrow": putrow, "putdiff": putdiff}
    module = ast.fix_missing_locations(ast.Module(copy.deepcopy(functions), []))
    exec(compile(module, "<test>", "exec"), namespace)  # noqa: S102 - the test's own source
    out: dict = {}
    return namespace["children"](*args, 0, out), out


def _seeded(count: int = 300):
    rng = random.Random(7)
    return [tuple(rng.randrange(256) for _ in range(4)) for _ in range(count)]


def test_put_backs_and_rows_name_only_the_words_that_changed():
    function = ast.parse(MOVES).body[0]
    restore_changed(function)
    text = ast.unparse(function)
    assert "a, b, c, d = cur" not in text and "a, b, c, d = sv" not in text
    assert "(b, c, d) = (sv[1], sv[2], sv[3])" in text or "b, c, d = (sv[1], sv[2], sv[3])" in text  # a untouched
    assert text.count("putdiff(out, kids, cur, (0, 1, 2, 3)") == 1  # the first loop changes every word
    # the second loop and after it: a never changes, b, c, d may differ (put back from sv where a test failed)
    assert text.count("putdiff(out, kids, cur, (1, 2, 3)") == 2
    for args in _seeded():
        assert _run([function], args) == _run(ast.parse(MOVES).body, args)


def test_a_run_that_recurs_is_one_function_called_where_it_stood():
    function = ast.parse(MOVES).body[0]
    made = outline_same(function, least=10)
    assert made and all(f.name.startswith("childsame") for f in made)
    calls = [n for n in ast.walk(function) if isinstance(n, ast.Call) and n.func.id == made[0].name]
    assert len(calls) == 2  # the capture test and the clearing, once per loop
    for args in _seeded():
        assert _run([*made, function], args) == _run(ast.parse(MOVES).body, args)


def test_both_rewrites_together_keep_every_row():
    function = ast.parse(MOVES).body[0]
    made = compact(function)
    for args in _seeded():
        assert _run([*made, function], args) == _run(ast.parse(MOVES).body, args)


def test_a_name_read_after_only_one_place_still_flows_out_of_every_call():
    source = textwrap.dedent('''
        def children(a, b, c, d, turn, out):
            x = a
            y = b
            x = x * 3 + b * 7 + (x >> 2) + (b << 3) + (x & b)
            y = (y ^ x) + (y & 15) * 5 + (y | x) * 3
            z = y + 1 + (y >> 1) + (y << 2)
            a = a + d
            x = a
            y = c
            x = x * 3 + b * 7 + (x >> 2) + (b << 3) + (x & b)
            y = (y ^ x) + (y & 15) * 5 + (y | x) * 3
            z = y + 1 + (y >> 1) + (y << 2)
            return x + y + z + c
    ''')
    function = ast.parse(source).body[0]
    made = outline_same(function, least=1)
    assert [a.arg for a in made[0].args.args] == ["b", "x", "y"]
    assert ast.unparse(made[0].body[-1]) == "return (x, y, z)"  # z is read after the second place only
    for args in _seeded(50):
        assert _run([*made, function], args)[0] == _run(ast.parse(source).body, args)[0]


def test_equal_tables_are_written_once():
    body = native.constant_tables({"ray1": (1, 2), "ray0": (3, 4), "ray2": (1, 2)})
    text = ast.unparse(ast.Module(body, []))
    assert text == "ray0 = (u64(3), u64(4))\nray1 = (u64(1), u64(2))\nray2 = ray1"


def _defined_once(source: str) -> None:
    """Every function of a native source is defined once (a second ``def`` would silently replace the first)."""
    names = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)]
    assert len(names) == len(set(names))


def test_crazyhouse_native_source_compiles_by_default(monkeypatch):
    monkeypatch.delenv(native.MAX_ENV, raising=False)
    source = native.native_source(load_game("crazyhouse").kernel())
    assert source is not None and "\ndef part0(" in source and "\ndef hexpand(" in source  # with the search helpers
    assert len(source) <= native.MAX_PIECES
    assert native.compiles_soon(source)
    assert "\ndef childsame0(" in source
    _defined_once(source)


def test_a_lanes_source_outlining_several_functions_names_each_run_once():
    source = native.native_source(load_game("xiangqi").kernel())  # expand, mobility and outcome compacted
    assert all(f"\ndef {f}same0(" in source for f in ("expan", "mobil", "outco"))
    _defined_once(source)
