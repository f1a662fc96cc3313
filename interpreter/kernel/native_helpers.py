"""Machine code for kernels that call helper functions of their own or keep earlier positions.

:mod:`rulesdsl.interpreter.kernel.native` translates the generated kernel for numba. Two kinds of kernel it
leaves to this module:

- kernels whose source holds helper functions beside the moves: ``attacked(*bitboards, by, tg)`` and
  ``pinlines(...)`` (:mod:`rulesdsl.interpreter.kernel.attacks`), and ``canmove(*words, turn)`` (:data:`MOVERS`:
  the drop-mate test's question whether the other player has a move, :mod:`~.drop_mates`). Each becomes a
  module-level function of the native source, its words typed as the moves' are; the bitboard it is asked about
  is passed as a word (``u64(...)``), and ``x.bit_length()`` becomes ``bitlength(x)`` (the set bits smeared
  downwards, counted);
- kernels whose ``hist`` holds earlier positions: ``repetitions`` (a list of keys, :mod:`~.past`) and ``forbid
  repetition`` (a set of earlier boards). Natively ``hist`` is a fixed-size array of unsigned words, one key a
  row (rows ``1 .. n``, ``n`` in ``hist[0, 0]``), sized by the caller for the plies it may add (a playout's
  cap, a perft's depth), so no move allocates. ``hist.append(key)``, ``hist.pop()``, ``hist.count(key)``,
  ``hist.add(key)``, ``hist.discard(key)`` and ``key in hist`` become calls of small functions written
  beside the kernel (:data:`HISTORY`) that store and compare the whole key, word by word: no hash, so no
  collision can make two positions the same.

Such a kernel has no ``expand`` (the Python kernel has none for these games either, so the solver's expansion
stays on the Python kernel or the generic path); its ``perft`` becomes ``children`` (:func:`_children`), whose end
checks return ``-2 - i`` (:func:`~.native_split.encode_outcomes`), so that it serves as an expand: playouts,
``bench``, perft and the alpha-beta engine (:mod:`rulesdsl.interpreter.search.history_search`, over the helpers
of :mod:`rulesdsl.interpreter.search.native_history` appended here) run natively. :class:`HistoryNative` wraps
the machine code so that callers pass the Python kernel's history (a list of keys, a set of boards, or
``None``) as before.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rulesdsl.interpreter.kernel import native_split
from rulesdsl.interpreter.kernel.codegen import Kernel
from rulesdsl.interpreter.kernel.lanes import Lanes
from rulesdsl.interpreter.kernel.mobility_cut import takes_moves_away
from rulesdsl.interpreter.search.native_history import history_search_source

HELPERS = ("attacked", "pinlines", "hitafter")  # the helper functions a kernel's moves call (plain values)
ASKED = {"hitafter": 3}  # the cells each helper is asked about: its last argument, or its last N (words)
MOVERS = ("canmove",)  # helpers saying whether the player to move has a move (drop mates: :mod:`~.drop_mates`)
MAX_ROWS = 1 << 20  # a longer history (a playout cap beyond it) stays on the Python kernel
ROWS = 2048  # children a position may have in the native perft (more: that perft runs on the Python kernel)

HISTORY = '''
def hpush(hist, key):
    n = hist[0, 0] + u64(1)
    for i in range(len(key)):
        hist[n, i] = key[i]
    hist[0, 0] = n


def putrow(out, k, row):
    for i in range(len(row)):
        out[k, i] = row[i]
    return k + 1


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


def in_history(node: ast.Compare) -> bool:
    """``key in hist`` or ``key not in hist``."""
    return len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
        and isinstance(node.comparators[0], ast.Name) and node.comparators[0].id == "hist"


def history_member(node: ast.Compare, key: ast.expr) -> ast.expr:
    """``hhas(hist, key)`` (with ``not`` for ``not in``): the native test of :func:`in_history`'s ``node``."""
    found = ast.Call(ast.Name("hhas", ast.Load()), [ast.Name("hist", ast.Load()), key], [])
    return ast.UnaryOp(ast.Not(), found) if isinstance(node.ops[0], ast.NotIn) else found


def history_method(node: ast.Call) -> bool:
    """``hist.append(key)`` and the other methods of :data:`HISTORY_METHODS`."""
    func = node.func
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "hist" \
        and func.attr in HISTORY_METHODS


def history_call(node: ast.Call, keys: list[ast.expr]) -> ast.expr:
    """The native function of :func:`history_method`'s ``node``, on ``hist`` and ``keys``."""
    return ast.Call(ast.Name(HISTORY_METHODS[node.func.attr], ast.Load()), [ast.Name("hist", ast.Load()), *keys], [])


