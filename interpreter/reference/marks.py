"""What a position remembers of its past for the rules that ask: ``unmoved``, ``to passed``, ``repetitions``.

A game whose move rules say ``unmoved`` keeps *rights*: each is a set of
start cells (the mover's, and with ``bringing`` the piece brought along), held
while no move has changed any of them. A ``passing`` move leaves the cells it
passed open to ``to passed`` for one ply. ``repetitions`` counts the earlier
positions with the same board, player to move, rights and open cells.
All of it is a :class:`Marks` value in the state's ``marks`` field; games that
use none of these words keep ``None`` there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from rulesdsl import model as m
from rulesdsl.errors import PositionError
from rulesdsl.expr import evaluate
from rulesdsl.interpreter.compile.game import NO_CELL, PASS_ACTION, Move, State
from rulesdsl.interpreter.compile.tables import Tables

Key = tuple[str, int, int, tuple[int, ...]]


class Past:
    """The positions before this one, newest first, as a chain that grows in O(1) per ply."""

    __slots__ = ("key", "parent", "depth", "_hash")

    def __init__(self, key: Key, parent: Past | None):
        self.key, self.parent = key, parent
        self.depth = 1 + (parent.depth if parent is not None else 0)
        self._hash = hash((key, self.depth))

    def count(self, key: Key) -> int:
        """How many of these positions have ``key``."""
        found, node = 0, self
        while node is not None:
            found += node.key == key
            node = node.parent
        return found

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        a, b = self, other
        while a is not b:
            if not isinstance(a, Past) or not isinstance(b, Past) or a._hash != b._hash or a.key != b.key:
                return False
            a, b = a.parent, b.parent
        return True

    def __reduce__(self) -> tuple[object, tuple[list[Key]]]:
        """Pickled as its keys, oldest first, and rebuilt in a loop: a chain of a long game is deeper than
        Python's recursion limit, which pickling the nodes one inside the other would hit."""
        keys: list[Key] = []
        node: Past | None = self
        while node is not None:
            keys.append(node.key)
            node = node.parent
        keys.reverse()
        return past_of, (keys,)


def past_of(keys: list[Key]) -> Past | None:
    """The chain of ``keys`` (oldest first): its newest node, or ``None`` when there are none."""
    node: Past | None = None
    for key in keys:
        node = Past(key, node)
    return node


class Marks(NamedTuple):
    """Rights still held (a bit per right), the cells open to ``to passed`` and the piece that passed them,
    and the earlier positions (when ``repetitions`` is read)."""

    rights: int = 0
    passed: tuple[int, ...] = ()
    passer: int = NO_CELL
    past: Past | None = None


def uses_marks(active) -> bool:
    """True when the rules read anything a :class:`Marks` keeps."""
    moves = [r for block in (*active.all(m.Moves), *active.all(m.Then)) for r in block.rules]
    reads = any(r.unmoved or r.passing or "passed" in r.targets for r in moves)
    return reads or counts_repetitions(active)


def counts_repetitions(active) -> bool:
    """True when an end rule reads ``repetitions``."""
    return any(isinstance(node, m.Repetitions) for end in active.all(m.End) for rule in end.rules
               for node in m.walk(rule.condition))


def key_of(state: State) -> Key:
    """What makes two positions the same for ``repetitions``."""
    marks = state.marks or Marks()
    return (state.board, state.turn, marks.rights, marks.passed)


def repetitions(state: State) -> int:
    """How many times ``state``'s position has stood, this time included."""
    marks = state.marks
    if marks is None or marks.past is None:
        return 1
    return 1 + marks.past.count(key_of(state))


