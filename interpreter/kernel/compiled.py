"""The compiled kernel behind the Game interface: states to bitboards and back.

:mod:`rulesdsl.interpreter.kernel.codegen` writes a game's playout and perft as
functions over integers; this module hands them a :class:`State` and turns
their answer back into states and outcomes. Each function answers ``None``
when the game has no kernel, or for a state the kernel does not take (one
that remembers more than the board, the turn, the go-again cell, the words
the kernel keeps after the bitboards (plies without capture, the hands, the
turns played: :meth:`Kernel.extra`) and, in a game that forbids repetition,
its earlier boards): the caller then takes the generic path.

Where numba imports, the kernel is also compiled to machine code
(:mod:`rulesdsl.interpreter.kernel.native`) in a background thread at the first
use; until it is ready the Python kernel answers, so nobody waits for a
compile. A playout seeded from a ``random.Random`` draws from one xorshift
generator in both kernels (:mod:`rulesdsl.interpreter.kernel.xorshift`), so the
same seed plays the same game whichever kernel runs it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping

from rulesdsl.expr import Value
from rulesdsl.interpreter.compile.game import NO_CELL, EndRuleRef, Outcome, Playout, RandomSource, State
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel import past
from rulesdsl.interpreter.kernel.codegen import Kernel, compile_kernel
from rulesdsl.interpreter.kernel.lazy_past import LazyHistory, LazyPast
from rulesdsl.interpreter.kernel.native import NOT_OVER, Background, NativeKernel
from rulesdsl.interpreter.kernel.native import enabled as native_enabled
from rulesdsl.interpreter.kernel.perft_table import OverBudget, within
from rulesdsl.interpreter.kernel.places import PLACED, canonical
from rulesdsl.interpreter.kernel.xorshift import XorShift
from rulesdsl.interpreter.reference.places import final_places, first_of

PLAIN = State("", 0)[4:]  # the fields after ``history`` of a state that remembers nothing more
PLAIN_STATE = State("", 0)._asdict()  # each field's value in such a state


# A perft shallower than this runs on the Python kernel unless this process has the machine code already:
# loading numba and the cached code (about a second) costs more than such a perft takes. A deeper one runs on
# the Python kernel too, for up to NATIVE_PERFT_BUDGET seconds (about what loading the machine code takes:
# at worst twice the time the machine code alone would have taken), then loads it. In a process of its own
# (one run, load 2.5), grid Abalone's and Breakthrough's perft 5 took 0.46 s and 0.47 s so, against 1.86 s
# and 1.45 s loading the machine code first; Breakthrough's perft 6 takes the machine code after the budget.
# ``rulesdsl perft`` counts depth D as perft(D - 1) below each first move.
NATIVE_PERFT_DEPTH = 5
NATIVE_PERFT_BUDGET = 1.0
# Once the Python kernel has spent this long on perft in this process, any perft loads the cached machine code
# (``rulesdsl perft GAME --depth 6`` counts perft 5 below each first move).
NATIVE_PERFT_SECONDS = NATIVE_PERFT_BUDGET

# The earlier boards whose bitboards a game remembers at most (then it forgets them all and begins again).
BOARD_KEYS = 1 << 14


class CompiledPlay:
    """Playout and perft on the game's kernel, compiled at the first use."""

    def __init__(self, active, tables: Tables, options: Mapping[str, Value], start_board: Callable[[], str],
                 empty: str, misere: bool, reasons: list[str], fired: list[EndRuleRef]):
        self._make = lambda: compile_kernel(active, tables, options, start_board)
        self.tables, self.start_board = tables, start_board
        self.active = active  # the statements in force (the search reads the ``score`` statement's expressions)
        self.features: tuple = ()  # the static evaluation's features (set by the compiler)
        self.mobility: Callable[[State, int], int] | None = None  # the evaluation's ``mobility`` (the compiler's)
        self._made: list[Kernel | None] = []
        self.empty, self.misere, self.reasons, self.fired = empty, misere, reasons, fired
        self.opponent = tables.seats.opponent
        self.background = Background(self.kernel)
        self.use_native = True  # False: the Python kernel answers even when machine code is ready (measurements)
        self._known = None  # the last chain of earlier positions encoded, and its keys (:func:`past.keys_of`)
        self._board_keys: dict[str, tuple[int, ...]] = {}  # earlier boards' bitboards (:meth:`_board_key`)
        self._perft_seconds = 0.0  # spent on perft by the Python kernel so far (see NATIVE_PERFT_SECONDS)
        self._may_load = True  # False once a deep perft found no machine code to load
        self._seconds_at: dict[int, float] = {}  # spent on perft by the Python kernel so far, per depth

    def native(self, wait: bool = False, start: bool = True, load: bool = True,
               search: bool = False) -> NativeKernel | None:
        """The kernel in machine code once it is ready (``wait``: compile or load it now), else ``None``;
        ``start=False``: use it when it is made or cached, but do not begin a compile (a playout or a perft
        alone does not: the engine, MCTS and ``bench`` do); ``load=False``: only if this process has it;
        ``search``: only with the search helpers ready too (:meth:`Background.get`)."""
        if not self.available() or not self.use_native:
            return None
        return self.background.get(wait, start, load, search)

    def engine_name(self) -> str:
        """Which engine plays this game's playouts now: ``native``, ``python`` (the Python kernel) or ``generic``."""
        if not self.available():
            return "generic"
        return "native" if self.native(start=False) is not None else "python"

    def kernel(self) -> Kernel | None:
        """The compiled kernel, or ``None`` when the rules use something it lacks."""
        if not self._made:
            self._made.append(self._make())
        return self._made[0]

    def available(self) -> bool:
        """True when the game has a kernel."""
        return self.kernel() is not None

    def _encode(self, state: State):
        """``(kernel, bitboards, last bit, history keys)``, or ``None`` for a state the kernel does not take."""
        kernel = self.kernel()
        if kernel is None or kernel.plain(state)[4:] != PLAIN or (kernel.hands and state.hand is None):
            return None
        if kernel.seats and not canonical(state.places):  # places no ``finishes`` rule gives: the generic path
            return None
        if (state.history is not None) != kernel.repetition:
            return None
        if state.last != NO_CELL and not kernel.has_again:
            return None  # a typed position's go-again cell in a game without go-again
        if state.marks is not None and state.marks.rights and "rights" not in kernel.marks:
            return None  # rights the kernel does not keep
        layout = kernel.layout
        bits = tuple(layout.encode(state.board, s) for s in kernel.symbols) + kernel.extra(state)
        last = 1 << layout.bit[state.last] if state.last != NO_CELL else 0
        history = {self._board_key(layout, kernel.symbols, b) for b in state.history} if kernel.repetition else None
        if kernel.past:  # the earlier positions' keys, oldest first (a new list: the kernel appends to it)
            chain = state.marks.past if state.marks is not None else None
            history = past.keys_of(chain, kernel.symbols, kernel.marks, layout, self._known)
            if chain is not None:
                self._known = (chain, list(history))  # a game played on asks for this chain and one more next
        return kernel, bits, last, history

    def _board_key(self, layout, symbols: tuple[str, ...], board: str) -> tuple[int, ...]:
        """An earlier board's bitboards, remembered (MCTS asks for the same earlier boards at every playout)."""
        key = self._board_keys.get(board)
        if key is None:
            if len(self._board_keys) >= BOARD_KEYS:
                self._board_keys.clear()
            key = self._board_keys[board] = tuple(layout.encode(board, s) for s in symbols)
        return key

    def _board(self, kernel: Kernel, bits) -> str:
        return kernel.board(self.empty, bits)

    @staticmethod
    def _state(kernel: Kernel, bits, board: str, turn: int, last: int, history=None) -> State:
        """The state of a board, the player to move, the go-again cell and the words after the bitboards."""
        return State(board, int(turn), last, history, **kernel.fields(bits))

    def playout(self, state: State, rng: RandomSource, cap: int) -> Playout | None:
        """:meth:`Game.playout` on the kernel (in machine code when it is ready and ``rng`` is a ``random.Random``)."""
        encoded = self._encode(state)
        if encoded is None:
            return None
        kernel, bits, last, history = encoded
        randrange = rng.randrange
        if isinstance(rng, random.Random):
            seed = rng.getrandbits(64)
            native = self.native(start=False)
            if native is not None and (history is None or native.history is not None):
                played = self._native_playout(native, state, bits, last, seed, cap, history)
                if played is not None:
                    return played
            randrange = XorShift(seed).randrange
        known = len(history) if kernel.past else 0  # the keys the state's chain of earlier positions had
        *bits, turn, last, result, plies = kernel.playout(*bits, state.turn, last, history, randrange, cap)
        if plies == 0:
            final = state
        else:
            final = self._state(kernel, bits, self._board(kernel, bits), turn,
                                kernel.layout.cell_of(last) if last else NO_CELL)
            final = self._with_history(kernel, state, final, known, lambda: history)
        return self._playout(final, result, plies)

    def _with_history(self, kernel: Kernel, state: State, final: State, known: int,
                      keys: Callable[[], list | set]) -> State:
        """``final`` with the earlier positions a playout from ``state`` left, decoded at their first read from
        ``keys()`` (the Python kernel's list of keys or set of boards; ``known``: the keys ``state`` had already)."""
        if kernel.repetition:
            return final._replace(history=LazyHistory(lambda: [self._board(kernel, key) for key in keys()]))
        if kernel.past:
            chain = state.marks.past if state.marks is not None else None
            earlier = LazyPast(lambda: past.past_of(keys()[known:], kernel.symbols, kernel.marks, kernel.layout,
                                                    self.empty, chain))
            return final._replace(marks=final.marks._replace(past=earlier))
        return final

    def _native_playout(self, native: NativeKernel, state: State, bits, last: int, seed: int, cap: int,
                        history=None) -> Playout | None:
        """The playout in machine code (``None``: a history too long for the native array, the caller plays it)."""
        import numpy as np

        hist = None
        if native.history is not None:  # earlier positions: a fixed-size array with room for the playout's keys
            hist = native.history.rows_for(history, cap)
            if hist is None:
                return None
        rs = np.array([XorShift(seed).state], dtype=np.uint64)
        *words, turn, last, winner, rule, plies = native.playout(*native.words(bits), state.turn,
                                                                 native.last_word(last), hist, rs, cap)
        kernel = native.kernel
        words, last = native.bits_of(words), native.last_of(last)
        final = state if plies == 0 else self._state(kernel, words, self._board(kernel, words), turn,
                                                     kernel.layout.cell_of(last) if last else NO_CELL)
        if plies and hist is not None:
            final = self._with_history(kernel, state, final, len(history), lambda: native.history.keys(hist))
        return self._playout(final, None if winner == NOT_OVER else (None if winner < 0 else int(winner), int(rule)),
                             int(plies))

    def _playout(self, final: State, result, plies: int) -> Playout:
        """The playout's end from the kernel's result: ``None`` (cut) or ``(winner before misere, rule)``."""
        if result is None:
            return Playout(final, None, plies)
        winner, rule = result
        if rule == PLACED:
            ranks = final_places(final.places, None)
            return Playout(final, Outcome(first_of(ranks), "every player has a place", None, ranks), plies)
        if rule < 0:
            return Playout(final, ranked(final, Outcome(None, "no legal moves")), plies)
        if self.misere and winner is not None:
            winner = self.opponent[winner]
        return Playout(final, ranked(final, Outcome(winner, self.reasons[rule], self.fired[rule])), plies)

    def perft(self, state: State, depth: int) -> int | None:
        """:meth:`Game.perft` on the kernel."""
        encoded = self._encode(state)
        if encoded is None:
            return None
        if depth <= 0:
            return 1
        kernel, bits, last, history = encoded
        # a count that follows the path (earlier positions, no table) loads the machine code when deep at once
        load = self._perft_seconds >= NATIVE_PERFT_SECONDS or (history is not None and depth >= NATIVE_PERFT_DEPTH) \
            or self._predicts_long(depth)
        native = self.native(start=False, load=load)
        if (native is None and history is None and depth >= NATIVE_PERFT_DEPTH and self._may_load and self.use_native
                and native_enabled()):
            try:  # the Python kernel first, for as long as loading the machine code would take
                moves = kernel.perft(*bits, state.turn, last, history, 1)
                return self._python_perft(kernel, bits, state.turn, last, history, depth, (depth, moves))
            except OverBudget:
                native = self.native(start=False, load=True)
                self._may_load = native is not None  # (none to load: count on in Python from now on)
        if native is not None and (history is None or native.history is not None):
            return int(native.perft(*native.words(bits), state.turn, native.last_word(last), history, depth))
        return self._python_perft(kernel, bits, state.turn, last, history, depth)

    def _predicts_long(self, depth: int) -> bool:
        """True when this process's earlier counts on the Python kernel say that its counts of ``depth`` plies
        will take longer than NATIVE_PERFT_BUDGET: the time spent on counts one ply shallower, grown once more
        as it grew from two plies shallower (``rulesdsl perft GAME --depth 6`` counts perft 5 below each first
        move right after perft 4 below each, and perft 3 before that)."""
        if depth < NATIVE_PERFT_DEPTH or depth in self._seconds_at:
            return False
        below, further = self._seconds_at.get(depth - 1), self._seconds_at.get(depth - 2)
        return bool(below and further) and below * below / further > NATIVE_PERFT_BUDGET

    def _python_perft(self, kernel: Kernel, bits, turn: int, last: int, history, depth: int,
                      budget: tuple[int, int] | None = None) -> int:
        """The Python kernel's perft; its time is kept. ``budget``: ``(depth, first moves)``, and
        :class:`OverBudget` once NATIVE_PERFT_BUDGET seconds are spent or the first moves say they will be."""
        started = time.perf_counter()
        try:
            if budget is None:
                return kernel.perft(*bits, turn, last, history, depth)
            with within(NATIVE_PERFT_BUDGET, *budget):
                return kernel.perft(*bits, turn, last, history, depth)
        finally:
            spent = time.perf_counter() - started
            self._perft_seconds += spent
            self._seconds_at[depth] = self._seconds_at.get(depth, 0.0) + spent

    def children(self, state: State, native: NativeKernel) -> tuple[Outcome | None, list[State]] | None:
        """The native ``expand`` of ``state``: its outcome and, if it is not over, the position after each legal
        move (``None`` for a state the kernel does not take)."""
        import numpy as np

        encoded = self._encode(state)
        if encoded is None:
            return None
        kernel, bits, last, _ = encoded
        if native.expand is None:  # a kernel with earlier positions has no expand
            return None
        words = native.words(bits)
        out = np.zeros((native.children_max, len(words) + 2), dtype=np.uint64)
        winner, rule, rows = native.expand(*words, state.turn, native.last_word(last), out)
        if winner != NOT_OVER:
            return self._playout(state, (None if winner < 0 else int(winner), int(rule)), 0).outcome, []
        found = []
        width = len(words)
        for row in out[:rows].tolist():
            bits, last = native.bits_of(row[:width]), native.last_of(row[width + 1])
            cell = kernel.layout.cell_of(last) if last else NO_CELL
            found.append(self._state(kernel, bits, self._board(kernel, bits), row[width], cell))
        return None, found


def ranked(state: State, outcome: Outcome) -> Outcome:
    """An ending rule's result with every seat's place, in a game that gives places (as the generic path's)."""
    if state.places is None:
        return outcome
    ranks = final_places(state.places, outcome.winner)
    return outcome._replace(winner=first_of(ranks), places=ranks)
