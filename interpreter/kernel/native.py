"""The kernel in machine code: the generated Python source typed for 64-bit words and compiled with numba.

:mod:`rulesdsl.interpreter.kernel.codegen` writes a game's playout, perft and expand
over Python integers. This module rewrites that source (its syntax tree, after
:func:`~rulesdsl.interpreter.kernel.codegen.check_source` has passed it) for numba:

- every bitboard is one unsigned 64-bit word: the whole numbers that meet a
  bitboard (masks, shift counts, ``0`` assigned to a bitboard) are wrapped in
  ``u64(...)``, so nothing mixes signed and unsigned words (numba would make
  such a sum a float); ``-x`` of a word becomes ``u64(0) - x``;
- ``x.bit_count()`` becomes ``popcount(x)`` (LLVM's population count);
- a playout draws with ``draw(rs, n)``, an inline xorshift64 whose state is
  the one-word array ``rs`` (:mod:`rulesdsl.interpreter.kernel.xorshift` is the
  same generator in Python, so both kernels play the same game from a seed);
- results become whole numbers: ``(winner, rule)`` -> ``winner, rule`` with
  ``-1`` for a draw, and ``-2, -2`` for "not over" / "cut at the cap";
- ``expand`` writes each child as one row of the word array ``out`` (the
  bitboards, then the player to move and the go-again bit) and returns how
  many rows it wrote.

A kernel whose ``hist`` keeps earlier positions (``forbid repetition``,
``repetitions``) and one that calls helper functions of its own (``attacked``)
are translated by :mod:`rulesdsl.interpreter.kernel.native_helpers` (playouts, perft and
the alpha-beta engine's helpers natively; no ``expand``, so no native solver expansion). A large kernel is
written in pieces (:mod:`rulesdsl.interpreter.kernel.native_split`: the playout over the children, the long
bodies made shorter by :mod:`~.native_compact` and outlined into functions), which numba compiles in
minutes where the whole took tens of minutes (:func:`compiles_soon`; on several words a bitboard too). A board
whose bounding box has more than 64 cells takes several words a bitboard
(:mod:`~rulesdsl.interpreter.kernel.lanes`, with earlier positions, tables and helper
functions in :mod:`~rulesdsl.interpreter.kernel.lanes_helpers`). The rewritten source is
checked again with ``check_source`` and then written, below a fixed header
that imports the helpers of :mod:`rulesdsl.interpreter.kernel.native_runtime`, to a
file in the user's cache folder named by a hash of that source (which is a
function of the rule text and its options); numba keeps the machine code
beside it (``cache=True``), so a second start loads it instead of compiling.

Nothing here imports numba until a native kernel is loaded. ``RULESDSL_NATIVE=0``
in the environment (or numba missing) leaves every game on the Python kernel.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import hashlib
import itertools
import os
import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulesdsl.interpreter.kernel import native_split
from rulesdsl.interpreter.kernel.chains import MAX_CHAINS
from rulesdsl.interpreter.kernel.codegen import Kernel, check_source
from rulesdsl.interpreter.kernel.compile_lock import compiling
from rulesdsl.interpreter.kernel.lanes import Lanes, layout_of
from rulesdsl.interpreter.kernel.mobility_cut import takes_moves_away
from rulesdsl.interpreter.kernel.native_helpers import (
    BITLENGTH,
    HistoryNative,
    history_source,
    key_width,
    takes_history,
    word_rewriter,
)
from rulesdsl.interpreter.kernel.places import places_word
from rulesdsl.interpreter.search.native_players import MARK as PLAYERS_MARK
from rulesdsl.interpreter.search.native_players import warm_players
from rulesdsl.interpreter.search.native_search import search_source

ENV = "RULESDSL_NATIVE"
MAX_ENV = "RULESDSL_NATIVE_MAX"
MAX_SOURCE = 150_000  # characters of native source compiled at most, unless RULESDSL_NATIVE_MAX says otherwise
MAX_PIECES = 700_000  # ... or of a source cut in pieces, none over MAX_FUNCTION characters (compiles_soon): the
# largest bundled ones are shogi's 639,000 (two words a bitboard, earlier positions, drop mates; a first compile
# of 376 CPU s and 1.75 GB) and crazyhouse's 453,000 (one word; about 7 CPU minutes and 1.8 GB at 488,000)
MAX_FUNCTION = 20_000
WORD = 64
RUNTIME_VERSION = "13"  # bump when the header, the runtime or the rewriting changes what a cached file means
BIT_OPS = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)
NOT_OVER = -2  # the winner and rule fields of a result that is not one
_SYNTAX = threading.Lock()  # one rewrite at a time: Python's syntax trees are not built in two threads at once
HEADER = ("from rulesdsl.interpreter.kernel.native_runtime import (  # noqa: F401\n"
          "    after, beyond, counters, draw, i64, jit, lanetable, popcount, putdiff, stack, u64)\n\n")


def enabled() -> bool:
    """False when ``RULESDSL_NATIVE=0`` asks for the Python kernel only."""
    return os.environ.get(ENV, "1").strip() not in ("0", "no", "off", "false")


def max_source() -> int:
    """The longest native source compiled, in characters (``RULESDSL_NATIVE_MAX``, else ``MAX_SOURCE``).

    numba's compile time and memory grow faster than the source: the bundled sources up to 150,000 characters
    compile in seconds to a few minutes (in the background, once), while a 620,000-character one took 25
    minutes and 10 GB. A longer source keeps the Python kernel unless the limit is raised, or unless it is
    written in pieces (:func:`compiles_soon`).
    """
    text = os.environ.get(MAX_ENV, "").strip()
    return int(text) if text.isdigit() else MAX_SOURCE


def compiles_soon(source: str) -> bool:
    """Whether a native source is compiled: at most :func:`max_source` characters, or, when
    ``RULESDSL_NATIVE_MAX`` is not set, at most :data:`MAX_PIECES` characters in functions of at most
    :data:`MAX_FUNCTION` each (:mod:`~.native_split`'s pieces: numba's time grows with each function's size
    faster than with their number, so such a source compiles in a few minutes)."""
    if len(source) <= max_source():
        return True
    if os.environ.get(MAX_ENV, "").strip() or len(source) > MAX_PIECES:
        return False
    return max(len(re.split(r"\n(?=\S)", part)[0]) for part in source.split("\ndef ")[1:]) <= MAX_FUNCTION  # a
    # function ends at the next line that is not indented (the tables of a lanes source follow its helpers)


def numba_available() -> bool:
    """True when numba can be imported (it is imported here, so call this only when a kernel is wanted)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


