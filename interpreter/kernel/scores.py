"""Scores on the kernel: the source of ``best score wins if ...`` (and ``loses``).

A score (``score PLAYER EXPR, ...``, :mod:`rulesdsl.interpreter.reference.scores`)
is worked out from the position alone (boxes owned, seeds in a store), so the
kernel keeps no word for it: when a ``best score`` end rule's condition holds,
the source computes each player's score into ``sc0, sc1, ...`` from the
bitboards and words, and the one player above every other wins (``loses``: the
one below every other); a tie for the best is a draw, as the reference's
:func:`~rulesdsl.interpreter.reference.endings.best_score` has it. The
expressions come from the caller's condition compiler, so a score reads
whatever an end rule may (``count(...)``, ``total(...)``, numbers, arithmetic).
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables


class ScoreError(ValueError):
    """A ``best score`` rule without a score for every player (the game keeps the generic path)."""


def score_parts(active, tables: Tables) -> list[m.Expr]:
    """Each player's score expression, in seat order."""
    stmt = active.first(m.Score)
    if stmt is None:
        raise ScoreError("'best score' without a 'score' statement")
    by_player: dict[int, m.Expr] = {tables.player_index(player): expr for player, expr, _ in stmt.parts}
    if sorted(by_player) != list(range(len(tables.player_names))):
        raise ScoreError("a player without a score")
    return [by_player[p] for p in range(len(tables.player_names))]


def best_score(scores: list[str], loses: bool, number: int, finish: Callable[[str], list[str]]) -> list[str]:
    """Statements deciding end rule ``number`` by the scores (``scores``: each player's expression, in seat
    order); ``finish(result)`` gives the statements that end the game with ``(winner, rule)``. Where every
    result ends the game alike (a count of moves that only stops), the scores are not worked out."""
    results = [f"({p}, {number})" for p in range(len(scores))] + [f"(None, {number})"]
    if all(finish(r) == finish(results[0]) for r in results):
        return finish(results[0])
    better = "<" if loses else ">"
    lines = [f"sc{p} = {expr}" for p, expr in enumerate(scores)]
    for p in range(len(scores)):
        test = " and ".join(f"sc{p} {better} sc{q}" for q in range(len(scores)) if q != p)
        lines += [f"if {test}:"] + ["    " + line for line in finish(results[p])]
    return lines + finish(results[-1])
