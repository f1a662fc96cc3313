"""Evaluate the static expressions of a rule file: option values, guards, layouts.

Only a closed set of operators is interpreted; a rule file can never run code.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError, Span
from rulesdsl.limits import MAX_DIGITS, MAX_NUMBER

Value = int | float | bool | str

BINARY: dict[str, Callable[[Value, Value], Value]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}


class ExprError(RulesdslError):
    """An expression that cannot be evaluated; carries its span."""

    def __init__(self, span: Span, message: str, code: str = "E022"):
        super().__init__(message, span)
        self.message = message
        self.code = code  # the check code when ``check`` meets it with the default options


def evaluate(expr: m.Expr, env: Mapping[str, Value]) -> Value:
    """The value of a static expression, with names looked up in ``env``."""
    if isinstance(expr, m.Literal):
        return expr.value
    if isinstance(expr, m.NameRef):
        if expr.name not in env:
            raise ExprError(expr.span, f"unknown name {expr.name!r}")
        return env[expr.name]
    if isinstance(expr, m.Unary):
        value = evaluate(expr.operand, env)
        if expr.op == "not":
            return not value
        _need_int(expr.operand, value)
        return _bounded(expr, -value)
    if isinstance(expr, m.Logic):
        if expr.op == "and":
            return all(bool(evaluate(item, env)) for item in expr.items)
        return any(bool(evaluate(item, env)) for item in expr.items)
    if isinstance(expr, m.Binary):
        left = evaluate(expr.left, env)
        right = evaluate(expr.right, env)
        if expr.op in ("/", "%"):
            _need_int(expr.left, left)
            _need_int(expr.right, right)
            if isinstance(left, float) or isinstance(right, float):
                raise ExprError(expr.span, f"'{expr.op}' divides whole numbers only")
            if right == 0:
                raise ExprError(expr.span, "division by zero")
            return left // right if expr.op == "/" else left % right
        if expr.op in ("+", "-", "*", "<", "<=", ">", ">="):
            _need_int(expr.left, left)
            _need_int(expr.right, right)
        return _bounded(expr, BINARY[expr.op](left, right))
    raise ExprError(expr.span, "this condition only makes sense in an end rule")


def _bounded(expr: m.Expr, value: Value) -> Value:
    """``value``, refused when a number outgrows ``MAX_DIGITS`` digits (so repeated squaring stays cheap)."""
    if not isinstance(value, bool) and isinstance(value, int) and abs(value) > MAX_NUMBER:
        raise ExprError(expr.span, f"this works out to a number of more than {MAX_DIGITS} digits")
    return value


def _need_int(expr: m.Expr, value: Value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ExprError(expr.span, f"expected a number, got {value!r}")


def names_in(expr: m.Expr) -> list[m.NameRef]:
    """Every plain name an expression refers to."""
    return [e for e in m.walk(expr) if isinstance(e, m.NameRef)]
