"""From a checked rule file and option values to a :class:`Game`.

Guards are decided, names resolved and tables built here, once; what is left
for the move loop is closures over strings and tuples.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rulesdsl import model as m
from rulesdsl.errors import PositionError, RulesdslError, Span
from rulesdsl.expr import Value, evaluate
from rulesdsl.interpreter.compile.drawing import drawn_segments
from rulesdsl.interpreter.compile.game import NO_CELL, EndRuleRef, Game, Move, Outcome, Player, State
from rulesdsl.interpreter.compile.geometry import NamePart, build_geometry, join_lines
from rulesdsl.interpreter.compile.notation import SizeMismatch, board_in_position, move_codec, position_codec
from rulesdsl.interpreter.compile.regions import build_regions, build_tracks
from rulesdsl.interpreter.compile.start import start_board
from rulesdsl.interpreter.compile.tables import NEUTRAL, Tables
from rulesdsl.interpreter.kernel.compiled import CompiledPlay
from rulesdsl.interpreter.reference.endings import ConditionCompiler, compile_end_rules
from rulesdsl.interpreter.reference.legality import compile_legality
from rulesdsl.interpreter.reference.linking import compile_links
from rulesdsl.interpreter.reference.nested import build_nest
from rulesdsl.interpreter.reference.passing import reads
from rulesdsl.interpreter.reference.piece_moves import promotion_suffix
from rulesdsl.interpreter.reference.places import PLACINGS, compile_placings, final_places, first_of, settled
from rulesdsl.interpreter.reference.scores import compile_scores
from rulesdsl.interpreter.reference.turning import resolve_blocks
from rulesdsl.interpreter.search.evaluation import compile_evaluation
from rulesdsl.limits import MAX_CELLS
from rulesdsl.loader import Resolved

EMPTY = "-"
DEFAULT_EVALUATION = (m.Feature(m.Span(0, 0), "mobility", None, 1.0),)
SCORED_EVALUATION = (m.Feature(m.Span(0, 0), "score", None, 10.0), *DEFAULT_EVALUATION)  # a game with 'score'


class Active:
    """The statements whose guards hold for these option values."""

    def __init__(self, resolved: Resolved, options: Mapping[str, Value]):
        self.statements = [s for s in resolved.statements
                           if s.guard is None or bool(evaluate(s.guard, options))]

    def all(self, kind: type) -> list:
        """Every active statement of a type."""
        return [s for s in self.statements if isinstance(s, kind)]

    def first(self, kind: type):
        """The first active statement of a type, or ``None``."""
        found = self.all(kind)
        return found[0] if found else None


def default_naming(shape: str) -> tuple[NamePart, ...]:
    """``a1`` names for grids, ``A1`` (row letter from the top) for hexagons."""
    if shape in ("grid", "rhombus"):
        return (NamePart("column", "a"), NamePart("row", 1))
    return (NamePart("row", "A", True), NamePart("column", 1))


def board_problem(shape: str, size: tuple, naming: tuple[NamePart, ...]) -> str:
    """Why a board of this size cannot be built (empty when it can).

    Checked on every compile, so the caps hold whatever set the size: the
    defaults, ``--set``, an example's ``with``, a suite's options or a
    position that implies a new size.
    """
    shown = " x ".join(map(str, size))
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in size):
        return f"the board is {shape} {shown}: sizes are whole numbers of at least 1"
    lines = {"column": size[0], "row": size[1]} if shape in ("grid", "rhombus") else {"column": 2 * size[0] - 1,
                                                                         "row": 2 * size[0] - 1}
    cells = lines["column"] * lines["row"]
    if cells > MAX_CELLS:
        return f"the board {shape} {shown} would have {cells} cells; at most {MAX_CELLS} are supported"
    for part in naming:
        if isinstance(part.first, str):
            last = "z" if part.first.islower() else "Z"
            room = ord(last) - ord(part.first) + 1 - (part.first <= part.skip <= last)
            if lines[part.axis] > room:
                return (f"the board {shape} {shown} has {lines[part.axis]} {part.axis}s but letters from "
                        f"{part.first!r} to {last!r} name only {room}")
    return ""


def build_tables(active: Active, options: Mapping[str, Value]) -> tuple[Tables, m.PositionFormat | None]:
    """Geometry, players, pieces and directions."""
    board = active.first(m.Board)
    if board is None:
        raise RulesdslError("no 'board' statement holds for these options")
    size = tuple(evaluate(e, options) for e in board.size)
    names = active.first(m.CellNames)
    naming = (tuple(NamePart(p.axis, p.first, p.from_end, p.skip) for p in names.parts)
              if names else default_naming(board.shape))
    problem = board_problem(board.shape, size, naming)
    if problem:
        raise RulesdslError(f"{board.span}: {problem}")
    fmt = active.first(m.PositionFormat)
    keep = None
    if board.where is not None:
        where = board.where

        def keep(x: int, y: int) -> bool:
            return bool(evaluate(where, {**options, "col": x, "row": y}))

    geometry = build_geometry(board.shape, size, naming, fmt.top_first if fmt else True, keep)
    lines = active.first(m.Lines)
    if lines is not None:
        try:
            geometry = join_lines(geometry, [list(line) for line in lines.lines])
        except ValueError as error:
            message, place = error.args
            raise RulesdslError(message, place) from None
    seated = active.first(m.Players)
    if seated is None:
        raise RulesdslError("no 'players' statement holds for these options")
    players = seated.players
    player_names = tuple(p.name for p in players)
    owner: dict[str, int] = {}
    kind: dict[str, str] = {}
    symbol: dict[tuple[int, str], str] = {}
    neutral: dict[str, str] = {}
    for piece in active.all(m.PieceDecl):
        if piece.neutral:  # nobody's piece, placed by either player
            sym = piece.symbols[0][1]
            owner[sym], kind[sym] = NEUTRAL, piece.kind
            neutral[piece.kind] = sym
            continue
        for player, sym, _ in piece.symbols:
            if player not in player_names:
                continue  # a player not seated for these options (a guarded 'players')
            index = player_names.index(player)
            owner[sym], kind[sym], symbol[(index, piece.kind)] = index, piece.kind, sym
    forward = {}
    stmt = active.first(m.Forward)
    for player, direction, _ in stmt.pairs if stmt else ():
        if player in player_names:
            forward[player_names.index(player)] = geometry.directions[direction]
    sets = {s.name: s.directions for s in active.all(m.DirectionSet)}
    promotions = {symbol[(p, rule.kind)]: symbol[(p, rule.to_kind)]
                  for rule in active.all(m.Promote) if not rule.choices and rule.zone is None
                  for p in range(len(player_names))
                  if (p, rule.kind) in symbol and (p, rule.to_kind) in symbol}
    tables = Tables(geometry, EMPTY, player_names, tuple(p.symbol for p in players),
                    owner, kind, symbol, forward, sets, promotions, neutral, dict(options))
    tables.regions = build_regions(active.all(m.Region), tables, options)
    tables.tracks = build_tracks(active.all(m.Track), geometry)
    counts = active.first(m.Counts)
    tables.counted = counts.kind if counts else None
    tables.blocks = resolve_blocks(active.all(m.Block), geometry)
    boards = active.first(m.SmallBoards)
    if boards is not None:
        sizes = [evaluate(e, options) for e in (boards.width, boards.height, boards.line)]
        tables.nest = build_nest(geometry, *sizes, boards.span)
    link = active.first(m.Link)
    if link is not None:
        tables.linking = compile_links(link, tables)
    hand = active.first(m.Hand)
    if hand is not None:
        starts = []
        for _, count in hand.parts:
            start = evaluate(count, options)
            if isinstance(start, bool) or not isinstance(start, int) or start < 0:
                raise RulesdslError(f"a hand holds a whole number of pieces, not {start!r}", count.span)
            starts.append(start)
        tables.hand_kind, tables.hand_start = hand.kind, starts[0]
        tables.hand_kinds, tables.hand_starts = tuple(kind for kind, _ in hand.parts), tuple(starts)
    return tables, fmt


def compile_game(resolved: Resolved, options: Mapping[str, Value]) -> Game:
    """Compile a resolved, checked rule file for the given option values."""
    try:
        return _compile(resolved, options)
    except RulesdslError:
        raise
    except (ValueError, KeyError, IndexError) as error:  # a gap in the checker: still one line
        raise RulesdslError(f"cannot compile with these options: {error}", Span(0, 0, file=resolved.path)) from None


def _compile(resolved: Resolved, options: Mapping[str, Value]) -> Game:
    active = Active(resolved, options)
    tables, fmt = build_tables(active, options)
    geometry = tables.geometry
    title_stmt = active.first(m.GameTitle)
    fields = fmt.fields if fmt else ("turn", "hand", "rows") if tables.hand_kind else ("turn", "rows")
    end_stmt = active.first(m.End)
    tables.placing = any(rule.result in PLACINGS for rule in end_stmt.rules) if end_stmt else False
    if tables.placing and "places" not in fields:  # positions always carry who has a place
        fields = (*fields[:1], "places", *fields[1:])
    # states keep their earlier boards where a rule forbids repeating one or an end rule asks about it
    keeps_history = any(f.what == "repetition" for f in active.all(m.Forbid)) or reads(active, m.BoardRepeated)
    misere = bool(active.all(m.Misere))
    opponent = tables.seats.opponent  # misere: the win goes to the other side

    legality_box: list = []  # the compiled legality, for the position fields that read its marks
    parse_plain, _ = position_codec(tables, fields, keeps_history)
    parse_position, format_position = position_codec(tables, fields, keeps_history,
                                                     lambda: legality_box[0].pieces.book if legality_box else None)

    # -- the start ---------------------------------------------------------
    start_cache: list[State] = []
    plain_cache: list[State] = []  # the start without marks: where the marks' rights are found

    def plain_start() -> State:
        if not plain_cache:
            plain_cache.append(_start_state(start_statement(), tables, options, parse_plain, keeps_history))
        return plain_cache[0]

    def start_statement():
        return active.first(m.StartPosition) or active.first(m.StartLayout)

    def initial() -> State:
        if not start_cache:
            state = plain_start()
            book = legality.pieces.book
            if book is not None:
                start = start_statement()
                state = (_start_state(start, tables, options, parse_position, keeps_history)
                         if isinstance(start, m.StartPosition) else book.initial(state))
            if tables.placing and state.places is None:
                state = state._replace(places=(0,) * len(tables.player_names))
            start_cache.append(state)
        return start_cache[0]

    def start_board_text() -> str:
        return plain_start().board

    legality = compile_legality(active, tables, options, start_board_text)
    legality_box.append(legality)
    legal, apply = legality.legal, legality.apply

    # -- the end ---------------------------------------------------------------

    conditions = ConditionCompiler(tables, options, start_board_text, legality.nobody_moves)
    scores = tables.score_of = compile_scores(active.first(m.Score), conditions, tables)
    end_rules = compile_end_rules(end_stmt, conditions, tables, scores)
    placings = compile_placings(end_stmt, conditions, tables, legal,
                                lambda state: state.last != NO_CELL and tables.nest is None)
    if placings is not None:
        apply = settled(apply, placings)
    reasons = [_reason(resolved, rule) for _, _, rule in end_rules]
    fired = [EndRuleRef(number, rule.span) for number, (_, _, rule) in enumerate(end_rules, start=1)]

    two_parts = active.first(m.Then) is not None

    def ranked(state: State, outcome: Outcome) -> Outcome:
        """An ending rule's result with every seat's place, in a game that gives places."""
        if state.places is None:
            return outcome
        final = final_places(state.places, outcome.winner)
        return outcome._replace(winner=first_of(final), places=final)

    def mid_turn(state: State) -> bool:
        """Between the two parts of a turn (``then``): the end rules wait for the turn to be complete."""
        return two_parts and state.last != NO_CELL

    def decided(state: State, moves: Callable[[], list]) -> Outcome | None:
        """The result the end rules (and places) give ``state``, or ``None`` while it goes on; ``moves()``
        is asked only by conditions that need the moves."""
        if placings is not None and (placed := placings.outcome(state)) is not None:
            return placed
        for (condition, decide, _), reason, ref in zip(end_rules, reasons, fired):
            if mid_turn(state):
                break
            if condition(state, moves):
                winner = decide(state) if decide is not None else None
                if misere and winner is not None:
                    winner = opponent[winner]
                return ranked(state, Outcome(winner, reason, ref))
        return None

    def status(state: State) -> tuple[list[Move], Outcome | None]:
        generated: list[list[Move]] = []

        def moves() -> list[Move]:
            if not generated:
                generated.append(legal(state))
            return generated[0]

        verdict = decided(state, moves)
        if verdict is not None:
            return [], verdict
        found = moves()
        if not found:
            return [], ranked(state, Outcome(None, "no legal moves"))
        return found, None

    has_moves = legality.has_moves

    def outcome(state: State) -> Outcome | None:
        """``status(state)[1]``, asking only whether a move exists (not which) where the rules allow."""
        known: list[bool] = []

        def moves() -> list[bool]:
            if not known:
                known.append(has_moves(state))
            return [True] if known[0] else []

        verdict = decided(state, moves)
        if verdict is not None:
            return verdict
        if not moves():
            return ranked(state, Outcome(None, "no legal moves"))
        return None

    evaluate_stmt = active.first(m.Evaluate)
    features = evaluate_stmt.features if evaluate_stmt else SCORED_EVALUATION if scores else DEFAULT_EVALUATION
    evaluate_fn = compile_evaluation(features, tables, legality.mobility, legality.threats, start_board_text)

    compiled = CompiledPlay(active, tables, options, start_board_text, EMPTY, misere, reasons, fired)
    compiled.features = features  # the kernel's search evaluates them on bitboards
    compiled.mobility = legality.mobility  # the evaluation's count of a player's moves (tests hold the kernel's to it)

    format_move, parse_move_against = move_codec(tables, active.first(m.Notation).parts
                                                 if active.first(m.Notation) else ("from", "-", "to"),
                                                 promotion_suffix(active, tables))

    def parse_move(state: State, text: str) -> Move:
        return parse_move_against(state, text, lambda s: status(s)[0])

    def checked_parse(text: str) -> State:
        try:
            return parse_position(text)
        except SizeMismatch as error:
            error.implied_options = _implied_options(active.first(m.Board), error.implied_size)
            raise

    around = board_in_position(tables, fields)

    def parse_board(text: str) -> str:
        return checked_parse(around(text)).board

    players = tuple(Player(n, s, i) for i, (n, s) in enumerate(zip(tables.player_names, tables.player_symbols)))
    return Game(
        title=title_stmt.title if title_stmt else resolved.path,
        options=dict(options),
        players=players,
        geometry=geometry,
        empty=EMPTY,
        piece_names={s: (tables.kind[s], o) for s, o in tables.owner.items()},
        _initial=initial,
        _status=status,
        _apply=apply,
        _evaluate=evaluate_fn,
        _parse_position=checked_parse,
        _format_position=format_position,
        _format_move=format_move,
        _parse_move=parse_move,
        _parse_board=parse_board,
        source=resolved.path,
        resolved=resolved,
        _compiled=compiled,
        _outcome=outcome,
        _scores=scores,
        counted=tables.counted,
        hand_kinds=tables.hand_kinds,
        style=active.first(m.Style).what if active.first(m.Style) else "",
        drawn=drawn_segments(geometry, active.first(m.DrawnLines)),
        outlined=outlined_rectangles(tables),
        _links=(lambda state: tables.linking.pairs(state.links)) if tables.linking is not None else None,
    )


def outlined_rectangles(tables: Tables) -> tuple[tuple[int, int, int, int], ...]:
    """The rectangles a picture of the board outlines: the blocks ``turn`` turns and the small boards."""
    found = list(tables.blocks.values())
    nest = tables.nest
    if nest is not None:
        for cells in nest.cells:  # type: ignore[attr-defined]
            xs = [tables.geometry.cells[c].x for c in cells]
            ys = [tables.geometry.cells[c].y for c in cells]
            found.append((min(xs), min(ys), max(xs), max(ys)))
    return tuple(found)


def _implied_options(board: m.Board, implied: tuple[int, ...]) -> dict[str, int]:
    """Options to set so that the board has the implied size (bare option names only)."""
    out: dict[str, int] = {}
    for expr, value in zip(board.size, implied):
        if not isinstance(expr, m.NameRef) or out.get(expr.name, value) != value:
            return {}
        out[expr.name] = value
    return out if len(implied) == len(board.size) else {}


def _reason(resolved: Resolved, rule: m.EndRule) -> str:
    """The end rule's condition as written, for announcing a result."""
    span = rule.condition.span
    if span.line and span.line == span.end_line:
        line = resolved.source_line(span)
        if line:
            return line[span.column - 1:span.end_column - 1].strip()
    return f"end rule at line {rule.span.line}"


def _start_state(start, tables: Tables, options: Mapping[str, Value],
                 parse_position: Callable[[str], State], keeps_history: bool) -> State:
    if start is None:
        raise PositionError("this game has no start position for these options; give one with --position")
    if isinstance(start, m.StartPosition):
        try:
            return parse_position(start.text)
        except PositionError as error:
            raise PositionError(f"start position does not fit the board: {error}", start.span) from None
    hand = tables.hand_starts * len(tables.player_names) if tables.hand_kind is not None else None
    return State(start_board(start, tables, options), 0, NO_CELL, frozenset() if keeps_history else None, -1, 0, hand)

