"""A large native kernel in pieces numba compiles quickly: the playout over the children, the move loops outlined.

numba's compile time and memory grow faster than a function's size. The generated kernel repeats the whole move
generation in its ``playout`` (which counts the moves and plays the ``r``-th) beside ``expand`` (or, for a kernel
with earlier positions, ``children``: :mod:`~.native_helpers`), and writes each function as one body. This module
rewrites the native source of :mod:`~.native` so that

- the playout is a loop over the children function (:func:`playout_over_expand`, :func:`playout_over_children`):
  the children of the position written to a buffer allocated once a playout, one drawn with the same inline
  generator (``draw(rs, k)``) and copied. The children are written in the order the Python playout counts its
  moves (move group by move group, each group's cells from the lowest), so a seeded playout plays the same game;
- ``children`` returns where a game ends which end check ended it, as ``-2 - i`` (``i`` the end check's place in
  the source), so the playout reads the result from a table (:func:`encode_outcomes`) instead of a second copy
  of the end checks; and, asked to (``pick == -2``), it draws the move itself once it has counted the moves and
  makes only that child (:func:`pick_one`), so a playout ply makes one move, as the generated playout does;
- a function that branches on the player to move first is cut in one function per branch; the loops that write
  the children (after ``cur = ...``) are outlined into functions of about :data:`CHUNK` characters, each taking
  what it reads and returning the new row count ``kids``, and so are the statements before the end checks (the
  move masks and counts), each returning the names read after it (:func:`outline`); a function without move
  loops (a large lanes kernel's ``mobility`` and ``outcome``) the same way (:func:`outline_straight`). A name a
  piece assigns may flow out of it only where the syntax tree shows it: returned, or put back from a saved
  position (``cur``, ``sv``) by the loop that changed it; otherwise the statements stay inline;
- before it is cut, the function is made shorter (:func:`~.native_compact.compact`): a saved position is put back,
  and a child's row written, only in the words that may have changed, and runs of statements that recur word for
  word (a capture's removal from every enemy bitboard, a castling right's update) are one function each.

A kernel is written so only when its whole native source is over :data:`WHOLE_SOURCE` characters:
numba's compile time grows faster than a function's length (a bundled kernel of 620,000 characters took
25 minutes and 10 GB whole, 141 CPU seconds and 660 MB in pieces), while a playout over ``expand`` makes
every child of each position and ran 3-4x slower than the whole playout on the kernels measured (README,
"Speed").

Everything here works on syntax trees already typed for words (or on source text written in that form), before
:func:`~.codegen.check_source` passes the whole.
"""

from __future__ import annotations

import ast
import itertools
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from rulesdsl.interpreter.kernel.codegen import Kernel
from rulesdsl.interpreter.kernel.native_compact import compact

SPLIT_SOURCE = 60_000  # characters of generated Python source above which a kernel may be rewritten in pieces
# ... and it is, when its whole native source is over this many characters: the whole playout draws a move
# without making every child, so that it ran 3-4x faster than the one over expand (four bundled kernels side by
# side), and numba compiles such a source whole in well under a minute
WHOLE_SOURCE = 150_000
_WRITTEN_WHOLE: set[str] = set()  # the generated sources being written whole now (:func:`whole`)
CHUNK = 12_000  # characters of rewritten source one outlined piece of move loops holds at most (about)
NOT_OVER = -2  # as native.NOT_OVER (not imported: native imports this module)


def large(kernel: Kernel) -> bool:
    """Whether the kernel's native source is written in pieces: its generated source is over
    :data:`SPLIT_SOURCE` characters, and it is not being written whole (:func:`whole`)."""
    return len(kernel.source) > SPLIT_SOURCE and kernel.source not in _WRITTEN_WHOLE


def over_whole(kernel: Kernel) -> bool:
    """Whether the kernel's native source written whole is sure to be over :data:`WHOLE_SOURCE` characters: its
    playout alone is, before the rewriting lengthens it (so the whole is not written only to be refused: for
    the largest kernels that took most of a minute)."""
    start = kernel.source.find("def playout(")
    if start < 0:
        return False
    end = kernel.source.find("\ndef ", start)
    return (len(kernel.source) if end < 0 else end) - start > WHOLE_SOURCE