def word_rewriter(base: type) -> type:
    """The native module's word rewriter (``base``, its ``_Words``) extended for helper functions, ``hist`` and
    ``bit_length`` (see the module docstring)."""

    class Words(base):  # type: ignore[misc, valid-type]
        def visit_Return(self, node: ast.Return) -> ast.stmt:
            if self.function in (*HELPERS, *MOVERS, "perft", "children"):
                self.generic_visit(node)
                if isinstance(node.value, ast.Tuple):  # a helper's words (``pinlines``): words whatever they hold
                    node.value = _words_of(node.value)
                return node
            return super().visit_Return(node)

        def visit_Assign(self, node: ast.Assign) -> ast.stmt | list[ast.stmt]:
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id in ("key", "cur"):
                node.value = _words_of(node.value)
            return super().visit_Assign(node)

        def visit_Expr(self, node: ast.Expr) -> ast.stmt | list[ast.stmt]:
            call = node.value
            if self.function == "children" and isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                    and call.func.id == "put":  # one call a row: numba lowers each item written apart slowly
                self.generic_visit(node)
                row = ast.Tuple([_u64(item) for item in call.args[0].elts], ast.Load())
                value = ast.Call(ast.Name("putrow", ast.Load()),
                                 [ast.Name("out", ast.Load()), ast.Name("kids", ast.Load()), row], [])
                return ast.Assign([ast.Name("kids", ast.Store())], value, lineno=0)
            return super().visit_Expr(node)

        def visit_Compare(self, node: ast.Compare) -> ast.expr:
            if in_history(node):
                self.generic_visit(node)
                return history_member(node, _words_of(node.left))
            return super().visit_Compare(node)

        def visit_Call(self, node: ast.Call) -> ast.expr:
            func = node.func
            if history_method(node):
                self.generic_visit(node)
                return history_call(node, [_words_of(a) for a in node.args])
            if isinstance(func, ast.Attribute) and func.attr == "bit_length":
                self.generic_visit(node)
                return ast.Call(ast.Name("bitlength", ast.Load()), [func.value], [])
            node = super().visit_Call(node)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                if node.func.id in HELPERS:  # the cells asked about: always words
                    asked = ASKED.get(node.func.id, 1)
                    node.args[-asked:] = [_u64(arg) for arg in node.args[-asked:]]
                elif node.func.id == "perft" and len(node.args) >= 4:  # the go-again cell: always a word
                    node.args[-3] = _u64(node.args[-3])
            return node

    return Words


def history_source(kernel: Kernel, words_of: Callable[[ast.FunctionDef], set[str]], rewriter: type,
                   constants: list[ast.stmt]) -> str:
    """The native source of a kernel with helper functions and earlier positions: its functions rewritten
    (``words_of``: the names of a function holding words; ``rewriter``: :func:`word_rewriter`'s class), below
    ``constants`` (the tables), with :data:`HISTORY`, :data:`BITLENGTH` and ``playouts``."""
    from rulesdsl.interpreter.kernel.native import many_playouts  # (which imports this module)

    tree = ast.parse(kernel.source)
    body = list(constants)
    functions: list[ast.FunctionDef] = []
    for function in tree.body:
        assert isinstance(function, ast.FunctionDef)
        if function.name == "perft":  # numba types a recursive function slowly: walk a stack of children instead
            functions.append(_children(function, kernel.width))
        else:
            functions.append(function)
    large, numbers = native_split.large(kernel), itertools.count()
    picked = False  # children says how a game ended (:mod:`~.native_split`): the search and a large playout read it
    playout = next(f for f in functions if f.name == "playout")
    ends = native_split.encode_outcomes(next(f for f in functions if f.name == "children"), playout)
    if large:  # the playout a loop over children
        functions = [f for f in functions if f is not playout or ends is None]
    for function in functions:
        words = words_of(function)
        function = rewriter(words, function.name).visit(function)
        if function.name == "playout":
            params = function.args.args
            params[[a.arg for a in params].index("randrange")].arg = "rs"
        elif function.name == "children":  # (..., out, rs, pick): see native_split.pick_one
            function.body.insert(0, ast.Assign([ast.Name("kids", ast.Store())], ast.Constant(0), lineno=0))
            function.args.args += [ast.arg("rs"), ast.arg("pick")]
            picked = large and ends is not None and native_split.pick_one(function)
        body += native_split.outline(function, numbers) if large and function.name == "children" else [function]
    source = ast.unparse(ast.Module(body, []))
    more = [native_split.playout_over_children(kernel.width, ROWS, *ends, picked)] if large and ends else []
    if ends is not None:  # the alpha-beta engine's helpers over children (:mod:`~.search.native_history`)
        more.append(history_search_source(kernel.width, kernel.opponent, len(kernel.counted), ends[0],
                                          kernel.features))
    return "\n\n\n".join([source, *more, HISTORY.strip(), BITLENGTH.strip(),
                          many_playouts(kernel.width, history=True), _walk(kernel.width)])


