"""A rule file's model as JSON text and back, for the cache of checked rule files.

The model (:mod:`rulesdsl.model`, the spans of :mod:`rulesdsl.errors`, a
:class:`~rulesdsl.loader.Resolved`) is dataclasses over numbers, strings,
tuples, lists and dicts. :func:`to_json` writes each object as a small tagged
JSON object; :func:`from_json` makes them again. Reading makes nothing but those
modules' own dataclasses (and :class:`~rulesdsl.model.Setting`), so text
someone changed can at worst give a wrong model, never run code (JSON, not
pickle, as the grammar's cache: ``docs/security.md``).

Tags: ``{"t": [...]}`` a tuple, ``{"c": "module:Class", "d": [name, value, ...]}``
a dataclass (its attributes), ``{"s": [name, expr, span]}`` an example's
setting, ``{"m": [key, value, ...]}`` a dict, ``{"f": [...]}`` a frozenset.
Lists, strings, numbers, booleans and ``None`` are themselves.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from rulesdsl import errors, loader, model

__all__ = ["CodecError", "from_json", "to_json"]

MODULES = {"model": model, "errors": errors, "loader": loader}  # the modules whose dataclasses a text may make
_SHORT = {module.__name__: short for short, module in MODULES.items()}
_PLAIN = (str, int, float, bool, type(None))


class CodecError(ValueError):
    """An object the codec does not write, or text that is not a model it wrote."""


def to_json(value: Any) -> str:
    """``value`` as JSON text (:class:`CodecError` for anything but the model's kinds of object)."""
    return json.dumps(_encode(value), separators=(",", ":"))


def from_json(text: str) -> Any:
    """The object :func:`to_json` wrote as ``text`` (:class:`CodecError`, or ``ValueError`` for text that is not
    JSON, when it is not one)."""
    return json.loads(text, object_hook=_decode)


def _encode(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list:
        return [_encode(item) for item in value]
    if kind is tuple:
        return {"t": [_encode(item) for item in value]}
    if kind is model.Setting:
        return {"s": [_encode(value[0]), _encode(value[1]), _encode(value.span)]}
    if kind is dict:
        return {"m": [_encode(part) for pair in value.items() for part in pair]}
    if kind is frozenset:
        return {"f": [_encode(item) for item in value]}
    if dataclasses.is_dataclass(value) and kind.__module__ in _SHORT:
        return {"c": f"{_SHORT[kind.__module__]}:{kind.__qualname__}",
                "d": [_encode(part) for pair in vars(value).items() for part in pair]}
    raise CodecError(f"cannot write a {kind.__module__}.{kind.__qualname__}")


def _decode(node: dict) -> Any:
    if len(node) == 1:
        (tag, items), = node.items()
        if type(items) is list:
            if tag == "t":
                return tuple(items)
            if tag == "m":
                return dict(zip(items[::2], items[1::2], strict=True))
            if tag == "f":
                return frozenset(items)
            if tag == "s" and len(items) == 3 and type(items[2]) is errors.Span:
                return model.Setting(*items)
    elif len(node) == 2 and type(node.get("c")) is str and type(node.get("d")) is list:
        kind = _class(node["c"])
        made = object.__new__(kind)
        fields = node["d"]
        if not all(type(name) is str for name in fields[::2]) or len(fields) % 2:
            raise CodecError(f"a {node['c']} with bad attributes")
        made.__dict__.update(zip(fields[::2], fields[1::2], strict=True))
        return made
    raise CodecError("not a node this codec writes")


def _class(name: str) -> type:
    """The dataclass ``module:Class`` names, if it is one of the model's own."""
    short, _, qualname = name.partition(":")
    module = MODULES.get(short)
    kind = getattr(module, qualname, None) if module is not None and qualname.isidentifier() else None
    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind) and kind.__module__ == module.__name__):
        raise CodecError(f"{name} is not a class of the model")
    return kind
