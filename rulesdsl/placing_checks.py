"""Checks of the end rules that give a player a place (``finishes``, ``is out``) while the others play on."""

from __future__ import annotations

from rulesdsl import model as m

EACH_SEAT = "player"  # the subject of a rule tried for every seat still playing, and its name in the condition
PLACINGS = ("finishes", "out")


def check_placings(checker, block: m.End) -> None:
    """A seat named like the word for every seat; a rule for every seat whose condition never names it."""
    placing = [rule for rule in block.rules if rule.result in PLACINGS]
    if placing and EACH_SEAT in checker.player_names:
        checker.error(placing[0].span, f"a seat is named {EACH_SEAT!r}, the word a placing rule uses for every "
                      "seat", "E190", f"rename the seat in 'players', e.g. {EACH_SEAT}s")
    for rule in placing:
        if rule.player == EACH_SEAT and not names_each_seat(rule.condition):
            verb = "finishes" if rule.result == "finishes" else "is out"
            checker.warning(rule.condition.span, f"'{EACH_SEAT} {verb}' is tried for every player, but this "
                            f"condition never says {EACH_SEAT!r}: it holds for all of them at once", "W190",
                            f"e.g. '{EACH_SEAT} {verb} if {EACH_SEAT} "
                            f"{'fills goal' if verb == 'finishes' else 'has no pieces'}'")


def names_each_seat(expr: m.Expr) -> bool:
    """Whether an end condition refers to ``player`` anywhere (a player field, or a function's first argument)."""
    if any(getattr(expr, name, None) == EACH_SEAT for name in ("player", "other")):
        return True
    if isinstance(expr, m.Call) and expr.args and expr.args[0] == EACH_SEAT:
        return True
    return any(names_each_seat(child) for child in expr.children())


def check_places_field(checker) -> None:
    """``position (... places ...)`` keeps who has finished or is out: only games with such rules have it."""
    placing = any(rule.result in PLACINGS for block in checker.resolved.of(m.End) for rule in block.rules)
    for fmt in checker.resolved.of(m.PositionFormat):
        if "places" in fmt.fields and not placing:
            checker.error(fmt.span, "the position field 'places' holds which players have finished or are out, "
                          "but no end rule finishes or eliminates a player", "E191",
                          "add e.g. 'player finishes if ...' to the end block, or drop 'places'")