# -- the rewriting ---------------------------------------------------------------------------------------------
def _u64(node: ast.expr) -> ast.expr:
    return ast.Call(ast.Name("u64", ast.Load()), [node], [])


def _is_int(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


class _Words(ast.NodeTransformer):
    """Rewrites one generated function for 64-bit words (see the module docstring)."""

    def __init__(self, words: set[str], function: str) -> None:
        self.words = words  # the names that hold bitboards
        self.function = function

    def word(self, node: ast.expr) -> bool:
        """Whether an (already rewritten) expression is a bitboard."""
        if isinstance(node, ast.Name):
            return node.id in self.words
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, BIT_OPS) or (isinstance(node.op, (ast.Add, ast.Sub))
                                                    and (self.word(node.left) or self.word(node.right)))
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, (ast.Invert, ast.USub)) and self.word(node.operand)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return node.func.id == "u64"
        return False

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, (ast.LShift, ast.RShift)) and _is_int(node.right) and node.right.value >= WORD:
            return _u64(ast.Constant(0))  # every bit leaves a 64-bit word (Python's integers agree once masked)
        if self.word(node):
            node.left = _u64(node.left) if _is_int(node.left) else node.left
            node.right = _u64(node.right) if _is_int(node.right) else node.right
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.USub) and self.word(node.operand):
            return ast.BinOp(_u64(ast.Constant(0)), ast.Sub(), node.operand)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        if any(self.word(x) for x in [node.left, *node.comparators]):
            node.left = _u64(node.left) if _is_int(node.left) else node.left
            node.comparators = [_u64(x) if _is_int(x) else x for x in node.comparators]
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.stmt | list[ast.stmt]:
        self.generic_visit(node)
        call = node.value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "randrange"):
            call.func.id = "draw"
            call.args.insert(0, ast.Name("rs", ast.Load()))
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id in self.words \
                and _is_int(node.value):
            node.value = _u64(node.value)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        self.generic_visit(node)
        if isinstance(node.target, ast.Name) and node.target.id in self.words and _is_int(node.value):
            node.value = _u64(node.value)
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "bit_count":
            return ast.Call(ast.Name("popcount", ast.Load()), [node.func.value], [])
        return node

    def visit_Return(self, node: ast.Return) -> ast.stmt:
        self.generic_visit(node)
        if self.function in ("count", "mobility"):
            return node
        if self.function == "playout":  # (*bits, turn, last, result, plies)
            items = list(node.value.elts)
            items[-2:-1] = _result(items[-2])
        else:  # expand: result, and the rows written
            items = [*_result(node.value), ast.Name("kids", ast.Load())]
        node.value = ast.Tuple(items, ast.Load())
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.stmt | list[ast.stmt]:
        self.generic_visit(node)
        call = node.value
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "put"):
            return node
        return put_row([value if self.word(value) else _u64(value) for value in call.args[0].elts])


def row_writes(source: str) -> int:
    """How many places of a native source write a child's row (each at most one row a move of a group)."""
    return source.count("kids += 1") + source.count("kids = putlanes(")


def put_row(values: list[ast.expr]) -> list[ast.stmt]:
    """``out[kids, 0] = ...; out[kids, 1] = ...; kids += 1``: one child's row of words written to ``out``."""
    out: list[ast.stmt] = []
    for column, value in enumerate(values):
        target = ast.Subscript(ast.Name("out", ast.Load()),
                               ast.Tuple([ast.Name("kids", ast.Load()), ast.Constant(column)], ast.Load()), ast.Store())
        out.append(ast.Assign([target], value, lineno=0))
    out.append(ast.AugAssign(ast.Name("kids", ast.Store()), ast.Add(), ast.Constant(1)))
    return out


_REWRITER = word_rewriter(_Words)  # with the helper functions, ``hist`` and ``bit_length`` (:mod:`~.native_helpers`)


def _result(node: ast.expr) -> list[ast.expr]:
    """``(winner, rule)`` -> ``[winner, rule]`` with -1 for a draw; ``None`` -> ``[-2, -2]``."""
    if isinstance(node, ast.Constant) and node.value is None:
        return [ast.Constant(NOT_OVER), ast.Constant(NOT_OVER)]
    winner, rule = node.elts
    if isinstance(winner, ast.Constant) and winner.value is None:
        winner = ast.Constant(-1)
    return [winner, rule]


