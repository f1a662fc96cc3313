"""The Python kernel's functions compiled at their first call, each checked before it is compiled.

Checking and compiling a kernel's generated source (``check_source``, then Python's ``compile``) takes
about half of a short command's kernel build: 40 ms of a bundled kernel's 50 (92,000 characters), and a
large kernel's much more. A command rarely needs every function: ``perft`` calls ``perft`` alone, a
playout ``playout`` alone, and where the machine code is loaded from the cache the Python functions may
never run. So :func:`lazy_kernel_functions` hands out stand-ins for ``playout``, ``perft`` and
``expand``; the first call of each checks and compiles that function's own source (through
:func:`~rulesdsl.interpreter.kernel.codegen.run_checked`, the one audited compile) into the kernel's
namespace, puts the function in the kernel's place of the stand-in, and calls it. The helpers the
source defines besides (the attack test, the other player's moves) are checked and compiled at once.
The kernel's ``source`` is the same text as before, so the machine code's cache keys do not change.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from rulesdsl.interpreter.kernel.perft_table import with_table

__all__ = ["LazyFunction", "lazy_kernel_functions", "own"]


class LazyFunction:
    """A stand-in for one generated function: its first call compiles it (once, under a lock)."""

    def __init__(self, name: str, source: str, namespace: dict, lock: threading.Lock,
                 finish: Callable[[dict], Callable] | None = None):
        self.name, self.source, self.namespace, self.lock, self.finish = name, source, namespace, lock, finish
        self.function: Callable | None = None
        self.owner: object | None = None  # the kernel whose attribute ``name`` becomes the function

    def __repr__(self) -> str:
        return f"<kernel function {self.name}, {'compiled' if self.function else 'compiled at its first call'}>"

    def __call__(self, *arguments):
        function = self.function or self.compile()
        return function(*arguments)

    def compile(self) -> Callable:
        """Check and compile the function's source, and put it in its kernel's place of this stand-in."""
        from rulesdsl.interpreter.kernel.codegen import KernelSourceError, run_checked

        with self.lock:
            if self.function is None:
                try:
                    run_checked(self.source, self.namespace)
                except (RecursionError, MemoryError) as error:  # the build would have dropped the kernel
                    raise KernelSourceError(f"the kernel's {self.name} is too large to compile ({error!r})"
                                            ) from None
                function = self.finish(self.namespace) if self.finish else self.namespace[self.name]
                if self.owner is not None:
                    setattr(self.owner, self.name, function)
                self.function = function
        return self.function


def lazy_kernel_functions(namespace: dict, functions: dict[str, str], helpers: str) -> dict[str, LazyFunction]:
    """Stand-ins for the generated ``functions`` (name to source) over ``namespace``, after ``helpers`` (source
    the functions call) is checked and compiled into it. ``perft`` counts through a table of positions
    (:func:`~.perft_table.with_table`); its stand-in has that ``table`` from the start. Give each stand-in's
    ``owner`` the kernel once it is made."""
    from rulesdsl.interpreter.kernel.codegen import run_checked

    if helpers:
        run_checked(helpers, namespace)
    lock = threading.Lock()
    made = {}
    for name, source in functions.items():
        if name == "perft":
            table: dict[tuple, int] = {}
            made[name] = LazyFunction(name, source, namespace, lock, lambda ns, table=table: with_table(ns, table))
            made[name].table = table  # type: ignore[attr-defined]  # (tests look at what it holds)
        else:
            made[name] = LazyFunction(name, source, namespace, lock)
    return made


def own(kernel: object, stand_ins: dict[str, LazyFunction]) -> None:
    """Make ``kernel`` the owner of each stand-in: a compiled function replaces its stand-in there."""
    for stand_in in stand_ins.values():
        stand_in.owner = kernel
