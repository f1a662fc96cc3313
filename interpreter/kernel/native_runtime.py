"""The few machine-level helpers that the native kernels call: popcount, a random draw, ``beyond``.

Imported only by :mod:`rulesdsl.interpreter.kernel.native` when a native kernel is
loaded, so numba is imported only when a kernel runs. Every function here is
compiled once and kept in numba's cache (``cache=True``).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

jit = numba.njit(cache=True, nogil=True)
u64 = numba.uint64
i64 = numba.int64


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count of one unsigned 64-bit word (a single instruction where the CPU has one)."""
    signature = types.int64(types.uint64)

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return signature, codegen


@jit
def popcount(x):
    """The number of set bits of a 64-bit word."""
    return _ctpop(u64(x))


@jit
def draw(rs, n):
    """A random whole number in ``0 .. n - 1`` from the xorshift64 generator whose state is ``rs[0]``.

    The same numbers as :class:`rulesdsl.interpreter.kernel.xorshift.XorShift` from the same state.
    """
    s = rs[0]
    s ^= s << u64(13)
    s ^= s >> u64(7)
    s ^= s << u64(17)
    rs[0] = s
    return i64(s % u64(n))


@jit
def beyond(mine, theirs, ahead, at_least):
    """``P has KIND beyond every OTHER`` on words (see :func:`rulesdsl.interpreter.kernel.codegen.beyond`)."""
    if mine == u64(0):
        return False
    best = u64(0)  # the tables hold words: a signed start would make the maximum a float
    x = mine
    while x:
        low = x & (u64(0) - x)
        b = popcount(low - u64(1))
        if ahead[b] > best:
            best = ahead[b]
        x ^= low
    return (theirs & at_least[best]) == u64(0)


@jit
def stack(depth, rows, columns):
    """``depth`` levels of ``rows`` child rows of ``columns`` words (perft's walk)."""
    return np.zeros((depth, rows, columns), dtype=np.uint64)


@jit
def counters(depth):
    """``depth`` whole numbers, zero."""
    return np.zeros(depth, dtype=np.int64)


@jit
def after(rows, start):
    """The rows of ``rows`` from ``start`` on (a view: ``expand`` writes a batch's children one after another)."""
    return rows[start:]


def lanetable(values, lanes):
    """A constant table of bitboards of ``lanes`` words each, as an array (numba keeps a global array as a constant
    and reads an entry with one load, where a tuple read with a number it knows only at run time is a switch)."""
    mask = (1 << 64) - 1
    return np.array([[(int(v) >> (64 * j)) & mask for j in range(lanes)] for v in values], dtype=np.uint64)


@jit
def putdiff(out, k, base, at, values, rest):
    """Row ``k`` of ``out``: the words of ``base`` with ``values`` over those at ``at``, then ``rest``; ``k + 1``
    (a child written from the saved position and the words its move changed, :mod:`~.native_compact`)."""
    n = len(base)
    for i in range(n):
        out[k, i] = base[i]
    for j in range(len(at)):
        out[k, at[j]] = values[j]
    for j in range(len(rest)):
        out[k, n + j] = rest[j]
    return k + 1