def _word_names(function: ast.FunctionDef) -> set[str]:
    """The names of a function that hold bitboards: the ``v`` parameters, ``last``, and whatever is assigned a
    bit operation of them (worked out to a fixed point)."""
    words = {a.arg for a in function.args.args if a.arg == "last" or (a.arg[0] == "v" and a.arg[1:].isdigit())}
    typer = _Words(words, function.name)
    assigned = []  # (name, value, whether a bit operation makes it a word whatever the value)
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.append((node.targets[0].id, node.value, False))
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            assigned.append((node.target.id, node.value, isinstance(node.op, BIT_OPS)))
    while True:
        before = len(words)
        for name, value, bitwise in assigned:
            if name not in words and (bitwise or typer.word(value)):
                words.add(name)
        if len(words) == before:
            return words


def native_source(kernel: Kernel) -> str | None:
    """The kernel's source rewritten for 64-bit words (several a bitboard on a board over 64 cells), whole, or in
    pieces (:mod:`~.native_split`) where the whole is over ``native_split.WHOLE_SOURCE`` characters; ``None``
    when it has none (:func:`import_checked` checks it before anything runs)."""
    if native_split.large(kernel) and native_split.over_whole(kernel):  # sure to be over: straight to pieces
        return _native_source(kernel)
    with native_split.whole(kernel):
        source = _native_source(kernel)
    if source is None or not native_split.large(kernel):
        return source
    if len(source) <= native_split.WHOLE_SOURCE and _searches(source):
        return source
    pieces = _native_source(kernel)  # over the length whole, or whole only without the search helpers
    if len(source) <= native_split.WHOLE_SOURCE and (pieces is None or not _searches(pieces)
                                                     or not compiles_soon(pieces)):
        return source
    return pieces


def _searches(source: str) -> bool:
    """Whether a native source holds the alpha-beta engine's helpers (the search runs on it)."""
    return "\ndef expandrow(" in source or "\ndef hexpand(" in source


def _native_source(kernel: Kernel) -> str | None:
    """:func:`native_source`, whole or in pieces as :func:`~.native_split.large` says."""
    if kernel.expand is None and not takes_history(kernel):
        return None
    if max(kernel.layout.bit) >= WORD:  # several words a bitboard (with earlier positions: :mod:`~.lanes_helpers`)
        from rulesdsl.interpreter.kernel.lanes import lanes_source  # several words a bitboard (imports this module)

        source = lanes_source(kernel)
        if source is not None and not compiles_soon(source):  # the search helpers add about half: without them,
            source = lanes_source(kernel, search=False)  # playouts, perft and expand stay native (no native search)
        return source
    body = constant_tables(kernel.constants)
    if takes_history(kernel):  # earlier positions in ``hist``: :mod:`~.native_helpers`
        return history_source(kernel, _word_names, _REWRITER, body)
    large, numbers = native_split.large(kernel), itertools.count()
    for function in cut_functions(kernel):
        if large and function.name == "playout":  # a loop over expand instead (:mod:`~.native_split`)
            continue
        words = _word_names(function)
        function = _REWRITER(words, function.name).visit(function)
        params = function.args.args
        if function.name == "playout":
            params[[a.arg for a in params].index("randrange")].arg = "rs"
        elif function.name in ("expand", "outcome"):
            params[-1].arg = "out"
            function.body.insert(0, ast.Assign([ast.Name("kids", ast.Store())], ast.Constant(0), lineno=0))
        body += native_split.outline(function, numbers) if large and function.name == "expand" else [function]
    source = ast.unparse(ast.Module(body, []))
    source += "\n\n" + BITLENGTH.strip() if "bitlength(" in source else ""
    rows = row_writes(source) * WORD + 1 + source.count("for q in range(len(fd") * (MAX_CHAINS - WORD)
    source += "\n\n" + native_split.playout_over_expand(kernel.width, rows) if large else ""
    source += "\n\n" + _perft_walk(kernel.width, rows)
    source += "\n\n" + many_playouts(kernel.width)
    source += "\n\n" + _expand_many(kernel.width, rows)
    source += "\n\n" + search_source(kernel.width, kernel.opponent, len(kernel.counted), kernel.features,
                                        places_word(kernel))
    return source


def constant_tables(constants: dict[str, tuple[int, ...]]) -> list[ast.stmt]:
    """The kernel's tables (rays, steps, ``beyond``'s) as tuples of words, by name; a table equal to one before it
    is that one's name (a kernel's rays repeat: the source stays short, numba's constants the same)."""
    body: list[ast.stmt] = []
    first: dict[tuple[int, ...], str] = {}
    for name, values in sorted(constants.items()):
        words = tuple(int(v) for v in values)
        value = ast.Name(first[words], ast.Load()) if words in first else \
            ast.Tuple([_u64(ast.Constant(v)) for v in words], ast.Load())
        first.setdefault(words, name)
        body.append(ast.Assign([ast.Name(name, ast.Store())], value, lineno=0))
    return body


def cut_functions(kernel: Kernel) -> list[ast.FunctionDef]:
    """The kernel's functions as numba takes them: ``perft`` cut to ``count`` (its first ply) and ``mobility``,
    ``expand`` and ``outcome`` (its end checks alone), ``playout``; not yet typed for words."""
    tree = ast.parse(kernel.source)  # checked when the kernel was compiled; the result is checked before it runs
    copies = {f.name: f for f in ast.parse(kernel.source).body}  # a second tree to cut functions from
    functions = []
    for function in tree.body:
        assert isinstance(function, ast.FunctionDef)
        if function.name == "perft":  # numba's cache cannot keep a recursive function: count leaves, walk a stack
            function.name = "count"
            function.body = _first_ply(function.body)
            mobility = copies["perft"]
            mobility.name = "mobility"
            mobility.body = _before_pass(_without_must_capture(_without_end_checks(_first_ply(mobility.body))))
            functions += [function, mobility]
        elif function.name == "expand":  # and its end checks alone: the outcome of a position
            outcome = copies["expand"]
            outcome.name, outcome.body = "outcome", _until_children(outcome.body)
            functions += [function, outcome]
        else:
            functions.append(function)
    return functions


