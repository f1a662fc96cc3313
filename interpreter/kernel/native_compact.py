"""A shorter native source: a saved position put back, and a child's row written, word by word only where it changed.

The generated move loops save the position as a tuple of its words (``cur = (u64(v0), ..., u64(vN))``, a
legality test's ``sv = (v0, ..., vN)``), make a move, write the child's row (``kids = putrow(out, kids, (u64(v0),
..., u64(vN), u64(nt), u64(nl)))``) and put every word back (``v0, ..., vN = cur``), though one move changes a few
words. numba's compile time grows with a function's length, so a large kernel compiles sooner when

- a put-back assigns only the words that may differ from the saved tuple there: ``v7, v10 = cur[7], cur[10]``
  (always a tuple, ``(v7,) = (cur[7],)``; none: the statement goes);
- a row is written as the saved tuple with the changed words over it: ``kids = putdiff(out, kids, cur, (7, 10),
  (u64(v7), u64(v10)), (u64(nt), u64(nl)))`` (:func:`~.native_runtime.putdiff`).

Which words may differ is worked out over the syntax tree (:class:`_Differ`): a saved tuple differs from the words
in no name after it is assigned or put back; every assignment to one of its names adds that name; a put-back of
another saved tuple adds what differed from that one; branches join, loops run to a fixed point, a ``break`` or
``continue`` carries its state to the loop's end or head. A statement this does not follow counts as assigning
every name in it. Nothing here names a game: every kernel's functions pass, and one without such tuples is left as
it was.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

State = dict[str, frozenset[str]] | None  # per saved tuple, the names that may differ from it (None: unreachable)
MIN_WORDS = 4  # a tuple of fewer names is not taken for a saved position


def _plain(item: ast.expr) -> str | None:
    """The name of a tuple item ``v`` or ``u64(v)``, else ``None``."""
    if isinstance(item, ast.Name):
        return item.id
    if isinstance(item, ast.Call) and isinstance(item.func, ast.Name) and item.func.id == "u64" \
            and len(item.args) == 1 and not item.keywords and isinstance(item.args[0], ast.Name):
        return item.args[0].id
    return None


def _tuple_names(node: ast.expr) -> list[str] | None:
    """The names of a tuple display of plain items (:func:`_plain`), distinct; else ``None``."""
    if not isinstance(node, ast.Tuple):
        return None
    names = [_plain(item) for item in node.elts]
    if None in names or len(set(names)) != len(names):
        return None
    return names  # type: ignore[return-value]


def _stores(node: ast.AST) -> set[str]:
    """Every name assigned anywhere in ``node``."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def saved_tuples(function: ast.FunctionDef) -> dict[str, list[str]]:
    """The names assigned only tuples of the same plain names (of at least :data:`MIN_WORDS`): the saved positions."""
    found: dict[str, list[str] | None] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            single = len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            names = _tuple_names(node.value) if single else None
            for name in _stores(ast.Module([ast.Expr(t) for t in node.targets], [])):
                if single and names is not None and len(names) >= MIN_WORDS and found.get(name, names) == names:
                    found[name] = names
                else:
                    found[name] = None
        elif isinstance(node, (ast.AugAssign, ast.For, ast.AnnAssign, ast.NamedExpr)):
            for name in _stores(node.target):
                found[name] = None
    params = {a.arg for a in function.args.args}
    return {name: names for name, names in found.items() if names is not None and name not in params}


def _join(*states: State) -> State:
    """The names that may differ on any of the paths (``None``: no path)."""
    live = [s for s in states if s is not None]
    if not live:
        return None
    return {key: frozenset().union(*(s[key] for s in live)) for key in live[0]}


