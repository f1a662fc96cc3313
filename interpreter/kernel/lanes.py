"""The kernel in machine code for boards of more than 64 cells: a bitboard as a tuple of several 64-bit words.

:mod:`rulesdsl.interpreter.kernel.native` types a kernel's source for one unsigned
64-bit word a bitboard. A board whose bits go past 63 needs ``N = ceil(bits / 64)``
words ("lanes") a bitboard; this module rewrites the same cut functions
(:func:`~rulesdsl.interpreter.kernel.native.cut_functions`: ``count``, ``expand``,
``playout``) for that:

- inside a function a bitboard is a tuple of ``N`` words (an immutable value numba
  keeps in registers); every operation on bitboards becomes a call of a small
  helper written here from ``N`` alone (``wand``, ``wor``, ``wxor``, ``wnot``,
  ``wsub``, ``wadd``, ``wneg``, ``wnz`` for truth, ``weq``, ``wpop``,
  ``wbit`` for ``1 << cell``, ``wlow`` for ``x & -x``, ``wclr`` for
  ``x & (x - 1)``, and one ``wshlK``/``wshrK`` per constant shift ``K``);
  whole numbers that meet a bitboard become tuples of words;
- the words that are not bitboards (counters, hands, turn words) are whole
  numbers (``i64``), as the player to move is; a word after the bitboards that
  the source uses as one (a turn word of visited cells) takes lanes too;
- the lists of capture chains (``sk``, ``fd``) are lists of such tuples;
- across the boundary a position stays one flat row of words: each bitboard's
  ``N`` lanes, low lane first, then one word per other word, then the player to
  move, then ``last`` as its cell's bit index plus one (0: none), so that the
  walkers of :mod:`~rulesdsl.interpreter.kernel.native` (perft, many playouts,
  expand of many rows) serve unchanged; :class:`Lanes` converts Python's
  integers to and from those rows.

Earlier positions (``hist``), constant tables and helper functions
(``attacked``, ``pinlines``) are rewritten by
:mod:`~rulesdsl.interpreter.kernel.lanes_helpers`. Anything the rewriting does
not know (a call it does not type, a bitboard meeting a word that is not one)
gives ``None``: that game stays on the Python kernel. ``mobility`` and
``outcome`` are rewritten too, and the search helpers of
:mod:`~rulesdsl.interpreter.search.native_search` are appended for the flat
row (one column a word: a lane of a bitboard or another word), so the
alpha-beta engine searches such a game in machine code as well (not a game
with earlier positions: it has no ``expand``).

A large kernel (:func:`~.native_split.large`) is written in pieces after the
lanes rewrite, as one word's is: ``expand`` (or ``children``) outlined by
:func:`~.native_split.outline` (its pieces take and return lane tuples), the
search helpers' ``mobility`` and ``outcome`` by :func:`~.native_split.outline_straight`, the
playout a loop over it (:func:`~.native_split.playout_over_expand`,
:func:`~.native_split.playout_over_children`) and perft's last ply counted with
``expand`` (no ``count``), so such a source compiles in about half a minute of
CPU where the whole was over the length compiled by default.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, replace

from rulesdsl.interpreter.kernel import native_split
from rulesdsl.interpreter.kernel.chains import MAX_CHAINS
from rulesdsl.interpreter.kernel.codegen import Kernel
from rulesdsl.interpreter.kernel.places import places_word

WORD = 64
MASK = (1 << WORD) - 1
BIT_OPS = {ast.BitAnd: "wand", ast.BitOr: "wor", ast.BitXor: "wxor"}
SCALAR_CALLS = ("range", "len", "bool", "draw", "i64", "u64", "popcount")
LANE_FUNCTIONS = ("count", "mobility", "expand", "outcome", "playout")
SEARCH_ONLY = ("mobility", "outcome")  # rewritten for the search helpers alone
NUMBERS = ("count", "mobility")  # the functions that return a number (the others a result and rows or a position)
WRITERS = ("expand", "outcome", "children")  # the functions that take ``out`` (``outcome`` writes no row)
PIECES = ("expand", "children")  # the functions a large kernel outlines in pieces (:mod:`~.native_split`)


class Unfit(Exception):
    """The source uses something the lane rewriting does not take (the game stays on the Python kernel)."""


@dataclass(frozen=True)
class Lanes:
    """How a kernel's position is laid out in a flat row of words: ``lanes`` words for each bitboard (the first
    ``boards`` of the kernel's ``width`` words, and the words after them numbered in ``wide``, such as a turn
    word of visited cells), one for each other word."""

    lanes: int
    boards: int
    width: int
    wide: frozenset[int] = frozenset()

    def board(self, i: int) -> bool:
        """Whether the ``i``-th word of a position is a bitboard."""
        return i < self.boards or i in self.wide

    @property
    def columns(self) -> int:
        """The row's words before the player to move."""
        return self.column(self.width)

    def column(self, i: int) -> int:
        """The row's column of the ``i``-th word's first (lowest) lane."""
        return sum(self.lanes if self.board(j) else 1 for j in range(i))

    def split(self, bits) -> list[int]:
        """A position's Python integers as the row's words (before the player to move)."""
        out: list[int] = []
        for i, b in enumerate(bits):
            b = int(b)
            out += [(b >> (WORD * j)) & MASK for j in range(self.lanes)] if self.board(i) else [b & MASK]
        return out

    def join(self, words) -> list[int]:
        """The row's words (before the player to move) as the position's Python integers."""
        words = [int(w) for w in words]
        out, at = [], 0
        for i in range(self.width):
            n = self.lanes if self.board(i) else 1
            out.append(sum(w << (WORD * j) for j, w in enumerate(words[at:at + n])))
            at += n
        return out