def _children(perft: ast.FunctionDef, symbols: int) -> ast.FunctionDef:
    """``children(*bits, turn, last, hist, depth, out)``: perft's statements with each count below a child made a
    row of ``out`` (``put``), returning how many it wrote (``-1``: more than :data:`ROWS`); at depth 1 the count
    of the moves, as perft's; at depth 0 that count without the end checks, ``must capture``'s filters and a
    forced pass (the moves the player has, whoever is to move: the search's ``mobility``,
    :mod:`~rulesdsl.interpreter.kernel.mobility_cut`). The key of the position joins ``hist`` and stays there (the walk
    takes it off when it has counted the children)."""

    class Rows(ast.NodeTransformer):
        def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
            call = node.value
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "perft":
                items: list[ast.expr] = []
                for arg in call.args[:-2]:  # the words, the player to move, the go-again cell
                    if isinstance(arg, ast.Starred):
                        items += [ast.Subscript(arg.value, ast.Constant(i), ast.Load()) for i in range(symbols)]
                    else:
                        items.append(arg)
                put = ast.Call(ast.Name("put", ast.Load()), [ast.Tuple(items, ast.Load())], [])
                return ast.Expr(put)
            return node

        def visit_Expr(self, node: ast.Expr) -> ast.stmt | None:
            text = ast.unparse(node)
            return None if text in ("hist.pop()", "hist.discard(cur)", "hist.discard(key)") else node

        def visit_If(self, node: ast.If) -> ast.stmt | None:
            self.generic_visit(node)
            if ast.unparse(node.test) == "depth == 1":  # the count at the last ply, then room for the rows
                node.test = ast.parse("depth <= 1", mode="eval").body  # depth 0: the count alone (mobility)
                return [node, ast.parse(f"if total > {ROWS}:\n    return -1").body[0]]
            if not node.orelse and len(node.body) == 1 and ast.unparse(node.body[0]) == "return 0" \
                    or takes_moves_away(node):  # an end check, must capture's filter: not at depth 0
                node.test = ast.BoolOp(ast.And(), [ast.parse("depth != 0", mode="eval").body, node.test])
            return node if node.body else None

        def visit_Return(self, node: ast.Return) -> ast.stmt:
            if isinstance(node.value, ast.Name) and node.value.id == "n":
                return ast.Return(ast.Name("kids", ast.Load()))
            return node

    function = Rows().visit(perft)
    if any(isinstance(node, ast.Name) and node.id == "raw" for node in ast.walk(function)):
        for node in ast.walk(function):  # a forced pass counts apart (``raw``): mobility counts the moves without it
            if isinstance(node, ast.If) and ast.unparse(node.test) == "depth <= 1":
                node.body.insert(0, ast.parse("if depth == 0:\n    return raw").body[0])
    function.name = "children"
    function.args.args.append(ast.arg("out"))
    return function


def _walk(symbols: int) -> str:
    """``perft(*bits, turn, last, hist, depth)`` without recursion: ``children`` fills one level of a stack of
    child rows per ply (its position's key joins ``hist``; the walk restores ``hist`` when the level is counted)
    and counts the moves of the last ply; ``-1`` when a position had more than :data:`ROWS` children."""
    words = "".join(f"v{i}, " for i in range(symbols))
    row = "".join(f"row[{i}], " for i in range(symbols)) + f"i64(row[{symbols}]), row[{symbols + 1}]"
    return (f"def perft({words}turn, last, hist, depth):\n"
            f"    buf = stack(depth, {ROWS}, {symbols + 2})\n"
            f"    rs = stack(1, 1, 1)[0, 0]\n"
            f"    if depth == 1:\n"
            f"        k = children({words}turn, last, hist, 1, buf[0], rs, -1)\n"
            f"        if k < 0:\n"
            f"            return 0\n"
            f"        return k\n"
            f"    cnt = counters(depth)\n"
            f"    at = counters(depth)\n"
            f"    keep = counters(depth)\n"
            f"    keep[0] = i64(hist[0, 0])\n"
            f"    k = children({words}turn, last, hist, depth, buf[0], rs, -1)\n"
            f"    if k == -1:\n"
            f"        return -1\n"
            f"    if k < 0:\n"
            f"        k = 0\n"
            f"    cnt[0] = k\n"
            f"    level = 0\n"
            f"    n = 0\n"
            f"    while level >= 0:\n"
            f"        if at[level] == cnt[level]:\n"
            f"            hist[0, 0] = u64(keep[level])\n"
            f"            level -= 1\n"
            f"        else:\n"
            f"            row = buf[level, at[level]]\n"
            f"            at[level] += 1\n"
            f"            if level + 2 == depth:\n"
            f"                k = children({row}, hist, 1, buf[level + 1], rs, -1)\n"
            f"                if k > 0:\n"
            f"                    n += k\n"
            f"            else:\n"
            f"                keep[level + 1] = i64(hist[0, 0])\n"
            f"                k = children({row}, hist, depth - level - 1, buf[level + 1], rs, -1)\n"
            f"                if k == -1:\n"
            f"                    return -1\n"
            f"                if k < 0:\n"
            f"                    k = 0\n"
            f"                level += 1\n"
            f"                cnt[level] = k\n"
            f"                at[level] = 0\n"
            f"    return n\n")


