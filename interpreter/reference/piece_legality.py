"""The rules about a piece's past and about attacks, joined to a game's legal moves in one place.

:mod:`rulesdsl.interpreter.reference.legality` asks this for the moves of the rules that
read the whole state (:mod:`~rulesdsl.interpreter.reference.piece_moves`), the promotion
choices, the moves ``forbid leaving KIND attacked`` leaves, and the marks a
move leaves behind (:mod:`~rulesdsl.interpreter.reference.marks`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rulesdsl import model as m
from rulesdsl.errors import PositionError
from rulesdsl.expr import Value
from rulesdsl.interpreter.compile.game import NO_CELL, Move, State
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.reference.attacks import Attacks
from rulesdsl.interpreter.reference.marks import MarkBook, uses_marks
from rulesdsl.interpreter.reference.piece_moves import asks_piece, choice_expander, compile_piece_rule
from rulesdsl.interpreter.reference.promotion_zones import zone_expander


def board_after(board: str, move: Move) -> str:
    """The board with a move's changes written."""
    cells = list(board)
    for index, sym in move.changes:
        cells[index] = sym
    return "".join(cells)


class PieceRules:
    """What a game's piece conditions, attacks, promotion choices and marks add to its legal moves."""

    def __init__(self, active, tables: Tables, options: Mapping[str, Value], rules: list[m.MoveRule],
                 start_board: Callable[[], str],
                 generate: Callable[[list[m.MoveRule], int], Callable[[str], list[Move]]]):
        self.tables = tables
        nplayers = len(tables.player_names)
        self.regions = tables.regions
        plain = [r for r in rules if not r.from_hand]
        self.attacks = Attacks(plain, tables, self.regions, generate)
        tables.attacks = self.attacks
        self._start_board = start_board
        self._book: MarkBook | None = None
        self._finding = False
        self.has_book = uses_marks(active)
        self._active = active
        self._options = options
        self.own = [r for r in plain if r.when is None and asks_piece(r)]
        self.generators = [[compile_piece_rule(r, tables, p, self.regions, self, self.attacks) for r in self.own]
                           for p in range(nplayers)]
        self.expand = choice_expander(active, tables)
        self.zones = zone_expander(active, tables)
        self.protected = [f.kind for f in active.all(m.Forbid) if f.what == "leaving attacked"]
        self.royal = [frozenset(s for k in self.protected for s in tables.symbols_of(p, k)) for p in range(nplayers)]
        self.protects = bool(self.protected)
        resets = {e.kind for end in active.all(m.End) for rule in end.rules for e in m.walk(rule.condition)
                  if isinstance(e, m.PliesSince)}
        self.resets = resets
        self.active = bool(self.own or self.expand or self.zones or self.protects or self.has_book or resets)

    # -- the marks, found on the start board the first time they are needed ----------------------
    @property
    def book(self) -> MarkBook | None:
        """The rights and marks of the game, or ``None`` when its rules read none."""
        if not self.has_book:
            return None
        if self._book is None:
            if self._finding:
                raise PositionError("a start position string cannot say which pieces are unmoved: "
                                    "write the start as a layout (start { ... })")
            self._finding = True
            try:
                self._book = MarkBook(self._active, self.tables, self._start_board(), self._options, self.regions)
            finally:
                self._finding = False
        return self._book

    @property
    def index(self) -> dict[tuple[int, ...], int]:
        """Each right's bit (what :func:`compile_piece_rule` reads)."""
        book = self.book
        return book.index if book is not None else {}

    def generates(self, rule: m.MoveRule) -> bool:
        """True for a rule whose moves come from here, not from the board-only generators."""
        return asks_piece(rule)

    def more_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """``moves`` and the moves of the rules that read the whole state, with promotion choices."""
        extra: list[Move] = []
        for gen in self.generators[state.turn]:
            gen(state, extra)
        found = moves + extra if extra else moves
        if self.expand is not None:
            found = self.expand(state.board, state.turn, found)
        if self.zones is not None:
            found = self.zones(state.board, state.turn, found)
        return found

    def keep_safe(self, board: str, player: int, moves: list[Move]) -> list[Move]:
        """The moves after which no piece of a protected kind of ``player`` is attacked."""
        royal = self.royal[player]
        opponent = self.tables.seats.opponent[player]
        attacked = self.attacks.attacked
        kept = []
        for move in moves:
            after = board_after(board, move)
            if not any(attacked(after, c, opponent) for c, s in enumerate(after) if s in royal):
                kept.append(move)
        return kept

    def after(self, state: State, move: Move, new: State) -> State:
        """The position after ``move`` with its clock reset and marks written."""
        if self.resets and move.origin != NO_CELL and self.tables.kind.get(state.board[move.origin]) in self.resets:
            new = new._replace(quiet=0)
        book = self.book
        return book.after(state, move, new) if book is not None else new