@contextmanager
def whole(kernel: Kernel) -> Iterator[None]:
    """Within it, :func:`large` says no for ``kernel``: its native source is written whole. The native source
    is first written so, and in pieces only when that is over :data:`WHOLE_SOURCE` characters (the caller,
    :func:`rulesdsl.interpreter.kernel.native.native_source`, rewrites under one lock)."""
    _WRITTEN_WHOLE.add(kernel.source)
    try:
        yield
    finally:
        _WRITTEN_WHOLE.discard(kernel.source)


# -- names read and written ---------------------------------------------------------------------------------------
def _stored(node: ast.AST) -> set[str]:
    """The names a statement (or expression) assigns anywhere inside it."""
    names = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.add(sub.id)
        elif isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name):
            names.add(sub.target.id)
    return names


def _loaded(node: ast.AST) -> set[str]:
    """The names an expression reads (an augmented assignment's target counts as read)."""
    names = {sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)}
    for sub in ast.walk(node):
        if isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name):
            names.add(sub.target.id)
    return names


def read_first(block: list[ast.stmt], known: frozenset[str] = frozenset()) -> set[str]:
    """The names ``block`` may read before it assigns them (``known``: assigned already on entry)."""
    free: set[str] = set()
    done = set(known)
    for statement in block:
        if isinstance(statement, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)):
            value = statement.value if not isinstance(statement, ast.AugAssign) else statement
            if value is not None:
                free |= _loaded(value) - done
            if isinstance(statement, ast.Assign):
                free |= {n for t in statement.targets for n in _loaded(t)} - done  # out[kids, 0] = ...
            done |= _stored(statement)
        elif isinstance(statement, (ast.If, ast.While)):
            free |= _loaded(statement.test) - done
            free |= read_first(statement.body, frozenset(done)) | read_first(statement.orelse, frozenset(done))
            done |= _done(statement)
        elif isinstance(statement, ast.For):
            free |= _loaded(statement.iter) - done
            free |= read_first(statement.body, frozenset(done | _stored(statement.target)))
        elif isinstance(statement, (ast.Break, ast.Continue, ast.Pass)):
            continue
        else:  # anything else: every name it reads
            free |= _loaded(statement) - done
            done |= _stored(statement)
    return free


def _done(statement: ast.stmt) -> set[str]:
    """The names assigned once ``statement`` has run, whichever way it went (as :func:`read_first` counts them)."""
    if isinstance(statement, ast.If):  # assigned on both branches: assigned after it
        return _always(statement.body) & _always(statement.orelse)
    if isinstance(statement, (ast.While, ast.For, ast.Break, ast.Continue, ast.Pass)):
        return set()
    return _stored(statement)


def _suffix_reads(block: list[ast.stmt]) -> list[set[str]]:
    """``read_first(block[i:])`` for every ``i`` (and ``len(block)``), in one pass from the end."""
    out: list[set[str]] = [set()]
    for statement in reversed(block):
        out.append(read_first([statement]) | (out[-1] - _done(statement)))
    return out[::-1]


def _always(block: list[ast.stmt]) -> set[str]:
    """The names every path through ``block`` assigns (straight assignments only: loops may not run)."""
    names: set[str] = set()
    for statement in block:
        if isinstance(statement, (ast.Assign, ast.AugAssign)):
            names |= _stored(statement)
        elif isinstance(statement, ast.If):
            names |= _always(statement.body) & _always(statement.orelse)
    return names


def _restored(block: list[ast.stmt]) -> set[str]:
    """The names a loop puts back from a saved position (``v0, v1, ... = cur``, ``... = sv``) before its next
    pass: a move loop, or a legality test that makes a move and takes it back."""
    names: set[str] = set()
    for node in ast.walk(ast.Module(block, [])):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple) \
                and (isinstance(node.value, ast.Name) or _saved_words(node.value)):
            names |= _stored(node.targets[0])
    return names


