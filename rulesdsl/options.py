"""Options: their values from defaults and ``--set``, checked against ranges and choices."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rulesdsl import model as m
from rulesdsl.errors import OptionError, suggest
from rulesdsl.expr import ExprError, Value, evaluate
from rulesdsl.limits import MAX_DIGITS, shown

NUMBER, TRUTH, TEXT = "a number", "a truth value", "text"


def kind_of(value: object) -> str:
    """``a number``, ``a truth value`` or ``text``: what kind of value an option holds."""
    if isinstance(value, bool):
        return TRUTH
    return NUMBER if isinstance(value, (int, float)) else TEXT


def parse_setting(text: str) -> tuple[str, str]:
    """Split ``NAME=VALUE``; raises :class:`OptionError`."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise OptionError(f"--set {text!r}: expected NAME=VALUE")
    return name.strip(), value.strip()


def _convert(decl: m.OptionDecl, default: Value, raw: str) -> Value:
    if isinstance(default, bool):
        lowered = raw.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"option {decl.name}: expected true or false, got {raw!r}")
    if isinstance(default, float):
        try:
            value = float(raw)
        except ValueError:
            raise OptionError(f"option {decl.name}: expected a number, got {raw!r}") from None
        if len(raw.strip().lstrip("+-").split(".")[0]) > MAX_DIGITS or value != value or abs(value) == float("inf"):
            raise OptionError(f"option {decl.name}: {shown(raw, 40)} is not a number of at most {MAX_DIGITS} digits")
        return value
    if isinstance(default, int):
        if len(raw.strip().lstrip("+-")) > MAX_DIGITS:
            raise OptionError(f"option {decl.name}: {shown(raw, 40)} has more than {MAX_DIGITS} digits")
        try:
            return int(raw)
        except ValueError:
            raise OptionError(f"option {decl.name}: expected a whole number, got {raw!r}") from None
    return raw


def fold_options(decls: list[m.OptionDecl], *, given: Mapping[str, Value] | None = None,
                 settings: Mapping[str, str] | None = None,
                 convert: Callable[[m.OptionDecl, Value, str], Value] | None = None,
                 skip_errors: bool = False) -> dict[str, Value]:
    """Each option's value, in declaration order (a default may use the options before it).

    ``given`` values are taken as they are (the default is not evaluated);
    ``settings`` are raw texts that ``convert(decl, default, raw)`` turns into a
    value. An :class:`ExprError` in a default propagates, or with
    ``skip_errors`` leaves that option out.
    """
    values: dict[str, Value] = {}
    for decl in decls:
        if given and decl.name in given:
            values[decl.name] = given[decl.name]
            continue
        try:
            default = evaluate(decl.default, values)
        except ExprError:
            if skip_errors:
                continue
            raise
        raw = settings.get(decl.name) if settings else None
        values[decl.name] = default if raw is None or convert is None else convert(decl, default, raw)
    return values


def option_values(resolved, settings: dict[str, str] | None = None) -> dict[str, Value]:
    """Every option's value: its default, or the setting; checked against its range."""
    settings = dict(settings or {})
    decls = resolved.of(m.OptionDecl)
    known = {d.name for d in decls}
    for name in settings:
        if name not in known:
            hint = suggest(name, known)
            choices = ", ".join(sorted(known)) or "none"
            raise OptionError(f"unknown option {name!r}" + (f"; did you mean {hint!r}?" if hint
                                                              else f" (options: {choices})"))
    try:
        values = fold_options(decls, settings=settings, convert=_convert)
        for decl in decls:
            _check_range(decl, values)
    except ExprError as error:
        raise OptionError(str(error)) from None
    return values


def _check_range(decl: m.OptionDecl, values: dict[str, Value]) -> None:
    value = values[decl.name]
    if decl.choices is not None and value not in decl.choices:
        raise OptionError(f"option {decl.name}={value}: must be one of {', '.join(decl.choices)}")
    if decl.low is not None and decl.high is not None:
        low, high = evaluate(decl.low, values), evaluate(decl.high, values)
        numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in (value, low, high))
        if not (numbers and low <= value <= high):
            raise OptionError(f"option {decl.name}={value}: must be between {low} and {high}")


def option_problem(decl: m.OptionDecl, values: dict[str, object]) -> str:
    """What is wrong with an option's value among ``values`` (empty when it fits)."""
    value = values[decl.name]
    try:
        default = evaluate(decl.default, values)
    except ExprError:
        return ""
    if kind_of(value) != kind_of(default):
        shown = str(value).lower() if isinstance(value, bool) else repr(value)
        return f"option {decl.name} is {kind_of(default)}, not {shown}"
    if decl.choices is not None and value not in decl.choices:
        return f"option {decl.name}={value!r} is not one of its choices"
    if decl.low is not None and decl.high is not None:
        try:
            low, high = evaluate(decl.low, values), evaluate(decl.high, values)
        except ExprError:
            return ""
        numbers = all(isinstance(v, int) for v in (value, low, high))
        if numbers and not low <= value <= high:
            return f"option {decl.name}={value} is outside its range {low}..{high}"
    return ""


def option_hint(decl: m.OptionDecl, values: dict[str, object]) -> str:
    """What values an option takes, e.g. ``rows is a whole number in 1..26``."""
    if decl.choices is not None:
        return f"{decl.name} is one of {', '.join(decl.choices)}"
    if decl.low is not None and decl.high is not None:
        try:
            low, high = evaluate(decl.low, values), evaluate(decl.high, values)
            return f"{decl.name} is a whole number in {low}..{high}"
        except ExprError:
            return ""
    try:
        kind = kind_of(evaluate(decl.default, values))
    except ExprError:
        return ""
    return f"{decl.name} is true or false" if kind == TRUTH else f"{decl.name} is {kind}"
