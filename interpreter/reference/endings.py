"""End rules compiled to closures over a state.

A condition is ``cond(state, moves) -> value`` where ``moves()`` generates the
legal moves lazily (only ``no moves`` needs them). Players are named from the
position's point of view: ``mover`` made the last ply, ``opponent`` is the
other player; declared player names are fixed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import BINARY, ExprError, Value, evaluate
from rulesdsl.interpreter.compile.cells import cells_holding
from rulesdsl.interpreter.compile.game import NO_CELL, Move, State
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.reference import connections, nested, places
from rulesdsl.interpreter.reference.counts import count_of
from rulesdsl.interpreter.reference.groups import area_scorer
from rulesdsl.interpreter.reference.linking import connected_by_links
from rulesdsl.interpreter.reference.marks import repetitions
from rulesdsl.interpreter.reference.passing import board_repeated
from rulesdsl.interpreter.reference.piece_counts import attacked_count, in_region, region_count
from rulesdsl.interpreter.reference.walls import reaches_far_row

MovesThunk = Callable[[], list[Move]]
Condition = Callable[[State, MovesThunk], Value]
PlayerOf = Callable[[State], int]


class EndRulesError(RulesdslError):
    """An end rule that cannot be evaluated in a position."""


def mover_of(tables: Tables) -> PlayerOf:
    """The player who made the last ply (the player to move, in a go-again turn).

    Where players take places (reference/places.py) the turn skips placed seats, so the mover is the
    nearest seat before the player to move that still plays.
    """
    previous = tables.seats.previous_player
    if tables.nest is not None:  # 'last' is the last placement's cell: every turn is one ply
        return lambda state: previous[state.turn]
    if tables.placing:
        return places.mover_skipping(previous)
    return lambda state: state.turn if state.last != NO_CELL else previous[state.turn]


def player_ref(name: str, tables: Tables) -> PlayerOf:
    """A function giving the player a name refers to in a state."""
    mover = mover_of(tables)
    if name == "mover":
        return mover
    if name == "opponent":
        opponent = tables.seats.opponent
        if tables.placing:
            return places.next_playing(opponent, mover)
        return lambda state: opponent[mover(state)]
    index = tables.bound_seat if name == places.EACH_SEAT else tables.player_index(name)
    return lambda state: index


class ConditionCompiler(m.ExprVisitor):
    """Turns end-rule expressions into closures: one ``visit_<Node>`` per kind of node."""

    # The functions _call compiles: those of rulesdsl.vocabulary.FUNCTIONS (tests/test_vocabulary.py).
    FUNCTIONS = ("count", "lost", "total", "score", "area", "attacked")

    def __init__(self, tables: Tables, options: Mapping[str, Value], start_board: Callable[[], str],
                 nobody_moves: Callable[[State], bool]):
        self.tables = tables
        self.options = options
        self.start_board = start_board
        self.nobody_moves = nobody_moves
        self._start_counts: dict[tuple[int, str | None], int] = {}

    def start_count(self, player: int, kind: str | None) -> int:
        """How many such pieces the start position has (for ``lost``)."""
        key = (player, kind)
        if key not in self._start_counts:
            board = self.start_board()
            syms = self.tables.symbols_of(player, kind)
            held = sum(n for k, n in zip(self.tables.hand_kinds, self.tables.hand_starts) if kind in (None, k))
            self._start_counts[key] = held + sum(board.count(s) for s in syms)
        return self._start_counts[key]

    def counter(self, who: str, kind: str | None) -> Callable[[State], tuple[int, int]]:
        """``state -> (player, pieces on board)`` for ``count``/``lost``."""
        ref = player_ref(who, self.tables)
        by_player = [tuple(self.tables.symbols_of(p, kind)) for p in range(len(self.tables.player_names))]
        kinds = self.tables.hand_kinds
        slots = [k for k, held in enumerate(kinds) if kind in (None, held)]
        if slots:  # pieces in hand count too
            def count_with_hand(state: State) -> tuple[int, int]:
                player = ref(state)
                board = state.board
                base = player * len(kinds)
                held = sum(state.hand[base + k] for k in slots) if state.hand is not None else 0
                return player, held + sum(board.count(s) for s in by_player[player])

            return count_with_hand

        def count(state: State) -> tuple[int, int]:
            player = ref(state)
            board = state.board
            return player, sum(board.count(s) for s in by_player[player])

        if all(len(syms) == 1 for syms in by_player):  # one symbol each: no generator needed
            single = [syms[0] for syms in by_player]

            def count(state: State) -> tuple[int, int]:  # noqa: F811
                player = ref(state)
                return player, state.board.count(single[player])

        return count

    def compile(self, expr: m.Expr) -> Condition:
        """The closure for one expression."""
        return self.visit(expr)

    def generic_visit(self, expr: m.Expr) -> Condition:
        """A node without a compiled form: an error, never a guess."""
        raise RulesdslError(f"no compiled form for the condition {type(expr).__name__}", expr.span)

    def visit_Literal(self, expr: m.Literal) -> Condition:
        value = expr.value
        return lambda state, moves: value

    def visit_NameRef(self, expr: m.NameRef) -> Condition:
        value = self.options[expr.name]
        return lambda state, moves: value

    def visit_Unary(self, expr: m.Unary) -> Condition:
        inner = self.compile(expr.operand)
        if expr.op == "not":
            return lambda state, moves: not inner(state, moves)
        return lambda state, moves: -inner(state, moves)

    def visit_Logic(self, expr: m.Logic) -> Condition:
        items = [self.compile(item) for item in expr.items]
        if expr.op == "and":
            return lambda state, moves: all(f(state, moves) for f in items)
        return lambda state, moves: any(f(state, moves) for f in items)

    def visit_Binary(self, expr: m.Binary) -> Condition:
        left, right = self.compile(expr.left), self.compile(expr.right)
        if expr.op in ("/", "%"):
            where = expr.span

            def divide(state: State, moves: MovesThunk) -> int:
                a, b = left(state, moves), right(state, moves)
                if isinstance(a, float) or isinstance(b, float):
                    raise EndRulesError(f"'{expr.op}' divides whole numbers only", where)
                if b == 0:
                    raise EndRulesError("division by zero in this position", where)
                return a // b if expr.op == "/" else a % b

            return divide
        op = BINARY[expr.op]
        return lambda state, moves: op(left(state, moves), right(state, moves))

    def visit_Call(self, expr: m.Call) -> Condition:
        if expr.function not in self.FUNCTIONS:
            raise RulesdslError(f"no compiled form for the function {expr.function!r}", expr.span)
        if expr.function == "total":
            return region_total(player_ref(expr.args[0], self.tables), self.tables, expr.args[1])
        if expr.function == "score":  # the scores are compiled after the conditions: read them when asked
            ref, tables, where = player_ref(expr.args[0], self.tables), self.tables, expr.span

            def score(state: State, moves: MovesThunk) -> int:
                if tables.score_of is None:
                    raise EndRulesError("score() needs a 'score' statement", where)
                return tables.score_of(state)[ref(state)]

            return score
        if expr.function == "attacked":
            return attacked_count(self.tables, player_ref(expr.args[0], self.tables), expr.args[1])
        if expr.function == "count" and (expr.args[0] not in ("mover", "opponent", places.EACH_SEAT,
                                                              *self.tables.player_names)
                                         or in_region(self.tables, expr.args)):
            return region_count(self.tables, expr.args, lambda name: player_ref(name, self.tables))
        who = expr.args[0]
        kind = expr.args[1] if len(expr.args) > 1 else None
        if expr.function == "area":
            ref, area = player_ref(who, self.tables), self._area()
            return lambda state, moves: area(state.board, ref(state))
        count = self.counter(who, kind)
        if expr.function == "count":
            return lambda state, moves: count(state)[1]

        def lost(state: State, moves: MovesThunk) -> int:
            player, now = count(state)
            return self.start_count(player, kind) - now

        return lost

    def visit_NoMoves(self, expr: m.NoMoves) -> Condition:
        return lambda state, moves: not moves()

    def visit_NobodyMoves(self, expr: m.NobodyMoves) -> Condition:
        nobody = self.nobody_moves
        return lambda state, moves: nobody(state)

    def visit_HasNone(self, expr: m.HasNone) -> Condition:
        count = self.counter(expr.player, None if expr.kind == "pieces" else expr.kind)
        return lambda state, moves: count(state)[1] == 0

    def _pieces(self, who: str, kind: str) -> Callable[[State], tuple[int, list[int]]]:
        ref = player_ref(who, self.tables)
        by_player = [self.tables.symbols_of(p, kind) for p in range(len(self.tables.player_names))]

        def cells(state: State) -> tuple[int, list[int]]:
            player = ref(state)
            return player, cells_holding(state.board, by_player[player])

        return cells

    def visit_Beyond(self, expr: m.Beyond) -> Condition:
        mine = self._pieces(expr.player, expr.kind)
        theirs = self._pieces(expr.other, expr.other_kind)
        cells = self.tables.geometry.cells
        # each cell's distance along each player's forward direction
        ahead = {p: [c.x * fx + c.y * fy for c in cells] for p, (fx, fy) in self.tables.forward.items()}

        def beyond(state: State, moves: MovesThunk) -> bool:
            player, own = mine(state)
            if not own:
                return False
            far = ahead[player]
            _, others = theirs(state)
            best = max(far[c] for c in own)
            return all(far[c] < best for c in others)

        return beyond

    def visit_InARow(self, expr: m.InARow) -> Condition:
        ref = player_ref(expr.player, self.tables)
        by_player = [self.tables.symbols_of(p) for p in range(len(self.tables.player_names))]
        length = evaluate(expr.length, self.options)
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            shown = str(length).lower() if isinstance(length, bool) else length
            raise ExprError(expr.length.span, f"a row has at least 1 piece, but this is {shown} with these options",
                            "E072")
        lines = straight_lines(self.tables, length)
        starting = [[] for _ in range(self.tables.cell_count)]  # the lines that start at each cell
        for line in lines:
            starting[line[0]].append(line[1:])
        # A line whose cells are evenly spaced in the board string (any line of a full grid) is one
        # slice of it: with one symbol per player, the line is the player's when the slice is all that symbol.
        sliced: list[list[slice] | None] = [[] for _ in range(self.tables.cell_count)]
        for line in lines:
            step = line[1] - line[0] if len(line) > 1 else 1
            parts = sliced[line[0]]
            if parts is None:
                continue
            if step and all(b - a == step for a, b in zip(line, line[1:])):  # the same cells, in either order
                low, high = min(line[0], line[-1]), max(line[0], line[-1])
                parts.append(slice(low, high + 1, abs(step)))
            else:
                sliced[line[0]] = None
        single = [next(iter(syms)) * len(lines[0]) if len(syms) == 1 and lines else None for syms in by_player]

        def in_a_row(state: State, moves: MovesThunk) -> bool:
            player = ref(state)
            mine = by_player[player]
            board = state.board
            run = single[player]
            for c in cells_holding(board, mine):  # a line of mine starts on one of my pieces
                if run is not None and sliced[c] is not None:
                    for part in sliced[c]:
                        if board[part] == run:
                            return True
                    continue
                for rest in starting[c]:
                    if all(board[x] in mine for x in rest):
                        return True
            return False

        return in_a_row

    def visit_QuietPlies(self, expr: m.QuietPlies) -> Condition:
        return lambda state, moves: state.quiet

    def visit_PliesSince(self, expr: m.PliesSince) -> Condition:
        return lambda state, moves: state.quiet

    def visit_Repetitions(self, expr: m.Repetitions) -> Condition:
        return lambda state, moves: repetitions(state)

    def visit_TurnsPlayed(self, expr: m.TurnsPlayed) -> Condition:
        return lambda state, moves: state.turns

    def visit_PassesInARow(self, expr: m.PassesInARow) -> Condition:
        return lambda state, moves: state.passes

    def visit_BoardRepeated(self, expr: m.BoardRepeated) -> Condition:
        return lambda state, moves: board_repeated(state)

    def _area(self) -> Callable[[str, int], int]:
        """One area scorer for every ``area(...)`` of the game (it keeps the last board's scores)."""
        if not hasattr(self, "_area_scorer"):
            self._area_scorer = area_scorer(self.tables)
        return self._area_scorer

    def visit_Connects(self, expr: m.Connects) -> Condition:
        ref = player_ref(expr.player, self.tables)
        tables = self.tables
        first, goal = (board_side(tables.geometry, side.name) for side in expr.sides)
        goal_set = frozenset(goal)
        players = range(len(tables.player_names))
        symbols = [tables.symbols_of(p) for p in players]
        along = expr.along or (m.DirRef(expr.span, "all"),)
        steps = [[tables.neighbours(v) for v in tables.vectors(along, p)] for p in players]

        linking = tables.linking
        if expr.links:
            if linking is None:
                raise RulesdslError("'connects ... by links' needs a 'link' statement", expr.span)

            def by_links(state: State, moves: MovesThunk) -> bool:
                return connected_by_links(linking, state.board, state.links, symbols[ref(state)], first, goal_set)

            return by_links

        def connects(state: State, moves: MovesThunk) -> bool:
            player = ref(state)
            board, mine, tables_of = state.board, symbols[player], steps[player]
            stack = [c for c in first if board[c] in mine]
            seen = set(stack)
            while stack:
                cell = stack.pop()
                if cell in goal_set:
                    return True
                for table in tables_of:
                    nxt = table[cell]
                    if nxt >= 0 and nxt not in seen and board[nxt] in mine:
                        seen.add(nxt)
                        stack.append(nxt)
            return False

        return connects

    def visit_OneGroup(self, expr: m.OneGroup) -> Condition:
        ref = player_ref(expr.player, self.tables)
        tables = self.tables
        players = range(len(tables.player_names))
        by_player = [tables.symbols_of(p) for p in players]
        along = expr.directions or (m.DirRef(expr.span, "all"),)
        cells_range = range(len(tables.geometry.cells))
        around_of = []
        for p in players:  # per player: relative directions may differ
            tabs = [tables.neighbours(v) for v in tables.vectors(along, p)]
            around_of.append([tuple(t[c] for t in tabs if t[c] >= 0) for c in cells_range])

        def one_group(state: State, moves: MovesThunk) -> bool:
            player = ref(state)
            mine, around = by_player[player], around_of[player]
            board = state.board
            cells = [c for c, s in enumerate(board) if s in mine]
            if not cells:
                return False
            seen = {cells[0]}
            todo = [cells[0]]
            while todo:
                for n in around[todo.pop()]:
                    if n not in seen and board[n] in mine:
                        seen.add(n)
                        todo.append(n)
            return len(seen) == len(cells)

        return one_group

    def visit_Joins(self, expr: m.Joins) -> Condition:
        ref = player_ref(expr.player, self.tables)
        by_player = [self.tables.symbols_of(p) for p in range(len(self.tables.player_names))]
        wanted = evaluate(expr.count, self.options)
        if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 1:
            raise ExprError(expr.count.span, f"a group joins at least 1 of the board's {expr.what}, but this is "
                            f"{wanted} with these options", "E152")
        outline = self.outline()
        there = sum(outline.corner) if expr.what == "corners" else outline.edges
        if wanted > there:
            raise ExprError(expr.count.span, f"this board has {there} {expr.what}: no group can join {wanted}",
                            "E152")
        test = connections.joins(outline, expr.what)
        return lambda state, moves: test(state.board, by_player[ref(state)], wanted)

    def visit_BoardsInARow(self, expr: m.BoardsInARow) -> Condition:
        ref = player_ref(expr.player, self.tables)
        nest = self.tables.nest
        if nest is None:
            raise ExprError(expr.span, "'in a row of boards' needs small boards: add e.g. 'boards 3 x 3 won by 3 "
                            "in a row'", "E153")
        length = evaluate(expr.length, self.options)
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise ExprError(expr.length.span, f"a row has at least 1 board, but this is {length} with these "
                            "options", "E072")
        symbols = [self.tables.symbols_of(p) for p in range(len(self.tables.player_names))]
        test = nested.boards_in_a_row(nest, symbols, length)
        return lambda state, moves: test(state.board, ref(state))

    def visit_Ring(self, expr: m.Ring) -> Condition:
        ref = player_ref(expr.player, self.tables)
        by_player = [self.tables.symbols_of(p) for p in range(len(self.tables.player_names))]
        test = connections.ring(self.outline())
        return lambda state, moves: test(state.board, by_player[ref(state)])

    def outline(self) -> connections.Outline:
        """The board's border, corners and edges (worked out once)."""
        if getattr(self, "_outline", None) is None:
            self._outline = connections.board_outline(self.tables.geometry)
        return self._outline
    def visit_ReachesFarRow(self, expr: m.ReachesFarRow) -> Condition:
        if expr.player not in ("mover", "opponent", *self.tables.player_names):
            return lambda state, moves: True  # a seat empty for these options: no pieces, nothing to cut off
        return reaches_far_row(self.tables, player_ref(expr.player, self.tables), expr.span)

    def visit_OnFarRow(self, expr: m.OnFarRow) -> Condition:
        ref = player_ref(expr.player, self.tables)
        by_player = [self.tables.symbols_of(p, expr.kind) for p in range(len(self.tables.player_names))]
        far = {p: tuple(c.index for c in self.tables.geometry.cells if self.tables.geometry.step(c.index, v) < 0)
               for p, v in self.tables.forward.items()}

        def on_far_row(state: State, moves: MovesThunk) -> bool:
            player = ref(state)
            syms, board = by_player[player], state.board
            return any(board[c] in syms for c in far.get(player, ()))

        return on_far_row

    def visit_Fills(self, expr: m.Fills) -> Condition:
        ref = player_ref(expr.player, self.tables)
        count = len(self.tables.player_names)
        per_player = self.tables.regions.get(expr.region, (frozenset(),) * count)
        cells = [tuple(sorted(per_player[p])) for p in range(count)]
        syms = [self.tables.symbols_of(p) for p in range(count)]

        def fills(state: State, moves: MovesThunk) -> bool:
            if state.last != NO_CELL:
                return False  # a turn still open has not filled anything yet
            player = ref(state)
            board, mine = state.board, syms[player]
            return bool(cells[player]) and all(board[c] in mine for c in cells[player])

        return fills


def region_total(ref: PlayerOf, tables: Tables, region: str) -> Condition:
    """``total(PLAYER REGION)``: the counted pieces on PLAYER's cells of REGION (an ordinary piece counts 1)."""
    if region not in tables.regions:
        raise RulesdslError(f"total(): no region {region!r} holds for these options")
    per_player = [tuple(sorted(cells)) for cells in tables.regions[region]]
    empty = tables.empty

    def total(state: State, moves: MovesThunk) -> int:
        board = state.board
        return sum(count_of(board[c]) or (board[c] != empty) for c in per_player[ref(state)])

    return total


def board_side(geometry, side: str) -> list[int]:
    """The cells of a side: the highest (``top``) or lowest (``bottom``) cell of each column, the first
    (``left``) or last (``right``) cell of each row."""
    line = {}
    for cell in geometry.cells:
        key, value = (cell.x, cell.y) if side in ("top", "bottom") else (cell.y, cell.x)
        best = line.get(key)
        if best is None or (value > best[0] if side in ("top", "right") else value < best[0]):
            line[key] = (value, cell.index)
    return sorted(index for _, index in line.values())



def straight_lines(tables: Tables, length: int) -> list[tuple[int, ...]]:
    """Every run of ``length`` cells in a straight line along the board's directions."""
    geometry = tables.geometry
    axes: list[tuple[int, int]] = []
    for name in geometry.direction_sets["all"]:
        vector = geometry.directions[name]
        if (-vector[0], -vector[1]) not in axes:
            axes.append(vector)
    lines = []
    for cell in geometry.cells:
        for vector in axes:
            line = [cell.index]
            while len(line) < length and line[-1] >= 0:
                line.append(geometry.step(line[-1], vector))
            if length >= 1 and line[-1] >= 0:
                lines.append(tuple(line))
    return lines


def best_score(scores: Callable[[State], tuple[int, ...]] | None, rule: m.EndRule) -> Callable[[State], int | None]:
    """``best score wins``: the player with the highest score (``loses``: the lowest); a tie is a draw."""
    if scores is None:
        raise RulesdslError("'best score' needs a 'score' statement giving each player's score", rule.span)
    sign = 1 if rule.result == "wins" else -1

    def decide(state: State) -> int | None:
        points = [sign * p for p in scores(state)]
        best = max(points)
        return points.index(best) if points.count(best) == 1 else None

    return decide


def compile_end_rules(end: m.End | None, compiler: ConditionCompiler, tables: Tables,
                      scores: Callable[[State], tuple[int, ...]] | None = None):
    """``[(condition, decide(state) -> winner or None)]`` in the file's order."""
    compiled = []
    opponent = tables.seats.opponent
    for rule in end.rules if end else ():
        if rule.result in places.PLACINGS:
            continue  # compiled by reference/places.py: the game goes on
        condition = compiler.compile(rule.condition)
        if rule.by_score:
            compiled.append((condition, best_score(scores, rule), rule))
            continue
        if rule.result == "draw":
            compiled.append((condition, None, rule))
            continue
        ref = player_ref(rule.player or "mover", tables)
        if rule.result == "wins":
            compiled.append((condition, ref, rule))
        else:
            compiled.append((condition, (lambda r: lambda state: opponent[r(state)])(ref), rule))
    return compiled