def lane_count(kernel: Kernel) -> int:
    """How many words a bitboard of this kernel takes."""
    return max(kernel.layout.bit) // WORD + 1


def layout_of(kernel: Kernel) -> Lanes:
    """The row layout of a kernel's positions: the words after the bitboards that some function uses as bitboards
    are bitboards in every one."""
    from rulesdsl.interpreter.kernel.lanes_helpers import Context

    layout = Lanes(lane_count(kernel), len(kernel.symbols), kernel.width)
    functions = _functions(kernel)
    while True:
        context = Context(kernel, layout, functions)
        names = set().union(*(_board_names(f, layout, context) for f in functions))
        wide = {i for i in range(layout.boards, layout.width) if f"v{i}" in names}
        if wide <= layout.wide:
            return layout
        layout = replace(layout, wide=layout.wide | wide)


def _functions(kernel: Kernel, search: bool = True) -> list[ast.FunctionDef]:
    """The cut functions the lanes rewrite: ``count``, ``expand``, ``playout``, the helper functions and
    (``search``) ``mobility`` and ``outcome`` for the search helpers (with earlier positions: ``playout``,
    ``children`` and the helpers, :mod:`~.lanes_helpers`)."""
    from rulesdsl.interpreter.kernel import native
    from rulesdsl.interpreter.kernel.lanes_helpers import history_functions
    from rulesdsl.interpreter.kernel.native_helpers import HELPERS, takes_history

    if takes_history(kernel):
        return history_functions(kernel)
    return [f for f in native.cut_functions(kernel)
            if f.name in (*LANE_FUNCTIONS, *HELPERS) and (search or f.name not in SEARCH_ONLY)]


# -- the helpers, written from N -------------------------------------------------------------------------------
def _tuple(items: list[str]) -> str:
    return "(" + ", ".join(items) + ",)"


def _zero(n: int, but: dict[int, str] | None = None) -> str:
    return _tuple([(but or {}).get(i, "u64(0)") for i in range(n)])