def key_width(kernel: Kernel) -> int:
    """The words of one key of ``hist``: the bitboards, the keyed mark words and the player to move
    (``repetitions``), or the bitboards and the words after them (``forbid repetition``)."""
    if kernel.past:
        from rulesdsl.interpreter.kernel.past import KEYED

        return len(kernel.symbols) + sum(1 for f in KEYED if f in kernel.marks) + 1
    return kernel.width


def key_lanes(kernel: Kernel, lanes: Lanes) -> Lanes:
    """How one key of ``hist`` is laid out in words on several words a bitboard: the position's own layout
    (``forbid repetition``: a key is the position's words), or, for ``repetitions``, the bitboards' lanes, the keyed
    mark words (a bitboard's lanes where the position keeps that word as one) and the player to move."""
    if not kernel.past:
        return lanes
    from rulesdsl.interpreter.kernel.past import KEYED

    keyed = [f for f in KEYED if f in kernel.marks]
    symbols = len(kernel.symbols)
    base = symbols + kernel.counter + kernel.hands + len(kernel.words)  # the first mark word (Kernel.extra)
    wide = {symbols + j for j, f in enumerate(keyed) if lanes.board(base + kernel.marks.index(f))}
    return Lanes(lanes.lanes, symbols, symbols + len(keyed) + 1, frozenset(wide))


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
    lanes: Lanes | None = None  # several words a bitboard (:mod:`~.lanes`): a key's bitboards are split in lanes

    def __post_init__(self) -> None:
        self.keyed = key_lanes(self.kernel, self.lanes) if self.lanes is not None else None  # a key's layout
        if self.keyed is not None:
            self.width = self.keyed.column(self.keyed.width)

    def rows_for(self, keys, room: int):
        """``hist`` for a call that may add ``room`` keys, or ``None`` when that is too many."""
        if room > MAX_ROWS:
            return None
        return history_array(self._split(keys), self.width, room)

    def _split(self, keys):
        """The Python kernel's keys as rows of words (each bitboard's lanes, low lane first)."""
        if keys is None or self.keyed is None:
            return keys
        return [tuple(self.keyed.split(key)) for key in keys]

    def keys(self, hist, start: int = 0) -> list[tuple[int, ...]]:
        """The keys of a native ``hist`` from the ``start``-th on, as the Python kernel's tuples of integers."""
        found = history_keys(hist, start)
        return found if self.keyed is None else [tuple(self.keyed.join(key)) for key in found]

    def playout(self, *args):
        """``playout(*words, turn, last, hist, rs, cap)`` on the native ``hist`` (see :func:`history_array`)."""
        return self.module.playout(*args)

    def perft(self, *args):
        """``perft(*words, turn, last, keys, depth)``: ``keys`` the Python kernel's history or ``None`` (a position
        with more children than the native walk has room for is counted on the Python kernel)."""
        *head, keys, depth = args
        found = self.module.perft(*head, history_array(self._split(keys), self.width, max(depth, 1)), depth)
        if found >= 0:
            return found
        history = set(keys or ()) if self.kernel.repetition else list(keys or ())
        words, last = [int(w) for w in head[:-2]], int(head[-1])
        if self.lanes is not None:
            words, last = self.lanes.join(words), 1 << (last - 1) if last else 0
        return self.kernel.perft(*words, int(head[-2]), last, history, depth)

    def playouts(self, *args):
        """``playouts(*words, turn, last, keys, rs, cap, games)``: ``keys`` the Python kernel's history or ``None``."""
        *head, keys, rs, cap, games = args
        return self.module.playouts(*head, history_array(self._split(keys), self.width, cap + 1), rs, cap, games)
