"""One canonical layout for rule files (``rulesdsl fmt``).

The layout, decided once so that two people's files never drift apart:

- one statement per line; a block (``moves``, ``start``, ``end``,
  ``evaluate``) opens with ``{`` at the end of its first line, has one item per
  line indented by two spaces, and closes with ``}`` on a line of its own;
- one space between words; none inside parentheses, before a comma, around
  ``..``, after a unary minus, or between a function's name and ``(``;
- a line break the writer put inside a statement is kept (the continuation
  line is indented four spaces deeper): the formatter never wraps nor joins
  lines of one statement, as ``gofmt`` does not;
- every comment is kept: a comment at the end of a line stays there, and the
  end-of-line comments of consecutive lines are aligned two spaces after the
  longest of those lines; a comment on its own line is indented like the
  line after it;
- blank lines between statements are kept, each run of them as one blank
  line; none at the start or end of the file, which ends with one newline.

Only whitespace changes, and it carries no meaning in the language, so the
formatted file is the same game. :func:`format_text` proves it each time: it
parses its own output again and compares the tokens and the comments with
the input's, and refuses (:class:`FormatError`) rather than return a file
that differs in anything but layout.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from rulesdsl.errors import RulesdslError, RulesError
from rulesdsl.parser import check_parentheses
from rulesdsl.syntax_errors import later_syntax_errors, syntax_diagnostic

INDENT = "  "
CONTINUATION = "    "
COMMENT = re.compile(r"#[^\n]*")


class FormatError(RulesdslError):
    """The formatter's output would not be the same file (a bug in the formatter): nothing is written."""


@lru_cache(maxsize=1)
def _token_parser() -> Lark:
    """The language's grammar, keeping every token (keywords and punctuation too) in the tree."""
    text = resources.files("rulesdsl").joinpath("grammar.lark").read_text()
    return Lark(text, parser="lalr", lexer="contextual", propagate_positions=True, keep_all_tokens=True)


def _canonical(token: Token) -> str:
    """A token's text with the whitespace inside a several-word keyword (``or  pass``) made one space."""
    text = str(token)
    if text[:1] in "\"'":
        return text
    return re.sub(r"\s+", " ", text)


@dataclass
class _Tok:
    """A token with what the layout needs: where it is, what encloses it, how it starts its line."""

    token: Token
    parent: Tree
    ancestors: tuple[int, ...]
    level: int          # block depth: 0 for a statement, 1 for a block's item
    starts: str         # "line": a new line; "glue": always after the previous token; "join": as written

    @property
    def text(self) -> str:
        return _canonical(self.token)


@dataclass
class _Line:
    """One output line: indentation, code (or a comment alone), an end-of-line comment."""

    indent: str
    code: str
    comment: str = ""
    blank_before: bool = False
    alone: bool = False  # a comment on a line of its own (``code`` holds it)
    parts: list[_Tok] = field(default_factory=list)


def _leaves(node: Tree | Token, parent: Tree, ancestors: tuple[int, ...]):
    """Every token under ``node`` in source order, with its parent tree and the ids of its ancestors.

    Walked with a stack, not recursion: parentheses may nest thousands deep.
    """
    stack: list[tuple[Tree | Token, Tree, tuple[int, ...]]] = [(node, parent, ancestors)]
    while stack:
        node, parent, ancestors = stack.pop()
        if isinstance(node, Token):
            yield node, parent, ancestors
            continue
        inner = ancestors + (id(node),)
        stack.extend((child, node, inner) for child in reversed(node.children) if child is not None)


def _tokens(tree: Tree) -> list[_Tok]:
    """The file's tokens in order, each told whether it opens a line (statements, block items, ``}``)."""
    out: list[_Tok] = []

    def add(node, parent, ancestors, level, first):
        for i, (token, owner, chain) in enumerate(_leaves(node, parent, ancestors)):
            out.append(_Tok(token, owner, chain, level, first if i == 0 else "join"))

    for statement in tree.children:
        if isinstance(statement, Token):
            add(statement, tree, (id(tree),), 0, "line")
            continue
        children = [c for c in statement.children if c is not None]
        chain = (id(tree), id(statement))
        brace = next((i for i, c in enumerate(children) if isinstance(c, Token) and c == "{"), None)
        if brace is None:
            for i, child in enumerate(children):
                add(child, statement, chain, 0, "line" if i == 0 else "join")
            continue
        for i, child in enumerate(children[:brace]):
            add(child, statement, chain, 0, "line" if i == 0 else "join")
        add(children[brace], statement, chain, 0, "glue")
        for child in children[brace + 1:-1]:
            add(child, statement, chain, 1, "line")
        add(children[-1], statement, chain, 0, "line" if len(children) > brace + 2 else "glue")
    return out


