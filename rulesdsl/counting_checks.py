"""The checker's part for counts, regions, tracks, sowing, enclosing and scores (codes E130-E139).

What is checked here needs no board: names resolved, each reference of the
right kind, each player given a score. Whether a region names cells and a
track closes depends on the board and the options; the trial compile
(:mod:`rulesdsl.interpreter.compile.regions`) reports those with their places.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.directions import RELATIVE
from rulesdsl.errors import Span


class CountingChecks:
    """Mixed into :class:`rulesdsl.checker.Checker` (which provides ``resolved``, ``kinds``, ``error``...)."""

    def check_counting(self) -> None:
        """Regions, tracks, ``counts``, ``sow``, ``place in``, ``enclosing``, ``put``, ``score``, ``best score``."""
        r = self.resolved
        tracks = {s.name: s for s in r.of(m.Track)}
        counted = {s.kind for s in r.of(m.Counts)}
        for stmt in r.of(m.Counts):
            self.check_piece(stmt.span, stmt.kind, None)
        for stmt in self.regions().values():
            for player, cells in stmt.cells:
                if player not in self.player_names:
                    self.unknown(cells[0][1] if cells else stmt.span, "player", player, self.player_names, "E030")
        for stmt in tracks.values():
            names = [name for name, _ in stmt.cells]
            for (name, span) in stmt.cells:
                if names.count(name) > 1:
                    self.error(span, f"track {stmt.name} passes {name} twice: a track is a cycle that visits each "
                               "cell once", "E131", "list each cell once, in order around the board")
                    break
            if len(names) < 2:
                self.error(stmt.span, f"track {stmt.name} has {len(names)} cell; a track goes round at least two",
                           "E131")
        for block in (*r.of(m.Moves), *r.of(m.Then)):
            for rule in block.rules:
                if rule.enclose is not None:
                    self.check_piece(rule.enclose.span, rule.enclose.kind, None)
                    self.region_ref(rule.enclose.span, rule.enclose.region)
                if rule.sow is not None:
                    self.check_sow(rule, tracks, counted)
        for stmt in r.of(m.StartLayout):
            for item in stmt.items:
                if item.amount is None:
                    continue
                self.check_names(item.amount, self.options)
                self.region_ref(item.span, item.region or "")
                if item.kind in self.kinds and item.kind not in counted:
                    self.error(item.span, f"put ... {item.kind}: only a counted kind is put by number", "E132",
                               f"add 'counts {item.kind}'")
        scores = r.of(m.Score)
        for stmt in scores[:1]:
            given = [player for player, _, _ in stmt.parts]
            for player, expr, span in stmt.parts:
                self.player_ref(span, player)
                self.check_condition(expr)
                for node in m.walk(expr):
                    if isinstance(node, m.Call) and node.function == "score":
                        self.error(node.span, "a score cannot be made of scores: score() inside 'score'", "E133",
                                   "count what the score counts: count(PLAYER KIND), total(PLAYER REGION)...")
            missing = [p for p in self.player_names if p not in given]
            if missing:
                self.error(stmt.span, f"score gives no score for {', '.join(missing)}", "E133",
                           f"add '{missing[0]} EXPRESSION' (e.g. {missing[0]} count({missing[0]}))")
        for end in r.of(m.End):
            for rule in end.rules:
                if not scores and any(isinstance(n, m.Call) and n.function == "score" for n in m.walk(rule.condition)):
                    self.error(rule.span, "score() needs a 'score' statement giving each player's score", "E133",
                               "add e.g. score white count(white), black count(black)")
                if rule.by_score and not scores:
                    self.error(rule.span, "'best score' needs a 'score' statement giving each player's score",
                               "E133", "add e.g. score white count(white), black count(black)")

    def check_sow(self, rule: m.MoveRule, tracks: dict, counted: set[str]) -> None:
        """A sowing rule: a counted kind, a known track, known regions."""
        sow = rule.sow
        if rule.kind in self.kinds and rule.kind not in counted:
            self.error(rule.span, f"sow {rule.kind}: the board does not count {rule.kind}", "E132",
                       f"add 'counts {rule.kind}': then a cell holds any number of {rule.kind}")
        if sow.track not in tracks:
            self.unknown(sow.span, "track", sow.track, tracks, "E130")
        for name in (sow.origin, sow.skip, sow.again_in, sow.into):
            if name is not None:
                self.region_ref(sow.span, name)
        if sow.capture is not None:
            self.check_dirs((sow.capture,))
            if sow.capture.name in RELATIVE:
                self.check_relative(sow.capture)

    def region_ref(self, span: Span, name: str) -> None:
        """A region's name where one is needed."""
        regions = self.regions()
        if name not in regions:
            self.unknown(span, "region", name, regions, "E130")