def helpers(n: int, shifts: set[tuple[str, int]]) -> str:
    """The source of the lane helpers for ``n`` words a bitboard, with one function per constant shift used."""
    r = range(n)
    lines = []
    for name, op in (("wand", "&"), ("wor", "|"), ("wxor", "^")):
        lines += [f"def {name}(a, b):", f"    return {_tuple([f'a[{i}] {op} b[{i}]' for i in r])}", ""]
    lines += ["def wint(x):", f"    return {_zero(n, {0: 'u64(x)'})}", ""]
    lines += ["def wnot(a):", f"    return {_tuple([f'~a[{i}]' for i in r])}", ""]
    lines += ["def wnz(a):", "    return (" + " | ".join(f"a[{i}]" for i in r) + ") != u64(0)", ""]
    lines += ["def weq(a, b):", "    return " + " and ".join(f"a[{i}] == b[{i}]" for i in r), ""]
    lines += ["def wpop(a):", "    return " + " + ".join(f"popcount(a[{i}])" for i in r), ""]
    lines += ["def wbit(k):", "    q = k >> 6", "    b = u64(1) << u64(k & 63)"]
    for i in r:
        lines += [f"    if q == {i}:", f"        return {_zero(n, {i: 'b'})}"]
    lines += [f"    return {_zero(n)}", ""]
    lines += ["def windex(a):"]
    for i in r:
        low = f"(a[{i}] & (u64(0) - a[{i}]))"
        lines += [f"    if a[{i}]:", f"        return u64(popcount({low} - u64(1)) + {i * WORD + 1})"]
    lines += ["    return u64(0)", "", "def wlow(a):"]
    for i in r:
        lines += [f"    if a[{i}]:", f"        return {_zero(n, {i: f'a[{i}] & (u64(0) - a[{i}])'})}"]
    lines += ["    return a", "", "def wclr(a):"]
    for i in r:
        keep = {j: f"a[{j}]" for j in range(i + 1, n)}
        keep[i] = f"a[{i}] & (a[{i}] - u64(1))"
        lines += [f"    if a[{i}]:", f"        return {_zero(n, keep)}"]
    lines += ["    return a", ""]
    for name, sign in (("wsub", "-"), ("wadd", "+")):
        lines += [f"def {name}(a, b):", "    c = u64(0)"]
        for i in r:
            lines += [f"    t = a[{i}] {sign} b[{i}]", f"    d{i} = t {sign} c"]
            if i + 1 < n:
                flow = (f"u64(a[{i}] < b[{i}]) | (u64(a[{i}] == b[{i}]) & c)" if sign == "-"
                        else f"u64(t < a[{i}]) | u64(d{i} < t)")
                lines += [f"    c = {flow}"]
        lines += [f"    return {_tuple([f'd{i}' for i in r])}", ""]
    lines += ["def wneg(a):", f"    return wsub({_zero(n)}, a)", ""]
    lines += ["def putlanes(out, k, boards, rest):", "    for i in range(len(boards)):"]
    lines += [f"        out[k, {n} * i + {i}] = boards[i][{i}]" for i in r]
    lines += ["    for j in range(len(rest)):", f"        out[k, {n} * len(boards) + j] = rest[j]",
              "    return k + 1", ""]
    for direction, k in sorted(shifts):
        lines += [f"def wsh{direction}{k}(a):", f"    return {_tuple([_shifted(direction, k, i, n) for i in r])}", ""]
    return "\n".join(lines)


def _shifted(direction: str, k: int, i: int, n: int) -> str:
    """Lane ``i`` of a bitboard shifted ``k`` places left (``l``) or right (``r``)."""
    q, s = divmod(k, WORD)
    parts = []
    if direction == "l":
        j = i - q
        if j >= 0:
            parts.append(f"(a[{j}] << u64({s}))" if s else f"a[{j}]")
        if s and j - 1 >= 0:
            parts.append(f"(a[{j - 1}] >> u64({WORD - s}))")
    else:
        j = i + q
        if j < n:
            parts.append(f"(a[{j}] >> u64({s}))" if s else f"a[{j}]")
        if s and j + 1 < n:
            parts.append(f"(a[{j + 1}] << u64({WORD - s}))")
    return " | ".join(parts) if parts else "u64(0)"


# -- the rewriting ---------------------------------------------------------------------------------------------
def _call(name: str, *args: ast.expr) -> ast.expr:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