@functools.cache
def _rewriting_key() -> str:
    """A hash of the modules that write a native source, so that a cached rewrite never outlives their code."""
    from rulesdsl.interpreter.kernel import lanes, lanes_helpers, mobility_cut, native_helpers
    from rulesdsl.interpreter.search import feature_source, native_history, native_players, native_search

    digest = hashlib.sha256()
    for module in (sys.modules[__name__], lanes, lanes_helpers, native_helpers, native_history, native_search,
                   native_players, feature_source, native_split, mobility_cut):
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()


def rewritten_path(kernel: Kernel) -> Path | None:
    """Where :func:`rewritten` keeps the kernel's native source (``None``: a kernel with none to write)."""
    if kernel.expand is None and not takes_history(kernel):
        return None
    reads = repr((RUNTIME_VERSION, _rewriting_key(), max_source(), sorted(kernel.constants.items()),  # all but the code
                  [(f.name, getattr(kernel, f.name)) for f in dataclasses.fields(kernel)
                   if f.name not in ("playout", "perft", "expand", "constants")]))
    return cache_folder() / f"rewritten_{hashlib.sha256(reads.encode()).hexdigest()[:24]}.txt"


def rewrite_pending(kernel: Kernel) -> bool:
    """Whether making the kernel's native source means rewriting it now (seconds for the largest kernels: a
    command does that in the background, :class:`Background`), not reading it back from the cache."""
    if not enabled() or _numba_version() is None:
        return False
    path = rewritten_path(kernel)
    return path is not None and not path.is_file()


def rewritten(kernel: Kernel) -> str | None:
    """:func:`native_source`, kept in the cache folder by a hash of everything it reads, so that a warm start
    does not rewrite the syntax tree again (about 0.15 s for a large kernel). What is read back is only ever
    run after :func:`import_checked` has checked it, so a changed file can at worst give a wrong kernel, never
    run other code; a file that cannot be read is written again."""
    path = rewritten_path(kernel)
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pass
    source = native_source(kernel)
    if source is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            temporary.write_text(source, encoding="utf-8")
            os.replace(temporary, path)
        except OSError:  # a read-only cache: rewrite at every start
            pass
    return source


def _without_end_checks(block: list[ast.stmt]) -> list[ast.stmt]:
    """The statements without ``if ...: return 0`` (perft's end checks): the moves the rules allow, counted."""
    out: list[ast.stmt] = []
    for statement in block:
        if isinstance(statement, ast.If):
            if len(statement.body) == 1 and ast.unparse(statement.body[0]) == "return 0" and not statement.orelse:
                continue
            statement.body = _without_end_checks(statement.body)
            statement.orelse = _without_end_checks(statement.orelse)
        out.append(statement)
    return out


def _without_must_capture(block: list[ast.stmt]) -> list[ast.stmt]:
    """The statements without ``if m0 | m1: m2 = 0`` (``must capture`` dropping the moves that do not capture)
    and without ``if len(fd0) + len(fd1) > 3: ...`` (``most`` dropping the shorter chains): mobility counts
    every move the rules list, as the evaluation's ``mobility`` does."""
    out: list[ast.stmt] = []
    for statement in block:
        if isinstance(statement, ast.If):
            if takes_moves_away(statement):
                continue
            statement.body = _without_must_capture(statement.body)
            statement.orelse = _without_must_capture(statement.orelse)
        out.append(statement)
    return out


def _before_pass(block: list[ast.stmt]) -> list[ast.stmt]:
    """The statements with ``return total`` made ``return raw`` where a forced pass counts apart (``raw``):
    mobility counts the moves the rules list, as the evaluation's ``mobility`` does, without the pass."""
    nodes = list(ast.walk(ast.Module(block, [])))
    if any(isinstance(node, ast.Name) and node.id == "raw" for node in nodes):
        for node in nodes:
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Name) and node.value.id == "total":
                node.value = ast.Name("raw", ast.Load())
    return block


def _until_children(block: list[ast.stmt]) -> list[ast.stmt]:
    """Expand's statements up to ``cur = ...`` (where it begins to list the children), then ``return None``."""
    out: list[ast.stmt] = []
    for statement in block:
        if isinstance(statement, ast.Assign) and ast.unparse(statement.targets[0]) == "cur":
            return out + [ast.Return(ast.Constant(None))]
        if isinstance(statement, ast.If):
            statement.body, statement.orelse = _until_children(statement.body), _until_children(statement.orelse)
        out.append(statement)
    return out


def _first_ply(block: list[ast.stmt]) -> list[ast.stmt]:
    """Perft's statements for ``depth == 1`` only: ``if depth == 1: return total`` ends the block there."""
    out: list[ast.stmt] = []
    for statement in block:
        if isinstance(statement, ast.If) and ast.unparse(statement.test) == "depth == 1":
            return out + statement.body
        if isinstance(statement, ast.If):
            statement.body, statement.orelse = _first_ply(statement.body), _first_ply(statement.orelse)
        out.append(statement)
    return out


