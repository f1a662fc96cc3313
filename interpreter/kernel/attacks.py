"""Attacked cells on bitboards: ``forbid leaving KIND attacked``, ``safe`` and ``attacked(PLAYER KIND)``.

A player attacks a cell when one of its step or slide rules that may land on
an enemy piece could land there (:mod:`rulesdsl.interpreter.reference.attacks`
reads the same rules backwards from the cell). On bitboards the question is
asked of a whole set of cells at once, per direction of each such rule:

- a step along ``v``: the target cells moved one step against ``v`` meet an
  attacking piece;
- a slide along ``v``: a fill from the target cells against ``v`` over empty
  cells (one shift and two masks a step, at most the board's longest ray)
  meets an attacking piece.

Rules of the same kind of move along the same vector are asked together (a
queen and a rook share the rook's lines). The statements set one name to a
word that is not zero when some target cell is attacked; they allocate
nothing and loop a fixed number of times at most. They are written once, in a
function of the kernel's source, ``attacked(*bitboards, by, targets)``
(:meth:`Attacks.function`), which the move rules call (:meth:`Attacks.call`):
a test per move inlined would make the source too big to compile.
Rules that attack otherwise (a capturing jump, a push, ``over one``,
``exactly N`` to an enemy, ``from``/``within`` regions, ``taking``,
``blocked``) are not compiled here: the game keeps the generic path.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted


class AttackError(Exception):
    """An attacking rule the kernel does not compile (the game keeps the generic path)."""


def _reads_backwards(rule: m.MoveRule) -> bool:
    return (rule.action in ("step", "slide") and "enemy" in (rule.targets or ()) and rule.over in (None, "one")
            and not rule.by_line and rule.bringing is None)


def _displaces(rule: m.MoveRule) -> bool:
    return not _reads_backwards(rule) and (rule.capture or rule.action == "push" or "enemy" in (rule.targets or ())
                                           or bool(rule.flanking) or rule.action == "remove")


class Attacks:
    """The attack tests of one game's move rules (``bits(symbols)``: the source of those symbols' cells)."""

    def __init__(self, rules: list[m.MoveRule], tables: Tables, layout: BitLayout, bits: Callable):
        self.layout = layout
        self.patterns: list[list[tuple[int, bool, str]]] = []  # per player: (vector's shift, sliding, attackers)
        for player in range(len(tables.player_names)):
            found: dict[tuple, set[str]] = {}
            for rule in rules:
                if _displaces(rule):
                    raise AttackError("a rule that takes otherwise than by landing")
                if not _reads_backwards(rule) or not tables.symbols_of(player, rule.kind):
                    continue
                if rule.over is not None or rule.distance is not None or rule.region is not None \
                        or rule.within is not None or rule.taking is not None or rule.blocked:
                    raise AttackError("an attack over a piece, of exactly N, from or within a region, or blocked")
                for vector in tables.vectors(rule.directions, player):
                    key = (vector, rule.action == "slide")
                    found.setdefault(key, set()).update(tables.symbols_of(player, rule.kind))
            self.patterns.append([(vector, sliding, bits(sorted(syms))) for (vector, sliding), syms in found.items()])

    def lines(self, targets: str, by: int, empty: str, result: str) -> list[str]:
        """Statements setting ``result`` to a word that is not zero when ``by`` attacks a cell of ``targets``
        (expressions; ``empty``: the empty cells)."""
        layout = self.layout
        out = [f"{result} = 0"]
        fill = f"{result}f"
        for vector, sliding, attackers in self.patterns[by]:
            back = (-vector[0], -vector[1])
            s, pre = layout.shift_of(back), layout.has_next(back)
            if not sliding:
                out.append(f"{result} |= {shifted(f'({targets} & {pre})', s)} & {attackers}")
                continue
            out += [f"{fill} = {shifted(f'({targets} & {pre})', s)}", f"while {fill}:",
                    f"    {result} |= {fill} & {attackers}",
                    f"    {fill} = {shifted(f'({fill} & {empty} & {pre})', s)}"]
        return out

    def line_lines(self, targets: str, by: int, result: str) -> list[str]:
        """Statements setting ``result`` to the cells on the lines along which one of ``by``'s slides could reach
        a cell of ``targets`` were the line empty (a line with such a sliding piece on it), whatever else stands
        on them: only a piece leaving such a cell can open an attack on ``targets``."""
        layout = self.layout
        out = [f"{result} = 0"]
        fill, ray = f"{result}f", f"{result}r"
        for vector, sliding, attackers in self.patterns[by]:
            if not sliding:
                continue
            back = (-vector[0], -vector[1])
            s, pre = layout.shift_of(back), layout.has_next(back)
            out += [f"{fill} = {shifted(f'({targets} & {pre})', s)}", f"{ray} = 0", f"while {fill}:",
                    f"    {ray} |= {fill}", f"    {fill} = {shifted(f'({fill} & {pre})', s)}",
                    f"if {ray} & {attackers}:", f"    {result} |= {ray}"]
        return out

    def function(self, variables: str, empty: str) -> str:
        """The source of ``attacked(*bitboards, by, tg)`` (``variables``: the bitboards' names, each followed by a
        comma; ``empty``: the empty cells over them)."""
        body = [f"e = {empty}"]
        count = len(self.patterns)
        for player in range(count):
            body.append("if True:" if count == 1 else "else:" if player == count - 1
                        else f"{'if' if player == 0 else 'elif'} by == {player}:")
            body += ["    " + line for line in self.lines("tg", player, "e", "chk")]
        body.append("return chk")
        return f"def attacked({variables} by, tg):\n" + "".join(f"    {line}\n" for line in body)

    @staticmethod
    def call(variables: str, targets: str, by: int, result: str) -> str:
        """The statement setting ``result`` to the attack test of ``targets`` by ``by``."""
        return f"{result} = attacked({variables} {by}, {targets})"

    def count_lines(self, variables: str, pieces: str, by: int, number: int) -> tuple[list[str], str]:
        """Statements counting how many cells of ``pieces`` ``by`` attacks (``attacked(...)``), and the name that
        holds the count (``number`` tells the names of several counts apart)."""
        count, left, probe, hit = (f"{stem}{number}" for stem in ("ak", "akp", "akb", "akh"))
        return [f"{count} = 0", f"{left} = {pieces}", f"while {left}:", f"    {probe} = {left} & -{left}",
                f"    {left} ^= {probe}", "    " + self.call(variables, probe, by, hit),
                f"    if {hit}:", f"        {count} += 1"], count
