"""Several words a bitboard with earlier positions, helper functions and constant tables.

:mod:`rulesdsl.interpreter.kernel.lanes` rewrites a kernel for boards of more than 64
cells (a bitboard is a tuple of ``N`` words); :mod:`rulesdsl.interpreter.kernel.native_helpers`
gives one-word kernels a fixed-size ``hist`` array of earlier positions and their
helper functions (``attacked``, ``pinlines``). This module joins the two:

- ``hist`` is the same array of whole keys (:data:`~.native_helpers.HISTORY`), a
  key being its bitboards' lanes, low lane first, and one word per other item
  (``key in hist``, ``hist.add(key)``, ``hist.discard(key)``, ``hist.append``,
  ``hist.pop()``, ``hist.count``); ``perft`` becomes ``children`` and the walk of
  :func:`~.native_helpers._walk` over the flat rows, so its key stays in ``hist``
  while its children are counted, as in the Python kernel's recursion;
- each constant table (``kernel.constants``: one bitboard a cell) is a module-level
  array of lane words (``lanetable``), a row read as a tuple of words;
- a helper function takes the bitboards (and the cells asked about) as lane tuples
  and returns a whole number (``attacked``) or a tuple of bitboards (``pinlines``),
  unpacked by the caller (``pin, arr = pinlines(...)``);
- ``canmove(*words, turn)`` (``forbid dropping KIND giving mate``,
  :mod:`~.drop_mates`: the other player's moves) is such a helper too: its words
  are the position's (bitboards as lane tuples), and it returns true or false
  (``wnz`` of the moves it found), which the caller tests with ``not``; a long one
  is cut in pieces as ``mobility`` is (:func:`~.native_split.outline_straight`);
- ``x.bit_length()`` of a bitboard is ``wlen(x)``, the index of its highest bit plus one.

A key of ``repetitions`` (:mod:`~.past`: the bitboards, the keyed mark words, the
player to move) is written flat the same way, each bitboard's lanes low lane first;
:func:`~.native_helpers.key_lanes` gives that layout to the caller's conversion.
Whatever else the source holds still gives :class:`~.lanes.Unfit` (the game stays on
the Python kernel). As with one word, a kernel with earlier positions has no
``expand`` natively (playouts, perft and the alpha-beta engine's helpers over ``children``).
"""

from __future__ import annotations

import ast
import operator

from rulesdsl.interpreter.kernel.codegen import Kernel
from rulesdsl.interpreter.kernel.lanes import LANE_FUNCTIONS, WORD, Lanes, Unfit, _call, _is_int, _Rewrite
from rulesdsl.interpreter.kernel.native_helpers import (
    BITLENGTH,
    HELPERS,
    HISTORY,
    MOVERS,
    history_call,
    history_member,
    history_method,
    in_history,
    takes_history,
)

FOLDED = {ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
          ast.BitOr: operator.or_, ast.BitXor: operator.xor}
SCALAR_TABLES = ("rgt",)  # tables of words that are no bitboards (a rights word's bits per cell)
ASKED = ("tg", "gone", "came")  # a helper's parameters that hold the cells asked about (bitboards)
LANE_HELPERS = (*HELPERS, *MOVERS)


def wlen_source(n: int) -> str:
    """``wlen(a)``: the bit length of a bitboard of ``n`` lanes (0 for none)."""
    lines = ["def wlen(a):"]
    for i in reversed(range(n)):
        lines += [f"    if a[{i}]:", f"        return bitlength(a[{i}]) + {i * WORD}"]
    return "\n".join([*lines, "    return 0", ""])


def table_source(name: str, values: tuple[int, ...], lanes: int) -> str:
    """A constant table of bitboards as an array of ``lanes`` words a row (``lanetable``; of words: a tuple)."""
    if name in SCALAR_TABLES:
        return f"{name} = (" + ", ".join(f"u64({int(v)})" for v in values) + ",)"
    return f"{name} = lanetable((" + ", ".join(str(int(v)) for v in values) + f",), {lanes})"


def helper_signatures(functions: list[ast.FunctionDef], layout: Lanes) -> dict[str, tuple[list[bool], int]]:
    """Each helper function's parameters (``True``: a bitboard) and the bitboards it returns (0: a number; -1:
    returns of different shapes, which the rewriting refuses)."""
    found = {}
    for function in functions:
        if function.name not in LANE_HELPERS:
            continue
        names = [a.arg for a in function.args.args]
        boards = [layout.board(int(name[1:])) if name[0] == "v" and name[1:].isdigit() else name in ASKED
                  for name in names]  # a word of the position by its number, or a cell parameter
        returns = {len(node.value.elts) if isinstance(node.value, ast.Tuple) else 0
                   for node in ast.walk(function) if isinstance(node, ast.Return)}
        found[function.name] = (boards, returns.pop() if len(returns) == 1 else -1)
    return found