class MarkBook:
    """The rights of a game and how a move changes the marks, compiled once."""

    def __init__(self, active, tables: Tables, start: str, options: Mapping, regions: Mapping | None = None):
        self.tables = tables
        self.takers = _takers(active, tables, options, regions or {})
        self.repetitions = counts_repetitions(active)
        rules = [r for block in active.all(m.Moves) for r in block.rules if r.unmoved
                 and (r.guard is None or evaluate(r.guard, options))]
        rights: list[tuple[int, ...]] = []
        for rule in rules:
            for player in range(len(tables.player_names)):
                for right in _rights_of(rule, tables, player, start):
                    if right not in rights:
                        rights.append(right)
        self.rights = rights
        self.index = {right: i for i, right in enumerate(rights)}
        self.by_cell = [0] * tables.cell_count
        for i, right in enumerate(rights):
            for cell in right:
                self.by_cell[cell] |= 1 << i
        self._start_symbols = {c: start[c] for right in rights for c in right}

    def initial(self, state: State) -> State:
        """The start position with every right held (its pieces stand where the rights were found)."""
        return state._replace(marks=Marks(self.held_on(state.board)))

    def held_on(self, board: str) -> int:
        """The rights whose start pieces still stand on their cells on ``board`` (for a position without them)."""
        start = self._start_symbols
        held = 0
        for i, right in enumerate(self.rights):
            if all(board[c] == start[c] for c in right):
                held |= 1 << i
        return held

    def after(self, state: State, move: Move, new: State) -> State:
        """``new`` (the position after ``move``) with its marks."""
        marks = state.marks or Marks()
        rights = marks.rights
        for cell, _ in move.changes:
            rights &= ~self.by_cell[cell]
        if move.action == PASS_ACTION:
            passed, passer = (), NO_CELL
        else:
            passed, passer = move.passed, (move.target if move.passed else NO_CELL)
            if passed and not self._can_take(new.board, passed, new.turn):
                passed, passer = (), NO_CELL  # nobody could take in passing: nothing is open
        if new.turn == state.turn and new.last != NO_CELL:  # a turn that goes on keeps what it opened
            passed, passer = passed or marks.passed, passer if passed else marks.passer
        past = Past(key_of(state), marks.past) if self.repetitions else None
        return new._replace(marks=Marks(rights, passed, passer, past))

    def _can_take(self, board: str, cells: tuple[int, ...], player: int) -> bool:
        """True when a ``to passed`` rule of ``player`` reaches one of ``cells`` on ``board``."""
        empty = self.tables.empty
        for symbols, backs, sliding, region in self.takers[player]:
            for back in backs:
                for cell in cells:
                    s = back[cell]
                    while s >= 0:
                        if board[s] != empty:
                            if board[s] in symbols and (region is None or s in region):
                                return True
                            break
                        if not sliding:
                            break
                        s = back[s]
        return False

    # -- position fields -------------------------------------------------------------------------
    def parse_field(self, field: str, word: str, text: str, marks: Marks, turn: int) -> Marks:
        """``marks`` with one field of a position string read (``unmoved``, ``passed``)."""
        geometry = self.tables.geometry
        cells = [] if word in ("-", '""') else word.split(",")
        found = []
        for name in cells:
            index = geometry.index_of(name)
            if index is None:
                raise PositionError(f"bad position {text!r}: {name!r} in the {field} field is not a cell")
            found.append(index)
        if field == "unmoved":
            listed = set(found)
            held = 0
            for i, right in enumerate(self.rights):
                if listed.issuperset(right):
                    held |= 1 << i
            return marks._replace(rights=held)
        passer = NO_CELL
        if found:
            before = self.tables.seats.previous_player[turn]
            forward = self.tables.forward.get(before)
            passer = geometry.step(found[-1], forward) if forward is not None else NO_CELL
            if passer < 0:
                raise PositionError(f"bad position {text!r}: no piece can have passed {cells[-1]} (one step along "
                                    f"{self.tables.player_names[before]}'s forward leaves the board)")
        return marks._replace(passed=tuple(found), passer=passer)

    def format_field(self, field: str, state: State) -> str:
        """One field of a position string: ``unmoved`` or ``passed``."""
        marks = state.marks or Marks()
        names = [c.name for c in self.tables.geometry.cells]
        if field == "unmoved":
            cells = sorted({c for i, right in enumerate(self.rights) if marks.rights >> i & 1 for c in right})
        else:
            cells = list(marks.passed)
        return ",".join(names[c] for c in cells) or "-"


def _rights_of(rule: m.MoveRule, tables: Tables, player: int, start: str) -> list[tuple[int, ...]]:
    """The rights an ``unmoved`` rule has for ``player`` on the start board: a start cell of the moving kind,
    with the first piece of the ``bringing`` kind along each direction."""
    movers = tables.symbols_of(player, rule.kind)
    cells = [c for c in range(tables.cell_count) if start[c] in movers]
    if rule.bringing is None:
        return [(c,) for c in cells]
    brought = tables.symbols_of(player, rule.bringing)
    out = []
    for vector in tables.vectors(rule.directions, player):
        ray = tables.neighbours(vector)
        for c in cells:
            t = ray[c]
            while t >= 0 and start[t] == tables.empty:
                t = ray[t]
            while t >= 0 and start[t] not in brought:  # past other pieces: they may leave before the move
                t = ray[t]
            if t >= 0:
                out.append((c, t))
    return out


def _takers(active, tables: Tables, options: Mapping, regions: Mapping) -> list[list[tuple]]:
    """Per player, the rules that may land ``to passed``: (symbols, back rays, sliding, region)."""
    out: list[list[tuple]] = [[] for _ in tables.player_names]
    rules = [r for block in active.all(m.Moves) for r in block.rules if "passed" in r.targets
             and (r.guard is None or evaluate(r.guard, options))]
    for rule in rules:
        for player in range(len(tables.player_names)):
            backs = tuple(tables.neighbours((-x, -y)) for x, y in tables.vectors(rule.directions, player))
            region = regions[rule.region][player] if rule.region is not None else None
            out[player].append((tables.symbols_of(player, rule.kind), backs, rule.action == "slide", region))
    return out
