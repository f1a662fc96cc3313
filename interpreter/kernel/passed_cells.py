"""``slide ... exactly N``, ``passing`` and ``to passed`` on bitboards, with the two words they keep.

A ``passing`` move leaves the cells it passed open to the other side's ``to
passed`` moves for one ply (:mod:`rulesdsl.interpreter.reference.marks`). The
kernel keeps that in two words after the bitboards (:class:`PassedWords`):
``passed``, the bit of the cell passed, and ``passer``, the bit of the piece
that passed it (the piece a move ``to passed`` takes). Every other move sets
both to 0; a ``passing`` move sets them only when some ``to passed`` rule of
the player to move next could reach the cell (else nothing is open, as in the
reference, whose positions then compare equal).

- ``KIND slide DIRS exactly N [from REGION] [passing]``: N steps over empty
  cells, landing on an empty cell (or, ``to enemy``, taking the piece there):
  a fixed shift back to the origin, so one group per symbol and direction;
- ``KIND step DIRS to ... passed``: besides its empty and enemy landings, a
  group landing on the open cell while the passer is an enemy piece; its move
  takes the passer. It captures, but not by landing (``must capture by
  landing`` does not count it: ``Group.aside``).

Only one cell may be passed (``exactly 2``) and only steps may land ``to
passed``; anything else stays on the generic path. tests/test_kernel_chess_blocks.py
holds these to the reference.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rulesdsl import model as m
from rulesdsl.interpreter.compile.geometry import Vector
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted
from rulesdsl.interpreter.kernel.regions import origin_cells


class PassingError(Exception):
    """A ``passing``/``to passed``/``exactly N`` rule the kernel does not compile (the game keeps the generic path)."""


@dataclass(frozen=True)
class PassedWords:
    """The source names of the ``passed`` and ``passer`` words (``None``: the game keeps neither)."""

    passed: str | None = None
    passer: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n in (self.passed, self.passer) if n is not None)

    def closed(self) -> list[str]:
        """Statements run after every move that opens nothing."""
        return [f"{n} = 0" for n in self.names]


def asks_passing(rule: m.MoveRule) -> bool:
    """True for a rule this module generates."""
    return rule.distance is not None or rule.passing or "passed" in (rule.targets or ())


def keeps_passed(rules: list[m.MoveRule]) -> bool:
    """True when a position must keep the passed cell (a rule passes or lands ``to passed``)."""
    return any(r.passing or "passed" in (r.targets or ()) for r in rules)


class Passing:
    """The groups of the rules of this module for one game (``var``: each symbol's bitboard name)."""

    def __init__(self, tables: Tables, layout: BitLayout, rules: list[m.MoveRule], var: dict[str, str],
                 bits, words: PassedWords):
        self.tables, self.layout, self.rules, self.var, self.bits, self.words = tables, layout, rules, var, bits, words
        for rule in rules:
            if rule.passing and rule.distance != 2:
                raise PassingError("passing more than one cell")
            if "passed" in (rule.targets or ()) and (rule.action != "step" or rule.region is not None
                                                    or rule.within is not None):
                raise PassingError("a move to a passed cell that is not a plain step")

    def groups(self, rule: m.MoveRule, player: int) -> list[dict]:
        """The move groups of one rule for one player, as ``Group`` keyword arguments."""
        if rule.action == "slide" and rule.distance is not None and rule.over is None and not rule.by_line:
            return self.exact(rule, player)
        if rule.action == "step" and rule.distance is None and not rule.passing:
            return self.steps(rule, player)
        raise PassingError(f"{rule.action} with exactly N, passing or to passed")

    def directions(self, rule: m.MoveRule, player: int) -> Iterator[tuple[str, Vector, int, int]]:
        """Each (piece's bitboard, vector, its shift, the cells with a next cell that way) a rule moves along."""
        for sym in sorted(self.tables.symbols_of(player, rule.kind)):
            for vector in self.tables.vectors(rule.directions, player):
                yield self.var[sym], vector, self.layout.shift_of(vector), self.layout.has_next(vector)

    def enemy(self, player: int) -> tuple[str, list[str]]:
        theirs = sorted(self.tables.enemy_symbols(player))
        return self.bits(theirs), [self.var[s] for s in theirs]

    def exact(self, rule: m.MoveRule, player: int) -> list[dict]:
        """``slide DIRS exactly N``: N steps over empty cells."""
        tables, layout = self.tables, self.layout
        n = int(rule.distance)
        targets = set(rule.targets or ("empty",))
        if targets - {"empty", "enemy"}:
            raise PassingError("a slide exactly N to passed cells")
        opp, enemy_vars = self.enemy(player)
        out = []
        for mover, vector, s, pre in self.directions(rule, player):
            front = origin_cells(rule, tables, layout, player, mover)
            for _ in range(n - 1):
                front = f"({shifted(f'({front} & {pre})', s)} & E)"
            last = shifted(f"({front} & {pre})", s)
            play = [f"{mover} ^= {shifted('t', -n * s)} | t"]
            for target in ("empty", "enemy"):
                if target not in targets or (target == "enemy" and opp == "0"):
                    continue
                apply = list(play)
                if target == "enemy":
                    apply += [f"{v} &= ~t" for v in enemy_vars]
                opens = rule.passing and target == "empty"
                if opens:
                    apply += self.opening(player, shifted("t", -s), vector)
                out.append(dict(prelude=[], mask=f"{last} & {'E' if target == 'empty' else opp}", apply=apply,
                                target="t", origin_shift=n * s, action="slide", captures=target == "enemy",
                                moved=(n * s,), piece=mover, opens=opens))
        return out

    def opening(self, player: int, cell: str, vector: Vector) -> list[str]:
        """Statements after a passing move over ``cell`` (an expression of its bit; the piece landed on ``t``):
        open it when a ``to passed`` rule of the next player reaches it, else close."""
        words = self.words
        nxt = self.tables.seats.next_player[player]
        reach = self.takers(nxt, "pc")
        if reach == "0":
            return words.closed()
        return [f"pc = {cell}", f"if {reach}:", f"    {words.passed} = pc", f"    {words.passer} = t", "else:",
                *("    " + line for line in words.closed())]

    def takers(self, player: int, cell: str) -> str:
        """An expression not zero when a ``to passed`` step of ``player`` could land on the bit ``cell``."""
        tables, layout = self.tables, self.layout
        terms = []
        for rule in self.rules:
            if "passed" not in (rule.targets or ()):
                continue
            pieces = self.bits(tables.symbols_of(player, rule.kind))
            if pieces == "0":
                continue
            for vector in tables.vectors(rule.directions, player):
                back = (-vector[0], -vector[1])
                terms.append(f"({shifted(f'({cell} & {layout.has_next(back)})', layout.shift_of(back))} & {pieces})")
        return " | ".join(terms) or "0"

    def steps(self, rule: m.MoveRule, player: int) -> list[dict]:
        """``step DIRS to ... passed``: empty, enemy and passed landings, each a group."""
        words = self.words
        targets = set(rule.targets or ("empty",))
        opp, enemy_vars = self.enemy(player)
        out = []
        for mover, _, s, pre in self.directions(rule, player):
            reach = shifted(f"({mover} & {pre})", s)
            play = [f"{mover} ^= {shifted('t', -s)} | t"]
            common = dict(target="t", origin_shift=s, action="step", moved=(s,), piece=mover)
            # the open cell, while the piece that passed it is an enemy piece (always, but for a typed position)
            key = f"pq{len(out)}"
            opened = [f"{key} = 0", f"if {words.passer} & {opp}:", f"    {key} = {words.passed}"]
            out.append(dict(prelude=opened, mask=f"{reach} & E & {key}",
                            apply=play + [f"{v} &= ~{words.passer}" for v in enemy_vars], captures=True,
                            aside=True, **common))
            if "empty" in targets:  # an open cell is taken in passing, not stepped on
                out.append(dict(prelude=[], mask=f"{reach} & E & ~{key}", apply=play, captures=False, **common))
            if "enemy" in targets and opp != "0":
                taken = [f"{v} &= ~t" for v in enemy_vars]
                out.append(dict(prelude=[], mask=f"{reach} & {opp}", apply=play + taken, captures=True, **common))
        return out