def history_functions(kernel: Kernel) -> list[ast.FunctionDef]:
    """The functions a kernel with earlier positions takes to lanes: ``playout``, ``perft`` as ``children``
    (:func:`~.native_helpers._children`) and the helper functions."""
    from rulesdsl.interpreter.kernel.native_helpers import _children

    out = []
    for function in ast.parse(kernel.source).body:
        assert isinstance(function, ast.FunctionDef)
        out.append(_children(function, kernel.width) if function.name == "perft" else function)
    return out


def beyond_reach(kernel: Kernel) -> bool:
    """Whether a kernel with earlier positions is sure to give a lanes source too long to compile
    (:func:`~.native.compiles_soon`): its functions but the playout (which a source in pieces leaves out) are
    already longer, and the rewriting only lengthens them (``a | b`` becomes ``wor(a, b)``). Rewriting such a
    source (minutes for the longest) only to refuse it would keep a command waiting."""
    import os

    from rulesdsl.interpreter.kernel import native

    if not takes_history(kernel):
        return False
    least = sum(len(ast.unparse(f)) for f in ast.parse(kernel.source).body
                if isinstance(f, ast.FunctionDef) and f.name != "playout")
    return least > native.max_source() and (bool(os.environ.get(native.MAX_ENV, "").strip())
                                            or least > native.MAX_PIECES)


def history_tail(source: str, layout: Lanes) -> str:
    """What follows the rewritten functions of a kernel with earlier positions: :data:`~.native_helpers.HISTORY`,
    the bit length, perft's walk and many playouts over the flat rows."""
    from rulesdsl.interpreter.kernel.native import many_playouts
    from rulesdsl.interpreter.kernel.native_helpers import _walk

    parts = [HISTORY.strip(), _bit_length(source, layout.lanes), _walk(layout.columns),
             many_playouts(layout.columns, history=True)]
    return "\n\n\n" + "\n\n\n".join(p for p in parts if p)


def _bit_length(source: str, lanes: int) -> str:
    """``bitlength`` (and ``wlen``) when the source calls them."""
    parts = [BITLENGTH.strip()] if "bitlength(" in source or "wlen(" in source else []
    return "\n\n\n".join(parts + ([wlen_source(lanes)] if "wlen(" in source else []))


class Context:
    """What the lanes rewriting of one kernel knows beyond its bitboards: its constant tables, its helper
    functions' signatures, whether it keeps earlier positions."""

    def __init__(self, kernel: Kernel, layout: Lanes, functions: list[ast.FunctionDef]) -> None:
        self.kernel, self.layout = kernel, layout
        self.history = takes_history(kernel)
        self.tables = frozenset(name for name in kernel.constants if name not in SCALAR_TABLES)
        self.words = frozenset(name for name in kernel.constants if name in SCALAR_TABLES)
        self.signatures = helper_signatures(functions, layout)

    def helper(self, function: ast.FunctionDef) -> bool:
        """Whether a function is a helper (its parameters stay lane tuples)."""
        return function.name in self.signatures

    def rewriter(self, boards: set[str], function: str, lists: set[str]) -> HelperRewrite:
        """The rewriter of one function."""
        return HelperRewrite(self.layout.lanes, boards, function, self.layout, lists, self.tables, self.words,
                             self.signatures)

    def seeds(self, function: ast.FunctionDef) -> set[str]:
        """Names that hold bitboards whatever they are assigned: a helper's cells asked about and the names it
        returns as a tuple of bitboards, and the names a helper's bitboards are unpacked into."""
        names = set()
        if function.name in self.signatures:
            boards = self.signatures[function.name][0]
            names = {a.arg for a, b in zip(function.args.args, boards) if b}
            names |= {e.id for node in ast.walk(function) if isinstance(node, ast.Return)
                      and isinstance(node.value, ast.Tuple) for e in node.value.elts if isinstance(e, ast.Name)}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple) \
                    and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                    and self.signatures.get(node.value.func.id, ([], 0))[1] > 0:
                names |= {e.id for e in node.targets[0].elts if isinstance(e, ast.Name)}
        return names

    def head(self) -> str:
        """The constant tables, before the functions; raises :class:`~.lanes.Unfit` for one that is no table."""
        if not all(isinstance(v, tuple) and all(type(x) is int for x in v) for v in self.kernel.constants.values()):
            raise Unfit("a constant that is no table of whole numbers")
        text = "\n".join(table_source(name, values, self.layout.lanes)
                         for name, values in sorted(self.kernel.constants.items()))
        return text + "\n\n\n" if text else ""

    def tail(self, source: str) -> str:
        """The bit length helpers a kernel without earlier positions calls."""
        text = _bit_length(source, self.layout.lanes)
        return "\n\n\n" + text if text else ""


