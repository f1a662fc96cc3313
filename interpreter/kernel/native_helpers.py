"""Machine code for kernels that call helper functions of their own or keep earlier positions.

:mod:`rulesdsl.interpreter.kernel.native` translates the generated kernel for numba. Two kinds of kernel it
leaves to this module:

- kernels whose source holds helper functions beside the moves: ``attacked(*bitboards, by, tg)`` and
  ``pinlines(...)`` (:mod:`rulesdsl.interpreter.kernel.attacks`). Each becomes a module-level function of the
  native source, its words typed as the moves' are; the bitboard it is asked about is passed as a word
  (``u64(...)``), and ``x.bit_length()`` becomes ``bitlength(x)`` (the set bits smeared downwards, counted);
- kernels whose ``hist`` holds earlier positions: ``repetitions`` (a list of keys, :mod:`~.past`) and ``forbid
  repetition`` (a set of earlier boards). Natively ``hist`` is a fixed-size array of unsigned words, one key a
  row (rows ``1 .. n``, ``n`` in ``hist[0, 0]``), sized by the caller for the plies it may add (a playout's
  cap, a perft's depth), so no move allocates. ``hist.append(key)``, ``hist.pop()``, ``hist.count(key)``,
  ``hist.add(key)``, ``hist.discard(key)`` and ``key in hist`` become calls of small functions written
  beside the kernel (:data:`HISTORY`) that store and compare the whole key, word by word: no hash, so no
  collision can make two positions the same.

Such a kernel keeps its recursive ``perft`` (numba compiles and caches a function that calls itself) and has no
``expand``: the Python kernel has none for these games either, so the solver and the alpha-beta engine's native
search do not take them (they stay on the Python kernel or the generic path); playouts, ``bench`` and perft run
natively. :class:`HistoryNative` wraps the machine code so that callers pass the Python kernel's history (a list
of keys, a set of boards, or ``None``) as before.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rulesdsl.interpreter.kernel.codegen import Kernel

HELPERS = ("attacked", "pinlines")  # the helper functions a kernel's moves call (they return plain values)
MAX_ROWS = 1 << 20  # a longer history (a playout cap beyond it) stays on the Python kernel

HISTORY = '''
def hpush(hist, key):
    n = hist[0, 0] + u64(1)
    for i in range(len(key)):
        hist[n, i] = key[i]
    hist[0, 0] = n


def hpop(hist):
    hist[0, 0] -= u64(1)


def hfind(hist, key, start):
    j = start
    while j <= hist[0, 0]:
        same = True
        for i in range(len(key)):
            if hist[j, i] != key[i]:
                same = False
                break
        if same:
            return j
        j += u64(1)
    return u64(0)


def hcount(hist, key):
    c = 0
    j = hfind(hist, key, u64(1))
    while j:
        c += 1
        j = hfind(hist, key, j + u64(1))
    return c


def hhas(hist, key):
    return hfind(hist, key, u64(1)) != u64(0)


def hadd(hist, key):
    if not hhas(hist, key):
        hpush(hist, key)


def hdiscard(hist, key):
    j = hfind(hist, key, u64(1))
    if j:
        n = hist[0, 0]
        for i in range(len(key)):
            hist[j, i] = hist[n, i]
        hist[0, 0] = n - u64(1)
'''

BITLENGTH = '''
def bitlength(x):
    y = u64(x)
    y |= y >> u64(1)
    y |= y >> u64(2)
    y |= y >> u64(4)
    y |= y >> u64(8)
    y |= y >> u64(16)
    y |= y >> u64(32)
    return popcount(y)
'''

HISTORY_METHODS = {"append": "hpush", "pop": "hpop", "count": "hcount", "add": "hadd", "discard": "hdiscard"}


def _u64(node: ast.expr) -> ast.expr:
    return ast.Call(ast.Name("u64", ast.Load()), [node], [])


def _words_of(node: ast.expr) -> ast.expr:
    """A tuple display with each item a word (a key of ``hist``); any other expression as it is."""
    if isinstance(node, ast.Tuple):
        return ast.Tuple([_u64(item) for item in node.elts], ast.Load())
    return node


def takes_history(kernel: Kernel) -> bool:
    """True when the kernel's ``hist`` holds earlier positions (this module's kind of native kernel)."""
    return bool(kernel.repetition or kernel.past)


def word_rewriter(base: type) -> type:
    """The native module's word rewriter (``base``, its ``_Words``) extended for helper functions, ``hist`` and
    ``bit_length`` (see the module docstring)."""

    class Words(base):  # type: ignore[misc, valid-type]
        def visit_Return(self, node: ast.Return) -> ast.stmt:
            if self.function in (*HELPERS, "perft"):
                self.generic_visit(node)
                return node
            return super().visit_Return(node)

        def visit_Assign(self, node: ast.Assign) -> ast.stmt | list[ast.stmt]:
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id in ("key", "cur"):
                node.value = _words_of(node.value)
            return super().visit_Assign(node)

        def visit_Compare(self, node: ast.Compare) -> ast.expr:
            if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                    and isinstance(node.comparators[0], ast.Name) and node.comparators[0].id == "hist":
                self.generic_visit(node)
                found = ast.Call(ast.Name("hhas", ast.Load()),
                                 [ast.Name("hist", ast.Load()), _words_of(node.left)], [])
                return ast.UnaryOp(ast.Not(), found) if isinstance(node.ops[0], ast.NotIn) else found
            return super().visit_Compare(node)

        def visit_Call(self, node: ast.Call) -> ast.expr:
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "hist" \
                    and func.attr in HISTORY_METHODS:
                self.generic_visit(node)
                return ast.Call(ast.Name(HISTORY_METHODS[func.attr], ast.Load()),
                                [ast.Name("hist", ast.Load()), *(_words_of(a) for a in node.args)], [])
            if isinstance(func, ast.Attribute) and func.attr == "bit_length":
                self.generic_visit(node)
                return ast.Call(ast.Name("bitlength", ast.Load()), [func.value], [])
            node = super().visit_Call(node)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                if node.func.id in HELPERS:  # the cells asked about: always a word
                    node.args[-1] = _u64(node.args[-1])
                elif node.func.id == "perft" and len(node.args) >= 4:  # the go-again cell: always a word
                    node.args[-3] = _u64(node.args[-3])
            return node

    return Words


def history_source(kernel: Kernel, words_of: Callable[[ast.FunctionDef], set[str]], rewriter: type,
                   constants: list[ast.stmt]) -> str:
    """The native source of a kernel with helper functions and earlier positions: its functions rewritten
    (``words_of``: the names of a function holding words; ``rewriter``: :func:`word_rewriter`'s class), below
    ``constants`` (the tables), with :data:`HISTORY`, :data:`BITLENGTH` and ``playouts``."""
    tree = ast.parse(kernel.source)
    body = list(constants)
    for function in tree.body:
        assert isinstance(function, ast.FunctionDef)
        words = words_of(function)
        function = rewriter(words, function.name).visit(function)
        if function.name == "playout":
            params = function.args.args
            params[[a.arg for a in params].index("randrange")].arg = "rs"
        body.append(function)
    source = ast.unparse(ast.Module(body, []))
    source += "\n\n" + HISTORY.strip() + "\n\n\n" + BITLENGTH.strip() + "\n\n\n" + _playouts(kernel.width)
    return source


def _playouts(symbols: int) -> str:
    """``playouts(..., hist, rs, cap, games)``: that many playouts from one position, each from the same earlier
    positions, and the plies they played in all."""
    words = "".join(f"v{i}, " for i in range(symbols))
    ends = "".join(f"a{i}, " for i in range(symbols))
    return (f"def playouts({words}turn, last, hist, rs, cap, games):\n"
            f"    total = 0\n"
            f"    start = hist[0, 0]\n"
            f"    for i in range(games):\n"
            f"        hist[0, 0] = start\n"
            f"        {ends}tn, ln, w, r, p = playout({words}turn, last, hist, rs, cap)\n"
            f"        total += p\n"
            f"    hist[0, 0] = start\n"
            f"    return total\n")


def key_width(kernel: Kernel) -> int:
    """The words of one key of ``hist``: the bitboards, the keyed mark words and the player to move
    (``repetitions``), or the bitboards and the words after them (``forbid repetition``)."""
    if kernel.past:
        from rulesdsl.interpreter.kernel.past import KEYED

        return len(kernel.symbols) + sum(1 for f in KEYED if f in kernel.marks) + 1
    return kernel.width


def history_array(keys: Iterable[tuple] | None, width: int, room: int):
    """The native ``hist`` of the Python kernel's (a list of keys, a set of boards, ``None``), with ``room`` rows
    more for the keys the call may add."""
    import numpy as np

    rows = list(keys) if keys is not None else []
    hist = np.zeros((len(rows) + room + 1, max(width, 1)), dtype=np.uint64)
    hist[0, 0] = len(rows)
    for i, key in enumerate(rows, 1):
        hist[i, :len(key)] = [int(w) for w in key]
    return hist


def history_keys(hist, start: int = 0) -> list[tuple[int, ...]]:
    """The keys of a native ``hist`` from the ``start``-th on, as the Python kernel's tuples of integers."""
    n = int(hist[0, 0])
    return [tuple(int(w) for w in row) for row in hist[1 + start:n + 1].tolist()]


@dataclass
class HistoryNative:
    """The machine code of a kernel with earlier positions, taking the Python kernel's ``hist`` (see the module
    docstring); :meth:`playout` also returns the native history, from which the caller reads the keys added."""

    module: object
    kernel: Kernel
    width: int  # the words of one key

    def rows_for(self, keys, room: int):
        """``hist`` for a call that may add ``room`` keys, or ``None`` when that is too many."""
        if room > MAX_ROWS:
            return None
        return history_array(keys, self.width, room)

    def playout(self, *args):
        """``playout(*words, turn, last, hist, rs, cap)`` on the native ``hist`` (see :func:`history_array`)."""
        return self.module.playout(*args)

    def perft(self, *args):
        """``perft(*words, turn, last, keys, depth)``: ``keys`` the Python kernel's history or ``None``."""
        *head, keys, depth = args
        return self.module.perft(*head, history_array(keys, self.width, max(depth, 1)), depth)

    def playouts(self, *args):
        """``playouts(*words, turn, last, keys, rs, cap, games)``: ``keys`` the Python kernel's history or ``None``."""
        *head, keys, rs, cap, games = args
        return self.module.playouts(*head, history_array(keys, self.width, cap + 1), rs, cap, games)
