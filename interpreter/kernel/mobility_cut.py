"""What the kernel's count of a player's moves (the evaluation's ``mobility``) leaves out of perft's first ply.

The evaluation's ``mobility`` is the number of moves a player would have at the start of a turn, as the
legal moves are counted (``mobility`` of :mod:`rulesdsl.interpreter.reference.legality`), without ``must
capture``'s filter, ``forbid repetition`` and a forced pass. The machine code counts it from perft's first
ply: the one-word and lanes kernels' ``mobility`` (:func:`~rulesdsl.interpreter.kernel.native.cut_functions`)
and the ``children`` of a kernel with earlier positions at depth 0
(:mod:`~rulesdsl.interpreter.kernel.native_helpers`). Both find the filters to leave out with
:func:`takes_moves_away`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from rulesdsl.interpreter.kernel.codegen import Kernel


def takes_moves_away(statement: ast.If) -> bool:
    """True for ``if m0 | m1: m2 = 0`` (``must capture`` dropping the moves that do not capture) and for
    ``if len(fd0) + len(fd1) > 3: ...`` (``most`` dropping the shorter chains)."""
    test = ast.unparse(statement.test)
    if test.startswith("len(fd") and test.endswith(" > 3"):
        return True
    return not statement.orelse and all(
        isinstance(s, ast.Assign) and ast.unparse(s.targets[0]).startswith("m") and _zero(s.value)
        for s in statement.body)


def _zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 0


def python_mobility(kernel: Kernel) -> Callable[..., int]:
    """The Python kernel's ``mobility(*bits, turn, last, hist, depth)``: the one-word cut of
    :func:`~rulesdsl.interpreter.kernel.native.cut_functions`, compiled into the kernel's namespace (where its
    helpers and tables are). Call it with ``last`` 0 and an empty ``hist`` (``None`` where the kernel keeps no
    earlier positions), as the search's evaluation does."""
    from rulesdsl.interpreter.kernel.codegen import run_checked
    from rulesdsl.interpreter.kernel.native import cut_functions

    cut = next(f for f in cut_functions(kernel) if f.name == "mobility")
    playout = kernel.playout  # a stand-in that compiles at its first call, or the generated function
    namespace = dict(getattr(playout, "namespace", None) or playout.__globals__)
    run_checked(ast.unparse(ast.Module([cut], [])), namespace)
    return namespace["mobility"]