def _saved_words(value: ast.expr) -> bool:
    """``(s[i], s[j], ...)``: words put back from a saved position ``s`` (:mod:`~.native_compact`)."""
    items = value.elts if isinstance(value, ast.Tuple) else []
    return bool(items) and all(isinstance(i, ast.Subscript) and isinstance(i.value, ast.Name)
                               and isinstance(i.slice, ast.Constant) for i in items) \
        and len({i.value.id for i in items}) == 1


# -- outlining -----------------------------------------------------------------------------------------------------
def outline(function: ast.FunctionDef, numbers: itertools.count, limit: int | None = None) -> list[ast.FunctionDef]:
    """``function`` in pieces: a last ``if turn == ...`` cut in one function per branch, the move loops after
    ``cur = ...`` and the statements before the end checks in functions of about ``limit`` characters (default
    :data:`CHUNK`); the function itself last (it calls the others).
    The pieces are named ``partN``, ``N`` drawn from ``numbers`` (one counter for a whole source)."""
    limit = CHUNK if limit is None else limit
    pieces: list[ast.FunctionDef] = compact(function)
    params = [a.arg for a in function.args.args]
    local = set(params) | _stored(function)
    entry = set(params) | _always(function.body)  # assigned before a nested block begins (or there)
    stores = _store_counts(function) + Counter(params)  # a parameter is assigned by the caller
    _outline_loops(function.body, numbers, local, entry, stores, pieces, limit)
    body = function.body
    if len(body) >= 1 and isinstance(body[-1], ast.If) and ast.unparse(body[-1].test).startswith("turn == ") \
            and body[-1].orelse and _returns(body[-1].body) and _returns(body[-1].orelse) \
            and len(ast.unparse(body[-1])) > limit:
        branch, before = body[-1], set(params) | _always(body[:-1])
        sides = {side: sorted(read_first(getattr(branch, side)) & local - _inside_only(getattr(branch, side), stores))
                 for side in ("body", "orelse")}  # (a name read on a path the same test guards as its assignment is
        if any(set(args) - before for args in sides.values()):  # no argument: ``if mg0:`` twice; one assigned
            return [*pieces, function]  # before the branch on some paths only cannot be passed: left whole)
        for side, args in sides.items():
            block = getattr(branch, side)
            name = f"part{next(numbers)}"
            arguments = ast.arguments([], [ast.arg(a) for a in args], None, [], [], None, [])
            pieces.append(ast.FunctionDef(name, arguments, block, [], None, None, lineno=0))
            call = ast.Call(ast.Name(name, ast.Load()), [ast.Name(a, ast.Load()) for a in args], [])
            setattr(branch, side, [ast.Return(call)])
    return [*pieces, function]


def outline_straight(function: ast.FunctionDef, numbers: itertools.count,
                     limit: int | None = None) -> list[ast.FunctionDef]:
    """A function without move loops (``mobility``, ``outcome``: the move masks, counts and end checks) in
    pieces: cut in one function per branch of a last ``if turn == ...`` (:func:`outline`), then the statements
    before each one's first ``return`` in functions of about ``limit`` characters (:func:`_outline_prefix`)."""
    limit = CHUNK if limit is None else limit
    pieces = outline(function, numbers, limit)
    more: list[ast.FunctionDef] = []
    for piece in pieces:
        params = [a.arg for a in piece.args.args]
        local = set(params) | _stored(piece)
        entry = set(params) | _always(piece.body)
        stores = _store_counts(piece) + Counter(params)
        _outline_prefix(piece.body, numbers, local, entry, stores, more, limit)
    return [*more, *pieces]


