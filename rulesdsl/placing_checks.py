"""Checks of the end rules that give a player a place (``finishes``, ``is out``) while the others play on."""

from __future__ import annotations

from rulesdsl import model as m

EACH_SEAT = "player"  # the subject of a rule tried for every seat still playing, and its name in the condition
PLACINGS = ("finishes", "out")


def check_placings(checker, block: m.End) -> None:
    """A seat named like the word for every seat, and a ``places`` position field with nothing to keep."""
    placing = [rule for rule in block.rules if rule.result in PLACINGS]
    if placing and EACH_SEAT in checker.player_names:
        checker.error(placing[0].span, f"a seat is named {EACH_SEAT!r}, the word a placing rule uses for every "
                      "seat", "E190", f"rename the seat in 'players', e.g. {EACH_SEAT}s")


def check_places_field(checker) -> None:
    """``position (... places ...)`` keeps who has finished or is out: only games with such rules have it."""
    placing = any(rule.result in PLACINGS for block in checker.resolved.of(m.End) for rule in block.rules)
    for fmt in checker.resolved.of(m.PositionFormat):
        if "places" in fmt.fields and not placing:
            checker.error(fmt.span, "the position field 'places' holds which players have finished or are out, "
                          "but no end rule finishes or eliminates a player", "E191",
                          "add e.g. 'player finishes if ...' to the end block, or drop 'places'")
