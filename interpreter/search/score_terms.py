"""Scores made of piece counts, as weights per symbol: the ``score`` feature of the kernel's search.

The static evaluation's ``score`` feature is the player's score minus the
opponent's (:mod:`rulesdsl.interpreter.search.evaluation`). Where every
player's ``score`` expression is a sum of whole numbers times
``count(PLAYER [KIND])`` (boxes owned, pieces on the board) plus a constant, a
score is a weight per piece symbol and cell, and the feature
folds into the per-symbol, per-cell tables that the kernel's search sums on
bitboards (:func:`~rulesdsl.interpreter.search.evaluation.linear_terms`).
In a game whose cells hold counts of one kind of piece
(:mod:`rulesdsl.interpreter.kernel.sowing`), ``total(PLAYER REGION)`` is a
weight of one per cell of the region, which the search multiplies by the
cell's count. Any other score (areas, options, ``mover``) gives ``None``, and
the search keeps the generic evaluation.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables

Linear = tuple[dict[str, list[float]], float]  # a weight per symbol and cell, and a constant


def score_terms(active, tables: Tables) -> list[Linear] | None:
    """Each player's score as weights per symbol and cell and a constant (seat order), or ``None`` when a score
    is not made of piece counts (or the game keeps no score, or counts pieces in hand)."""
    stmt = active.first(m.Score) if active is not None else None
    if stmt is None or tables.hand_kinds:
        return None
    by_player = {tables.player_index(player): expr for player, expr, _ in stmt.parts}
    if sorted(by_player) != list(range(len(tables.player_names))):
        return None
    out = []
    for player in range(len(tables.player_names)):
        terms = _linear(by_player[player], tables)
        if terms is None:
            return None
        out.append(terms)
    return out


def _linear(expr: m.Expr, tables: Tables) -> Linear | None:
    """An expression as weights per symbol and cell and a constant, or ``None`` when it is not linear in piece
    counts."""
    size = len(tables.geometry.cells)
    if isinstance(expr, m.Literal) and type(expr.value) is int:
        return {}, float(expr.value)
    if isinstance(expr, m.Unary) and expr.op == "-":
        inner = _linear(expr.operand, tables)
        return _scaled(inner, -1.0) if inner is not None else None
    if isinstance(expr, m.Call) and len(expr.args) in (1, 2) and expr.args[0] in tables.player_names:
        player = tables.player_index(expr.args[0])
        if expr.function == "count":
            kind = expr.args[1] if len(expr.args) > 1 else None
            return {s: [1.0] * size for s in tables.symbols_of(player, kind)}, 0.0
        counted = tables.neutral.get(tables.counted) if tables.counted else None
        if expr.function == "total" and len(expr.args) == 2 and counted is not None \
                and set(tables.owner) | set(tables.neutral.values()) == {counted}:  # counts only: one word a cell
            cells = tables.region(expr.args[1], player)
            return {counted: [1.0 if c in cells else 0.0 for c in range(size)]}, 0.0
        return None
    if not isinstance(expr, m.Binary) or expr.op not in ("+", "-", "*"):
        return None
    left, right = _linear(expr.left, tables), _linear(expr.right, tables)
    if left is None or right is None:
        return None
    if expr.op == "*":  # a number times counts
        if not left[0]:
            return _scaled(right, left[1])
        return _scaled(left, right[1]) if not right[0] else None
    sign = 1.0 if expr.op == "+" else -1.0
    weights = {symbol: list(row) for symbol, row in left[0].items()}
    for symbol, row in right[0].items():
        mine = weights.setdefault(symbol, [0.0] * size)
        for cell, weight in enumerate(row):
            mine[cell] += sign * weight
    return weights, left[1] + sign * right[1]


def _scaled(terms: Linear, factor: float) -> Linear:
    return {s: [w * factor for w in row] for s, row in terms[0].items()}, terms[1] * factor
