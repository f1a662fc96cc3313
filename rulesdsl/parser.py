"""Parse rule-file text into the typed model, with a source span on every node."""

from __future__ import annotations

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedInput, VisitError

from rulesdsl import model as m
from rulesdsl.errors import Diagnostic, RulesError, Span, line_of
from rulesdsl.grammar import grammar_parser
from rulesdsl.limits import MAX_DEPTH, MAX_DIGITS, first_unsafe
from rulesdsl.model import Setting
from rulesdsl.syntax_errors import later_syntax_errors, syntax_diagnostic

ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}


class BadEscape(ValueError):
    """A backslash escape a string cannot have; ``column`` is where in the token it starts."""

    code, width = "E001", 2
    hint = "a string knows \\\\, \\\" and \\' only"

    def __init__(self, token: str, column: int):
        super().__init__(f"syntax error: unknown escape '{token[column:column + 2]}' in a string")
        self.token, self.column = token, column


class BadCharacter(BadEscape):
    """A control or bidi character in a string (raw or from an escape): it would reach a terminal."""

    code, width = "E006", 1
    hint = "strings are printed in moves, boards and reports: they may hold no line break, tab or control character"

    def __init__(self, token: str, column: int, char: str):
        ValueError.__init__(self, f"a string may not hold the control character U+{ord(char):04X}")
        self.token, self.column = token, column


class TooLarge(BadEscape):
    """A number of more than ``MAX_DIGITS`` digits."""

    code, width = "E007", 1
    hint = f"numbers in rule files have at most {MAX_DIGITS} digits"

    def __init__(self, token: str):
        ValueError.__init__(self, f"a number of {len(token)} digits is too large")
        self.token, self.column, self.width = token, 0, len(token)


def number(token: str) -> int:
    """The value of an ``INT`` token, refused beyond ``MAX_DIGITS`` digits."""
    if len(token) > MAX_DIGITS:
        raise TooLarge(token)
    return int(token)