def _is_int(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _same(a: ast.expr, b: ast.expr) -> bool:
    return ast.dump(a) == ast.dump(b)


class _Rewrite:
    """Rewrites one cut function for ``n`` words a bitboard (see the module docstring)."""

    def __init__(self, n: int, boards: set[str], function: str, layout: Lanes, lists: set[str] = frozenset()) -> None:
        self.n, self.boards, self.function, self.layout = n, boards, function, layout
        self.lists = lists  # lists of bitboards (capture chains: a stack, the chains found)
        self.shifts: set[tuple[str, int]] = set()

    def listed(self, node: ast.expr) -> bool:
        """``xs[i]`` or ``xs.pop()`` of a list of bitboards."""
        if isinstance(node, ast.Subscript):
            return isinstance(node.value, ast.Name) and node.value.id in self.lists
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "pop" \
            and isinstance(node.func.value, ast.Name) and node.func.value.id in self.lists and not node.args

    # which expressions are bitboards
    def board(self, node: ast.expr) -> bool:
        """Whether an expression of the original source is a bitboard."""
        if isinstance(node, ast.Name):
            return node.id in self.boards
        if isinstance(node, ast.BinOp):
            if type(node.op) in BIT_OPS or isinstance(node.op, (ast.Add, ast.Sub)):
                return self.board(node.left) or self.board(node.right)
            if isinstance(node.op, ast.LShift):
                return self.board(node.left) or (_is_int(node.left) and not _is_int(node.right))
            if isinstance(node.op, ast.RShift):
                return self.board(node.left)
            return False
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.USub)):
            return self.board(node.operand)
        if isinstance(node, ast.IfExp):
            return self.board(node.body) or self.board(node.orelse)
        return self.listed(node)

    def constant(self, value: int) -> ast.expr:
        value &= (1 << (WORD * self.n)) - 1
        return ast.Tuple([_call("u64", ast.Constant((value >> (WORD * i)) & MASK)) for i in range(self.n)],
                         ast.Load())

    # expressions
    def bits(self, node: ast.expr) -> ast.expr:
        """A bitboard expression (or a whole number meeting one) as a tuple of words."""
        if _is_int(node):
            return self.constant(node.value)
        if isinstance(node, ast.Name):
            if node.id not in self.boards:
                raise Unfit(f"{node.id} meets a bitboard")
            return node
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return _call("wneg", self.bits(node.operand))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            return _call("wnot", self.bits(node.operand))
        if isinstance(node, ast.Subscript) and self.listed(node):
            return ast.Subscript(node.value, self.scalar(node.slice), ast.Load())
        if self.listed(node):
            return node
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
            return _call("wint", self.scalar(node))  # a count or-ed into a bitboard (only ever tested for zero)
        raise Unfit(f"{ast.unparse(node)} as a bitboard")

    def binop(self, node: ast.BinOp) -> ast.expr:
        left, right, op = node.left, node.right, type(node.op)
        if op is ast.BitAnd:  # the idioms of a lowest bit: x & -x, x & (x - 1)
            if isinstance(right, ast.UnaryOp) and isinstance(right.op, ast.USub) and _same(left, right.operand):
                return _call("wlow", self.bits(left))
            if isinstance(right, ast.BinOp) and isinstance(right.op, ast.Sub) and _same(left, right.left) \
                    and _is_int(right.right) and right.right.value == 1:
                return _call("wclr", self.bits(left))
        if op in BIT_OPS:
            return _call(BIT_OPS[op], self.bits(left), self.bits(right))
        if op in (ast.Add, ast.Sub):
            return _call("wadd" if op is ast.Add else "wsub", self.bits(left), self.bits(right))
        if op in (ast.LShift, ast.RShift):
            if self.board(left) and _is_int(right):
                k = right.value
                if k >= WORD * self.n:
                    return self.constant(0)
                if k == 0:
                    return self.bits(left)
                direction = "l" if op is ast.LShift else "r"
                self.shifts.add((direction, k))
                return _call(f"wsh{direction}{k}", self.bits(left))
            if op is ast.LShift and _is_int(left) and left.value == 1:
                return _call("wbit", self.scalar(right))
        raise Unfit(f"{ast.unparse(node)} on bitboards")

    def truth(self, node: ast.expr) -> ast.expr:
        """An expression in a test (``if``, ``while``, ``and``/``or``, ``not``): a bitboard is true when not zero."""
        if self.board(node):
            return _call("wnz", self.bits(node))
        if isinstance(node, ast.BoolOp):
            return ast.BoolOp(node.op, [self.truth(v) for v in node.values])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return ast.UnaryOp(ast.Not(), self.truth(node.operand))
        return self.scalar(node)

    def scalar(self, node: ast.expr) -> ast.expr:
        """An expression that is not a bitboard (it may read some: their counts, tests, comparisons)."""
        if self.board(node):
            raise Unfit(f"{ast.unparse(node)}: a bitboard where a number is wanted")
        if isinstance(node, (ast.Name, ast.Constant)):
            return node
        if isinstance(node, ast.BinOp):
            return ast.BinOp(self.scalar(node.left), node.op, self.scalar(node.right))
        if isinstance(node, ast.UnaryOp):
            return self.truth(node) if isinstance(node.op, ast.Not) else ast.UnaryOp(node.op, self.scalar(node.operand))
        if isinstance(node, ast.BoolOp):
            return self.truth(node)
        if isinstance(node, ast.IfExp):
            return ast.IfExp(self.truth(node.test), self.scalar(node.body), self.scalar(node.orelse))
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Tuple):
            return ast.Tuple([self.bits(e) if self.board(e) else self.scalar(e) for e in node.elts], ast.Load())
        raise Unfit(f"{ast.unparse(node)}")

    def compare(self, node: ast.Compare) -> ast.expr:
        items = [node.left, *node.comparators]
        if not any(self.board(x) for x in items):
            return ast.Compare(self.scalar(node.left), node.ops, [self.scalar(x) for x in node.comparators])
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            raise Unfit(f"{ast.unparse(node)}: an order of bitboards")
        left, right = node.left, node.comparators[0]
        if _is_int(right) and right.value == 0 or _is_int(left) and left.value == 0:
            test = _call("wnz", self.bits(left if _is_int(right) else right))
            return ast.UnaryOp(ast.Not(), test) if isinstance(node.ops[0], ast.Eq) else test
        test = _call("weq", self.bits(left), self.bits(right))
        return test if isinstance(node.ops[0], ast.Eq) else ast.UnaryOp(ast.Not(), test)

    def call(self, node: ast.Call) -> ast.expr:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "bit_count" and not node.args:
            if self.board(func.value):
                return _call("wpop", self.bits(func.value))
            return _call("popcount", self.scalar(func.value))
        if not isinstance(func, ast.Name) or node.keywords:
            raise Unfit(f"{ast.unparse(node)}")
        if func.id == "bool" and len(node.args) == 1:
            return self.truth(node.args[0])
        if func.id == "randrange":
            return _call("draw", ast.Name("rs", ast.Load()), *[self.scalar(a) for a in node.args])
        if func.id not in SCALAR_CALLS:
            raise Unfit(f"a call of {func.id}")
        return _call(func.id, *[self.scalar(a) for a in node.args])

    def value(self, node: ast.expr) -> ast.expr:
        return self.bits(node) if self.board(node) else self.scalar(node)

    # statements
    def block(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for statement in statements:
            made = self.statement(statement)
            out += made if isinstance(made, list) else [made]
        return out

    def statement(self, node: ast.stmt) -> ast.stmt | list[ast.stmt]:
        if isinstance(node, ast.Assign):
            return self.assign(node)
        if isinstance(node, ast.AugAssign):
            value = ast.BinOp(ast.Name(node.target.id, ast.Load()), node.op, node.value) \
                if isinstance(node.target, ast.Name) else None
            if value is None:
                raise Unfit(ast.unparse(node))
            return self.assign(ast.Assign([node.target], value, lineno=0))
        if isinstance(node, ast.If):
            return ast.If(self.truth(node.test), self.block(node.body), self.block(node.orelse))
        if isinstance(node, ast.While):
            return ast.While(self.truth(node.test), self.block(node.body), self.block(node.orelse))
        if isinstance(node, ast.For):
            return ast.For(node.target, self.scalar(node.iter), self.block(node.body), self.block(node.orelse),
                           lineno=0)
        if isinstance(node, (ast.Break, ast.Continue, ast.Pass)):
            return node
        if isinstance(node, ast.Return):
            return self.ret(node)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "put":
            return self.put(node.value.args[0].elts)
        call = node.value if isinstance(node, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append" \
                and isinstance(call.func.value, ast.Name) and call.func.value.id in self.lists and len(call.args) == 1:
            return ast.Expr(ast.Call(call.func, [self.bits(call.args[0])], []))
        raise Unfit(ast.unparse(node))

    def assign(self, node: ast.Assign) -> ast.stmt:
        if len(node.targets) != 1:
            raise Unfit(ast.unparse(node))
        target = node.targets[0]
        if isinstance(target, ast.Name) and target.id in self.lists:
            if isinstance(node.value, ast.List) and not node.value.elts or \
                    isinstance(node.value, ast.Name) and node.value.id in self.lists:
                return node
            raise Unfit(ast.unparse(node))
        if isinstance(target, ast.Name):
            value = self.bits(node.value) if target.id in self.boards else self.scalar(node.value)
            return ast.Assign([target], value, lineno=0)
        if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts) \
                and isinstance(node.value, ast.Name):  # v0, v1, = cur
            return node
        raise Unfit(ast.unparse(node))

    def row(self, items: list[ast.expr]) -> list[ast.expr]:
        """A position's words flat: the lanes of each bitboard, the other words, the player, ``last``'s index."""
        return self.row_from(items, 0)

    def row_from(self, items: list[ast.expr], start: int) -> list[ast.expr]:
        """:meth:`row` from the position's ``start``-th word on."""
        width = self.layout.width
        out: list[ast.expr] = []
        for i, item in enumerate(items[start:width], start):
            if self.layout.board(i):
                value = self.bits(item)
                out += [ast.Subscript(value, ast.Constant(j), ast.Load()) for j in range(self.n)]
            else:
                out.append(_call("u64", self.scalar(item)))
        turn, last = items[width:width + 2]
        out.append(_call("u64", self.scalar(turn)))
        out.append(_call("windex", self.bits(last)) if self.board(last) else _call("u64", self.scalar(last)))
        return out

    def put(self, items: list[ast.expr]) -> list[ast.stmt]:
        """One child's row written: ``kids = putlanes(out, kids, (bitboards...), (other words...))`` where the
        bitboards come first (one call: numba compiles a long run of single writes slowly), else word by word."""
        from rulesdsl.interpreter.kernel.native import put_row

        if self.layout.wide:
            return put_row(self.row(items))
        boards = ast.Tuple([self.bits(item) for item in items[:self.layout.boards]], ast.Load())
        rest = ast.Tuple(self.row_from(items, self.layout.boards), ast.Load())
        call = _call("putlanes", ast.Name("out", ast.Load()), ast.Name("kids", ast.Load()), boards, rest)
        return [ast.Assign([ast.Name("kids", ast.Store())], call, lineno=0)]

    def ret(self, node: ast.Return) -> ast.Return:
        from rulesdsl.interpreter.kernel.native import _result

        if self.function in NUMBERS:
            return ast.Return(self.scalar(node.value))
        if self.function == "playout":  # (*bits, turn, last, result, plies)
            items = list(node.value.elts)
            flat = [*self.row(items[:-2]), *_result(items[-2]), self.scalar(items[-1])]
        else:  # expand: result, and the rows written
            flat = [*_result(node.value), ast.Name("kids", ast.Load())]
        return ast.Return(ast.Tuple(flat, ast.Load()))


def _board_names(function: ast.FunctionDef, layout: Lanes, context=None) -> set[str]:
    """The names of a function that hold bitboards: the first ``boards`` ``v`` parameters, ``last``, and whatever
    is assigned a bitboard expression (worked out to a fixed point); ``context``: a
    :class:`~.lanes_helpers.Context` (tables and helper functions)."""
    boards = {"last"} | {f"v{i}" for i in range(layout.width) if layout.board(i)}
    if context is None:
        typer = _Rewrite(layout.lanes, boards, function.name, layout, _lists(function))
    else:
        boards |= context.seeds(function)
        typer = context.rewriter(boards, function.name, _lists(function))
    nodes = [node for node in ast.walk(function)
             if isinstance(node, (ast.Assign, ast.AugAssign, ast.BinOp, ast.Compare))]  # the ones read below
    while True:
        before = len(boards)
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                if typer.board(node.value):
                    boards.add(node.targets[0].id)
                elif node.targets[0].id in boards:
                    boards.update(_names_in(node.value))
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) \
                    and typer.board(ast.BinOp(node.target, node.op, node.value)):
                boards.add(node.target.id)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                boards.update(_met(typer, node.target, node.value))
            elif isinstance(node, ast.BinOp) and (type(node.op) in BIT_OPS or isinstance(node.op, ast.Sub)):
                boards.update(_met(typer, node.left, node.right))
            elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
                boards.update(_met(typer, node.left, node.comparators[0]))
        if len(boards) == before:
            return boards