def many_playouts(symbols: int, history: bool = False) -> str:
    """``playouts(..., hist, rs, cap, games)``: that many playouts from one position, and the plies they played in
    all (``bench`` measures the kernel with it, without a call from Python per game); ``history``: each from the
    same earlier positions (``hist``'s row count is put back before each and after the last)."""
    words = "".join(f"v{i}, " for i in range(symbols))
    ends = "".join(f"a{i}, " for i in range(symbols))
    start, again, back = ("    start = hist[0, 0]\n", "        hist[0, 0] = start\n", "    hist[0, 0] = start\n") \
        if history else ("", "", "")
    return (f"def playouts({words}turn, last, hist, rs, cap, games):\n"
            f"    total = 0\n"
            f"{start}"
            f"    for i in range(games):\n"
            f"{again}"
            f"        {ends}tn, ln, w, r, p = playout({words}turn, last, hist, rs, cap)\n"
            f"        total += p\n"
            f"{back}"
            f"    return total\n")


def _row_arguments(name: str, symbols: int) -> str:
    """The arguments of ``expand`` read from the row ``name``: its bitboards, the player to move, the go-again bit."""
    return "".join(f"{name}[{i}], " for i in range(symbols)) + f"i64({name}[{symbols}]), {name}[{symbols + 1}]"


def _expand_many(symbols: int, rows: int) -> str:
    """``expandall(boards, start, out, res)``: ``expand`` of the rows of ``boards`` from ``start`` on, their
    children one after another in ``out``, and per row its winner, rule and child count in ``res``; it stops
    before a row whose children might not fit in ``out`` and returns how far it got and the rows it wrote
    (the solver expands a batch of positions with one call from Python)."""
    row = _row_arguments("b", symbols)
    return (f"def expandall(boards, start, out, res):\n"
            f"    k = 0\n"
            f"    i = start\n"
            f"    while i < len(boards) and k + {rows} <= len(out):\n"
            f"        b = boards[i]\n"
            f"        w, r, c = expand({row}, after(out, k))\n"
            f"        res[i, 0] = w\n"
            f"        res[i, 1] = r\n"
            f"        if w == {NOT_OVER}:\n"
            f"            res[i, 2] = c\n"
            f"            k += c\n"
            f"        else:\n"
            f"            res[i, 2] = 0\n"
            f"        i += 1\n"
            f"    return i, k\n")


def _perft_walk(symbols: int, rows: int, leaves_by_expand: bool = False) -> str:
    """Perft without recursion: ``expand`` fills one level of a stack of child rows per ply, and ``count``
    counts the moves of the last ply (``leaves_by_expand``: ``expand`` does, for a kernel in pieces without
    ``count``)."""
    words = "".join(f"v{i}, " for i in range(symbols))
    row = _row_arguments("row", symbols)
    first, last = f"count({words}turn, last, hist, 1)", f"count({row}, hist, 1)"
    if leaves_by_expand:
        first, last = f"leaves({words}turn, last, buf[0])", f"leaves({row}, buf[level + 1])"
    head = (f"def leaves({words}turn, last, out):\n"
            f"    w, r, k = expand({words}turn, last, out)\n"
            f"    if w != {NOT_OVER}:\n"
            f"        return 0\n"
            f"    return k\n\n\n") if leaves_by_expand else ""
    return (f"{head}def perft({words}turn, last, hist, depth):\n"
            f"    buf = stack(depth, {rows}, {symbols + 2})\n"
            f"    if depth == 1:\n"
            f"        return {first}\n"
            f"    cnt = counters(depth)\n"
            f"    at = counters(depth)\n"
            f"    w, r, k = expand({words}turn, last, buf[0])\n"
            f"    if w != {NOT_OVER}:\n"
            f"        return 0\n"
            f"    cnt[0] = k\n"
            f"    level = 0\n"
            f"    n = 0\n"
            f"    while level >= 0:\n"
            f"        if at[level] == cnt[level]:\n"
            f"            level -= 1\n"
            f"        else:\n"
            f"            row = buf[level, at[level]]\n"
            f"            at[level] += 1\n"
            f"            if level + 2 == depth:\n"
            f"                n += {last}\n"
            f"            else:\n"
            f"                w, r, k = expand({row}, buf[level + 1])\n"
            f"                if w == {NOT_OVER}:\n"
            f"                    level += 1\n"
            f"                    cnt[level] = k\n"
            f"                    at[level] = 0\n"
            f"    return n\n")