def unquote(token: str) -> str:
    """The value of a quoted string token (either quote style; escapes \\n \\t \\\\ \\" \\').

    Decoded by hand: text from a rule file is never handed to Python's evaluator.
    """
    body = token[1:-1]
    raw = first_unsafe(body)
    if raw >= 0:
        raise BadCharacter(token, raw + 1, body[raw])
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            if body[i + 1] not in ESCAPES:
                raise BadEscape(token, i + 1)
            if body[i + 1] in "nt":
                raise BadCharacter(token, i + 1, ESCAPES[body[i + 1]])
            out.append(ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


@v_args(meta=True)  # every rule method gets (meta, children); helpers start with "_"
class _Builder(Transformer):
    """Turns the lark tree into :mod:`rulesdsl.model` nodes."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(0, 0, file=self.path)
        return Span(meta.line, meta.column, meta.end_line, meta.end_column, self.path)

    def _tspan(self, token: Token) -> Span:
        return Span(token.line, token.column, token.end_line or token.line,
                    token.end_column or token.column + len(token), self.path)

    # -- expressions --------------------------------------------------------
    def int_lit(self, meta, items):
        return m.Literal(self._span(meta), number(items[0]))

    def true_lit(self, meta, items):
        return m.Literal(self._span(meta), True)

    def false_lit(self, meta, items):
        return m.Literal(self._span(meta), False)

    def str_lit(self, meta, items):
        return m.Literal(self._span(meta), unquote(items[0]))

    def name_ref(self, meta, items):
        return m.NameRef(self._span(meta), str(items[0]))

    def call(self, meta, items):
        args = tuple(str(a) for a in items[1].children) if items[1] is not None else ()
        return m.Call(self._span(meta), str(items[0]), args)

    def _chain(self, meta, items):
        left = items[0]
        for op, right in zip(items[1::2], items[2::2]):
            left = m.Binary(self._span(meta), str(op), left, right)
        return left

    def sum(self, meta, items):
        return self._chain(meta, items)

    def product(self, meta, items):
        return self._chain(meta, items)

    def comparison(self, meta, items):
        return self._chain(meta, items)

    def and_expr(self, meta, items):
        return m.Logic(self._span(meta), "and", tuple(items))

    def or_expr(self, meta, items):
        return m.Logic(self._span(meta), "or", tuple(items))

    def not_(self, meta, items):
        return m.Unary(self._span(meta), "not", items[0])

    def neg(self, meta, items):
        return m.Unary(self._span(meta), "-", items[0])

    def no_moves(self, meta, items):
        return m.NoMoves(self._span(meta))

    def nobody_moves(self, meta, items):
        return m.NobodyMoves(self._span(meta))

    def has_none(self, meta, items):
        return m.HasNone(self._span(meta), str(items[0]), str(items[1]))

    def beyond(self, meta, items):
        return m.Beyond(self._span(meta), *(str(i) for i in items))

    def in_a_row(self, meta, items):
        token = items[1]
        span = self._tspan(token)
        length = m.Literal(span, number(token)) if token.type == "INT" else m.NameRef(span, str(token))
        return m.InARow(self._span(meta), str(items[0]), length)

    def quiet_plies(self, meta, items):
        return m.QuietPlies(self._span(meta))

    def quiet_plies_since(self, meta, items):
        return m.PliesSince(self._span(meta), str(items[0]))

    def repetitions(self, meta, items):
        return m.Repetitions(self._span(meta))

    def turns_played(self, meta, items):
        return m.TurnsPlayed(self._span(meta))

    def passes_in_a_row(self, meta, items):
        return m.PassesInARow(self._span(meta))

    def board_repeated(self, meta, items):
        return m.BoardRepeated(self._span(meta))

    def decimal_lit(self, meta, items):
        whole = items[0].split(".")[0]
        if len(whole) > MAX_DIGITS:
            raise TooLarge(items[0])
        return m.Literal(self._span(meta), float(items[0]))

    def _length(self, token: Token) -> m.Expr:
        """A row's length: a number, or an option's name."""
        span = self._tspan(token)
        return m.Literal(span, number(token)) if token.type == "INT" else m.NameRef(span, str(token))

    def connects(self, meta, items):
        player, first, second, way = items
        sides = (m.DirRef(self._tspan(first), str(first)), m.DirRef(self._tspan(second), str(second)))
        links = way == "links"
        return m.Connects(self._span(meta), str(player), sides, () if links else way or (), links=links)

    def connect_along(self, meta, items):
        return items[0]

    def connect_by_links(self, meta, items):
        return "links"

    def on_far_row(self, meta, items):
        return m.OnFarRow(self._span(meta), str(items[0]), str(items[1]))

    def fills(self, meta, items):
        return m.Fills(self._span(meta), str(items[0]), str(items[1]))
    def reaches_far_row(self, meta, items):
        return m.ReachesFarRow(self._span(meta), str(items[0]))

    def guard(self, meta, items):
        return items[0]

    # -- statements ---------------------------------------------------------
    def start(self, meta, items):
        return list(items)

    def game_stmt(self, meta, items):
        return m.GameTitle(self._span(meta), unquote(items[0]))

    def extends_stmt(self, meta, items):
        return m.Extends(self._span(meta), unquote(items[0]))

    def option_stmt(self, meta, items):
        name, default, rng, doc = items
        low = high = choices = None
        if isinstance(rng, tuple) and rng[0] == "range":
            low, high = rng[1], rng[2]
        elif isinstance(rng, tuple):
            choices = rng[1]
        return m.OptionDecl(self._span(meta), str(name), default, low, high, choices,
                            unquote(doc) if doc else "")

    def int_range(self, meta, items):
        return ("range", items[0], items[1])

    def choices(self, meta, items):
        return ("choices", tuple(unquote(s) for s in items))

    def players_stmt(self, meta, items):
        return m.Players(self._span(meta), tuple(items[:-1]), guard=items[-1])

    def player_decl(self, meta, items):
        return m.PlayerDecl(self._span(meta), str(items[0]), unquote(items[1]))

    def forward_stmt(self, meta, items):
        pairs = tuple((str(p), str(d), self._tspan(d)) for p, d in zip(items[::2], items[1::2]))
        return m.Forward(self._span(meta), pairs)

    def board_grid(self, meta, items):
        return m.Board(self._span(meta), "grid", (items[0], items[1]), items[2], guard=items[3])

    def board_rhombus(self, meta, items):
        return m.Board(self._span(meta), "rhombus", (items[0], items[1]), items[2], guard=items[3])

    def board_hexagon(self, meta, items):
        return m.Board(self._span(meta), "hexagon", (items[0],), items[1], guard=items[2])

    def board_where(self, meta, items):
        return items[0]

    def lines_stmt(self, meta, items):
        *lines, guard = items
        return m.Lines(self._span(meta), tuple(lines), guard=guard)

    def drawn_stmt(self, meta, items):
        *lines, guard = items
        return m.DrawnLines(self._span(meta), tuple(lines), guard=guard)

    def board_line(self, meta, items):
        return tuple((str(t), self._tspan(t)) for t in items)

    def hand_stmt(self, meta, items):
        *parts, guard = items
        more = tuple((str(parts[i]), parts[i + 1]) for i in range(2, len(parts), 2))
        return m.Hand(self._span(meta), str(parts[0]), parts[1], more, guard=guard)

    def captured_stmt(self, meta, items):
        *kinds, as_kind, guard = items
        return m.CapturedToHand(self._span(meta), tuple(str(k) for k in kinds),
                                str(as_kind) if as_kind is not None else None, guard=guard)

    def cells_stmt(self, meta, items):
        return m.CellNames(self._span(meta), tuple(items))

    def name_part(self, meta, items):
        axis, first, from_end, skip = items
        value: str | int = unquote(first) if first.type == "STRING" else number(first)
        end_word = str(from_end).split()[-1] if from_end is not None else ""
        return m.NamePartDecl(self._span(meta), str(axis), value, from_end is not None, end_word,
                              unquote(skip) if skip is not None else "")

    def block_stmt(self, meta, items):
        name, first, last, guard = items
        return m.Block(self._span(meta), str(name), ((str(first), self._tspan(first)),
                                                     (str(last), self._tspan(last))), guard=guard)

    def boards_stmt(self, meta, items):
        width, height, line, guard = items
        return m.SmallBoards(self._span(meta), width, height, self._length(line), guard=guard)

    def boards_in_a_row(self, meta, items):
        return m.BoardsInARow(self._span(meta), str(items[0]), self._length(items[1]))

    def turn_rule(self, meta, items):
        *names, way, when, guard = items
        blocks = tuple((str(t), self._tspan(t)) for t in names)
        return m.MoveRule(self._span(meta), "", "turn", (), blocks=blocks, way=" ".join(str(way).split()),
                          when=when, guard=guard)

    def position_stmt(self, meta, items):
        listing = items[-1]
        fields = tuple(str(t) for t in items[:-1])
        return m.PositionFormat(self._span(meta), fields, listing is None or str(listing).startswith("top"))

    def notation_stmt(self, meta, items):
        parts = tuple(unquote(t) if t.startswith(("'", '"')) else str(t) for t in items)
        return m.Notation(self._span(meta), parts)

    def directions_stmt(self, meta, items):
        return m.DirectionSet(self._span(meta), str(items[0]), items[1])

    def dir_list(self, meta, items):
        return tuple(items)

    def direction(self, meta, items):
        if isinstance(items[0], m.DirRef):
            return items[0]
        return m.DirRef(self._tspan(items[0]), str(items[0]))

    def toward(self, meta, items):
        """``forward (1, 2)``: the images of the vector that go furthest that way (the player's)."""
        return m.DirRef(self._span(meta), f"{items[0]} {items[1].name}")

    def vector(self, meta, items):
        return m.DirRef(self._span(meta), f"({number(items[0])}, {number(items[1])})")

    def piece_stmt(self, meta, items):
        return m.PieceDecl(self._span(meta), str(items[0]), tuple(items[1:]))

    def piece_neutral(self, meta, items):
        return m.PieceDecl(self._span(meta), str(items[0]), (("", unquote(items[1]), self._tspan(items[1])),))

    def symbol_decl(self, meta, items):
        return (str(items[0]), unquote(items[1]), self._tspan(items[0]))

    def start_position(self, meta, items):
        return m.StartPosition(self._span(meta), unquote(items[0]), guard=items[1])

    def start_layout(self, meta, items):
        return m.StartLayout(self._span(meta), tuple(items[1:]), guard=items[0])

    def place_where(self, meta, items):
        return m.StartItem(self._span(meta), str(items[0]), str(items[1]), where=items[2])

    def place_in_region(self, meta, items):
        return m.StartItem(self._span(meta), str(items[0]), str(items[1]), region=str(items[2]))

    def place_at(self, meta, items):
        return m.StartItem(self._span(meta), str(items[0]), str(items[1]), cells=tuple(items[2:]))

    def empty_at(self, meta, items):
        return m.StartItem(self._span(meta), None, None, cells=tuple(items))

    def cell_named(self, meta, items):
        return m.CellRef(self._span(meta), name=str(items[0]))

    def cell_xy(self, meta, items):
        return m.CellRef(self._span(meta), xy=(items[0], items[1]))

    def moves_stmt(self, meta, items):
        return m.Moves(self._span(meta), tuple(items[1:]), guard=items[0])

    def move_rule(self, meta, items):
        kind, action, dirs, *options, when, guard = items
        fields: dict = {}
        spans = []
        for name, value, span in options:
            spans.append((name, span))
            if name == "to":
                fields["targets"] = fields.get("targets", ()) + value
            elif name == "by pieces in line":
                fields["by_line"] = value
            elif name == "custodial":
                fields["custodial"], fields["hostile"], fields["custodial_runs"] = value
            else:
                fields[name] = value
        return m.MoveRule(self._span(meta), str(kind), str(action), dirs, guard=guard, when=when,
                          option_spans=tuple(spans), **fields)

    def place_rule(self, meta, items):
        kind, reach, region, falling, flanking, enclosing, sent, when, guard = items
        action, dirs, spans = reach if reach is not None else (None, (), ())
        from_hand = action == "hand"
        return m.MoveRule(self._span(meta), str(kind), "place", dirs, falling=falling, flanking=flanking or (),
                          reach=None if from_hand else action, from_hand=from_hand, sent=sent is not None,
                          option_spans=(*spans, *((("in sent board", self._tspan(sent)),) if sent else ())),
                          when=when, guard=guard, region=region,
                          enclosing=enclosing if isinstance(enclosing, tuple) else (),
                          enclose=enclosing if isinstance(enclosing, m.Enclose) else None)

    def place_in(self, meta, items):
        return str(items[0])

    def enclose(self, meta, items):
        return m.Enclose(self._span(meta), str(items[0]), str(items[1]), items[2] is not None)

    def bonus(self, meta, items):
        return True

    def sow_rule(self, meta, items):
        kind, origin, track, *options, when, guard = items
        found: dict = {}
        for name, value in options:
            found[name] = value
        capture, into = found.get("capture", (None, None))
        sow = m.Sow(self._span(meta), str(origin), str(track), found.get("skip"), found.get("again"), capture, into)
        return m.MoveRule(self._span(meta), str(kind), "sow", (), sow=sow, when=when, guard=guard)

    def sow_skip(self, meta, items):
        return "skip", str(items[0])

    def sow_again(self, meta, items):
        return "again", str(items[0])

    def sow_capture(self, meta, items):
        return "capture", (items[0], str(items[1]))

    def region_where(self, meta, items):
        return m.Region(self._span(meta), str(items[0]), where=items[1], guard=items[2])

    def region_cells(self, meta, items):
        name, *parts, guard = items
        return m.Region(self._span(meta), str(name), cells=tuple(p for p in parts if isinstance(p, tuple)),
                        wheres=tuple(p for p in parts if isinstance(p, m.RegionPart)), guard=guard)

    def region_part(self, meta, items):
        return str(items[0]), tuple((str(t), self._tspan(t)) for t in items[1:])

    def region_part_where(self, meta, items):
        return m.RegionPart(self._span(meta), str(items[0]), items[1])

    def track_stmt(self, meta, items):
        name, *cells, guard = items
        return m.Track(self._span(meta), str(name), tuple((str(t), self._tspan(t)) for t in cells), guard=guard)

    def counts_stmt(self, meta, items):
        return m.Counts(self._span(meta), str(items[0]), guard=items[1])

    def score_stmt(self, meta, items):
        *parts, guard = items
        return m.Score(self._span(meta), tuple(parts), guard=guard)

    def score_part(self, meta, items):
        return str(items[0]), items[1], self._span(meta)

    def put_in(self, meta, items):
        amount, kind, region = items
        return m.StartItem(self._span(meta), str(kind), None, amount=amount, region=str(region))

    def enclosing(self, meta, items):
        return items[0]

    def pass_rule(self, meta, items):
        when, guard = items
        return m.MoveRule(self._span(meta), "", "pass", (), when=when, guard=guard)

    def custodial(self, meta, items):
        dirs, runs, *cells = items
        hostile = tuple((str(t), self._tspan(t)) for t in cells if t is not None)
        return ("custodial", (dirs, hostile, runs is not None), self._span(meta))

    def style_stmt(self, meta, items):
        return m.Style(self._span(meta), str(items[0]))

    def reach_last(self, meta, items):
        return str(items[0]), items[1], (("from last", self._span(meta)),)

    def reach_hand(self, meta, items):
        return "hand", (), (("from hand", self._span(meta)),)

    def fly_rule(self, meta, items):
        kind, when, guard = items
        return m.MoveRule(self._span(meta), str(kind), "fly", (), when=when, guard=guard)

    def remove_rule(self, meta, items):
        kind, spared, when, guard = items
        spans = (("except", spared.span),) if spared is not None else ()
        return m.MoveRule(self._span(meta), str(kind), "remove", (), spared=spared, when=when, guard=guard,
                          option_spans=spans)

    def walk_rule(self, meta, items):
        kind, dirs, when, guard = items
        return m.MoveRule(self._span(meta), str(kind), "walk", dirs, when=when, guard=guard)

    def drop_rule(self, meta, items):
        kind, region, single, when, guard = items
        return m.MoveRule(self._span(meta), str(kind), "drop", (), from_hand=True, region=region, when=when,
                          guard=guard, option_spans=(("from hand", self._span(meta)),),
                          one_per_column=single is not None)

    def build_rule(self, meta, items):
        kind, supply, when, guard = items
        return m.MoveRule(self._span(meta), str(kind), "build", (), supply=supply is not None, when=when,
                          guard=guard)

    def swap_rule(self, meta, items):
        way, region, when, guard = items
        return m.MoveRule(self._span(meta), "", "swap", (), way=" ".join(str(way).split()) if way else "",
                          region=region, when=when, guard=guard)

    def link_stmt(self, meta, items):
        kind, dirs, guard = items
        return m.Link(self._span(meta), str(kind), dirs, guard=guard)

    def keep_stmt(self, meta, items):
        return m.Keep(self._span(meta), items[0])

    def remove_except(self, meta, items):
        return self._length(items[0])

    def rule_when(self, meta, items):
        return items[0]

    def then_after(self, meta, items):
        return self._length(items[0])

    def then_stmt(self, meta, items):
        return m.Then(self._span(meta), tuple(items[2:]), after_row=items[0], guard=items[1])

    def over(self, meta, items):
        return ("over", str(items[0]), self._span(meta))

    def to(self, meta, items):
        return ("to", tuple(str(t.children[0]) for t in items), self._span(meta))

    def by_line(self, meta, items):
        return ("by pieces in line", True, self._span(meta))

    def joins(self, meta, items):
        return m.Joins(self._span(meta), str(items[0]), self._length(items[1]), str(items[2]))

    def forms_ring(self, meta, items):
        return m.Ring(self._span(meta), str(items[0]))

    def one_group(self, meta, items):
        return m.OneGroup(self._span(meta), str(items[0]), items[1] or ())


    def capture(self, meta, items):
        return ("capture", True, self._span(meta))

    def flying(self, meta, items):
        return ("flying", True, self._span(meta))

    def exactly(self, meta, items):
        return ("distance", number(items[0]), self._span(meta))

    def from_region(self, meta, items):
        return ("region", str(items[0]), self._span(meta))

    def within_region(self, meta, items):
        return ("within", str(items[0]), self._span(meta))

    def unmoved(self, meta, items):
        return ("unmoved", True, self._span(meta))

    def safe(self, meta, items):
        return ("safe", True, self._span(meta))

    def bringing(self, meta, items):
        return ("bringing", str(items[0]), self._span(meta))

    def passing(self, meta, items):
        return ("passing", True, self._span(meta))

    def blocked(self, meta, items):
        return ("blocked", True, self._span(meta))

    def taking(self, meta, items):
        return ("taking", str(items[0]), self._span(meta))

    def line_exact(self, meta, items):
        return ("line", (number(items[0]), number(items[0])), self._span(meta))

    def line_range(self, meta, items):
        high = number(items[1]) if items[1] is not None else None
        return ("line", (number(items[0]), high), self._span(meta))

    def again_stmt(self, meta, items):
        after, choice, mode, or_pass, guard = items
        mode_words = str(mode).split() if mode is not None else []
        return m.Again(self._span(meta), str(after) if after else None, str(choice) == "same",
                       or_pass is not None, "one" in mode_words, "direction" in mode_words,
                       new_cells="new" in mode_words, guard=guard)

    def freeze_stmt(self, meta, items):
        return m.Freeze(self._span(meta), str(items[0]), guard=items[1])

    def forbid_stmt(self, meta, items):
        return m.Forbid(self._span(meta), " ".join(str(items[0]).split()), guard=items[1])

    def forbid_attacked(self, meta, items):
        return m.Forbid(self._span(meta), "leaving attacked", str(items[0]), guard=items[1])

    def forbid_drop_mate(self, meta, items):
        return m.Forbid(self._span(meta), "drop mate", str(items[0]), guard=items[1])

    def misere_stmt(self, meta, items):
        return m.Misere(self._span(meta), guard=items[0])

    def promote_stmt(self, meta, items):
        *kinds, guard = items
        choices = tuple(str(k) for k in kinds[1:])
        return m.Promote(self._span(meta), str(kinds[0]), choices[0], choices if len(choices) > 1 else (),
                         guard=guard)

    def promote_zone(self, meta, items):
        kind, to_kind, zone, forced_in, guard = items
        return m.Promote(self._span(meta), str(kind), str(to_kind), zone=str(zone),
                         forced_in=str(forced_in) if forced_in is not None else None, guard=guard)

    def must_stmt(self, meta, items):
        return m.MustCapture(self._span(meta), items[0] is not None, items[1] is not None, guard=items[2])

    def pass_stmt(self, meta, items):
        return m.PassWhenStuck(self._span(meta), guard=items[0])

    def end_stmt(self, meta, items):
        return m.End(self._span(meta), tuple(items))

    def end_for_player(self, meta, items):
        return m.EndRule(self._span(meta), str(items[0]), str(items[1]), items[2])

    def end_draw(self, meta, items):
        return m.EndRule(self._span(meta), None, "draw", items[0])

    def end_place(self, meta, items):
        placing = "finishes" if str(items[1]) == "finishes" else "out"
        return m.EndRule(self._span(meta), str(items[0]), placing, items[2])

    def end_best_score(self, meta, items):
        return m.EndRule(self._span(meta), None, str(items[0]), items[1], by_score=True)

    def evaluate_stmt(self, meta, items):
        return m.Evaluate(self._span(meta), tuple(items[1:]), guard=items[0])

    def feature(self, meta, items):
        name, kind, weight = items
        return m.Feature(self._span(meta), str(name), str(kind) if kind else None, weight)

    def signed_number(self, meta, items):
        if len(items[0].lstrip("+-").split(".")[0]) > MAX_DIGITS:  # the cap keeps every weight a finite float
            raise TooLarge(items[0])
        return float(items[0])

    def example_stmt(self, meta, items):
        name, where, settings, (expect, values) = items
        label = unquote(name) if name else f"line {meta.line}"
        return m.Example(self._span(meta), label, where, settings or (), expect, values)

    def example_start(self, meta, items):
        return None

    def example_position(self, meta, items):
        return unquote(items[0])

    def example_settings(self, meta, items):
        return tuple(items)

    def setting(self, meta, items):
        return Setting(str(items[0]), items[1], span=self._tspan(items[0]))

    def expect_moves(self, meta, items):
        return ("moves", tuple(unquote(s) for s in items if s is not None))

    def expect_perft(self, meta, items):
        return ("perft", tuple(number(i) for i in items))

    def expect_win(self, meta, items):
        return ("win", (str(items[0]), str(items[1])))

    def expect_draw(self, meta, items):
        return ("draw", ())

    def expect_ongoing(self, meta, items):
        return ("ongoing", ())

    def expect_places(self, meta, items):
        return ("places", tuple(str(i) if n % 2 == 0 else number(i) for n, i in enumerate(items)))


CHAINS = ("sum", "product", "comparison")


def _too_deep(tree: Tree) -> Tree | None:
    """The innermost node at which an expression gets deeper than ``MAX_DEPTH``, or ``None``.

    Depth counts what a recursive walk of the model would: one level per
    nested node, one per operator of a chain (``a + b + c`` is two deep).
    Walked without recursion, so any nesting is measured safely.
    """
    depth: dict[int, int] = {}
    stack: list[tuple[Tree, bool]] = [(tree, False)]
    while stack:
        node, done = stack.pop()
        children = [c for c in node.children if isinstance(c, Tree)]
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in children)
            continue
        inner = max((depth.pop(id(c)) for c in children), default=0)
        steps = (len(node.children) - 1) // 2 if node.data in CHAINS else 1
        depth[id(node)] = inner + max(1, steps)
        if depth[id(node)] > MAX_DEPTH + 3:  # a statement and its guard add up to three levels
            return node
    return None


def parentheses_too_deep(text: str) -> tuple[int, int] | None:
    """The line and column of the first ``(`` nested more than ``MAX_DEPTH`` deep, or ``None``.

    Parentheses leave no node in the syntax tree, so they are counted in the
    text (outside strings and comments), in one pass.
    """
    depth, line, column, quote, comment, escaped = 0, 1, 0, "", False, False
    for char in text:
        column += 1
        if char == "\n":
            line, column, comment = line + 1, 0, False
            quote = ""  # a string never spans lines
        elif comment:
            continue
        elif quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            comment = True
        elif char == "(":
            depth += 1
            if depth > MAX_DEPTH:
                return line, column
        elif char == ")":
            depth = max(0, depth - 1)
    return None


def check_parentheses(text: str, path: str) -> None:
    """Raise :class:`RulesError` (E007) when parentheses nest deeper than the cap."""
    deep = parentheses_too_deep(text)
    if deep is not None:
        line, column = deep
        span = Span(line, column, line, column + 1, path)
        raise RulesError([Diagnostic(span, f"parentheses are nested more than {MAX_DEPTH} levels deep", "E007",
                                     hint="split the expression into options",
                                     source_line=text.split("\n")[line - 1])])


def parse_text(text: str, path: str = "<rules>") -> m.RuleFile:
    """Parse a rule file's text; raises :class:`RulesError` on a syntax error.

    A byte-order mark at the start is skipped; an expression nested deeper
    than the cap is refused (E007) before anything walks it recursively.
    """
    text = text.removeprefix("\ufeff")
    check_parentheses(text, path)
    try:
        tree = grammar_parser().parse(text)
    except UnexpectedInput as error:
        first = syntax_diagnostic(error, path, text)
        raise RulesError([first, *later_syntax_errors(text, path, first.span.line)]) from None
    deep = _too_deep(tree)
    if deep is not None:
        span = Span(deep.meta.line, deep.meta.column, deep.meta.line, deep.meta.column + 1, path)
        raise RulesError([Diagnostic(span, f"this expression is nested more than {MAX_DEPTH} levels deep", "E007",
                                     hint="split it into options", source_line=text.split("\n")[span.line - 1])])
    try:
        statements = _Builder(path).transform(tree)
    except VisitError as error:  # a bad escape, or a bug in the builder: reported with its place
        bad = error.orig_exc
        token = getattr(bad, "token", None)
        if isinstance(bad, BadEscape) and getattr(token, "line", None):
            line, column = token.line, token.column + bad.column
            source = line_of(text, line)
            raise RulesError([Diagnostic(Span(line, column, line, column + bad.width, path), str(bad),
                                         bad.code, hint=bad.hint, source_line=source)]) from None
        raise RulesError([Diagnostic(Span(0, 0, file=path), f"internal error: {bad}")]) from None
    return m.RuleFile(path, text, statements)
