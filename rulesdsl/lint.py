"""Warnings: what a file declares but never uses, and end conditions that never hold."""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.expr import ExprError, evaluate, names_in
from rulesdsl.findings import Findings


class Lints(Findings):
    """Mixed into the checker: reports W030-W042 through ``self.warning``."""

    def check_unused(self) -> None:
        """Warn about piece kinds, options and direction sets that nothing uses."""
        kinds: set[str] = set()
        sets: set[str] = set()
        names: list[m.NameRef] = []
        starts: list[str] = []
        for stmt in self.resolved.statements:
            if stmt.guard is not None:
                names += names_in(stmt.guard)
            if isinstance(stmt, (m.Moves, m.Then)):
                for rule in stmt.rules:
                    kinds.add(rule.kind)
                    sets.update(ref.name for ref in (*rule.directions, *rule.flanking))
                    sets.update([rule.falling.name] if rule.falling else [])
                    names += names_in(rule.guard) if rule.guard is not None else []
                    names += [ref for e in (rule.when, rule.spared) if e is not None for ref in names_in(e)]
                    kinds.update([rule.enclose.kind] if rule.enclose else [])
                    sets.update([rule.sow.capture.name] if rule.sow and rule.sow.capture else [])
                if isinstance(stmt, m.Then) and stmt.after_row is not None:
                    names += names_in(stmt.after_row)
            elif isinstance(stmt, m.Hand):
                for kind, count in stmt.parts:
                    kinds.add(kind)
                    names += names_in(count)
            elif isinstance(stmt, m.CapturedToHand):
                kinds.update([*stmt.kinds, *([stmt.as_kind] if stmt.as_kind else [])])
            elif isinstance(stmt, m.DirectionSet):
                sets.update(ref.name for ref in stmt.directions if ref.name != stmt.name)
            elif isinstance(stmt, m.OptionDecl):
                for expr in (stmt.default, stmt.low, stmt.high):
                    names += [ref for ref in names_in(expr) if ref.name != stmt.name] if expr else []
            elif isinstance(stmt, m.Board):
                names += [ref for expr in stmt.size for ref in names_in(expr)]
            elif isinstance(stmt, m.StartPosition):
                starts.append(stmt.text)
            elif isinstance(stmt, m.StartLayout):
                for item in stmt.items:
                    kinds.update([item.kind] if item.kind else [])
                    names += names_in(item.where) if item.where is not None else []
                    names += names_in(item.amount) if item.amount is not None else []
                    names += [ref for cell in item.cells for expr in cell.xy or () for ref in names_in(expr)]
            elif isinstance(stmt, m.Region):
                names += names_in(stmt.where) if stmt.where is not None else []
                names += [ref for part in stmt.wheres for ref in names_in(part.where)]
            elif isinstance(stmt, m.Score):
                names += [ref for _, expr, _ in stmt.parts for ref in names_in(expr)]
            elif isinstance(stmt, m.End):
                names += [ref for rule in stmt.rules for ref in names_in(rule.condition)]
                sets.update(name for rule in stmt.rules for name in directions_in(rule.condition))
        used_options = {ref.name for ref in names}
        for decl in self.resolved.of(m.PieceDecl):
            placed = any(sym in text for text in starts for _, sym, _ in decl.symbols)
            if decl.kind not in kinds and not placed:
                self.warning(decl.span, f"piece kind {decl.kind!r} is declared but no move rule moves it and "
                             "no start places it", "W030", "add a move rule or a start for it, or delete it")
        for decl in self.resolved.of(m.OptionDecl):
            if decl.name not in used_options:
                self.warning(decl.span, f"option {decl.name!r} is declared but never used", "W031",
                             "use it in a guard, a board size, a range, a start or an end rule, or delete it")
        for decl in self.resolved.of(m.DirectionSet):
            if decl.name not in sets:
                self.warning(decl.span, f"direction set {decl.name!r} is declared but no move rule uses it",
                             "W032", "name it in a move rule, or delete it")
        self.check_unusable_moves(starts)

    def check_unusable_moves(self, starts: list[str]) -> None:
        """Warn about move rules for a piece kind that can never be on the board."""
        kinds = {s.kind: s for s in self.resolved.of(m.PieceDecl)}
        made: set[str] = {k for p in self.resolved.of(m.Promote) for k in (p.to_kind, *p.choices)}
        for layout in self.resolved.of(m.StartLayout):
            made.update(item.kind for item in layout.items if item.kind)
        for block in (*self.resolved.of(m.Moves), *self.resolved.of(m.Then)):
            made.update(rule.kind for rule in block.rules if rule.action in ("place", "build", "drop"))
        for kind, decl in kinds.items():
            if any(sym in text for text in starts for _, sym, _ in decl.symbols):
                made.add(kind)
        for block in (*self.resolved.of(m.Moves), *self.resolved.of(m.Then)):
            for rule in block.rules:
                if rule.kind in kinds and rule.kind not in made:
                    self.warning(rule.span, f"this {rule.action} rule can never be used: no start places a "
                                 f"{rule.kind}, and no rule places or promotes to one", "W033",
                                 f"place a {rule.kind} in a start, or promote to it, or delete the rule")

    def check_end_never_holds(self) -> None:
        """Warn about end conditions that are false in every position."""
        for block in self.resolved.of(m.End):
            for rule in block.rules:
                why = never_holds(rule.condition)
                if why:
                    self.warning(rule.condition.span, f"this end condition can never hold: {why}", "W040",
                                 "as written the rule never decides a game; check the comparison")


    def check_counters_in_moves(self) -> None:
        """Warn about a move rule whose legality reads a count that position strings do not carry."""
        formats = self.resolved.of(m.PositionFormat)
        fields = formats[0].fields if formats else ()
        counters = {kind: name for kind, name, field in ((m.TurnsPlayed, "turns played", "turns"),
                                                         (m.QuietPlies, "plies without capture", "clock"))
                    if field not in fields}
        for block in (*self.resolved.of(m.Moves), *self.resolved.of(m.Then)):
            for rule in block.rules:
                found = [counters[type(e)] for e in (m.walk(rule.when) if rule.when is not None else ())
                         if type(e) in counters]
                if found:
                    self.warning(rule.when.span, f"this move rule depends on '{found[0]}', which position strings "
                                 "do not carry: a position read from a string counts from 0, so it can have other "
                                 "legal moves than the game that reached it", "W042",
                                 "add the position field 'turns' (or 'clock'), or decide with the board instead "
                                 "(a piece count, a row, a region)")

    def check_again_never_ends(self) -> None:
        """Warn about a go-again rule that can only end when the mover has no move at all."""
        for again in self.resolved.of(m.Again):
            if again.after is None and not again.same_piece and not again.may_pass and not again.chain:
                self.warning(again.span, "'again with any piece' without 'after' or 'or pass' goes on after every "
                             "move: the turn passes only when the mover has no move left", "W041",
                             "say which moves go again ('again after capture'), or let the mover stop ('or pass')")


