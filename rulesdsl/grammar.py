"""The language's grammar, loaded once: ``grammar.lark`` as an LALR parser."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lark import Lark


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """The LALR parser, built once from ``grammar.lark``."""
    text = resources.files("rulesdsl").joinpath("grammar.lark").read_text()
    return Lark(text, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True)