def _returns(block: list[ast.stmt]) -> bool:
    """Whether ``block`` ends with a ``return`` (or an ``if`` whose branches both do)."""
    if not block:
        return False
    last = block[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _returns(last.body) and _returns(last.orelse)


def _outline_loops(block: list[ast.stmt], numbers: itertools.count, local: set[str], entry: set[str],
                   stores: Counter[str], pieces: list[ast.FunctionDef], limit: int) -> None:
    """Outline, in place, the move loops after ``cur = ...`` in ``block`` and in the blocks nested in it."""
    start = next((i + 1 for i, s in enumerate(block) if isinstance(s, ast.Assign)
                  and ast.unparse(s.targets[0]) == "cur"), None)
    if start is None:
        for statement in block:
            if isinstance(statement, ast.If):
                _outline_loops(statement.body, numbers, local, entry, stores, pieces, limit)
                _outline_loops(statement.orelse, numbers, local, entry, stores, pieces, limit)
        return
    if not _returns(block):  # what the block assigns might flow on past it: leave it whole
        return
    later = _suffix_reads(block)
    made: list[tuple[int, int, ast.stmt]] = []
    i = start
    while i < len(block):
        j, size = i, 0
        while j < len(block) and isinstance(block[j], (ast.While, ast.For, ast.If)) and (size == 0 or size < limit):
            size += len(ast.unparse(block[j]))
            j += 1
        if j == i:
            i += 1
            continue
        call = _piece(block[i:j], later[j], numbers, local - _inside_only(block[i:j], stores), pieces)
        if call is not None:
            made.append((i, j, call))
        i = j
    for i, j, call in reversed(made):
        block[i:j] = [call]
    _outline_prefix(block, numbers, local, entry, stores, pieces, limit)


def _outline_prefix(block: list[ast.stmt], numbers: itertools.count, local: set[str], entry: set[str],
                    stores: Counter[str], pieces: list[ast.FunctionDef], limit: int) -> None:
    """Outline, in place, the statements before the first ``return`` of ``block`` (the move masks and counts)
    into functions of about ``limit`` characters, each returning the names the rest of the block reads."""
    end = next((i for i, s in enumerate(block) if any(isinstance(n, ast.Return) for n in ast.walk(s))), len(block))
    later = _suffix_reads(block)
    before = set(entry)  # assigned on every path before the chunk
    made: list[tuple[int, int, ast.stmt]] = []
    i = 0
    while i < end:
        j, size = i, 0
        while j < end and (size == 0 or size < limit):
            size += len(ast.unparse(block[j]))
            j += 1
        chunk, start, i = block[i:j], i, j
        always = _always(chunk)
        outs = sorted((_stored(ast.Module(chunk, [])) - _restored(chunk)) & later[j])
        args = sorted((read_first(chunk) | (set(outs) - always)) & local - _inside_only(chunk, stores))
        fits = size >= limit // 4 and outs and set(outs) <= always | before and set(args) <= before  # (a name
        before |= always  # assigned before the chunk on some paths only cannot be passed to it)
        if not fits:
            continue
        name = f"part{next(numbers)}"
        value = ast.Tuple([ast.Name(n, ast.Load()) for n in outs], ast.Load()) if len(outs) > 1 \
            else ast.Name(outs[0], ast.Load())
        arguments = ast.arguments([], [ast.arg(a) for a in args], None, [], [], None, [])
        pieces.append(ast.FunctionDef(name, arguments, [*chunk, ast.Return(value)], [], None, None,
                                      lineno=0))
        target = ast.Tuple([ast.Name(n, ast.Store()) for n in outs], ast.Store()) if len(outs) > 1 \
            else ast.Name(outs[0], ast.Store())
        call = ast.Call(ast.Name(name, ast.Load()), [ast.Name(a, ast.Load()) for a in args], [])
        made.append((start, j, ast.Assign([target], call, lineno=0)))
    for i, j, call in reversed(made):
        block[i:j] = [call]


def _store_counts(node: ast.AST) -> Counter[str]:
    """How many times each name is assigned in ``node``."""
    return Counter(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))


def _inside_only(chunk: list[ast.stmt], stores: Counter[str]) -> set[str]:
    """The names assigned in ``chunk`` and nowhere else in the function (``stores``: :func:`_store_counts`): one
    that the chunk reads before it assigns it is read on a path the same test guards (``if mg0:`` twice), so
    it is no argument of the chunk's piece (nothing outside holds it)."""
    inside = _store_counts(ast.Module(chunk, []))
    return {name for name, n in inside.items() if stores[name] == n}


