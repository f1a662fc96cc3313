"""The random generator of playouts on the kernel: xorshift64, the same numbers in Python and in machine code.

A playout on a compiled kernel draws its moves from this generator, seeded
once from the caller's ``random.Random``; the native kernel
(:func:`rulesdsl.interpreter.kernel.native_runtime.draw`) steps the same generator,
so a seeded playout reaches the same end whether the Python or the native
kernel plays it.
"""

from __future__ import annotations

MASK = (1 << 64) - 1


class XorShift:
    """xorshift64 (13, 7, 17) over one 64-bit word; ``randrange(n)`` is the new word modulo ``n``."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = (seed & MASK) or 1  # zero is the one state the generator never leaves

    def randrange(self, stop: int) -> int:
        """The next number in ``0 .. stop - 1``."""
        s = self.state
        s ^= (s << 13) & MASK
        s ^= s >> 7
        s ^= (s << 17) & MASK
        self.state = s
        return s % stop