@dataclass
class _Differ:
    """The names that may differ from each saved tuple, at each put-back and each row written (see the module)."""

    saved: dict[str, list[str]]
    at: dict[int, dict[str, frozenset[str]]] = field(default_factory=dict)  # id(statement) -> state before it
    loops: list[tuple[list[State], list[State]]] = field(default_factory=list)  # (continues, breaks) of each loop

    def restore_of(self, statement: ast.stmt) -> str | None:
        """``s`` when ``statement`` is ``n0, n1, ... = s`` with ``s``'s names in order."""
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.value, ast.Name) and statement.value.id in self.saved \
                and isinstance(statement.targets[0], ast.Tuple):
            names = [t.id if isinstance(t, ast.Name) else None for t in statement.targets[0].elts]
            return statement.value.id if names == self.saved[statement.value.id] else None
        return None

    def _assigned(self, state: dict[str, frozenset[str]], names: set[str]) -> dict[str, frozenset[str]]:
        return {key: differ | (names & set(self.saved[key])) for key, differ in state.items()}

    def _note(self, statement: ast.stmt, state: dict[str, frozenset[str]]) -> None:
        before = self.at.get(id(statement))
        self.at[id(statement)] = state if before is None else _join(before, state)  # type: ignore[assignment]

    def block(self, statements: list[ast.stmt], state: State) -> State:
        """The state after ``statements`` from ``state``."""
        for statement in statements:
            if state is None:
                return None
            state = self.statement(statement, state)
        return state

    def statement(self, statement: ast.stmt, state: dict[str, frozenset[str]]) -> State:
        """The state after one statement."""
        if isinstance(statement, ast.Assign):
            self._note(statement, state)
            source = self.restore_of(statement)
            if source is not None:
                changed = state[source]
                state = {key: (frozenset() if key == source else differ | (changed & set(self.saved[key])))
                         for key, differ in state.items()}
                return state
            state = self._assigned(state, _stores(statement))
            target = statement.targets[0]
            if len(statement.targets) == 1 and isinstance(target, ast.Name) and target.id in self.saved:
                state = {**state, target.id: frozenset()}
            return state
        if isinstance(statement, ast.If):
            return _join(self.block(statement.body, dict(state)), self.block(statement.orelse, dict(state)))
        if isinstance(statement, (ast.While, ast.For)):
            return self.loop(statement, state)
        if isinstance(statement, ast.Return):
            return None
        if isinstance(statement, (ast.Break, ast.Continue)):
            if not self.loops:
                return None
            continues, breaks = self.loops[-1]
            (breaks if isinstance(statement, ast.Break) else continues).append(state)
            return None
        if isinstance(statement, (ast.Expr, ast.Pass, ast.AugAssign)):
            return self._assigned(state, _stores(statement))
        return {key: frozenset(self.saved[key]) for key in state}  # anything else: every name may differ

    def loop(self, loop: ast.While | ast.For, state: dict[str, frozenset[str]]) -> State:
        """A loop run to a fixed point: the state at its head joins the one it starts with and each pass's end."""
        head: dict[str, frozenset[str]] = state
        while True:
            continues: list[State] = []
            breaks: list[State] = []
            self.loops.append((continues, breaks))
            start = self._assigned(head, _stores(loop.target)) if isinstance(loop, ast.For) else head
            end = self.block(loop.body, start)
            self.loops.pop()
            new = _join(head, end, *continues)
            if new == head:
                break
            head = new  # type: ignore[assignment]
        return _join(self.block(loop.orelse, dict(head)), *breaks)