def _piece(chunk: list[ast.stmt], later: set[str], numbers: itertools.count, local: set[str],
           pieces: list[ast.FunctionDef]) -> ast.stmt | None:
    """``kids = partN(...)``: ``chunk`` made a function of what it reads, or ``None`` when more than ``kids``
    would flow out of it (a name it assigns that the rest of the block reads first (``later``), and no loop
    restores)."""
    reads = read_first(chunk)
    stored = _stored(ast.Module(chunk, []))
    if "kids" not in reads or "kids" not in stored:
        return None
    leaks = (stored & later) - {"kids"} - _restored(chunk)
    if leaks:
        return None
    args = sorted(reads & local)
    piece_name = f"part{next(numbers)}"
    body = [*chunk, ast.Return(ast.Name("kids", ast.Load()))]
    arguments = ast.arguments([], [ast.arg(a) for a in args], None, [], [], None, [])
    pieces.append(ast.FunctionDef(piece_name, arguments, body, [], None, None, lineno=0))
    call = ast.Call(ast.Name(piece_name, ast.Load()), [ast.Name(a, ast.Load()) for a in args], [])
    return ast.Assign([ast.Name("kids", ast.Store())], call, lineno=0)


# -- the playout over the children ----------------------------------------------------------------------------------
def pick_one(children: ast.FunctionDef) -> bool:
    """Let ``children(..., rs, pick)`` (its last two parameters) make only one child: with ``pick == -2`` it draws
    ``draw(rs, total)`` once it has counted the moves, then applies and writes only the child of that number (at
    its row; the others are counted, not made) and returns the count; ``pick == -1`` writes every child. Done when
    every row is written by a move loop ``while m: t = m & -m; m ^= t; ...`` of one row a pass (else ``False``,
    ``children`` unchanged): so the playout makes one move a ply, as the Python playout does."""
    loops: dict[int, ast.While] = {}  # the innermost loop around each row written
    puts = 0

    def visit(node: ast.AST, loop: ast.While | ast.For | None) -> bool:
        nonlocal puts
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "putrow":
            if not isinstance(loop, ast.While) or id(loop) in loops:  # none, a ``for``, or two rows a pass
                return False
            loops[id(loop)] = loop
            puts += 1
        inner = node if isinstance(node, (ast.While, ast.For)) else loop
        return all(visit(child, inner) for child in ast.iter_child_nodes(node))

    if not visit(children, None) or not puts:
        return False
    for loop in loops.values():
        body = loop.body
        if len(body) < 3 or not (isinstance(body[1], ast.AugAssign)
                                 and ast.unparse(body[1].target) == ast.unparse(loop.test)):
            return False
    draws = [n for n in ast.walk(children) if isinstance(n, ast.If) and isinstance(n.test, ast.Compare)
             and ast.unparse(n.test).startswith("total > ") and ast.unparse(n.body) == "return -1"]
    if not draws:
        return False
    for loop in loops.values():
        made = ast.parse("if pick < 0 or kids == pick:\n    pass\nelse:\n    kids += 1").body[0]
        made.body = loop.body[2:]
        loop.body[2:] = [made]
    for node in ast.walk(children):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                for i in range(len(block) - 1, -1, -1):
                    if block[i] in draws:
                        block.insert(i + 1, ast.parse("if pick == -2:\n    pick = draw(rs, total)").body[0])
    return True



def _terminal_results(playout: ast.FunctionDef) -> list[tuple[int, int]] | None:
    """The ``(winner, rule)`` of each ``return`` of the Python playout that ends the game, in source order (-1: a
    draw), or ``None`` when one is not a pair of constants."""
    results = []
    for node in _in_order(playout):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            result = node.value.elts[-2]
            if isinstance(result, ast.Constant) and result.value is None:
                continue  # cut at the cap
            if not isinstance(result, ast.Tuple) or len(result.elts) != 2:
                return None
            winner, rule = (_whole(x) for x in result.elts)
            if rule is None or (winner is None and not (isinstance(result.elts[0], ast.Constant)
                                                        and result.elts[0].value is None)):
                return None
            results.append((-1 if winner is None else winner, rule))
    return results


