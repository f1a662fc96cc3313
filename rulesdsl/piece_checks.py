"""Checks of the building blocks that condition a piece's move on where it stands and what it did.

Regions (``region NAME where ...``), the move options ``exactly``, ``from``,
``unmoved``, ``safe``, ``bringing``, ``passing`` and the target ``passed``,
directions written as vectors, ``forbid leaving KIND attacked`` and promotion
to one of several kinds. A mixin of :class:`rulesdsl.checker.Checker`.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.errors import Span
from rulesdsl.vocabulary import ACTIONS, misplaced_message

# Move options (the model's field) by the word that writes them.
PIECE_OPTIONS = (("exactly", "distance"), ("from", "region"), ("within", "within"), ("unmoved", "unmoved"),
                 ("safe", "safe"), ("bringing", "bringing"), ("passing", "passing"), ("blocked", "blocked"),
                 ("taking", "taking"))
REGION_NAMES = ("col", "row", "rank")
TOWARD = ("forward", "backward", "left", "right")  # may stand before a vector: ``forward (1, 2)``


def is_vector(name: str) -> bool:
    """True for a direction written as a vector, ``(1, 2)``, or as the images of one toward a relative
    direction, ``forward (1, 2)``."""
    return name.startswith("(") or " (" in name


class PieceRuleChecks:
    """Regions, piece conditions on move rules, attacked kinds and promotion choices."""

    def regions(self) -> dict[str, m.Region]:
        """The declared regions by name."""
        return {r.name: r for r in self.resolved.of(m.Region)}

    def check_piece_rules(self) -> None:
        """Every block of this module's words, with the file's names."""
        regions = self.regions()
        for region in regions.values():
            if region.where is not None:
                self.check_names(region.where, {**self.options, **dict.fromkeys(REGION_NAMES)})
        for block in (*self.resolved.of(m.Moves), *self.resolved.of(m.Then)):
            for rule in block.rules:
                self._check_rule(rule, regions)
        for stmt in self.resolved.of(m.Forbid):
            if stmt.kind:
                self.check_piece(stmt.span, stmt.kind, None)
        for stmt in self.resolved.of(m.Promote):
            for kind in stmt.choices:
                self.check_piece(stmt.span, kind, None)
        self._check_remembered()

    def _check_remembered(self) -> None:
        """W034: rules that read what a position remembers, with no position field to write it in."""
        rules = [r for block in (*self.resolved.of(m.Moves), *self.resolved.of(m.Then)) for r in block.rules]
        conditions = [n for end in self.resolved.of(m.End) for rule in end.rules for n in m.walk(rule.condition)]
        needs = {"unmoved": any(r.unmoved for r in rules),
                 "passed": any(r.passing for r in rules) and any("passed" in r.targets for r in rules),
                 "clock": any(isinstance(n, m.QuietPlies) for n in conditions)
                 and any(r.unmoved or r.passing for r in rules),
                 "passes": any(isinstance(n, m.PassesInARow) for n in conditions),
                 "before": any(f.what == "immediate repetition" for f in self.resolved.of(m.Forbid))}
        formats = self.resolved.of(m.PositionFormat)
        fields = formats[0].fields if formats else ()
        missing = [name for name, needed in needs.items() if needed and name not in fields]
        if missing:
            where = formats[0].span if formats else Span(1, 1, 1, 2, self.file)
            self.warning(where, f"the rules remember what a position string cannot say: add the field "
                         f"{' and '.join(repr(f) for f in missing)} to the position format", "W034",
                         "e.g. position (turn unmoved passed clock rows), position (turn passes before rows)")

    def _check_rule(self, rule: m.MoveRule, regions: dict[str, m.Region]) -> None:
        spans = dict(rule.option_spans)
        action = ACTIONS.get(rule.action)
        if action is None:
            return
        for word, attribute in PIECE_OPTIONS:
            value = getattr(rule, attribute)
            if rule.action in ("place", "drop", "swap") and attribute == "region":
                word = "in"  # a placement's region: ``place KIND in REGION`` (``swap ... in REGION``)
            if value not in (None, False) and word not in action.modifiers:
                self.error(spans.get(attribute, rule.span), misplaced_message(word, rule.action), "E061")
        if rule.region is not None and rule.region not in regions:
            self.unknown(spans.get("region", rule.span), "region", rule.region, regions, "E054")
        if rule.within is not None and rule.within not in regions:
            self.unknown(spans.get("within", rule.span), "region", rule.within, regions, "E054")
        if rule.bringing is not None:
            self.check_piece(spans.get("bringing", rule.span), rule.bringing, None)
        if rule.taking is not None:
            self.check_piece(spans.get("taking", rule.span), rule.taking, None)
            if "enemy" not in rule.targets:
                self.error(spans.get("taking", rule.span), "'taking' limits what a move onto an enemy piece "
                           "takes: the rule needs 'to enemy'", "E061", f"e.g. to enemy taking {rule.taking}")
        if rule.over == "one" and rule.action != "slide":
            self.error(spans.get("over", rule.span), "'over one' belongs to a slide (a jump passes one piece "
                       "already)", "E061", "write 'over any' for a jump over either side's piece")
        if rule.over == "one" and (rule.by_line or rule.distance is not None or rule.bringing is not None):
            self.error(spans.get("over", rule.span), "'over one' goes as far as the line allows: it takes no "
                       "'exactly', 'by pieces in line' or 'bringing'", "E061")
        if rule.distance is not None and rule.distance < 1:
            self.error(spans.get("distance", rule.span), "a slide goes exactly 1 cell or more", "E062")
        if rule.bringing is not None and rule.action != "slide":
            self.error(spans.get("bringing", rule.span), "'bringing' belongs to a slide", "E061")

    def check_vector(self, ref: m.DirRef) -> None:
        """A vector direction is a lattice vector of a grid, not ``(0, 0)``."""
        if self.shape != "grid":
            self.error(ref.span, f"direction {ref.name} is a vector of a square grid, not of a {self.shape} "
                       "board", "E050", "use the board's direction names")
        elif ref.name.endswith("(0, 0)"):
            self.error(ref.span, "the vector (0, 0) goes nowhere", "E050",
                       "e.g. (1, 2): a leap one cell one way and two the other")
        elif " (" in ref.name:
            toward = ref.name.split(" (")[0]
            if toward not in TOWARD:
                self.error(ref.span, f"'{toward}' before a vector must be one of {', '.join(TOWARD)}", "E050",
                           "e.g. forward (1, 2): the knight's two leaps furthest forward")
            elif not self.has_forward:
                self.missing_forward(ref.span, f"direction {ref.name!r} is relative to the player")

    def check_count_args(self, span: Span, args: tuple[str, ...], roles: tuple[str, ...]) -> None:
        """``count([PLAYER] [KIND] [REGION])``: each word where it may stand."""
        rest = list(args)
        if rest and (rest[0] in roles or rest[0] in self.player_names):
            rest.pop(0)
        if rest and rest[-1] in self.regions() and rest[-1] not in self.kinds:
            rest.pop()
        if len(rest) > 1:
            self.error(span, "count() takes a player, a piece kind and a region, each optional", "E071")
        elif rest:
            self.check_piece(span, rest[0], None)