def _rows(call: ast.expr, saved: dict[str, list[str]]) -> tuple[str, int] | None:
    """``(s, n)`` when ``call`` is ``putrow(out, k, (u64(n0), ..., u64(nN), *rest))`` with its first ``n`` items
    the names of the saved tuple ``s``, each saved as a word (``u64(...)``), and ``rest`` not empty."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "putrow"
            and len(call.args) == 3 and isinstance(call.args[2], ast.Tuple)):
        return None
    items = call.args[2].elts
    for name, names in saved.items():
        if len(items) > len(names) and all(isinstance(i, ast.Call) for i in items[:len(names)]) \
                and [_plain(i) for i in items[:len(names)]] == names:
            return name, len(names)
    return None


def _word_tuple(saved: dict[str, list[str]], function: ast.FunctionDef) -> set[str]:
    """The saved tuples whose every assignment wraps each item in ``u64(...)`` (a row may start from them)."""
    words = set(saved)
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id in saved \
                and not all(isinstance(i, ast.Call) for i in node.value.elts):  # type: ignore[attr-defined]
            words.discard(node.targets[0].id)
    return words


def _subscript(name: str, index: int) -> ast.expr:
    return ast.Subscript(ast.Name(name, ast.Load()), ast.Constant(index), ast.Load())


def compact(function: ast.FunctionDef) -> list[ast.FunctionDef]:
    """Rewrite ``function`` in place: put-backs and rows of the saved tuples word by word, then runs of statements
    that recur outlined (:func:`outline_same`), whose functions it returns (see the module)."""
    restore_changed(function)
    return outline_same(function)


def restore_changed(function: ast.FunctionDef) -> None:
    """Rewrite ``function`` in place: put-backs and rows of the saved tuples word by word (see the module)."""
    saved = saved_tuples(function)
    if not saved:
        return
    differ = _Differ(saved)
    differ.block(function.body, {name: frozenset(names) for name, names in saved.items()})
    words = _word_tuple(saved, function)
    row_saved = {name: names for name, names in saved.items() if name in words}
    _rewrite(function.body, differ, row_saved)


def _rewrite(block: list[ast.stmt], differ: _Differ, row_saved: dict[str, list[str]]) -> None:
    """Rewrite the put-backs and rows :class:`_Differ` reached in ``block`` (and the blocks nested in it)."""
    out: list[ast.stmt] = []
    for statement in block:
        for name in ("body", "orelse"):
            nested = getattr(statement, name, None)
            if isinstance(nested, list) and nested:
                _rewrite(nested, differ, row_saved)
        state = differ.at.get(id(statement))
        source = differ.restore_of(statement) if state is not None else None
        if source is not None:
            names = differ.saved[source]
            changed = [(i, n) for i, n in enumerate(names) if n in state[source]]  # type: ignore[index]
            if changed:
                out.append(_put_back(source, changed))
            continue
        rows = _rows(statement.value, row_saved) if state is not None and isinstance(statement, ast.Assign) else None
        if rows is not None:
            statement.value = _putdiff(statement.value, rows, state)  # type: ignore[arg-type, union-attr]
        out.append(statement)
    block[:] = out or [ast.Pass()]


def _put_back(source: str, changed: list[tuple[int, str]]) -> ast.stmt:
    """``a, b = s[i], s[j]`` (one name: ``(a,) = (s[i],)``, so the outliner knows it, :mod:`~.native_split`)."""
    target = ast.Tuple([ast.Name(n, ast.Store()) for _, n in changed], ast.Store())
    return ast.Assign([target], ast.Tuple([_subscript(source, i) for i, _ in changed], ast.Load()), lineno=0)


def _putdiff(call: ast.Call, rows: tuple[str, int], state: dict[str, frozenset[str]]) -> ast.Call:
    """``putdiff(out, k, s, (i, ...), (u64(n_i), ...), (rest...))`` for ``putrow(out, k, (...))``."""
    source, count = rows
    items = call.args[2].elts  # type: ignore[attr-defined]
    changed = [i for i in range(count) if _plain(items[i]) in state[source]] or [0]  # none: the first, unchanged
    at = ast.Tuple([ast.Constant(i) for i in changed], ast.Load())
    values = ast.Tuple([items[i] for i in changed], ast.Load())
    rest = ast.Tuple(items[count:], ast.Load())
    return ast.Call(ast.Name("putdiff", ast.Load()), [*call.args[:2], ast.Name(source, ast.Load()), at, values, rest],
                    [])


# -- the same statements outlined once -------------------------------------------------------------------------
MAX_RUN = 40  # statements one outlined run holds at most
SAME = "same"  # the outlined runs are named <f>sameN (<f>: the start of their function's name)


def _loads(node: ast.AST) -> set[str]:
    """The names ``node`` reads (an augmented assignment's target too)."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return names | {n.target.id for n in ast.walk(node) if isinstance(n, ast.AugAssign)
                    and isinstance(n.target, ast.Name)}