def _lists(function: ast.FunctionDef) -> set[str]:
    """The names a function assigns an empty list (the kernels' lists hold bitboards only)."""
    return {node.targets[0].id for node in ast.walk(function) if isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.List)}


def _met(typer: _Rewrite, a: ast.expr, b: ast.expr) -> set[str]:
    """A name that meets a bitboard in a bit operation, a difference or a comparison holds one too (a mask
    built from whole numbers, ``nd |= 1838599``, read with ``& v1`` later)."""
    return {name for x, y in ((a, b), (b, a)) if typer.board(y) for name in _names_in(x)}


def _names_in(node: ast.expr) -> set[str]:
    """The names an expression in a bitboard's place combines with bit operations (each of them is one too)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.BinOp) and (type(node.op) in BIT_OPS or isinstance(node.op, (ast.Add, ast.Sub))):
        return _names_in(node.left) | _names_in(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.LShift, ast.RShift)):
        return _names_in(node.left)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.USub)):
        return _names_in(node.operand)
    return set()


def _entry(function: ast.FunctionDef, layout: Lanes) -> list[ast.stmt]:
    """The flat parameters of the row words (renamed) and the statements packing them into bitboards and numbers."""
    params = function.args.args
    names = [a.arg for a in params]
    lines = []
    flat: list[ast.arg] = []
    for i in range(layout.width):  # the row's words are lv0, lv1, ... (names the source check takes)
        if layout.board(i):
            lanes = [f"lv{len(flat) + j}" for j in range(layout.lanes)]
            flat += [ast.arg(x) for x in lanes]
            lines.append(f"v{i} = ({', '.join(lanes)},)")
        else:
            lines.append(f"v{i} = i64(lv{len(flat)})")
            flat.append(ast.arg(f"lv{len(flat)}"))
    lines.append("last = wbit(i64(lasti) - 1)")  # index 0 (none): no lane holds bit -1
    rest = names[layout.width:]
    assert rest[:2] == ["turn", "last"], rest
    extra = [ast.arg(x) for x in rest[2:]]
    if function.name == "playout":
        extra[[a.arg for a in extra].index("randrange")].arg = "rs"
    elif function.name in WRITERS:
        extra[-1].arg = "out"
        lines.append("kids = 0")
        if function.name == "children":  # (..., out, rs, pick) as native_helpers' walk calls it (native_split)
            extra += [ast.arg("rs"), ast.arg("pick")]
    function.args.args = [*flat, ast.arg("turn"), ast.arg("lasti"), *extra]
    return ast.parse("\n".join(lines)).body


def _rewrite(function: ast.FunctionDef, layout: Lanes, context) -> set[tuple[str, int]]:
    """Rewrite one cut function in place for lanes (``context``: :class:`~.lanes_helpers.Context`); the constant
    shifts it uses (:class:`Unfit`: it cannot be)."""
    boards = _board_names(function, layout, context)
    if "turn" in boards:
        raise Unfit("the player to move meets a bitboard")
    rewrite = context.rewriter(boards, function.name, _lists(function))
    body = rewrite.block(function.body)
    function.body = ([] if context.helper(function) else _entry(function, layout)) + body
    return rewrite.shifts


def _over_children(kernel: Kernel, functions: list[ast.FunctionDef], history: bool
                   ) -> tuple[list[ast.FunctionDef], tuple[list[int], list[int]] | None]:
    """A large kernel's functions without those :mod:`~.native_split` writes over ``expand`` or ``children``
    instead (``playout``; ``count``, whose perft walk counts the last ply with ``expand``), and, with earlier
    positions (large or not), the winners and rules of ``children``'s end checks
    (:func:`~.native_split.encode_outcomes`, which numbers them in place: the search helpers and a large
    kernel's playout read them), ``None`` when they do not pair with the playout's results."""
    large = native_split.large(kernel)
    if not history:
        return ([f for f in functions if f.name not in ("playout", "count")] if large else functions), None
    playout = next(f for f in functions if f.name == "playout")
    ends = native_split.encode_outcomes(next(f for f in functions if f.name == "children"), playout)
    return [f for f in functions if f is not playout or ends is None or not large], ends


def _pieces(function: ast.FunctionDef, large: bool, numbers: itertools.count) -> list[ast.FunctionDef]:
    """A function of a large kernel in pieces (:mod:`~.native_split`): the move loops of ``expand`` and
    ``children``, the straight bodies of ``mobility``, ``outcome`` and ``canmove`` (drop mates) only when they
    are too long to compile whole (cut, a body that assigns a name on one path only has given a piece an
    argument its caller never set); any other function whole."""
    from rulesdsl.interpreter.kernel.native import MAX_FUNCTION

    if large and function.name in PIECES:
        return native_split.outline(function, numbers)
    if large and function.name in (*SEARCH_ONLY, "canmove") and len(ast.unparse(function)) > MAX_FUNCTION:
        return native_split.outline_straight(function, numbers)
    return [function]


def lanes_source(kernel: Kernel, search: bool = True) -> str | None:
    """The kernel's source rewritten for several words a bitboard (``count``, ``expand``, ``playout``, the walkers
    of :mod:`~rulesdsl.interpreter.kernel.native` and, with ``search``, ``mobility``, ``outcome`` and the search
    helpers of :mod:`~rulesdsl.interpreter.search.native_search`, left out when ``mobility`` or ``outcome`` does
    not rewrite), or ``None`` when it uses what the rewriting does not take."""
    from rulesdsl.interpreter.kernel import native
    from rulesdsl.interpreter.kernel.lanes_helpers import Context, beyond_reach, history_tail
    from rulesdsl.interpreter.kernel.native_helpers import ROWS
    from rulesdsl.interpreter.search.native_history import history_search_source
    from rulesdsl.interpreter.search.native_search import search_source

    if beyond_reach(kernel):  # not rewritten only to be refused
        return None
    layout = layout_of(kernel)
    counted = range(kernel.width - len(kernel.counted), kernel.width)
    search = search and not any(layout.board(i) for i in counted)  # the search helpers read a count as one column
    shifts: set[tuple[str, int]] = set()
    functions = _functions(kernel, search)
    context = Context(kernel, layout, functions)
    try:
        head = context.head()
    except Unfit:
        return None
    functions, ends = _over_children(kernel, functions, context.history)
    kept = []
    for function in functions:  # rewritten in place
        try:
            shifts |= _rewrite(function, layout, context)
        except Unfit:
            if function.name not in SEARCH_ONLY:
                return None
            search = False  # the playouts, perft and expand stay native; the search stays on the generic engine
        kept.append(function)
    large, numbers = native_split.large(kernel), itertools.count()
    functions = [piece for f in kept if search or f.name not in SEARCH_ONLY for piece in _pieces(f, large, numbers)]
    source = helpers(layout.lanes, shifts) + "\n\n" + head + ast.unparse(ast.Module(functions, []))
    columns = layout.columns
    if context.history:
        more = "\n\n\n" + native_split.playout_over_children(columns, ROWS, *ends, False) if ends and large else ""
        if ends is not None and search:  # the engine's helpers over children (:mod:`~.search.native_history`)
            more += "\n\n\n" + history_search_source(columns, kernel.opponent, len(kernel.counted), ends[0],
                                                      kernel.features)
        return source + history_tail(source, layout) + more
    source += context.tail(source)
    chains = source.count("for q in range(len(fd")  # each put in such a loop writes one row per capture chain
    rows = native.row_writes(source) * WORD * layout.lanes + 1 + chains * (MAX_CHAINS - WORD)
    source += "\n\n" + native_split.playout_over_expand(columns, rows) if large else ""
    source += "\n\n" + native._perft_walk(columns, rows, leaves_by_expand=large)
    source += "\n\n" + native.many_playouts(columns)
    source += "\n\n" + native._expand_many(columns, rows)
    if search:
        source += "\n\n" + search_source(columns, kernel.opponent, len(kernel.counted), kernel.features,
                                            layout.column(places_word(kernel)) if kernel.seats else -1)
    return source