def directions_in(expr: m.Expr) -> list[str]:
    """The direction names an end condition uses (``connects ... along DIRS``)."""
    return [ref.name for e in m.walk(expr) if isinstance(e, m.Connects) for ref in e.along]


COMPARISONS = ("<", "<=", "==", "!=", ">", ">=")
FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _constant(expr: m.Expr) -> bool:
    """True when ``expr`` is made of literals and operators only."""
    return all(isinstance(e, (m.Literal, m.Unary, m.Binary, m.Logic)) for e in m.walk(expr))


def never_holds(expr: m.Expr) -> str | None:
    """Why an end condition is false in every position, or ``None`` if it may hold.

    Sound, not complete: a constant condition that is false, a piece count
    compared below zero, and ``and``/``or`` of those.
    """
    if isinstance(expr, m.Logic):
        reasons = [never_holds(item) for item in expr.items]
        if expr.op == "and":
            return next((r for r in reasons if r), None)
        return reasons[0] if all(reasons) else None
    if _constant(expr):
        try:
            value = evaluate(expr, {})
        except ExprError:
            return None
        return None if value else "it involves only constants and is always false"
    if isinstance(expr, m.Binary) and expr.op in COMPARISONS:
        op, count, other = expr.op, expr.left, expr.right
        if not (isinstance(count, m.Call) and count.function == "count"):
            op, count, other = FLIPPED[op], expr.right, expr.left
        if not (isinstance(count, m.Call) and count.function == "count") or not _constant(other):
            return None
        try:
            bound = evaluate(other, {})
        except ExprError:
            return None
        if isinstance(bound, bool) or not isinstance(bound, int):
            return None
        if (op == "<" and bound <= 0) or (op in ("<=", "==") and bound < 0):
            return f"a count of pieces is never negative, so it is never {op} {bound}"
    return None
