"""Checks of links and the swap rule (``link KIND DIRS``, ``connects ... by links``, ``swap [turning WAY]``).

A mixin of :class:`rulesdsl.checker.Checker`: what can be told without a board's size.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.findings import Findings

SWAP_TURNS = ("", "clockwise", "anticlockwise", "half round")


class LinkChecks(Findings):
    """``check_links``; the checker calls it."""

    def check_links(self) -> None:
        """A linked kind exists and its directions do; links are written in positions and read by some rule."""
        links = self.resolved.of(m.Link)
        for link in links:
            if link.kind not in self.kinds:
                self.unknown(link.span, "piece kind", link.kind, self.kinds, "E032")
            self.check_dirs(link.directions)
        position = next(iter(self.resolved.of(m.PositionFormat)), None)
        if links and (position is None or "links" not in position.fields):
            self.error(links[0].span, "a game with 'link' writes its links in positions: the position format "
                       "has no 'links' field", "E154", "e.g. position (turn links rows) top first")
        by_links = [e for end in self.resolved.of(m.End) for rule in end.rules for e in m.walk(rule.condition)
                    if isinstance(e, m.Connects) and e.links]
        if by_links and not links:
            self.error(by_links[0].span, "'connects ... by links' needs links: no 'link' statement", "E154",
                       "e.g. link peg (1, 2)")
        if links and not by_links:
            self.warning(links[0].span, "links are made but no end rule follows them", "W154",
                         "e.g. red wins if red connects top and bottom by links")
        for block in self.resolved.of(m.Moves):
            for rule in block.rules:
                if rule.action == "swap" and rule.way not in SWAP_TURNS:
                    self.error(rule.span, f"'swap turning {rule.way}': a swap turns the board clockwise, "
                               "anticlockwise or half round", "E155", "e.g. swap turning clockwise")