# -- loading and the cache -------------------------------------------------------------------------------------
@dataclass
class NativeKernel:
    """The machine-code functions of one kernel (numba dispatchers), with the Python kernel they mirror."""

    playout: Callable
    perft: Callable
    expand: Callable
    playouts: Callable
    kernel: Kernel
    children_max: int  # rows ``expand`` may write at most
    module: object = None  # every function, the search helpers of native_search among them
    lanes: Lanes | None = None  # several words a bitboard (:mod:`~.lanes`): how a row lays them out
    history: HistoryNative | None = None  # a kernel with earlier positions: its ``hist`` is an array (no expand)
    warmed: bool = False  # the search helpers have run once in this process (loaded or compiled)
    searchable: bool = True  # False: the search helpers did not compile (the engine searches the generic way)
    search_marker: Path | None = None  # exists once the search helpers are compiled and in numba's cache

    def warm_search(self) -> None:
        """Load the search helpers from the cache (or compile them) now, once: their first call takes about half a
        second, which a search under a clock should not pay. They are compiled apart from the rest of the kernel
        (a third to a half of its compile), only when a search first asks for them: perft, playouts and the
        solver never do. Helpers that do not compile leave the kernel's playouts and perft native, its search
        generic (``searchable``)."""
        if self.warmed:
            return
        try:
            with compiling(self.search_marker) if self.search_marker else contextlib.nullcontext(False) as compile_now:
                _warm_search(self, self.columns)
                if compile_now:
                    self.search_marker.touch()  # every helper is compiled and in numba's cache
        except Exception:  # numba's typing errors: a speed-up lost, never a wrong answer
            self.searchable = False
        self.warmed = True

    @property
    def has_search(self) -> bool:
        """True when the module holds the search helpers (a lanes source over the limit goes without)."""
        return hasattr(self.module, "hexpand" if self.history is not None else "expandrow")

    def search_ready(self) -> bool:
        """True when the search helpers run at once (loaded in this process, or compiled and in the cache), or
        there are none to wait for."""
        return self.warmed or not self.has_search or self.search_marker is None or self.search_marker.is_file()

    @property
    def columns(self) -> int:
        """The words of a row before the player to move (with lanes: each lane of a bitboard one)."""
        return self.kernel.width if self.lanes is None else self.lanes.columns

    def place(self, word: int, bit: int) -> tuple[int, int]:
        """The row's column holding bit ``bit`` of the position's ``word``-th word, and the bit within it."""
        if self.lanes is None:
            return word, bit
        return self.lanes.column(word) + bit // WORD, bit % WORD

    def words(self, bits) -> tuple:
        """Python integers as the unsigned words the functions take."""
        import numpy as np

        return tuple(np.uint64(b) for b in (bits if self.lanes is None else self.lanes.split(bits)))

    def last_word(self, last: int):
        """The go-again bit (a Python integer) as the word the functions take (with lanes: its index plus one)."""
        import numpy as np

        return np.uint64(last if self.lanes is None or not last else last.bit_length())

    def bits_of(self, words) -> list[int]:
        """The words of a row before the player to move, as the position's Python integers."""
        return [int(w) for w in words] if self.lanes is None else self.lanes.join(words)

    def last_of(self, word) -> int:
        """The go-again word of a row as the bit it stands for (0: none)."""
        word = int(word)
        return word if self.lanes is None or not word else 1 << (word - 1)


def cache_folder() -> Path:
    """Where the native kernels' sources and machine code are kept (the user's cache folder)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("rulesdsl")) / "native"


@functools.cache
def _numba_version() -> str | None:
    """numba's version, read from its metadata (without importing it); ``None`` when it is not installed."""
    from rulesdsl.versions import installed_version

    return installed_version("numba")


def kernel_path(source: str) -> Path:
    """Where the file of a native kernel's source lives: named by a hash of what it holds (and numba's version)."""
    text = _file_text(source)
    key = hashlib.sha256(f"{RUNTIME_VERSION} {_numba_version()}\n{text}".encode()).hexdigest()[:24]
    return cache_folder() / f"kernel_{key}.py"


def _file_text(source: str) -> str:
    """The file of checked source: the fixed header, then the source with each function under ``@jit``
    (numba's ``njit(cache=True)``); the source is unparsed from a syntax tree, so a function begins a line
    with ``def`` and nothing else does."""
    return HEADER + re.sub(r"^def ", "@jit\ndef ", source, flags=re.MULTILINE) + "\n"


def module_file(source: str) -> Path:
    """The file of a native kernel, written (once) if it is not there."""
    text = _file_text(source)
    path = kernel_path(source)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        temporary = folder / f".{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp"
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)  # numba's cache is keyed by the file's time: it is written once
    return path


