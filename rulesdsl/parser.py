"""Parse rule-file text into the typed model, with a source span on every node."""

from __future__ import annotations

import ast
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
    "FEATURE": "material, mobility, advancement, centrality or captures",
    "AXIS": "column or row", "MOVE_PART": "from, to or a quoted string",
    "PIECE_CHOICE": "any or same", "FREEZE_MODE": "strict or loose",
    "FORBIDDEN": "repetition or corner push-off", "COMPARE": "a comparison",
}


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """The LALR parser, built once from ``grammar.lark``."""
    text = resources.files("rulesdsl").joinpath("grammar.lark").read_text()
    return Lark(text, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True)


def unquote(token: str) -> str:
    """The value of a quoted string token (either quote style, backslash escapes)."""
    body = token[1:-1]
    if "\\" not in body:
        return body
    return ast.literal_eval('"' + body.replace('"', '\\"').replace("\\\\\"", '\\"') + '"')


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
    def has_none(self, meta, items):
        return m.HasNone(self.span(meta), str(items[0]), str(items[1]))

    @v_args(meta=True)
    def beyond(self, meta, items):
        return m.Beyond(self.span(meta), *(str(i) for i in items))

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
        return m.NamePartDecl(self.span(meta), str(axis), value, from_end is not None)

    @v_args(meta=True)
    def position_stmt(self, meta, items):
        listing = items[-1]
        fields = tuple(str(t) for t in items[:-1])
        return m.PositionFormat(self.span(meta), fields, listing is None or str(listing) == "top first")

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
        return m.Forbid(self.span(meta), str(items[0]), guard=items[1])

    @v_args(meta=True)
    def misere_stmt(self, meta, items):
        return m.Misere(self.span(meta), guard=items[0])

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
        return (str(items[0]), items[1])

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


def describe_expected(expected: set[str]) -> str:
    """A readable list of what the parser would have accepted."""
    words = sorted({TERMINAL_WORDS.get(t, t.strip('"').lower() if not t.isupper() else t.lower())
                    for t in expected})
    if len(words) > 6:
        words = words[:6] + ["..."]
    return ", ".join(words)


def syntax_diagnostic(error: UnexpectedInput, path: str, text: str) -> Diagnostic:
    """One clear diagnostic for a lark parse failure."""
    lines = text.splitlines()
    line = getattr(error, "line", 0) or 0
    column = getattr(error, "column", 0) or 0
    if isinstance(error, UnexpectedEOF) or line < 1:
        line = max(1, len(lines))
        column = len(lines[-1]) + 1 if lines else 1
        message = "unexpected end of file"
        hint = "a '}' or a statement may be missing"
        if error.expected:
            hint = f"expected {describe_expected(set(error.expected))}"
        width = 1
    elif isinstance(error, UnexpectedToken):
        token = error.token
        shown = str(token) if token.type != "$END" else "end of file"
        message = f"unexpected {shown!r}"
        hint = f"expected {describe_expected(set(error.expected))}" if error.expected else ""
        width = max(1, len(str(token)))
        if token.type == "$END":
            message, width = "unexpected end of file", 1
    elif isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        if char in "\"'":
            message = "unterminated string"
            hint = "close the quote on the same line"
        else:
            message = f"unexpected character {char!r}"
            hint = f"expected {describe_expected(set(error.allowed))}" if error.allowed else ""
        width = 1
    else:  # pragma: no cover - lark has no other kinds today
        message, hint, width = str(error).splitlines()[0], "", 1
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    span = Span(line, column, line, column + width, path)
    return Diagnostic(span, f"syntax error: {message}", "E001", hint=hint, source_line=source)


def parse_text(text: str, path: str = "<rules>") -> m.RuleFile:
    """Parse a rule file's text; raises :class:`RulesError` on a syntax error."""
    try:
        tree = grammar_parser().parse(text)
    except UnexpectedInput as error:
        raise RulesError([syntax_diagnostic(error, path, text)]) from None
    try:
        statements = _Builder(path).transform(tree)
    except VisitError as error:  # a bug in the builder, reported with its place
        raise RulesError([Diagnostic(Span(0, 0, file=path), f"internal error: {error.orig_exc}")]) from None
    return m.RuleFile(path, text, statements)