@dataclass
class _Live:
    """The names read later (before they are assigned again) after each statement: a backward pass over the syntax
    tree, loops to a fixed point; ``after[id(statement)]`` joins every visit."""

    after: dict[int, set[str]] = field(default_factory=dict)
    loops: list[tuple[set[str], set[str]]] = field(default_factory=list)  # (at the head, after the loop)

    def block(self, statements: list[ast.stmt], live: set[str]) -> set[str]:
        """The names live before ``statements`` when ``live`` are after them."""
        for statement in reversed(statements):
            self.after.setdefault(id(statement), set()).update(live)
            live = self.statement(statement, live)
        return live

    def statement(self, statement: ast.stmt, live: set[str]) -> set[str]:
        """The names live before one statement."""
        if isinstance(statement, ast.If):
            return _loads(statement.test) | self.block(statement.body, set(live)) \
                | self.block(statement.orelse, set(live))
        if isinstance(statement, (ast.While, ast.For)):
            reads = _loads(statement.test if isinstance(statement, ast.While) else statement.iter)
            head = set(live) | reads
            while True:
                self.loops.append((head, live))
                body = self.block(statement.body, set(head))
                self.loops.pop()
                if isinstance(statement, ast.For):
                    body -= _stores(statement.target)
                new = head | body | self.block(statement.orelse, set(live))
                if new == head:
                    return head
                head = new
        if isinstance(statement, ast.Return):
            return _loads(statement)
        if isinstance(statement, (ast.Break, ast.Continue)):
            if not self.loops:
                return set(live)
            head, after = self.loops[-1]
            return set(after if isinstance(statement, ast.Break) else head)
        if isinstance(statement, ast.Assign) and all(isinstance(t, (ast.Name, ast.Tuple)) for t in statement.targets):
            return (live - _stores(statement)) | _loads(statement)
        if isinstance(statement, ast.AugAssign):
            return live | _loads(statement)
        return live | _loads(statement)  # anything else: kills nothing


def _movable(statement: ast.stmt, saved: dict[str, list[str]], fixed: set[str]) -> bool:
    """Whether a statement may join an outlined run: assignments and tests of local words, no jump out of it, no
    name of ``fixed`` (the row being written and its count), no saved tuple assigned or put back."""
    for node in ast.walk(statement):
        if isinstance(node, (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom, ast.Await, ast.Lambda,
                             ast.FunctionDef, ast.Try, ast.With, ast.Global, ast.Nonlocal, ast.Delete,
                             ast.NamedExpr, ast.Starred)):
            return False
        if isinstance(node, ast.Name) and (node.id in fixed or (node.id in saved and isinstance(node.ctx, ast.Store))):
            return False
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple) \
                and isinstance(node.value, (ast.Name, ast.Tuple)) and any(
                    isinstance(i, ast.Name) and i.id in saved for i in ast.walk(node.value)):
            return False  # a put-back: the outliner of :mod:`~.native_split` reads them
    return isinstance(statement, (ast.Assign, ast.AugAssign, ast.If, ast.While, ast.For, ast.Pass))


def _blocks(node: ast.AST) -> list[list[ast.stmt]]:
    """Every statement list under ``node``."""
    return [getattr(n, f) for n in ast.walk(node) for f in ("body", "orelse")
            if isinstance(getattr(n, f, None), list) and getattr(n, f) and isinstance(getattr(n, f)[0], ast.stmt)]


