"""A Pygments lexer for rule files (``pygmentize -l rulesdsl``), its words read from the grammar.

Registered as the entry point ``pygments.lexers: rulesdsl``; Pygments is
needed only to import this module (``pip install 'rulesdsl[editors]'``).
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Whitespace

from rulesdsl.words import words_of

#: A word stands alone: no letter, digit, underscore or hyphen touches it.
BEFORE, AFTER = r"(?<![-\w])", r"(?![-\w])"


class RulesLexer(RegexLexer):
    """The rulesdsl language: comments, strings, numbers, statement words, keywords, built-in names."""

    name = "rulesdsl"
    aliases = ["rulesdsl", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulesdsl"]
    url = "https://pypi.org/project/rulesdsl/"

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'"([^"\\\n]|\\.)*"', String.Double),
            (r"'([^'\\\n]|\\.)*'", String.Single),
            (words(words_of("statement"), prefix=BEFORE, suffix=AFTER), Keyword.Declaration),
            (words(words_of("constant"), prefix=BEFORE, suffix=AFTER), Keyword.Constant),
            (words(words_of("keyword"), prefix=BEFORE, suffix=AFTER), Keyword),
            (words(words_of("builtin"), prefix=BEFORE, suffix=AFTER), Name.Builtin),
            (r"[+-]?[0-9]+\.[0-9]+", Number.Float),
            (r"[0-9]+", Number.Integer),
            (r"\.\.|==|!=|<=|>=|[<>=+\-*/%]", Operator),
            (r"[{}(),]", Punctuation),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r".", Name),
        ],
    }
