"""Move rules that ask about the piece and the position's past, as generators over a whole state.

A step or slide with ``from REGION``, ``unmoved``, ``safe``, ``bringing KIND``,
``passing``, ``exactly N``, ``taking KIND`` or the target ``passed`` is generated here (the
others by :mod:`rulesdsl.interpreter.reference.movegen`, which sees only the board).
Promotion to one of several kinds is :func:`choice_expander`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import NO_CELL, Move, State
from rulesdsl.interpreter.compile.regions import Regions
from rulesdsl.interpreter.compile.tables import Tables, first_step
from rulesdsl.interpreter.reference.attacks import Attacks
from rulesdsl.interpreter.reference.marks import Marks

StateGenerator = Callable[[State, list[Move]], None]


class RightsIndex(Protocol):
    """Where a rule finds each right's bit (:class:`~rulesdsl.interpreter.reference.marks.MarkBook`'s ``index``)."""

    @property
    def index(self) -> dict[tuple[int, ...], int]:
        """Each right (its cells) to its bit in ``Marks.rights``."""


def asks_piece(rule: m.MoveRule) -> bool:
    """True for a rule this module generates (a placement's ``in REGION`` is interpreter/reference/boxes.py's, a
    swap's interpreter/reference/swapping.py's)."""
    if rule.action in ("place", "sow", "swap"):
        return False
    return (rule.region is not None or rule.within is not None or rule.unmoved or rule.safe or rule.passing
            or rule.bringing is not None or rule.distance is not None or "passed" in rule.targets or rule.blocked
            or (rule.taking is not None and rule.over is None))


def compile_piece_rule(rule: m.MoveRule, tables: Tables, player: int, regions: Regions, book: RightsIndex,
                       attacks: Attacks) -> StateGenerator:
    """One such rule for one player: ``gen(state, out)`` appends its moves (``book.index``: each right's bit,
    read when first needed)."""
    movers = tables.symbols_of(player, rule.kind)
    theirs = tables.enemy_symbols(player)
    if rule.taking is not None:  # ``taking KIND``: only such enemy pieces are taken
        theirs = frozenset(s for s in theirs if tables.kind.get(s) == rule.taking)
    empty = tables.empty
    vectors = tables.vectors(rule.directions, player)
    rays = [tables.neighbours(v) for v in vectors]
    legs = [tables.neighbours(first_step(v)) if rule.blocked else None for v in vectors]
    sliding = rule.action == "slide"
    distance = rule.distance if sliding else 1
    targets = set(rule.targets or ("empty",))
    region = regions[rule.region][player] if rule.region is not None else None
    inside = regions[rule.within][player] if rule.within is not None else None
    brought = tables.symbols_of(player, rule.bringing) if rule.bringing is not None else None
    opponent = tables.seats.opponent[player]
    promoted = tables.promotions
    far = tables.far_cells(player) if promoted else frozenset()
    cells = range(tables.cell_count)
    found: list[dict[tuple[int, ...], int]] = []

    def held(marks: Marks, right: tuple[int, ...]) -> bool:
        if not found:
            found.append(book.index)
        bit = found[0].get(right)
        return bit is not None and bool(marks.rights >> bit & 1)

    def gen(state: State, out: list[Move]) -> None:
        board = state.board
        marks = state.marks or Marks()
        for c in cells:
            sym = board[c]
            if sym not in movers or (region is not None and c not in region):
                continue
            if rule.unmoved and brought is None and not held(marks, (c,)):
                continue
            if rule.safe and attacks.attacked(board, c, opponent):
                continue
            for ray, leg in zip(rays, legs):
                if leg is not None and leg[c] >= 0 and board[leg[c]] != empty and leg[c] != ray[c]:
                    continue  # the leap's way is blocked
                t, steps, passed = ray[c], 1, []
                while t >= 0:
                    there = board[t]
                    if distance is None or steps == distance:
                        put = promoted.get(sym, sym) if t in far else sym
                        _land(board, c, t, put, passed, marks, out)
                    if there != empty or (distance is not None and steps >= distance):
                        break
                    if rule.safe and attacks.attacked(board, t, opponent):
                        break
                    passed.append(t)
                    t, steps = ray[t], steps + 1

    def _land(board: str, c: int, t: int, put: str, passed: list[int], marks: Marks, out: list[Move]) -> None:
        """The move onto ``t``, if the targets allow it (``put``: the piece that lands)."""
        if inside is not None and t not in inside:
            return
        board_passed = tuple(passed) if rule.passing else ()
        there = board[t]
        if there == empty:
            victim = marks.passer
            if "passed" in targets and t in marks.passed and victim >= 0 and board[victim] in theirs:
                out.append(Move(c, t, ((c, empty), (t, put), (victim, empty)), rule.action, (c,), (victim,), 1))
                return
            if "empty" in targets:
                out.append(Move(c, t, ((c, empty), (t, put)), rule.action, (c,), passed=board_passed))
        elif there in theirs and "enemy" in targets:
            out.append(Move(c, t, ((c, empty), (t, put)), rule.action, (c,), (t,), 1))

    def _bring(board: str, ray: tuple[int, ...], c: int, t: int, passed: list[int], marks: Marks,
               out: list[Move]) -> None:
        """The mover lands on ``t``; the first piece beyond along the line must be a ``bringing`` piece."""
        u = ray[t]
        while u >= 0 and board[u] == empty:
            u = ray[u]
        if u < 0 or board[u] not in brought or (rule.unmoved and not held(marks, (c, u))):
            return
        dest = passed[-1] if passed else c
        companion = board[u]
        changes = ((c, empty), (u, empty), (t, board[c]), (dest, companion))
        out.append(Move(c, t, changes, rule.action, (c, u)))

    if brought is not None:  # the mover lands on an empty cell and the piece beyond comes along
        def gen_bringing(state: State, out: list[Move]) -> None:
            board = state.board
            marks = state.marks or Marks()
            for c in cells:
                if board[c] not in movers or (region is not None and c not in region):
                    continue
                if rule.safe and attacks.attacked(board, c, opponent):
                    continue
                for ray in rays:
                    t, steps, passed = ray[c], 1, []
                    while t >= 0 and board[t] == empty:
                        if distance is None or steps == distance:
                            _bring(board, ray, c, t, passed, marks, out)
                        if distance is not None and steps >= distance:
                            break
                        if rule.safe and attacks.attacked(board, t, opponent):
                            break
                        passed.append(t)
                        t, steps = ray[t], steps + 1

        return gen_bringing
    return gen


def choice_expander(active, tables: Tables) -> Callable[[str, int, list[Move]], list[Move]] | None:
    """``expand(board, player, moves)``: each move that lands a piece with a promotion choice on its far row
    becomes one move per kind it may become; ``None`` when no promotion offers a choice."""
    statements = [p for p in active.all(m.Promote) if p.choices and p.zone is None]
    if not statements:
        return None
    nplayers = len(tables.player_names)
    choices: list[dict[str, tuple[str, ...]]] = [{} for _ in range(nplayers)]
    for stmt in statements:
        for player in range(nplayers):
            sym = tables.symbol.get((player, stmt.kind))
            if sym is not None:
                choices[player][sym] = tuple(tables.symbol[(player, k)] for k in stmt.choices
                                             if (player, k) in tables.symbol)
    far = [tables.far_cells(p) for p in range(nplayers)]

    def expand(board: str, player: int, moves: list[Move]) -> list[Move]:
        mine, ends = choices[player], far[player]
        if not mine:
            return moves
        out = []
        for move in moves:
            sym = board[move.origin] if move.origin != NO_CELL else ""
            if sym in mine and move.target in ends:
                for new in mine[sym]:
                    out.append(move._replace(changes=tuple((c, new if c == move.target and s == sym else s)
                                                           for c, s in move.changes)))
            else:
                out.append(move)
        return out

    return expand


def promotion_suffix(active, tables: Tables) -> Callable[[str, Move], str] | None:
    """``suffix(board, move)``: the symbol a piece with a promotion choice becomes, written after the move."""
    kinds = {p.kind for p in active.all(m.Promote) if p.choices or p.zone is not None}
    if not kinds:
        return None

    def suffix(board: str, move: Move) -> str:
        if move.origin == NO_CELL:
            return ""
        sym = board[move.origin]
        if tables.kind.get(sym) not in kinds:
            return ""
        for cell, new in move.changes:
            if cell == move.target and new != sym:
                return new
        return ""

    return suffix