def _space(before: _Tok, after: _Tok) -> str:
    """The space between two tokens on one line: one, or none around punctuation."""
    a, b = str(before.token), str(after.token)
    if b in (",", ")") or a == "(" or b == ".." or (a, b) == ("{", "}"):
        return ""
    if b == "(" and after.parent.data == "call":
        return ""
    if a == ".." and id(before.parent) in after.ancestors:
        return ""
    if a == "-" and before.parent.data == "neg":
        return ""
    return " "


def _parse(text: str, path: str) -> Tree:
    """The full-token tree of ``text``; a syntax error becomes :class:`RulesError` with its place."""
    try:
        return _token_parser().parse(text)
    except UnexpectedInput as error:
        first = syntax_diagnostic(error, path, text)
        raise RulesError([first, *later_syntax_errors(text, path, first.span.line)]) from None


def _comments(text: str, start: int, end: int, starts: list[int]) -> list[tuple[int, str]]:
    """The comments between two tokens (``text[start:end]`` holds only whitespace and comments)."""
    found = []
    for match in COMMENT.finditer(text, start, end):
        found.append((bisect.bisect_right(starts, match.start()), match.group().rstrip()))
    return found


def _layout(text: str, toks: list[_Tok]) -> list[_Line]:
    """Place tokens and comments on lines (before the end-of-line comments are aligned)."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    lines: list[_Line] = []
    last_line = 0           # the source line where the last placed thing ended
    prev: _Tok | None = None
    pos = 0
    for tok in toks + [None]:
        end = tok.token.start_pos if tok is not None else len(text)
        comments = _comments(text, pos, end, starts)
        trailing = None
        if comments and prev is not None and comments[0][0] == prev.token.end_line:
            trailing = comments.pop(0)[1]
            lines[-1].comment = trailing
        if tok is None:
            for line_no, comment in comments:
                lines.append(_Line("", comment, blank_before=line_no - last_line > 1, alone=True))
                last_line = line_no
            break
        base = INDENT * tok.level
        broken = prev is not None and tok.token.line > prev.token.end_line
        if tok.starts == "line" or tok.starts == "glue":
            indent = base
        else:
            indent = INDENT * prev.level + CONTINUATION if prev is not None else base
        new_line = (tok.starts == "line" or trailing is not None or bool(comments)
                    or (tok.starts == "join" and broken))
        if new_line:
            comment_indent = INDENT * (tok.level + 1) if str(tok.token) == "}" else indent
            for line_no, comment in comments:
                lines.append(_Line(comment_indent, comment, blank_before=line_no - last_line > 1, alone=True))
                last_line = line_no
            lines.append(_Line(indent, tok.text, blank_before=tok.token.line - last_line > 1, parts=[tok]))
        else:
            line = lines[-1]
            line.code += _space(line.parts[-1], tok) + tok.text
            line.parts.append(tok)
        last_line = tok.token.end_line
        prev, pos = tok, tok.token.end_pos
    return lines


def _render(lines: list[_Line]) -> str:
    """The text: blank-line groups, end-of-line comments aligned within each group of lines.

    A group is a run of code lines with the same indentation and no blank line
    or comment line between them; its end-of-line comments start two columns
    after the longest of the lines that have one.
    """
    out: list[str] = []
    i = 0
    while i < len(lines):
        group = [lines[i]]
        while (not group[0].alone and i + len(group) < len(lines) and not lines[i + len(group)].alone
               and not lines[i + len(group)].blank_before and lines[i + len(group)].indent == group[0].indent):
            group.append(lines[i + len(group)])
        width = max((len(r.indent + r.code) for r in group if r.comment), default=0) + 2
        for r in group:
            if r.blank_before and out:
                out.append("")
            code = r.indent + r.code
            out.append(f"{code.ljust(width)}{r.comment}" if r.comment else code.rstrip())
        i += len(group)
    return "\n".join(out) + "\n" if out else ""


def _signature(text: str, path: str) -> tuple[list[tuple[str, str]], list[str]]:
    """What a layout may not change: every token (type and text) and every comment, in order."""
    toks = _tokens(_parse(text, path))
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    comments, pos = [], 0
    for tok in toks:
        comments += [c for _, c in _comments(text, pos, tok.token.start_pos, starts)]
        pos = tok.token.end_pos
    comments += [c for _, c in _comments(text, pos, len(text), starts)]
    return [(t.token.type, t.text) for t in toks], comments


def format_text(text: str, path: str = "<rules>") -> str:
    """``text`` in the canonical layout; raises :class:`RulesError` on a syntax error.

    The result is parsed again and must hold the same tokens and comments as
    ``text``; if it does not, :class:`FormatError` is raised and nothing is lost.
    """
    text = text.replace("\r\n", "\n")
    check_parentheses(text, path)  # the language's cap on nesting, before the tree is walked
    toks = _tokens(_parse(text, path))
    result = _render(_layout(text, toks))
    try:
        same = _signature(result, path) == _signature(text, path)
    except RulesError:
        same = False
    if not same:
        raise FormatError(f"{path}: the formatter would change the file's meaning; it is left as it is "
                          "(please report this as a bug)")
    return result