class HelperRewrite(_Rewrite):
    """:class:`~.lanes._Rewrite` with ``hist``, constant tables, helper functions and ``bit_length``."""

    def __init__(self, n: int, boards: set[str], function: str, layout: Lanes, lists: set[str] = frozenset(),
                 tables: frozenset[str] = frozenset(), words: frozenset[str] = frozenset(),
                 signatures: dict[str, tuple[list[bool], int]] | None = None) -> None:
        super().__init__(n, boards, function, layout, lists)
        self.tables, self.words = tables, words  # tables of bitboards, tables of words
        self.signatures = signatures or {}
        self.keys: set[str] = set()  # names holding a flat key of ``hist``

    def board(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.tables:
            return True
        return super().board(node)

    def bits(self, node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.tables:
            at = self.scalar(node.slice)  # a row of the array: one word a lane
            return ast.Tuple([ast.Subscript(node.value, ast.Tuple([at, ast.Constant(j)], ast.Load()), ast.Load())
                              for j in range(self.n)], ast.Load())
        if isinstance(node, ast.BinOp) and _is_int(node.left) and _is_int(node.right) and type(node.op) in FOLDED:
            return self.constant(FOLDED[type(node.op)](node.left.value, node.right.value))  # a mask of two numbers
        return super().bits(node)

    def scalar(self, node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.words:
            return ast.Subscript(node.value, self.scalar(node.slice), ast.Load())
        return super().scalar(node)

    def key(self, node: ast.expr) -> ast.expr:
        """A key of ``hist`` as one flat tuple of words."""
        if isinstance(node, ast.Name) and node.id in self.keys:
            return node
        if not isinstance(node, ast.Tuple):
            raise Unfit(f"{ast.unparse(node)} as a key")
        words: list[ast.expr] = []
        for item in node.elts:
            if self.board(item):
                value = self.bits(item)
                words += [ast.Subscript(value, ast.Constant(j), ast.Load()) for j in range(self.n)]
            else:
                words.append(_call("u64", self.scalar(item)))
        return ast.Tuple(words, ast.Load())

    def compare(self, node: ast.Compare) -> ast.expr:
        if in_history(node):
            return history_member(node, self.key(node.left))
        return super().compare(node)

    def call(self, node: ast.Call) -> ast.expr:
        func = node.func
        if history_method(node):
            return history_call(node, [self.key(a) for a in node.args])
        if isinstance(func, ast.Attribute) and func.attr == "bit_length" and not node.args:
            if self.board(func.value):
                return _call("wlen", self.bits(func.value))
            return _call("bitlength", self.scalar(func.value))
        if isinstance(func, ast.Name) and func.id in self.signatures:
            boards, returns = self.signatures[func.id]
            if returns or len(boards) != len(node.args):
                raise Unfit(f"{ast.unparse(node)}")
            return _call(func.id, *(self.bits(a) if b else self.scalar(a) for a, b in zip(node.args, boards)))
        return super().call(node)

    def statement(self, node: ast.stmt) -> ast.stmt | list[ast.stmt]:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and isinstance(node.value.func.value, ast.Name) \
                and node.value.func.value.id == "hist":
            return ast.Expr(self.call(node.value))
        return super().statement(node)

    def assign(self, node: ast.Assign) -> ast.stmt:
        target = node.targets[0] if len(node.targets) == 1 else None
        if isinstance(target, ast.Name) and target.id == "key" and isinstance(node.value, ast.Tuple):
            self.keys.add(target.id)
            return ast.Assign([target], self.key(node.value), lineno=0)
        call = node.value
        if isinstance(target, ast.Tuple) and isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                and call.func.id in self.signatures:  # pin, arr = pinlines(...)
            boards, returns = self.signatures[call.func.id]
            if returns != len(target.elts) or not all(isinstance(e, ast.Name) and e.id in self.boards
                                                      for e in target.elts):
                raise Unfit(ast.unparse(node))
            args = [self.bits(a) if b else self.scalar(a) for a, b in zip(call.args, boards)]
            return ast.Assign([target], _call(call.func.id, *args), lineno=0)
        return super().assign(node)

    def ret(self, node: ast.Return) -> ast.Return:
        if self.function not in (*LANE_FUNCTIONS, "children", *self.signatures):
            raise Unfit(f"a function {self.function} of its own")  # (``canmove``: drop mates)
        if self.function == "children":
            return ast.Return(self.scalar(node.value))
        if self.function in self.signatures:
            value = node.value
            if isinstance(value, ast.Tuple):
                return ast.Return(ast.Tuple([self.bits(e) for e in value.elts], ast.Load()))
            if self.function in MOVERS:  # the moves found, as true or false
                return ast.Return(self.truth(value))
            return ast.Return(self.scalar(value))
        return super().ret(node)