def outline_same(function: ast.FunctionDef, least: int = 120,
                 fixed: frozenset[str] = frozenset({"kids", "out", "pick"})) -> list[ast.FunctionDef]:
    """Outline, in place, runs of statements that recur word for word in ``function`` (the same ``ast.dump``) into
    one function each, ``<f>sameN(reads) -> writes`` (``<f>``: the first letters of the function's name, so
    that the runs of each function a source outlines have names of their own), called where each stood; returns
    those functions. A run is taken
    when the characters it saves (``least`` at least) outweigh its function, largest first; each writes back the
    union of the names read after any of its places (:class:`_Live`), each of them assigned on every path through
    the run or read by it first (so passed in)."""
    saved = saved_tuples(function)
    prefix = "".join(c for c in function.name if c.isalpha())[:5]
    local = {a.arg for a in function.args.args} | _stores(function)
    live = _Live()
    live.block(function.body, set())
    dumps: dict[int, int] = {}  # id(statement) -> number of its ast.dump
    numbered: dict[str, int] = {}
    for block in _blocks(function):
        for s in block:
            if _movable(s, saved, set(fixed)):
                dumps[id(s)] = numbered.setdefault(ast.dump(s), len(numbered))
    places: dict[tuple[int, ...], list[tuple[list[ast.stmt], int]]] = {}
    for block in _blocks(function):
        for i in range(len(block)):
            key: tuple[int, ...] = ()
            for j in range(i, min(len(block), i + MAX_RUN)):
                if id(block[j]) not in dumps:
                    break
                key += (dumps[id(block[j])],)
                places.setdefault(key, []).append((block, i))
    sizes: dict[int, int] = {}

    def size(statements: list[ast.stmt]) -> int:
        return sum(sizes.setdefault(id(s), len(ast.unparse(s))) for s in statements)

    chosen = []
    for key, where in places.items():
        if len(where) < 2:
            continue
        run = where[0][0][where[0][1]:where[0][1] + len(key)]
        gain = (len(where) - 1) * size(run)
        if gain >= least:
            chosen.append((gain, key, where))
    chosen.sort(key=lambda c: (-c[0], c[1]))
    taken: set[int] = set()  # ids of the statements (and those nested in them) outlined already
    made: list[ast.FunctionDef] = []
    edits: list[tuple[list[ast.stmt], int, int, ast.stmt]] = []
    for _, key, where in chosen:
        free = [(b, i) for b, i in where
                if not any(id(n) in taken for s in b[i:i + len(key)] for n in ast.walk(s) if isinstance(n, ast.stmt))]
        free = [p for k, p in enumerate(free) if all(p[0] is not q[0] or p[1] >= q[1] + len(key) or q[1] >= p[1]
                                                      + len(key) for q in free[:k])]  # no two overlap
        if len(free) < 2:
            continue
        block, i = free[0]
        run = block[i:i + len(key)]
        args = sorted(native_reads(run) & local)
        outs = sorted(set().union(*(live.after[id(b[i + len(key) - 1])] for b, i in free))
                      & _stores(ast.Module(run, [])) & local)
        if any(o not in args and o not in _always(run) for o in outs):
            continue
        name = f"{prefix}{SAME}{len(made)}"
        value = ast.Call(ast.Name(name, ast.Load()), [ast.Name(a, ast.Load()) for a in args], [])
        call: ast.stmt = ast.Assign([ast.Tuple([ast.Name(o, ast.Store()) for o in outs], ast.Store())], value,
                                    lineno=0) if outs else ast.Expr(value)
        spared = size(run) - len(ast.unparse(call))  # at each place
        if spared < least // 4 or len(free) * spared - len(ast.unparse(call)) < least:
            continue  # too little to pay for a call
        returned = ast.Tuple([ast.Name(o, ast.Load()) for o in outs], ast.Load())
        body = [*run, ast.Return(returned)] if outs else list(run)
        made.append(ast.FunctionDef(name, ast.arguments([], [ast.arg(a) for a in args], None, [], [], None, []),
                                    body, [], None, None, lineno=0))
        for b, j in free:
            taken.update(id(n) for s in b[j:j + len(key)] for n in ast.walk(s) if isinstance(n, ast.stmt))
            edits.append((b, j, j + len(key), copy.deepcopy(call)))
    for block, i, j, call in sorted(edits, key=lambda e: (id(e[0]), -e[1])):
        block[i:j] = [call]
    return made


def native_reads(run: list[ast.stmt]) -> set[str]:
    """The names ``run`` may read before it assigns them (as :func:`~.native_split.read_first`)."""
    from rulesdsl.interpreter.kernel.native_split import read_first  # (which imports this module)

    return read_first(run)


def _always(run: list[ast.stmt]) -> set[str]:
    from rulesdsl.interpreter.kernel.native_split import _always as always

    return always(run)