def import_checked(source: str) -> Callable[[], object]:
    """A function importing the module of checked kernel source (the one place where the native kernel imports
    code it wrote).

    ``check_source`` passes the source first (integer code only) and the file is written now; the file holds
    nothing but the fixed header and that source, each function under ``@jit``. The import (which imports
    numba) happens when the returned function is called: in a background thread, while this one, which
    parsed the source, goes on (Python's syntax trees are not to be built in two threads at once).
    """
    import importlib.util

    check_source(source)
    path = module_file(source)

    def load() -> object:
        spec = importlib.util.spec_from_file_location(f"rulesdsl_native_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # numba's cache finds the module by name when it loads machine code
        spec.loader.exec_module(module)  # noqa: S102 - checked above: integers only
        return module

    return load


def prepare_native(kernel: Kernel) -> tuple[Callable[..., NativeKernel | None], Path] | None:
    """The syntax-tree half of :func:`load_native` (rewrite, check, write the file), done in the calling thread;
    it returns the other half (import, compile or load from the cache; ``search=True``: the search helpers too)
    and the file that says a compile finished (it exists once one did), or ``None`` when there is no native
    kernel to make."""
    if not enabled() or _numba_version() is None:
        return None
    with _SYNTAX:
        source = rewritten(kernel)
        if source is None or not compiles_soon(source):
            return None
        load = import_checked(source)
    marker = kernel_path(source).with_suffix(".ready")
    groups = row_writes(source)
    chains = source.count("for q in range(len(fd")  # each put in such a loop writes one row per capture chain
    lanes = layout_of(kernel) if max(kernel.layout.bit) >= WORD else None

    def finish(search: bool = False) -> NativeKernel | None:
        """The native kernel, compiled now unless it is in the cache; ``search``: its search helpers too."""
        if not numba_available():
            return None
        module = load()
        native = (_history_native(module, kernel, marker, lanes) if takes_history(kernel)
                  else _plain_native(module, kernel, marker, lanes, groups, chains))
        native.search_marker = marker.with_suffix(".search")
        if search and native.has_search:
            native.warm_search()
        return native

    return finish, marker


def _plain_native(module: object, kernel: Kernel, marker: Path, lanes: Lanes | None, groups: int,
                  chains: int) -> NativeKernel:
    """The machine code of a kernel without earlier positions: playouts, perft and ``expand``."""
    import numpy as np

    native = NativeKernel(module.playout, module.perft, module.expand, module.playouts, kernel,
                          groups * WORD * (lanes.lanes if lanes else 1) + 1 + chains * (MAX_CHAINS - WORD),
                          module, lanes)
    with compiling(marker) as compile_now:  # in the cache, each function loads at its first call instead
        if compile_now:  # each function now, on the types every later call passes, so that all land in the cache
            words = native.words([0] * kernel.width)
            native.perft(*words, 0, np.uint64(0), None, 1)
            native.playout(*words, 0, np.uint64(0), None, np.ones(1, dtype=np.uint64), 0)
            native.playouts(*words, 0, np.uint64(0), None, np.ones(1, dtype=np.uint64), 0, 0)
            out = np.zeros((native.children_max, len(words) + 2), dtype=np.uint64)
            native.expand(*words, 0, np.uint64(0), out)
            module.expandall(np.zeros((1, len(words) + 2), dtype=np.uint64), 0, out,
                             np.zeros((1, 3), dtype=np.int64))
            marker.touch()  # every function but the search helpers is compiled and in numba's cache
    return native


def _history_native(module: object, kernel: Kernel, marker: Path, lanes: Lanes | None = None) -> NativeKernel:
    """The machine code of a kernel with earlier positions (:mod:`~.native_helpers`): playouts and perft only."""
    import numpy as np

    history = HistoryNative(module, kernel, lanes.columns if lanes else key_width(kernel), lanes)
    native = NativeKernel(history.playout, history.perft, None, history.playouts, kernel, 0, module, lanes=lanes,
                          history=history)
    with compiling(marker) as compile_now:
        if compile_now:  # each function now, on the types every later call passes
            words = native.words(0 for _ in range(kernel.width))
            native.perft(*words, 0, np.uint64(0), None, 1)
            native.playout(*words, 0, np.uint64(0), history.rows_for(None, 1), np.ones(1, dtype=np.uint64), 0)
            native.playouts(*words, 0, np.uint64(0), None, np.ones(1, dtype=np.uint64), 0, 0)
            marker.touch()
    return native


def load_native(kernel: Kernel) -> NativeKernel | None:
    """The kernel compiled to machine code (loaded from the cache when it was compiled before), or ``None`` when
    it needs more than one word a symbol, native code is switched off, or numba cannot be imported."""
    prepared = prepare_native(kernel)
    return prepared[0]() if prepared is not None else None


def _warm_search(native: NativeKernel, symbols: int) -> None:
    """Compile (or load) the search helpers on the types :mod:`rulesdsl.interpreter.search.kernel_search` passes
    (``symbols``: the row's words before the player to move, each lane of a bitboard one)."""
    import numpy as np

    module = native.module
    row = np.zeros(symbols + 2, dtype=np.uint64)
    weights, consts, ft = np.zeros((2, symbols, WORD)), np.zeros(2), np.zeros(16, dtype=np.int64)  # no features
    if native.history is not None:  # over children (:mod:`rulesdsl.interpreter.search.native_history`), if it has them
        if hasattr(module, "hexpand"):
            from rulesdsl.interpreter.search.history_search import warm_history_search

            warm_history_search(module, symbols, native.history.width, weights, consts, ft)
        return
    out = np.zeros((native.children_max, symbols + 2), dtype=np.uint64)
    module.expandrow(row, out)
    module.scorerow(row, weights, consts, 1.0, ft, 1.0)
    module.frontier(row, 1, out, weights, consts, 1.0, ft, 2.0, 1.0, False)
    module.ordering(row, out, 0, np.zeros(native.children_max), weights, consts, 1.0, ft, 1.0)
    if hasattr(module, PLAYERS_MARK):  # more than two players: their searches' helpers too
        warm_players(native, symbols, WORD)


def _fork_quietly(job: Callable[[], object]) -> int | None:
    """A child process running ``job`` (a compile into the cache) and nothing else, or ``None`` where the
    platform cannot fork. The child runs at a lower priority in its own session (Ctrl-C in the terminal stops
    the command, not the compile), writes nowhere, holds none of the parent's files open, and leaves without
    running the parent's exit handlers."""
    if not hasattr(os, "fork"):
        return None
    try:
        child = os.fork()
    except OSError:
        return None
    if child:
        return child
    try:
        os.setsid()
        os.nice(10)
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        os.closerange(3, 1 << 16)  # hold no pipe or socket of the parent's open (a test runner waits on them)
        import signal

        signal.alarm(1800)  # never outlive a stuck compile by long
        job()
    finally:
        os._exit(0)


def _compile_fresh(kernel: Kernel) -> None:
    """A first start's child (:meth:`Background.start`): rewrite the kernel's source into the cache, then compile
    it with its search helpers."""
    prepared = prepare_native(kernel)
    if prepared is not None:
        prepared[0](search=True)


class Background:
    """A native kernel made in the background, so that nobody waits for a first compile.

    :meth:`get` answers ``None`` until it is ready (and starts it at the first call). A source in the cache
    is read and checked in the calling thread (a fraction of a second); one not written yet (seconds for the
    largest kernels) is rewritten by the child that compiles it, below, and the calling thread goes on. A
    thread then imports numba and compiles the code or loads it from the cache. When it is not in the cache
    yet and the platform can fork, a child process compiles it instead (at a lower priority, in its own
    session, its output discarded), so that it lands in the cache even when this process ends first (a
    one-shot ``move``); the thread waits for the child and then loads the code from the cache. A warm cache is
    loaded at once.

    The child compiles the search helpers too (the engine and MCTS start it); a compile in this process
    (``wait``: perft, the solver, ``bench``, the tests) leaves them until a search asks (``search``).
    """

    def __init__(self, kernel: Callable[[], Kernel | None]) -> None:
        self._kernel = kernel
        self._ready: list[NativeKernel | None] = []
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self._prepared: list = []  # [finish, marker path] once the source is written (finish None: no native)
        self._helpers: threading.Thread | None = None  # waits for a child compiling the search helpers alone

    def _prepare(self) -> tuple[Callable[..., NativeKernel | None] | None, Path | None]:
        if not self._prepared:
            try:
                kernel = self._kernel()
                prepared = prepare_native(kernel) if kernel is not None else None
            except Exception:  # a native kernel is only ever a speed-up: the Python kernel plays on
                prepared = None
            self._prepared[:] = prepared if prepared is not None else [None, None]
        return self._prepared[0], self._prepared[1]

    def _pending(self) -> bool:
        """True when the native source is not written yet and is not in the cache (:func:`rewrite_pending`)."""
        if self._prepared:
            return False
        try:
            kernel = self._kernel()
            return kernel is not None and rewrite_pending(kernel)
        except Exception:  # a native kernel is only ever a speed-up
            return False

    def _cached(self) -> bool:
        """True when the machine code is in the cache (loading it takes well under a second)."""
        if self._pending():  # no source in the cache: no machine code either (and no rewrite in this thread)
            return False
        _, marker = self._prepare()
        return marker is not None and marker.is_file()

    def _make(self, finish: Callable[[], NativeKernel | None] | None, child: int | None) -> None:
        """The thread's half: wait for the child compiling the kernel, if any, then load (or compile) it;
        ``finish`` ``None``: the child rewrote the source too (a first start, :meth:`start`): read it back."""
        try:
            if child is not None:
                os.waitpid(child, 0)
            if finish is None:
                finish, _ = self._prepare()
            made = finish() if finish is not None else None
        except Exception:  # a native kernel is only ever a speed-up: the Python kernel plays on
            made = None
        self._ready.append(made)

    def _fork_compiler(self, finish: Callable[..., NativeKernel | None]) -> int | None:
        """A child process compiling the kernel into the cache, or ``None`` (cached already, or no fork)."""
        if self._cached():
            return None
        return _fork_quietly(lambda: finish(search=True))

    def _fork_search(self, native: NativeKernel) -> None:
        """Compile the search helpers of a kernel loaded without them, away from the search that asked (a child
        process, as :meth:`_fork_compiler`; a thread where there is no fork), once."""
        with self._lock:
            if self._helpers is not None:
                return
            finish, _ = self._prepare()
            child = _fork_quietly(lambda: finish(search=True))
            wait = (lambda: os.waitpid(child, 0)) if child else native.warm_search
            self._helpers = threading.Thread(target=wait, name="rulesdsl-native-search", daemon=True)
            self._helpers.start()

    def start(self, wait: bool = False) -> None:
        """Begin making the native kernel, unless it is begun (or switched off); ``wait``: in this process."""
        with self._lock:
            if self._pid != os.getpid():  # a forked process: whatever the parent began is not here
                self._ready, self._thread, self._pid = [], None, os.getpid()
            if self._thread is not None or not enabled():
                return
            if not wait and self._pending():  # even the rewrite takes seconds: a child does it, and the compile
                kernel = self._kernel()
                child = _fork_quietly(lambda: _compile_fresh(kernel))
                self._thread = threading.Thread(target=self._make, args=(None, child), name="rulesdsl-native",
                                                daemon=True)
                self._thread.start()
                return
            finish, _ = self._prepare()
            if finish is None:
                self._ready.append(None)
                return
            child = None if wait else self._fork_compiler(finish)
            self._thread = threading.Thread(target=self._make, args=(finish, child), name="rulesdsl-native",
                                            daemon=True)
            self._thread.start()

    def get(self, wait: bool = False, start: bool = True, load: bool = True,
            search: bool = False) -> NativeKernel | None:
        """The native kernel if it is ready (``wait``: after waiting for it), else ``None``; ``start=False``: do
        not begin a compile (a warm cache is still loaded); ``load=False``: only if this process has it already
        (importing numba and the cached code costs about a second); ``search``: and its search helpers (made
        now with ``wait``, else begun in the background, ``None`` until they are ready)."""
        native = self._get(wait, start, load)
        if native is None or not search or native.search_ready():
            return native
        if wait:
            native.warm_search()
            return native
        self._fork_search(native)
        return None

    def _get(self, wait: bool, start: bool, load: bool) -> NativeKernel | None:
        if self._ready and self._pid == os.getpid():
            return self._ready[0]
        if not enabled() or not load:
            return None
        if self._thread is None and not wait:
            wait = self._cached()  # a warm start: load it now (no compile), so this command runs on it
            if not wait and not start:
                return None
        self.start(wait)
        if wait and self._thread is not None:
            self._thread.join()
        return self._ready[0] if self._ready and self._pid == os.getpid() else None
