"""Comparisons with a constant that is not a whole number (``area(white) + komi > area(black)``, komi 7.5) as
whole-number source for the kernel, whose source holds integers only.

A comparison whose two sides are sums and differences of terms splits into
the terms that read the position (whole numbers: counts, areas, turns) and a
constant (literals and options, exact as a fraction). With ``x`` the first
side's terms less the second's and ``c`` the constants the other way, ``x OP
c`` for a whole ``x`` is ``x > floor(c)``, ``x >= ceil(c)``, ``x < ceil(c)``,
``x <= floor(c)``, and ``==`` never holds (``!=`` always) when ``c`` is not
whole. A comparison whose constant is whole is left to the usual path.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction

from rulesdsl import model as m
from rulesdsl.expr import Value, evaluate

CONSTANT = (m.Literal, m.NameRef, m.Binary, m.Unary)
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


def _split(expr: m.Expr, options: Mapping[str, Value], sign: int,
           terms: list[tuple[int, m.Expr]]) -> Fraction | None:
    """Add ``expr``'s terms (with ``sign``) to ``terms`` and return its constant, or ``None`` where a constant
    is not a number."""
    if all(isinstance(node, CONSTANT) for node in m.walk(expr)):
        value = evaluate(expr, options)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return sign * Fraction(value)
    if isinstance(expr, m.Binary) and expr.op in ("+", "-"):
        left = _split(expr.left, options, sign, terms)
        right = _split(expr.right, options, sign if expr.op == "+" else -sign, terms)
        return None if left is None or right is None else left + right
    terms.append((sign, expr))
    return Fraction(0)


def fractional_comparison(expr: m.Binary, options: Mapping[str, Value],
                          visit: Callable[[m.Expr], str]) -> str | None:
    """The source of ``expr`` when it compares with a constant that is not whole, else ``None``."""
    if expr.op not in COMPARISONS:
        return None
    terms: list[tuple[int, m.Expr]] = []
    left = _split(expr.left, options, 1, terms)
    right = _split(expr.right, options, -1, terms)
    if left is None or right is None or not terms:
        return None
    bound = -(left + right)  # the terms' sum OP bound
    if bound.denominator == 1:
        return None
    x = "(" + " ".join(f"{'+' if sign > 0 else '-'} {visit(term)}" for sign, term in terms) + ")"
    if expr.op in ("==", "!="):
        return "False" if expr.op == "==" else "True"
    whole = math.floor(bound) if expr.op in (">", "<=") else math.ceil(bound)
    return f"({x} {expr.op} {whole})"
