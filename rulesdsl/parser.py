"""Parse rule-file text into the typed model, with a source span on every node."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from rulesdsl import model as m
from rulesdsl.errors import Diagnostic, RulesError, Span

TERMINAL_WORDS = {
    "NAME": "a name", "STRING": "a quoted string", "INT": "a whole number",
    "SIGNED_NUMBER": "a number", "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('",
    "RPAR": "')'", "COMMA": "','", "EQUAL": "'='", "ACTION": "step, jump, slide or push",
    "FIELD": "turn, last, rows or board", "RESULT": "wins or loses",
    "FEATURE": "material, mobility, advancement, centrality, captures or threatened",
    "AXIS": "column or row", "MOVE_PART": "from, to or a quoted string",
    "PIECE_CHOICE": "any or same", "FREEZE_MODE": "strict or loose",
    "FORBIDDEN": "repetition or corner push-off", "COMPARE": "a comparison",
    "LISTING": "top first or bottom first", "FROM_END": "from top or from right", "OR_PASS": "or pass",
}


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """The LALR parser, built once from ``grammar.lark``."""
    text = resources.files("rulesdsl").joinpath("grammar.lark").read_text()
    return Lark(text, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True)


ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}


class BadEscape(ValueError):
    """A backslash escape a string cannot have; ``column`` is where in the token it starts."""

    def __init__(self, token: str, column: int):
        super().__init__(f"unknown escape '{token[column:column + 2]}' in a string")
        self.token, self.column = token, column


def unquote(token: str) -> str:
    """The value of a quoted string token (either quote style; escapes \\n \\t \\\\ \\" \\').

    Decoded by hand: text from a rule file is never handed to Python's evaluator.
    """
    body = token[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            if body[i + 1] not in ESCAPES:
                raise BadEscape(token, i + 1)
            out.append(ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


class Setting(tuple):
    """An example's ``NAME = VALUE``: a ``(name, expr)`` pair that also knows where the name is."""

    span: Span

    def __new__(cls, name: str, expr: m.Expr, span: Span):
        pair = super().__new__(cls, (name, expr))
        pair.span = span
        return pair


class _Builder(Transformer):
    """Turns the lark tree into :mod:`rulesdsl.model` nodes."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(0, 0, file=self.path)
        return Span(meta.line, meta.column, meta.end_line, meta.end_column, self.path)

    def tspan(self, token: Token) -> Span:
        return Span(token.line, token.column, token.end_line or token.line,
                    token.end_column or token.column + len(token), self.path)

    # -- expressions --------------------------------------------------------
    @v_args(meta=True)
    def int_lit(self, meta, items):
        return m.Literal(self.span(meta), int(items[0]))

    @v_args(meta=True)
    def true_lit(self, meta, items):
        return m.Literal(self.span(meta), True)

    @v_args(meta=True)
    def false_lit(self, meta, items):
        return m.Literal(self.span(meta), False)

    @v_args(meta=True)
    def str_lit(self, meta, items):
        return m.Literal(self.span(meta), unquote(items[0]))

    @v_args(meta=True)
    def name_ref(self, meta, items):
        return m.NameRef(self.span(meta), str(items[0]))

    @v_args(meta=True)
    def call(self, meta, items):
        args = tuple(str(a) for a in items[1].children) if items[1] is not None else ()
        return m.Call(self.span(meta), str(items[0]), args)

    def _chain(self, meta, items):
        left = items[0]
        for op, right in zip(items[1::2], items[2::2]):
            left = m.Binary(self.span(meta), str(op), left, right)
        return left

    @v_args(meta=True)
    def sum(self, meta, items):
        return self._chain(meta, items)

    @v_args(meta=True)
    def product(self, meta, items):
        return self._chain(meta, items)

    @v_args(meta=True)
    def comparison(self, meta, items):
        return self._chain(meta, items)

    @v_args(meta=True)
    def and_expr(self, meta, items):
        return m.Logic(self.span(meta), "and", tuple(items))

    @v_args(meta=True)
    def or_expr(self, meta, items):
        return m.Logic(self.span(meta), "or", tuple(items))

    @v_args(meta=True)
    def not_(self, meta, items):
        return m.Unary(self.span(meta), "not", items[0])

    @v_args(meta=True)
    def neg(self, meta, items):
        return m.Unary(self.span(meta), "-", items[0])

    @v_args(meta=True)
    def no_moves(self, meta, items):
        return m.NoMoves(self.span(meta))

    @v_args(meta=True)
    def nobody_moves(self, meta, items):
        return m.NobodyMoves(self.span(meta))

    @v_args(meta=True)
    def has_none(self, meta, items):
        return m.HasNone(self.span(meta), str(items[0]), str(items[1]))

    @v_args(meta=True)
    def beyond(self, meta, items):
        return m.Beyond(self.span(meta), *(str(i) for i in items))

    @v_args(meta=True)
    def in_a_row(self, meta, items):
        token = items[1]
        span = self.tspan(token)
        length = m.Literal(span, int(token)) if token.type == "INT" else m.NameRef(span, str(token))
        return m.InARow(self.span(meta), str(items[0]), length)

    @v_args(meta=True)
    def on_far_row(self, meta, items):
        return m.OnFarRow(self.span(meta), str(items[0]), str(items[1]))

    def guard(self, items):
        return items[0]

    # -- statements ---------------------------------------------------------
    def start(self, items):
        return list(items)

    @v_args(meta=True)
    def game_stmt(self, meta, items):
        return m.GameTitle(self.span(meta), unquote(items[0]))

    @v_args(meta=True)
    def extends_stmt(self, meta, items):
        return m.Extends(self.span(meta), unquote(items[0]))

    @v_args(meta=True)
    def option_stmt(self, meta, items):
        name, default, rng, doc = items
        low = high = choices = None
        if isinstance(rng, tuple) and rng[0] == "range":
            low, high = rng[1], rng[2]
        elif isinstance(rng, tuple):
            choices = rng[1]
        return m.OptionDecl(self.span(meta), str(name), default, low, high, choices,
                            unquote(doc) if doc else "")

    def int_range(self, items):
        return ("range", items[0], items[1])

    def choices(self, items):
        return ("choices", tuple(unquote(s) for s in items))

    @v_args(meta=True)
    def players_stmt(self, meta, items):
        return m.Players(self.span(meta), tuple(items))

    @v_args(meta=True)
    def player_decl(self, meta, items):
        return m.PlayerDecl(self.span(meta), str(items[0]), unquote(items[1]))

    @v_args(meta=True)
    def forward_stmt(self, meta, items):
        pairs = tuple((str(p), str(d), self.tspan(d)) for p, d in zip(items[::2], items[1::2]))
        return m.Forward(self.span(meta), pairs)

    @v_args(meta=True)
    def board_grid(self, meta, items):
        return m.Board(self.span(meta), "grid", (items[0], items[1]), guard=items[2])

    @v_args(meta=True)
    def board_hexagon(self, meta, items):
        return m.Board(self.span(meta), "hexagon", (items[0],), guard=items[1])

    @v_args(meta=True)
    def cells_stmt(self, meta, items):
        return m.CellNames(self.span(meta), tuple(items))

    @v_args(meta=True)
    def name_part(self, meta, items):
        axis, first, from_end = items
        value: str | int = unquote(first) if first.type == "STRING" else int(first)
        end_word = str(from_end).split()[-1] if from_end is not None else ""
        return m.NamePartDecl(self.span(meta), str(axis), value, from_end is not None, end_word)

    @v_args(meta=True)
    def position_stmt(self, meta, items):
        listing = items[-1]
        fields = tuple(str(t) for t in items[:-1])
        return m.PositionFormat(self.span(meta), fields, listing is None or str(listing).startswith("top"))

    @v_args(meta=True)
    def notation_stmt(self, meta, items):
        parts = tuple(unquote(t) if t.startswith(("'", '"')) else str(t) for t in items)
        return m.Notation(self.span(meta), parts)

    @v_args(meta=True)
    def directions_stmt(self, meta, items):
        return m.DirectionSet(self.span(meta), str(items[0]), items[1])

    def dir_list(self, items):
        return tuple(items)

    @v_args(meta=True)
    def direction(self, meta, items):
        return m.DirRef(self.tspan(items[0]), str(items[0]))

    @v_args(meta=True)
    def piece_stmt(self, meta, items):
        return m.PieceDecl(self.span(meta), str(items[0]), tuple(items[1:]))

    def symbol_decl(self, items):
        return (str(items[0]), unquote(items[1]), self.tspan(items[0]))

    @v_args(meta=True)
    def start_position(self, meta, items):
        return m.StartPosition(self.span(meta), unquote(items[0]), guard=items[1])

    @v_args(meta=True)
    def start_layout(self, meta, items):
        return m.StartLayout(self.span(meta), tuple(items[1:]), guard=items[0])

    @v_args(meta=True)
    def place_where(self, meta, items):
        return m.StartItem(self.span(meta), str(items[0]), str(items[1]), where=items[2])

    @v_args(meta=True)
    def place_at(self, meta, items):
        return m.StartItem(self.span(meta), str(items[0]), str(items[1]), cells=tuple(items[2:]))

    @v_args(meta=True)
    def empty_at(self, meta, items):
        return m.StartItem(self.span(meta), None, None, cells=tuple(items))

    @v_args(meta=True)
    def cell_named(self, meta, items):
        return m.CellRef(self.span(meta), name=str(items[0]))

    @v_args(meta=True)
    def cell_xy(self, meta, items):
        return m.CellRef(self.span(meta), xy=(items[0], items[1]))

    @v_args(meta=True)
    def moves_stmt(self, meta, items):
        return m.Moves(self.span(meta), tuple(items[1:]), guard=items[0])

    @v_args(meta=True)
    def move_rule(self, meta, items):
        kind, action, dirs, *options, guard = items
        fields: dict = {}
        spans = []
        for name, value, span in options:
            spans.append((name, span))
            if name == "to":
                fields["targets"] = fields.get("targets", ()) + value
            else:
                fields[name] = value
        return m.MoveRule(self.span(meta), str(kind), str(action), dirs, guard=guard,
                          option_spans=tuple(spans), **fields)

    @v_args(meta=True)
    def place_rule(self, meta, items):
        kind, falling, flanking, guard = items
        return m.MoveRule(self.span(meta), str(kind), "place", (), falling=falling, flanking=flanking or (),
                          guard=guard)

    @v_args(meta=True)
    def over(self, meta, items):
        return ("over", str(items[0]), self.span(meta))

    @v_args(meta=True)
    def to(self, meta, items):
        return ("to", tuple(str(t.children[0]) for t in items), self.span(meta))

    @v_args(meta=True)
    def capture(self, meta, items):
        return ("capture", True, self.span(meta))

    @v_args(meta=True)
    def line_exact(self, meta, items):
        return ("line", (int(items[0]), int(items[0])), self.span(meta))

    @v_args(meta=True)
    def line_range(self, meta, items):
        high = int(items[1]) if items[1] is not None else None
        return ("line", (int(items[0]), high), self.span(meta))

    @v_args(meta=True)
    def again_stmt(self, meta, items):
        after, choice, or_pass, guard = items
        return m.Again(self.span(meta), str(after) if after else None, str(choice) == "same",
                       or_pass is not None, guard=guard)

    @v_args(meta=True)
    def freeze_stmt(self, meta, items):
        return m.Freeze(self.span(meta), str(items[0]), guard=items[1])

    @v_args(meta=True)
    def forbid_stmt(self, meta, items):
        return m.Forbid(self.span(meta), " ".join(str(items[0]).split()), guard=items[1])

    @v_args(meta=True)
    def misere_stmt(self, meta, items):
        return m.Misere(self.span(meta), guard=items[0])

    @v_args(meta=True)
    def pass_stmt(self, meta, items):
        return m.PassWhenStuck(self.span(meta), guard=items[0])

    @v_args(meta=True)
    def end_stmt(self, meta, items):
        return m.End(self.span(meta), tuple(items))

    @v_args(meta=True)
    def end_for_player(self, meta, items):
        return m.EndRule(self.span(meta), str(items[0]), str(items[1]), items[2])

    @v_args(meta=True)
    def end_draw(self, meta, items):
        return m.EndRule(self.span(meta), None, "draw", items[0])

    @v_args(meta=True)
    def evaluate_stmt(self, meta, items):
        return m.Evaluate(self.span(meta), tuple(items[1:]), guard=items[0])

    @v_args(meta=True)
    def feature(self, meta, items):
        name, kind, weight = items
        return m.Feature(self.span(meta), str(name), str(kind) if kind else None, weight)

    def signed_number(self, items):
        return float(items[0])

    @v_args(meta=True)
    def example_stmt(self, meta, items):
        name, where, settings, (expect, values) = items
        label = unquote(name) if name else f"line {meta.line}"
        return m.Example(self.span(meta), label, where, settings or (), expect, values)

    def example_start(self, items):
        return None

    def example_position(self, items):
        return unquote(items[0])

    def example_settings(self, items):
        return tuple(items)

    def setting(self, items):
        return Setting(str(items[0]), items[1], span=self.tspan(items[0]))

    def expect_moves(self, items):
        return ("moves", tuple(unquote(s) for s in items if s is not None))

    def expect_perft(self, items):
        return ("perft", tuple(int(i) for i in items))

    def expect_win(self, items):
        return ("win", (str(items[0]), str(items[1])))

    def expect_draw(self, items):
        return ("draw", ())

    def expect_ongoing(self, items):
        return ("ongoing", ())


STATEMENT_WORDS = ("game", "extends", "option", "players", "forward", "board", "cells", "position",
                   "notation", "directions", "piece", "start", "moves", "again", "freeze", "forbid", "end",
                   "misere", "pass", "evaluate", "example")
OPERATORS = {"ADD_OP", "MUL_OP", "COMPARE", "AND", "OR"}
# What a newcomer most likely meant by a character the language does not use.
CHAR_HINTS = {
    ";": "statements need no ';': just start the next one",
    ":": "blocks are written in braces, e.g. moves { ... }; line breaks and indentation mean nothing",
    "\u00d7": "write the letter x, as in board grid 8 x 8",
    "\u201c": "use straight quotes \" or '", "\u201d": "use straight quotes \" or '",
    "\u2018": "use straight quotes \" or '", "\u2019": "use straight quotes \" or '",
    "[": "lists are written with commas, without brackets",
    "]": "lists are written with commas, without brackets",
    "&": "write 'and'", "|": "write 'or'", "!": "write 'not', or '!=' for 'is not equal'",
}


@lru_cache(maxsize=1)
def _terminal_info() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """For each terminal: how to name it in a message, and the words it stands for."""
    shown: dict[str, str] = {"$END": "end of file"}
    words: dict[str, tuple[str, ...]] = {}
    for terminal in grammar_parser().terminals:
        pattern = terminal.pattern
        if pattern.type == "str":
            value = pattern.value
            is_word = value.replace(" ", "").isalpha()
            shown[terminal.name] = value if is_word else f"'{value}'"
            if is_word:
                words[terminal.name] = (value,)
        elif terminal.name in TERMINAL_WORDS:  # "step, jump, slide or push": the words themselves
            found = re.split(r", | or ", TERMINAL_WORDS[terminal.name])
            words[terminal.name] = tuple(w for w in found if not w.startswith(("a ", "an ")))
        shown.setdefault(terminal.name, TERMINAL_WORDS.get(terminal.name, terminal.name.lower()))
        if terminal.name in TERMINAL_WORDS:
            shown[terminal.name] = TERMINAL_WORDS[terminal.name]
    return shown, words


def _or_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def describe_expected(expected: set[str]) -> str:
    """A readable list of what the parser would have accepted."""
    shown, _ = _terminal_info()
    names = set(expected)
    statements = {n for n in names if shown.get(n) in STATEMENT_WORDS}
    starts_statement = len(statements) >= 10
    if starts_statement:
        names -= statements | {"$END"}
    operators = names & OPERATORS
    if len(operators) >= 2:
        names -= operators
    items = sorted({shown.get(n, n.lower()) for n in names})
    if len(items) > 6:
        items = items[:6] + ["..."]
    if len(operators) >= 2:
        items.append("an operator")
    if starts_statement:
        items.append("a statement (game, option, players, board, piece, start, moves, end, ...)")
    return _or_list(items) if items else "nothing more"


def _expected(error: UnexpectedInput) -> set[str]:
    """What could come next: exactly, from the parser's state when lark gives it."""
    parser = getattr(error, "interactive_parser", None)
    if parser is not None:
        try:
            return set(parser.accepts())
        except Exception:  # fall back on lark's own (looser) list
            pass
    return set(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())


def _braces(text: str, end: int) -> tuple[list[tuple[int, int]], tuple[int, str] | None]:
    """Before offset ``end``: the ``{`` still open (line, column) and the last significant character."""
    open_at: list[tuple[int, int]] = []
    last: tuple[int, str] | None = None
    line, line_start, i = 1, 0, 0
    while i < min(end, len(text)):
        char = text[i]
        if char == "\n":
            line, line_start = line + 1, i + 1
        elif char == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif char in "\"'":
            close = i + 1
            while close < len(text) and text[close] not in (char, "\n"):
                close += 2 if text[close] == "\\" else 1
            last = (line, char)
            i = close + 1
            continue
        elif not char.isspace():
            if char == "{":
                open_at.append((line, i - line_start + 1))
            elif char == "}" and open_at:
                open_at.pop()
            last = (line, char)
        i += 1
    return open_at, last


def _token_hint(error: UnexpectedToken, expected: set[str], text: str) -> str:
    """The likeliest fix for an unexpected token, or ``""``."""
    shown, words = _terminal_info()
    token = error.token
    value = str(token)
    offset = token.start_pos if token.type != "$END" and token.start_pos is not None else len(text)
    open_at, last = _braces(text, offset)
    is_statement = value in STATEMENT_WORDS or token.type == "$END"
    after = text[offset + len(value):].lstrip(" \t")
    if (value in ("start", "moves", "end", "evaluate") and "NAME" in expected
            and not after.startswith(("{", "if", '"', "'"))):
        return f"{value!r} is a keyword: it cannot be used as a name"
    if "RBRACE" in expected and open_at and is_statement:
        where = f"line {open_at[-1][0]}"
        if token.type == "$END":
            return f"the '{{' on {where} is never closed: add '}}'"
        return (f"{value!r} starts a statement, but the block opened on {where} is still open: "
                "is a '}' missing?")
    statements = {n for n in expected if shown.get(n) in STATEMENT_WORDS}
    if value.replace("_", "").isalnum() and not value.isdigit():
        candidates = sorted({w for n in expected for w in words.get(n, ())})
        close = difflib.get_close_matches(value, candidates, n=1, cutoff=0.75)
        if close:
            return f"did you mean {close[0]!r}?"
    if value == "}" and not open_at:
        return "this '}' has no '{' to close: remove it"
    if value == "=" and "COMPARE" in expected:
        return "compare with '=='"
    if "X" in expected and value[:1] in "xX" and value[1:].isdigit():
        return "put spaces around x, as in board grid 8 x 8"
    indented = token.type != "$END" and (token.column or 1) > 1
    if len(statements) >= 10 and last is not None and last[1] == "}" and indented and not is_statement:
        return (f"the '}}' on line {last[0]} closes its block before this indented line: "
                "is it one too early?")
    if "LBRACE" in expected and last is not None and token.type != "$END" and (token.line or 0) > last[0]:
        return ("a block is written in braces: '{' after its keyword, '}' at its end; "
                "indentation means nothing")
    if value == "{" and "LBRACE" not in expected:
        return "only start, moves, end and evaluate open a block"
    return f"expected {describe_expected(expected)}" if expected else ""


def _misspelt_before(previous, expected: set[str]) -> str | None:
    """The keyword a name just before the error was meant to be, when the name began a new item.

    A misspelt option after a move rule (``captur``) or a misspelt ``draw``
    parses as the name that starts the next item; the error only comes at the
    word after it.
    """
    if not isinstance(previous, Token) or previous.type != "NAME" or not expected & {"ACTION", "RESULT"}:
        return None
    _, words = _terminal_info()
    vocabulary = sorted({w for found in words.values() for w in found if " " not in w})
    close = difflib.get_close_matches(str(previous), vocabulary, n=1, cutoff=0.75)
    return close[0] if close else None


def _end_of_text(lines: list[str]) -> tuple[int, int]:
    """Line and column just after the last non-blank line: where an unfinished file stops."""
    for number in range(len(lines), 0, -1):
        if lines[number - 1].strip():
            return number, len(lines[number - 1].rstrip()) + 1
    return 1, 1


def syntax_diagnostic(error: UnexpectedInput, path: str, text: str) -> Diagnostic:
    """One clear diagnostic for a lark parse failure."""
    lines = text.split("\n")
    line = getattr(error, "line", 0) or 0
    column = getattr(error, "column", 0) or 0
    expected = _expected(error)
    if isinstance(error, UnexpectedEOF) or line < 1:
        line, column = _end_of_text(lines)
        message = "unexpected end of file"
        open_at, _ = _braces(text, len(text))
        if open_at:
            hint = f"the '{{' on line {open_at[-1][0]} is never closed: add '}}'"
        else:
            hint = f"expected {describe_expected(expected)}" if expected else "a statement may be unfinished"
        width = 1
    elif isinstance(error, UnexpectedToken):
        token = error.token
        message = f"unexpected {str(token)!r}"
        width = max(1, len(str(token)))
        if token.type == "$END":
            message, width = "unexpected end of file", 1
            line, column = _end_of_text(lines)
        hint = _token_hint(error, expected, text)
        previous = (getattr(error, "token_history", None) or [None])[-1]
        meant = _misspelt_before(previous, expected)
        if meant and not hint.startswith("did you mean"):
            # ``over enemy captur }``: the misspelt word reads as the next rule's piece kind; point at it.
            line, column, width = previous.line, previous.column, len(str(previous))
            message, hint = f"unexpected {str(previous)!r}", f"did you mean {meant!r}?"
    elif isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        if char and char in "\"'":
            message = "unterminated string"
            hint = "close the quote on the same line"
        else:
            message = f"unexpected character {char!r}"
            if char in CHAR_HINTS:
                hint = CHAR_HINTS[char]
            elif expected and len(expected) <= 8:
                hint = f"expected {describe_expected(expected)}"
            else:
                hint = "this character has no meaning in a rule file"
        width = 1
    else:  # pragma: no cover - lark has no other kinds today
        message, hint, width = str(error).splitlines()[0], "", 1
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    span = Span(line, column, line, column + width, path)
    return Diagnostic(span, f"syntax error: {message}", "E001", hint=hint, source_line=source)


MAX_SYNTAX_ERRORS = 20


def later_syntax_errors(text: str, path: str, after_line: int) -> list[Diagnostic]:
    """The first syntax error of each statement that starts after ``after_line``.

    The parser stops at the first error. To report the others in the same run
    without a cascade of follow-on errors, each statement that starts a line
    (a statement word at column 1) after the first error is parsed on its own.
    """
    lines = text.split("\n")
    word = re.compile("(" + "|".join(STATEMENT_WORDS) + r")\b")
    starts = [i for i, line in enumerate(lines) if word.match(line) and i + 1 > after_line]
    found: list[Diagnostic] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunk = "\n" * start + "\n".join(lines[start:end])  # the same line numbers as the file
        try:
            grammar_parser().parse(chunk)
        except UnexpectedInput as error:
            found.append(syntax_diagnostic(error, path, chunk))
            if len(found) >= MAX_SYNTAX_ERRORS:
                break
    return found


def parse_text(text: str, path: str = "<rules>") -> m.RuleFile:
    """Parse a rule file's text; raises :class:`RulesError` on a syntax error."""
    try:
        tree = grammar_parser().parse(text)
    except UnexpectedInput as error:
        first = syntax_diagnostic(error, path, text)
        raise RulesError([first, *later_syntax_errors(text, path, first.span.line)]) from None
    try:
        statements = _Builder(path).transform(tree)
    except VisitError as error:  # a bad escape, or a bug in the builder: reported with its place
        bad = error.orig_exc
        token = getattr(bad, "token", None)
        if isinstance(bad, BadEscape) and getattr(token, "line", None):
            line, column = token.line, token.column + bad.column
            source = text.split("\n")[line - 1]
            raise RulesError([Diagnostic(Span(line, column, line, column + 2, path), f"syntax error: {bad}",
                                         "E001", hint="a string knows \\n, \\t, \\\\, \\\" and \\' only",
                                         source_line=source)]) from None
        raise RulesError([Diagnostic(Span(0, 0, file=path), f"internal error: {bad}")]) from None
    return m.RuleFile(path, text, statements)
