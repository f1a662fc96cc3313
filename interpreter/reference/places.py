"""End rules that give a player a place while the others play on: ``finishes`` and ``is out``.

``PLAYER finishes if COND`` gives PLAYER the best place still open (the first
to finish is first); ``PLAYER is out if COND`` the worst (the first out is
last). PLAYER may be ``player``: the rule is tried for every seat still
playing, and ``player`` in COND names that seat. A placed seat moves no more:
the turn skips it. When one seat is left it takes the place still open and
the game is over.

The state keeps one small number per seat (``State.places``: 0 while the
seat plays, else its place), a fixed-size field a kernel can hold; the
position field ``places`` writes it (``-/1/-``). The rules are tried after
each complete turn (not between the parts of a go-again or ``then`` turn),
in the file's order, until none gives a new place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import NO_CELL, Move, Outcome, State
from rulesdsl.placing_checks import EACH_SEAT, PLACINGS

__all__ = ["EACH_SEAT", "PLACINGS", "Placings", "compile_placings", "final_places", "mover_skipping",
           "next_playing"]

PLAYING = 0  # the place of a seat still playing


def mover_skipping(previous: tuple[int, ...]) -> Callable[[State], int]:
    """The mover where turns skip placed seats: the nearest seat before the player to move still playing
    (the player to move itself between the parts of a turn)."""
    count = len(previous)

    def mover(state: State) -> int:
        if state.last != NO_CELL:
            return state.turn
        seat = previous[state.turn]
        if state.places is not None:
            for _ in range(count):
                if not state.places[seat]:
                    return seat
                seat = previous[seat]
        return previous[state.turn]

    return mover


def next_playing(following: tuple[int, ...], mover: Callable[[State], int]) -> Callable[[State], int]:
    """``opponent`` where turns skip placed seats: the next seat after the mover still playing."""
    count = len(following)

    def opponent(state: State) -> int:
        seat = following[mover(state)]
        if state.places is not None:
            for _ in range(count):
                if not state.places[seat]:
                    return seat
                seat = following[seat]
        return following[mover(state)]

    return opponent


def open_place(places: tuple[int, ...] | list[int], best: bool, seats: int = 1) -> int:
    """The place ``seats`` seats placed together share: the best places no seat covers yet (or the worst,
    the group sharing the better end of them). Seats sharing place p cover p, p + 1, ... one place each."""
    covered = set()
    for place in set(places) - {PLAYING}:
        covered.update(range(place, place + places.count(place)))
    free = [p for p in range(1, len(places) + 1) if p not in covered]
    return free[0] if best else free[-seats]


def final_places(places: tuple[int, ...], winner: int | None) -> tuple[int, ...]:
    """Every seat's place when another end rule ends the game: ``winner`` takes the best open place, the
    other seats still playing share the next one (all of them the best open place in a draw)."""
    out = list(places)
    if winner is not None and not out[winner]:
        out[winner] = open_place(out, True)
    if PLAYING in out:
        shared = open_place(out, True)
        out = [shared if p == PLAYING else p for p in out]
    return tuple(out)


def first_of(places: tuple[int, ...]) -> int | None:
    """The seat alone in first place, or ``None`` when first place is shared."""
    return places.index(1) if places.count(1) == 1 else None


class Test(NamedTuple):
    """One placing rule for one seat (``seat``) or for the seat a name refers to (``seat_of``)."""

    rule: int  # the rule's number among the placing rules: seats one rule places at once share a place
    finish: bool
    seat: int
    seat_of: Callable[[State], int] | None
    condition: Callable


class Placings:
    """The compiled placing rules of a game: settle a state after a move, and read the result."""

    def __init__(self, tests: list[Test], count: int, following: tuple[int, ...],
                 legal: Callable[[State], list[Move]], turn_open: Callable[[State], bool]):
        self.tests, self.count, self.following = tests, count, following
        self.rules = [[t for t in tests if t.rule == r] for r in sorted({t.rule for t in tests})]
        self.legal, self.turn_open = legal, turn_open

    def skip(self, state: State) -> State:
        """``state`` with the turn passed on past placed seats (unchanged when none or one seat plays)."""
        places = state.places
        if places is None or places.count(PLAYING) < 2:
            return state
        turn = state.turn
        while places[turn]:
            turn = self.following[turn]
        return state if turn == state.turn else state._replace(turn=turn)

    def settle(self, state: State) -> State:
        """After a move: give places where the rules say, and pass the turn to a seat still playing."""
        if state.places is None or self.turn_open(state):
            return state
        state = self.skip(state)
        changed = True
        while changed and state.places.count(PLAYING) > 1:
            changed = False
            moves = self.moves_of(state)
            for rule in self.rules:
                placed = {seat for test in rule if not state.places[seat := self.seat(test, state)]
                          and test.condition(state, moves)}
                if not placed:
                    continue
                places = list(state.places)
                shared = open_place(places, rule[0].finish, len(placed))
                for seat in placed:
                    places[seat] = shared
                if places.count(PLAYING) == 1:  # the last seat takes the place left
                    places[places.index(PLAYING)] = open_place(places, True)
                state = self.skip(state._replace(places=tuple(places)))
                changed = True
                break
        return state

    @staticmethod
    def seat(test: Test, state: State) -> int:
        """The seat a test is about in ``state``."""
        return test.seat_of(state) if test.seat_of is not None else test.seat

    def moves_of(self, state: State) -> Callable[[], list[Move]]:
        """``moves()``: the legal moves in ``state``, generated at the first call only."""
        found: list[list[Move]] = []

        def moves() -> list[Move]:
            if not found:
                found.append(self.legal(state))
            return found[0]

        return moves

    def outcome(self, state: State) -> Outcome | None:
        """The result once at most one seat plays, else ``None``."""
        places = state.places
        if places is None or places.count(PLAYING) > 1 or self.turn_open(state):
            return None
        final = final_places(places, None)
        return Outcome(first_of(final), "every player has a place", None, final)


def compile_placings(end: m.End | None, compiler, tables, legal: Callable[[State], list[Move]],
                     turn_open: Callable[[State], bool]) -> Placings | None:
    """The game's placing rules (``None`` when it has none); ``compiler`` is the end rules'
    :class:`ConditionCompiler`."""
    from rulesdsl.interpreter.reference.endings import player_ref  # endings imports this module

    rules = [rule for rule in (end.rules if end else ()) if rule.result in PLACINGS]
    if not rules:
        return None
    count = len(tables.player_names)
    tests = []
    for number, rule in enumerate(rules):
        finish = rule.result == "finishes"
        if rule.player == EACH_SEAT:
            for seat in range(count):
                tables.bound_seat = seat
                tests.append(Test(number, finish, seat, None, compiler.compile(rule.condition)))
            tables.bound_seat = -1
        else:
            tests.append(Test(number, finish, -1, player_ref(rule.player, tables), compiler.compile(rule.condition)))
    return Placings(tests, count, tables.seats.next_player, legal, turn_open)


def settled(apply: Callable[[State, Move], State], placings: Placings) -> Callable[[State, Move], State]:
    """``apply`` (which knows nothing of places: they are carried over) followed by :meth:`Placings.settle`."""
    settle = placings.settle

    def apply_and_settle(state: State, move: Move) -> State:
        return settle(apply(state, move)._replace(places=state.places))

    return apply_and_settle