def _whole(node: ast.expr) -> int | None:
    """A whole number written as a constant (``3``, ``-1``), or ``None``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _whole(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _in_order(node: ast.AST):
    """Every node under ``node``, depth first in source order."""
    yield node
    for child in ast.iter_child_nodes(node):
        yield from _in_order(child)


def encode_outcomes(children: ast.FunctionDef, playout: ast.FunctionDef) -> tuple[list[int], list[int]] | None:
    """Make each ``return 0`` of ``children`` (its end checks, in source order) ``return -2 - i``, when they pair
    one for one with the playout's results; the winners and rules by ``i``, or ``None`` (``children`` unchanged)."""
    results = _terminal_results(playout)
    ends = [n for n in _in_order(children) if isinstance(n, ast.Return) and isinstance(n.value, ast.Constant)
            and n.value.value == 0]
    if results is None or len(results) != len(ends) or not ends:
        return None
    for i, node in enumerate(ends):
        node.value = ast.Constant(-2 - i)
    return [w for w, _ in results], [r for _, r in results]


def playout_over_children(symbols: int, rows: int, winners: list[int], rules: list[int], picked: bool) -> str:
    """``playout(*words, turn, last, hist, rs, cap)`` over ``children`` (a kernel with earlier positions, whose end
    checks return ``-2 - i``: :func:`encode_outcomes`): the same signature and results as the generated one.
    ``picked``: ``children`` draws the child and makes only that one (:func:`pick_one`), whose number is the
    generator's new word modulo the count, as ``draw`` computed it."""
    words = ", ".join(f"v{i}" for i in range(symbols))
    row = "".join(f"row[{i}], " for i in range(symbols))
    call, chosen = ("-2", "i64(rs[0] % u64(k))") if picked else ("-1", "draw(rs, k)")
    return (f"endwin = ({', '.join(map(str, winners))},)\n"
            f"endrule = ({', '.join(map(str, rules))},)\n\n\n"
            f"def playout({words}, turn, last, hist, rs, cap):\n"
            f"    buf = stack(1, {rows}, {symbols + 2})[0]\n"
            f"    plies = 0\n"
            f"    while True:\n"
            f"        if plies == cap:\n"
            f"            return {words}, turn, last, {NOT_OVER}, {NOT_OVER}, plies\n"
            f"        k = children({words}, turn, last, hist, 2, buf, rs, {call})\n"
            f"        if k < -1:\n"
            f"            return {words}, turn, last, endwin[-2 - k], endrule[-2 - k], plies\n"
            f"        if k <= 0:\n"
            f"            return {words}, turn, last, -1, -1, plies\n"
            f"        row = buf[{chosen}]\n"
            f"        {words}, turn, last = {row}i64(row[{symbols}]), row[{symbols + 1}]\n"
            f"        plies += 1\n")


def playout_over_expand(symbols: int, rows: int) -> str:
    """``playout(*words, turn, last, hist, rs, cap)`` over ``expand`` (which returns the result and the children
    it wrote): the same signature and results as the generated one."""
    words = ", ".join(f"v{i}" for i in range(symbols))
    row = "".join(f"row[{i}], " for i in range(symbols))
    return (f"def playout({words}, turn, last, hist, rs, cap):\n"
            f"    buf = stack(1, {rows}, {symbols + 2})[0]\n"
            f"    plies = 0\n"
            f"    while True:\n"
            f"        if plies == cap:\n"
            f"            return {words}, turn, last, {NOT_OVER}, {NOT_OVER}, plies\n"
            f"        w, r, k = expand({words}, turn, last, buf)\n"
            f"        if w != {NOT_OVER}:\n"
            f"            return {words}, turn, last, w, r, plies\n"
            f"        if k <= 0:\n"
            f"            return {words}, turn, last, -1, -1, plies\n"
            f"        row = buf[draw(rs, k)]\n"
            f"        {words}, turn, last = {row}i64(row[{symbols}]), row[{symbols + 1}]\n"
            f"        plies += 1\n")
