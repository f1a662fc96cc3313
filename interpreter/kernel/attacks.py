"""Attacked cells on bitboards: ``forbid leaving KIND attacked``, ``safe`` and ``attacked(PLAYER KIND)``.

A player attacks a cell when one of its step or slide rules that may land on
an enemy piece could land there (:mod:`rulesdsl.interpreter.reference.attacks`
reads the same rules backwards from the cell). On bitboards the question is
asked of a whole set of cells at once, per direction of each such rule:

- a step along ``v``: the cells one step against ``v`` from the target hold an
  attacking piece;
- a slide along ``v``: the nearest piece on the ray against ``v`` from the
  target is an attacking one.

Rules of the same kind of move along the same vector are asked together (a
queen and a rook share the rook's lines). The statements set one name to a
word that is not zero when some target cell is attacked; they allocate
nothing. They are written once, in a function of the kernel's source,
``attacked(*bitboards, by, targets)`` (:meth:`Attacks.function`: per target
cell a table lookup per step rule and the nearest piece on each ray), which
the move rules call (:meth:`Attacks.call`): a test per move inlined would
make the source too big to compile.
``from`` and ``within`` regions, ``taking KIND``, ``blocked`` leaps and ``over
one`` (a screen) are read as the reference reads them. Rules that attack
otherwise (a capturing jump, a push, ``exactly N`` to an enemy) are not
compiled here: the game keeps the generic path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables, first_step
from rulesdsl.interpreter.kernel.bitboards import BitLayout


class AttackError(Exception):
    """An attacking rule the kernel does not compile (the game keeps the generic path)."""


def _reads_backwards(rule: m.MoveRule) -> bool:
    return (rule.action in ("step", "slide") and "enemy" in (rule.targets or ()) and rule.over in (None, "one")
            and not rule.by_line and rule.bringing is None)


def _displaces(rule: m.MoveRule) -> bool:
    return not _reads_backwards(rule) and (rule.capture or rule.action == "push" or "enemy" in (rule.targets or ())
                                           or bool(rule.flanking) or rule.action == "remove")


def _named(constants: dict[str, object], stem: str, values: tuple[int, ...]) -> str:
    """The name of the table ``values`` in ``constants``: one already there with the same stem, else a new one."""
    for name, held in constants.items():
        if name.startswith(stem) and name[len(stem):].isdigit() and held == values:
            return name
    name = f"{stem}{len(constants)}"
    constants[name] = values
    return name


class Pattern(NamedTuple):
    """One attacking rule of one player along one vector (or several steps of the same pieces, gathered)."""

    vectors: tuple[tuple[int, int], ...]
    sliding: bool
    attackers: str  # the source of the attacking pieces' cells (in the rule's ``from`` region)
    leg: bool = False  # ``blocked``: the leap's first step must be empty
    inside: int | None = None  # ``within``: only these cells are attacked
    screen: bool = False  # ``over one``: the attacker is the second piece along the ray
    victims: str | None = None  # ``taking KIND``: only a piece of these cells is attacked


class Attacks:
    """The attack tests of one game's move rules (``bits(symbols)``: the source of those symbols' cells)."""

    def __init__(self, rules: list[m.MoveRule], tables: Tables, layout: BitLayout, bits: Callable):
        self.layout = layout
        self.patterns: list[list[Pattern]] = []  # per player
        for player in range(len(tables.player_names)):
            steps: dict[str, list[tuple[int, int]]] = {}  # plain steps, gathered by the attacking pieces
            found: list[Pattern] = []
            for rule in rules:
                if _displaces(rule):
                    raise AttackError("a rule that takes otherwise than by landing")
                if not _reads_backwards(rule) or not tables.symbols_of(player, rule.kind):
                    continue
                if rule.distance is not None:
                    raise AttackError("an attack of exactly N")
                attackers = bits(sorted(tables.symbols_of(player, rule.kind)))
                if rule.region is not None:
                    attackers = f"({attackers} & {layout.mask(tables.region(rule.region, player))})"
                inside = layout.mask(tables.region(rule.within, player)) if rule.within is not None else None
                victims = None
                if rule.taking is not None:
                    victims = bits(sorted(s for s in tables.enemy_symbols(player) if tables.kind.get(s) == rule.taking))
                for vector in tables.vectors(rule.directions, player):
                    leg = rule.blocked and first_step(vector) != vector
                    if rule.action == "step" and not leg and inside is None and victims is None:
                        steps.setdefault(attackers, []).append(vector)
                        continue
                    found.append(Pattern((vector,), rule.action == "slide", attackers, leg, inside,
                                         rule.over == "one", victims))
            self.patterns.append([Pattern(tuple(vs), False, a) for a, vs in steps.items()] + found)

    def function(self, variables: str, occupied: str, constants: dict[str, object]) -> str:
        """The source of ``attacked(*bitboards, by, tg)`` and ``pinlines(*bitboards, by, tg)`` (``variables``: the
        bitboards' names, each followed by a comma; ``occupied``: the occupied cells over them); the tables they
        read go into ``constants``.

        Per cell of ``tg``: a step's attackers are one table lookup (the cells a step along any of the rule's
        vectors leads from to the cell; with ``blocked``, one table more for the leap's first cell), a slide's
        the nearest piece on the ray against its vector (a table of each cell's ray, masked by the occupied
        cells: its lowest or highest bit; ``over one``: the next piece past that one). ``pinlines`` gives the
        rays from ``tg`` that hold one of ``by``'s sliding pieces, whatever stands between, and the first cells of
        the leaps that reach ``tg`` from one of its leaping pieces (a piece leaving one of those cells may open an
        attack), and the rays that hold one of its pieces that take over a screen (a piece entering one may).
        """
        attack, lines = self._bodies(f"oc = {occupied}", False, constants)
        after, _ = self._bodies(f"oc = ({occupied} & ~gone) | came", True, constants)
        return (f"def attacked({variables} by, tg):\n" + "".join(f"    {line}\n" for line in attack) + "\n\n"
                + f"def pinlines({variables} by, tg):\n" + "".join(f"    {line}\n" for line in lines) + "\n\n"
                + f"def hitafter({variables} by, tg, gone, came):\n"
                + "".join(f"    {line}\n" for line in ["nc = ~came", *after]))

    def _bodies(self, occupied: str, after: bool, constants: dict[str, object]) -> tuple[list[str], list[str]]:
        """The statements of ``attacked`` (from ``occupied``, the line setting ``oc``) and of ``pinlines``;
        ``after``: the attackers read without the cells of ``nc``'s complement (a piece taken there)."""
        size = max(self.layout.bit) + 1
        each = ["while tg:", "    b = tg & -tg", "    tg ^= b", "    sq = b.bit_length() - 1"]  # each target cell
        attack, lines = [occupied, *each], ["pin = 0", "arr = 0", *each]
        count = len(self.patterns)
        for player in range(count):
            head = ("if True:" if count == 1 else "else:" if player == count - 1
                    else f"{'if' if player == 0 else 'elif'} by == {player}:")
            hits, pins = [], []
            for pattern in self.patterns[player]:
                if after:
                    pattern = pattern._replace(attackers=f"({pattern.attackers} & nc)")
                found, pinned = self._test(pattern, size, constants)
                conditions = [f"b & {pattern.inside}"] if pattern.inside is not None else []
                if pattern.victims is not None:
                    conditions.append(f"b & {pattern.victims}")
                if conditions:
                    found = [f"if {' and '.join(conditions)}:", *("    " + line for line in found)]
                hits += found
                pins += pinned
            attack += ["    " + head, *("        " + line for line in hits or ["pass"])]
            lines += ["    " + head, *("        " + line for line in pins or ["pin |= 0"])]
        attack.append("return 0")
        lines.append("return pin, arr")
        return attack, lines

    def _test(self, pattern: Pattern, size: int, constants: dict[str, object]) -> tuple[list[str], list[str]]:
        """One pattern's statements returning 1 when it attacks cell ``sq`` (bit ``b``), and those adding its lines
        to ``pin`` (the tables they read put in ``constants``)."""
        attackers = pattern.attackers
        if not pattern.sliding:
            name = _named(constants, "stp", self._steps(pattern.vectors, size))
            if not pattern.leg:
                return [f"if {name}[sq] & {attackers}:", "    return 1"], []
            (x, y), = pattern.vectors
            leg = _named(constants, "leg", self._legs((x, y), size))
            return ([f"if {name}[sq] & {attackers} and not {leg}[sq] & oc:", "    return 1"],
                    [f"if {name}[sq] & {attackers}:", f"    pin |= {leg}[sq]"])  # a piece leaving the leg opens it
        (x, y), = pattern.vectors
        back = (-x, -y)
        name = _named(constants, "ray", self._rays(back, size))
        rising = self.layout.shift_of(back) > 0
        nearest = "r & -r" if rising else "1 << (r.bit_length() - 1)"
        if not pattern.screen:
            return ([f"r = {name}[sq] & oc", f"if r & {attackers} and ({nearest}) & {attackers}:", "    return 1"],
                    [f"r = {name}[sq]", f"if r & {attackers}:", "    pin |= r"])
        # past the nearest piece (the screen) to the next one; a piece leaving or entering the ray may open it
        return ([f"r = {name}[sq] & oc", f"if r & {attackers}:", f"    r ^= {nearest}",
                 f"    if r and ({nearest}) & {attackers}:", "        return 1"],
                [f"r = {name}[sq]", f"if r & {attackers}:", "    pin |= r", "    arr |= r"])

    def _legs(self, vector: tuple[int, int], size: int) -> tuple[int, ...]:
        """Per bit, the first cell of the leap along ``vector`` that ends there (from where it starts)."""
        geometry, layout = self.layout.geometry, self.layout
        out = [0] * size
        fx, fy = first_step(vector)
        for cell in geometry.cells:
            start = geometry.step(cell.index, (-vector[0], -vector[1]))
            if start >= 0:
                leg = geometry.step(start, (fx, fy))
                out[layout.bit[cell.index]] = layout.mask([leg]) if leg >= 0 else 0
        return tuple(out)

    def _rays(self, vector: tuple[int, int], size: int) -> tuple[int, ...]:
        """Per bit, the cells from it along ``vector`` (itself excluded)."""
        geometry, layout = self.layout.geometry, self.layout
        out = [0] * size
        for cell in geometry.cells:
            out[layout.bit[cell.index]] = layout.mask(geometry.ray(cell.index, vector))
        return tuple(out)

    def _steps(self, vectors: list[tuple[int, int]], size: int) -> tuple[int, ...]:
        """Per bit, the cells from which one step along one of ``vectors`` leads to it."""
        geometry, layout = self.layout.geometry, self.layout
        out = [0] * size
        for cell in geometry.cells:
            found = (geometry.step(cell.index, (-x, -y)) for x, y in vectors)
            out[layout.bit[cell.index]] = layout.mask(c for c in found if c >= 0)
        return tuple(out)

    @staticmethod
    def pins(variables: str, targets: str, by: int, left: str, entered: str) -> str:
        """The statement setting ``left`` to the cells a piece leaving may open an attack of ``by`` on ``targets``
        by (the lines holding a sliding piece of ``by``, the first cells of its leaps), and ``entered`` to those
        a piece arriving on may (the lines holding a piece of ``by`` that takes over a screen)."""
        return f"{left}, {entered} = pinlines({variables} {by}, {targets})"

    @staticmethod
    def call(variables: str, targets: str, by: int, result: str) -> str:
        """The statement setting ``result`` to the attack test of ``targets`` by ``by``."""
        return f"{result} = attacked({variables} {by}, {targets})"

    @staticmethod
    def call_after(variables: str, targets: str, by: int, gone: str, came: str, result: str) -> str:
        """The statement setting ``result`` to the attack test of ``targets`` by ``by`` after a move that empties
        the cells ``gone`` and lands on ``came`` (taking what stood there), asked of the position before it."""
        return f"{result} = hitafter({variables} {by}, {targets}, {gone}, {came})"

    @property
    def reads_victims(self) -> bool:
        """Whether an attack takes only pieces of one kind (``taking KIND``): it reads the target's own kind."""
        return any(p.victims is not None for patterns in self.patterns for p in patterns)

    def count_lines(self, variables: str, pieces: str, by: int, number: int) -> tuple[list[str], str]:
        """Statements counting how many cells of ``pieces`` ``by`` attacks (``attacked(...)``), and the name that
        holds the count (``number`` tells the names of several counts apart)."""
        count, left, probe, hit = (f"{stem}{number}" for stem in ("ak", "akp", "akb", "akh"))
        return [f"{count} = 0", f"{left} = {pieces}", f"while {left}:", f"    {probe} = {left} & -{left}",
                f"    {left} ^= {probe}", "    " + self.call(variables, probe, by, hit),
                f"    if {hit}:", f"        {count} += 1"], count
