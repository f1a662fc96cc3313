"""Places on the kernel (``PLAYER finishes if COND``, ``PLAYER is out if COND``): one word after the bitboards.

The generic path (:mod:`rulesdsl.interpreter.reference.places`) keeps
``State.places``, one small number per seat (0 while it plays). The kernel
packs it into one word, three bits a seat (``NIBBLE`` bits apart; places run
to 6 at most with 6 seats), so the position stays a tuple of integers and the
word is a machine word in the native kernel.

After every complete turn (never inside a go-again turn) the generated
source settles the places as the reference does: the turn passes on past the
seats that have a place, then each placing rule in the file's order gives the
seats it names whose condition holds (``player``: every seat still playing)
the best place still open, shared by the seats it places at once; when one
seat is left it takes the last place, and the turn passes on past placed seats
again while two or more play. A position where at most one seat plays is over
(the kernel's rule ``PLACED``; :mod:`~rulesdsl.interpreter.kernel.compiled`
ranks the seats from the word).

``finishes`` gives the best place open, one more than the seats that
finished; ``is out`` the worst, for ``g`` seats out at once ``seats + 1 - g``
less the seats out before. A seat out has the fourth bit of its field set
(``OUT``), so both counts are popcounts of the word. A position whose places
could not have come from such rules (typed by hand, say ``-/2/-`` with three
seats) is left to the generic path (:func:`canonical`). Conditions read the board only
(``mover`` and ``opponent``, which depend on who is skipped, are not compiled),
so trying the rules once each in order gives what the reference's loop gives.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.placing_checks import EACH_SEAT, PLACINGS

NIBBLE = 4  # bits a seat's place takes in the word
PLACED = -3  # the kernel's end rule number for "every player has a place"
FIELD = 7  # the bits of one seat's place, at the seat's nibble
OUT = 8  # the nibble's fourth bit: the seat is out (its place counts from the worst end)


class PlacesError(Exception):
    """Placing rules the kernel does not compile (the game keeps the generic path)."""


def pack(places: tuple[int, ...]) -> int:
    """The word of a tuple of places (the seats of :func:`blocks`' worst end marked ``OUT``)."""
    split = blocks(places) if max(places, default=0) <= FIELD else None
    outs = split[1] if split else set()
    return sum((p | (OUT if p in outs else 0)) << NIBBLE * seat for seat, p in enumerate(places))


def unpack(word: int, seats: int) -> tuple[int, ...]:
    """The tuple of places of a word (``pack`` the other way)."""
    return tuple(int(word) >> NIBBLE * seat & FIELD for seat in range(seats))


def places_word(kernel) -> int:
    """The index of a kernel's places word among its position's words (-1: the kernel keeps no places); it comes
    right before the counted cells' words (:attr:`Kernel.width <rulesdsl.interpreter.kernel.codegen.Kernel.width>`)."""
    return kernel.width - len(kernel.counted) - 1 if kernel.seats else -1


def blocks(places: tuple[int, ...]) -> tuple[set[int], set[int]] | None:
    """The places given from the best end (``finishes``: each group of seats sharing a place starts right
    after the places of the groups before it) and those given from the worst end (``is out``: each group ends
    right before the places of the groups after it, the last at the number of seats), or ``None`` when some
    place is at neither. A place fits the best end first: while two seats or more play the two ends are
    apart, and the split is the rules' own."""
    taken = sorted(set(places) - {0})
    best, seen = set(), 0
    while taken and taken[0] == seen + 1:
        seen += places.count(taken[0])
        best.add(taken.pop(0))
    worst, end = set(), len(places)
    while taken and taken[-1] + places.count(taken[-1]) - 1 == end:
        end = taken[-1] - 1
        worst.add(taken.pop())
    return None if taken else (best, worst)


def canonical(places: tuple[int, ...] | None) -> bool:
    """True when ``places`` could come from ``finishes`` and ``is out`` rules: groups from the best end, then
    a gap, then groups from the worst end (:func:`blocks`)."""
    if places is None or max(places, default=0) > FIELD:
        return False
    return blocks(places) is not None


def _times(word: str, number: int) -> str:
    """``word * number`` as shifts (``word`` has at most one bit per seat's field)."""
    return " | ".join(f"({word} << {k})" if k else word for k in range(3) if number >> k & 1)


class Placing:
    """The source of one game's placing rules over the word named ``word``.

    ``condition(expr, seat)`` gives an end condition's source with ``player`` bound to ``seat``, and the
    statements it needs first; ``following`` is each seat's next seat.
    """

    def __init__(self, end: m.End, word: str, seats: int, following: tuple[int, ...], names: tuple[str, ...],
                 condition: Callable[[m.Expr, int], tuple[list[str], str]]):
        self.word, self.seats, self.following = word, seats, following
        self.ones = sum(1 << NIBBLE * s for s in range(seats))  # the low bit of every seat's field
        self.rules: list[list[tuple[int, list[str], str]]] = []  # per rule: (seat, statements, test) per seat
        self.finishing: list[bool] = []  # per rule: ``finishes`` (the best place open), else ``is out`` (the worst)
        for rule in end.rules:
            if rule.result not in PLACINGS:
                continue
            if rule.by_score:
                raise PlacesError("places by score")
            if rule.player != EACH_SEAT and rule.player not in names:
                raise PlacesError(f"a placing rule for '{rule.player}'")
            for node in m.walk(rule.condition):
                if isinstance(node, (m.NoMoves, m.NobodyMoves)):
                    raise PlacesError("a placing condition that reads the moves")
            seats_of = range(seats) if rule.player == EACH_SEAT else (names.index(rule.player),)
            self.rules.append([(seat, *condition(rule.condition, seat)) for seat in seats_of])
            self.finishing.append(rule.result == "finishes")

    def placed(self) -> str:
        """An expression: the low bit of the field of every seat that has a place."""
        w = self.word
        return f"(({w} | ({w} >> 1) | ({w} >> 2)) & {self.ones})"

    def finished(self) -> str:
        """An expression: the low bit of the field of every seat placed from the best end (not out)."""
        return f"({self.placed()} & ~({self.word} >> 3))"

    def over(self) -> str:
        """An expression, true when at most one seat plays (the game is over unless a turn goes on)."""
        return f"{self.placed()}.bit_count() >= {self.seats - 1}"

    def playing(self) -> str:
        """An expression, true while two seats or more play."""
        return f"{self.placed()}.bit_count() <= {self.seats - 2}"

    def skip(self, first: int, turn: str) -> list[str]:
        """Statements passing ``turn`` (now ``first``) on past the seats that have a place."""
        order = [first]
        while len(order) < self.seats:
            order.append(self.following[order[-1]])
        lines = [f"if {self.playing()} and {self.word} & {FIELD << NIBBLE * first}:"]
        for k, seat in enumerate(order[1:]):
            lines += [f"    {'if' if k == 0 else 'elif'} not {self.word} & {FIELD << NIBBLE * seat}:",
                      f"        {turn} = {seat}"]
        return lines

    def give(self, seats: str, count: str, base: int, step: int = 1) -> list[str]:
        """Statements giving the seats of ``seats`` (low bits) the place ``base + step * count``."""
        lines = [f"pk = {count}"]
        for number in range(self.seats + 1):
            place = base + step * number
            if 1 <= place <= self.seats:
                lines += [f"{'if' if len(lines) == 1 else 'elif'} pk == {number}:",
                          f"    {self.word} |= {_times(seats, place)}"]
        return lines

    def settle(self, first: int, turn: str) -> list[str]:
        """Statements run once a turn is complete and ``turn`` holds the next seat, ``first``: the turn skips
        placed seats, the placing rules give places, and the turn skips the newly placed seats."""
        w = self.word
        lines = self.skip(first, turn)
        for rule, finishing in zip(self.rules, self.finishing):
            body = ["pn = 0"]
            for seat, before, test in rule:
                body += before + [f"if not {w} & {FIELD << NIBBLE * seat} and {test}:",
                                  f"    pn |= {1 << NIBBLE * seat}"]
            body.append("if pn:")
            if finishing:  # the best place open: one more than the seats finished
                body += ["    " + line for line in self.give("pn", f"{self.finished()}.bit_count()", 1)]
            else:  # the worst open for the seats out now: seats - (those out before and now) + 1
                body += ["    " + line for line in self.give("pn", f"(({w} >> 3) & {self.ones} | pn).bit_count()",
                                                                 self.seats + 1, -1)]
                body.append(f"    {w} |= pn << 3")
            body += [f"    pl = {self.ones} & ~{self.placed()}",  # one seat left: it takes the best place open
                     "    if pl and not pl & (pl - 1):"]
            body += ["        " + line for line in self.give("pl", f"{self.finished()}.bit_count()", 1)]
            body += ["    " + line for line in self.skip(first, turn)]
            lines += [f"if {self.playing()}:"] + ["    " + line for line in body]
        return lines
