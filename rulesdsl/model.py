"""The typed model of a rule file. Every node carries the span it came from.

The builder (:mod:`rulesdsl.builder`) makes these from the syntax tree; the
checker reads them; the compiler turns them into a :class:`Game`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rulesdsl.errors import Span

# ---- expressions -------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    """Base of every expression node."""

    span: Span

    def children(self) -> tuple[Expr, ...]:
        """The sub-expressions, in source order (none for a leaf)."""
        return ()


def walk(expr: Expr) -> Iterator[Expr]:
    """``expr`` and every expression inside it, parents before children, in source order."""
    yield expr
    for child in expr.children():
        yield from walk(child)


class ExprVisitor:
    """One pass over expressions: :meth:`visit` calls ``visit_<Class>`` for the node's class.

    A node without such a method goes to :meth:`generic_visit`, which visits
    the children and returns ``None``; a pass that must handle every node
    overrides it to raise. This replaces ``isinstance`` ladders: a new node
    class is handled by adding one method where it matters.
    """

    def visit(self, expr: Expr) -> Any:
        """Dispatch on the node's class."""
        return getattr(self, "visit_" + type(expr).__name__, self.generic_visit)(expr)

    def generic_visit(self, expr: Expr) -> Any:
        """Visit the children (for nodes this pass has nothing to say about)."""
        for child in expr.children():
            self.visit(child)
        return None


@dataclass(frozen=True)
class Literal(Expr):
    """An integer, boolean or string constant."""

    value: int | float | bool | str  # a float only for a number written with a decimal part (7.5)


@dataclass(frozen=True)
class NameRef(Expr):
    """An option, or ``col``/``row`` inside a start layout."""

    name: str


@dataclass(frozen=True)
class Call(Expr):
    """``count(mover pawn)`` or ``lost(opponent)``: a piece count."""

    function: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Binary(Expr):
    """Arithmetic or comparison: ``left op right``."""

    op: str
    left: Expr
    right: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)


@dataclass(frozen=True)
class Logic(Expr):
    """``and`` / ``or`` over two or more operands."""

    op: str
    items: tuple[Expr, ...]

    def children(self) -> tuple[Expr, ...]:
        return self.items


@dataclass(frozen=True)
class Unary(Expr):
    """``not x`` or ``-x``."""

    op: str
    operand: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.operand,)


@dataclass(frozen=True)
class NoMoves(Expr):
    """True when the player to move has no legal move."""


@dataclass(frozen=True)
class NobodyMoves(Expr):
    """True when neither player has a legal move (a forced pass does not count)."""


@dataclass(frozen=True)
class HasNone(Expr):
    """``PLAYER has no KIND``."""

    player: str
    kind: str


@dataclass(frozen=True)
class Beyond(Expr):
    """``PLAYER has KIND beyond every OTHER KIND2`` (along PLAYER's forward)."""

    player: str
    kind: str
    other: str
    other_kind: str


@dataclass(frozen=True)
class InARow(Expr):
    """``PLAYER has N in a row``: N of the player's pieces in a line, along any board direction."""

    player: str
    length: Expr  # a number, or an option's name

    def children(self) -> tuple[Expr, ...]:
        return (self.length,)


@dataclass(frozen=True)
class OneGroup(Expr):
    """``PLAYER forms one group [along DIRS]``: all the player's pieces in one chain of neighbours."""

    player: str
    directions: tuple[DirRef, ...] = ()  # () : the board's own directions (all)


@dataclass(frozen=True)
class Joins(Expr):
    """``PLAYER joins N corners`` / ``PLAYER joins N edges``: one group of the player's pieces holds N of the
    board's corners, or touches N of its edges (a corner is no edge's)."""

    player: str
    count: Expr  # a number, or an option's name
    what: str  # "corners" or "edges"

    def children(self) -> tuple[Expr, ...]:
        return (self.count,)


@dataclass(frozen=True)
class BoardsInARow(Expr):
    """``PLAYER has N in a row of boards``: N small boards won by the player in a line of the big board."""

    player: str
    length: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.length,)


@dataclass(frozen=True)
class Ring(Expr):
    """``PLAYER forms a ring``: the player's pieces close a loop around at least one cell."""

    player: str


@dataclass(frozen=True)
class OnFarRow(Expr):
    """``PLAYER has KIND on far row``: a piece whose forward neighbour is off the board."""

    player: str
    kind: str


@dataclass(frozen=True)
class Fills(Expr):
    """``PLAYER fills REGION``: a turn has ended, and every cell of PLAYER's REGION holds a piece of PLAYER."""

    player: str
    region: str


@dataclass(frozen=True)
class ReachesFarRow(Expr):
    """``PLAYER can reach far row``: every piece of the player has a path of orthogonal steps to its far row
    through cells that hold no neutral piece (walls block it; pawns do not)."""

    player: str


@dataclass(frozen=True)
class QuietPlies(Expr):
    """``plies without capture``: how many plies were played since the last capture."""


@dataclass(frozen=True)
class PliesSince(QuietPlies):
    """``plies since KIND move or capture``: plies since the last capture or move of a piece of KIND."""

    kind: str = ""


@dataclass(frozen=True)
class Repetitions(Expr):
    """``repetitions``: how many times the position (board, player to move, rights, passed cell) has stood."""


@dataclass(frozen=True)
class TurnsPlayed(Expr):
    """``turns played``: how many turns have been played (a turn ends when the other player is to move)."""


@dataclass(frozen=True)
class PassesInARow(Expr):
    """``passes in a row``: how many passes were played in a row up to this position."""


@dataclass(frozen=True)
class BoardRepeated(Expr):
    """``board repeated``: the last move (not a pass) made a board seen earlier in the game."""


@dataclass(frozen=True)
class Connects(Expr):
    """``PLAYER connects SIDE and SIDE [along DIRS]``: a chain of the player's pieces, each next to the
    last along the directions (the board's own by default), joins the two sides of the board."""

    player: str
    sides: tuple[DirRef, DirRef]  # top, bottom, left or right, with their places
    along: tuple[DirRef, ...] = ()
    links: bool = False  # ``by links``: each piece of the chain linked to the next (``link KIND DIRS``)


# ---- statements --------------------------------------------------------------


@dataclass(frozen=True)
class Statement:
    """Base of every statement; ``guard`` includes it only when it holds."""

    span: Span
    guard: Expr | None = field(default=None, kw_only=True)

    @property
    def key(self) -> str:
        """Statements with equal keys override each other across ``extends``."""
        return type(self).__name__


@dataclass(frozen=True)
class GameTitle(Statement):
    title: str


@dataclass(frozen=True)
class Extends(Statement):
    target: str


@dataclass(frozen=True)
class OptionDecl(Statement):
    name: str
    default: Expr
    low: Expr | None = None
    high: Expr | None = None
    choices: tuple[str, ...] | None = None
    doc: str = ""

    @property
    def key(self) -> str:
        return f"option {self.name}"


@dataclass(frozen=True)
class PlayerDecl:
    span: Span
    name: str
    symbol: str


@dataclass(frozen=True)
class Players(Statement):
    players: tuple[PlayerDecl, ...]


@dataclass(frozen=True)
class RegionPart:
    """One player's cells of a region: those where ``where`` holds (it sees ``col``, ``row`` and the options)."""

    span: Span
    player: str
    where: Expr


@dataclass(frozen=True)
class Forward(Statement):
    """Each player's forward direction: ``forward white s, black n``."""

    pairs: tuple[tuple[str, str, Span], ...]


@dataclass(frozen=True)
class Board(Statement):
    """``board grid C x R [where EXPR]``: the lattice points of a shape (where EXPR holds on col, row)."""

    shape: str
    size: tuple[Expr, ...]
    where: Expr | None = None


@dataclass(frozen=True)
class Lines(Statement):
    """``lines a1 d1 g1, ...``: the drawn lines of a board of points; pieces move only along them."""

    lines: tuple[tuple[tuple[str, Span], ...], ...]  # each line: its points (name, place) in order


@dataclass(frozen=True)
class DrawnLines(Statement):
    """``drawn lines a1 i1, d1 f3, ...``: the lines pictures draw between points; moves do not follow them."""

    lines: tuple[tuple[tuple[str, Span], ...], ...]  # each line: its points (name, place) in order


@dataclass(frozen=True)
class Hand(Statement):
    """``hand KIND N[, KIND N ...]``: each player starts with N pieces of each KIND in hand, off the board."""

    kind: str
    count: Expr
    more: tuple[tuple[str, Expr], ...] = ()  # the further kinds of a hand of several kinds

    @property
    def parts(self) -> tuple[tuple[str, Expr], ...]:
        """Every (kind, count) of the hand, the first one first."""
        return ((self.kind, self.count), *self.more)


@dataclass(frozen=True)
class CapturedToHand(Statement):
    """``captured KIND, ... to hand [as KIND2]``: a captured piece of these kinds (``pieces``: any kind) joins
    the capturer's hand in the capturer's colour, as KIND2 when given (a promoted piece goes back as its
    base kind)."""

    kinds: tuple[str, ...]
    as_kind: str | None = None

    @property
    def key(self) -> str:
        return "captured " + ", ".join(self.kinds)


@dataclass(frozen=True)
class NamePartDecl:
    span: Span
    axis: str
    first: str | int
    from_end: bool
    end_word: str = ""  # "top" or "right", as written
    skip: str = ""  # a letter the labels leave out ("i" on a goban), or ""


@dataclass(frozen=True)
class CellNames(Statement):
    parts: tuple[NamePartDecl, ...]


@dataclass(frozen=True)
class PositionFormat(Statement):
    fields: tuple[str, ...]
    top_first: bool


@dataclass(frozen=True)
class Notation(Statement):
    parts: tuple[str, ...]  # "from", "to", or a literal text


@dataclass(frozen=True)
class DirRef:
    span: Span
    name: str


@dataclass(frozen=True)
class DirectionSet(Statement):
    name: str
    directions: tuple[DirRef, ...]

    @property
    def key(self) -> str:
        return f"directions {self.name}"


@dataclass(frozen=True)
class PieceDecl(Statement):
    kind: str
    symbols: tuple[tuple[str, str, Span], ...]  # (player, symbol, span); player "" for a neutral piece

    @property
    def neutral(self) -> bool:
        """A piece no player owns (``piece arrow "x"``): any player may place it."""
        return len(self.symbols) == 1 and self.symbols[0][0] == ""

    @property
    def key(self) -> str:
        return f"piece {self.kind}"


@dataclass(frozen=True)
class CellRef:
    span: Span
    name: str | None = None
    xy: tuple[Expr, Expr] | None = None


@dataclass(frozen=True)
class StartItem:
    """One line of a start layout: place a piece where/at, or empty cells."""

    span: Span
    kind: str | None  # None for "empty at"
    player: str | None
    where: Expr | None = None
    cells: tuple[CellRef, ...] = ()
    amount: Expr | None = None  # ``put N KIND in REGION``: N counted pieces on each cell of the region
    region: str | None = None  # ``put ... in REGION``, or ``KIND PLAYER in REGION``: the player's cells of it


@dataclass(frozen=True)
class StartPosition(Statement):
    text: str

    @property
    def key(self) -> str:
        return "start"


@dataclass(frozen=True)
class StartLayout(Statement):
    items: tuple[StartItem, ...]

    @property
    def key(self) -> str:
        return "start"


@dataclass(frozen=True)
class MoveRule(Statement):
    """``KIND ACTION DIRECTIONS [over WHO] [to WHAT or WHAT] [capture] [line A..B]``."""

    kind: str
    action: str
    directions: tuple[DirRef, ...]
    over: str | None = None
    targets: tuple[str, ...] = ()
    capture: bool = False
    line: tuple[int, int | None] | None = None
    falling: DirRef | None = None  # place: the piece falls this way until it rests
    flanking: tuple[DirRef, ...] = ()  # place: must outflank enemy runs along these, which flip
    by_line: bool = False  # slide: exactly as many cells as there are pieces on the line through the piece
    reach: str | None = None  # place from last: "step" or "slide" from the cell the turn continues from
    flying: bool = False  # jump: from any distance over empty cells, landing on any empty cell beyond
    from_hand: bool = False  # place from hand: the piece comes from the player's hand (``hand``)
    when: Expr | None = None  # only in positions where this condition holds (``when count(mover) == 3``)
    spared: Expr | None = None  # remove: pieces in this many in a row are spared, unless all are
    enclosing: tuple[DirRef, ...] = ()  # place: enemy groups (along these) left without liberties are removed
    custodial: tuple[DirRef, ...] = ()  # an enemy piece next to the landing cell, with a friend beyond, is removed
    hostile: tuple[tuple[str, Span], ...] = ()  # custodial: cells that act as a friend when empty
    custodial_runs: bool = False  # custodial ``of any length``: a whole run of enemy pieces may be caught
    distance: int | None = None  # slide: ``exactly N`` cells
    region: str | None = None  # ``from REGION``: only a piece standing in the region moves so; place ``in REGION``
    within: str | None = None  # ``within REGION``: only onto a cell of the region
    unmoved: bool = False  # ``unmoved``: only a piece that has not moved (nor its companion, with ``bringing``)
    safe: bool = False  # ``safe``: the piece's cell and the cells it passes are not attacked
    bringing: str | None = None  # ``bringing KIND``: the first piece beyond along the line comes along
    passing: bool = False  # ``passing``: the cells passed stay open to ``to passed`` for one ply
    blocked: bool = False  # ``blocked``: a leap is not made when its first step's cell holds a piece
    taking: str | None = None  # ``taking KIND``: a move onto an enemy piece takes only one of KIND
    option_spans: tuple[tuple[str, Span], ...] = ()
    enclose: Enclose | None = None  # place ... enclosing KIND in REGION [again]
    sow: Sow | None = None  # the sowing rule's track and effects
    blocks: tuple[tuple[str, Span], ...] = ()  # turn: the blocks it may turn (``turn nw, ne clockwise``)
    way: str = ""  # turn: "clockwise", "anticlockwise", "either way", "half round" or "over"
    sent: bool = False  # place in sent board: only in the small board the last placement sends to
    supply: bool = False  # build from hand: each wall comes from the player's hand, by choice (no phase)
    one_per_column: bool = False  # drop ... one per column: not in a column holding one of the mover's KIND


@dataclass(frozen=True)
class Enclose:
    """``enclosing KIND in REGION [again]``: after a placement, each empty cell of REGION next to it whose
    every neighbour is occupied gets the mover's KIND (with ``again``: the mover then moves again)."""

    span: Span
    kind: str
    region: str
    again: bool


@dataclass(frozen=True)
class Sow:
    """``sow KIND from REGION along TRACK [skipping REGION] [again in REGION] [capture DIR into REGION]``."""

    span: Span
    origin: str  # the mover's region sown from
    track: str
    skip: str | None = None  # the other players' cells of this region are passed over
    again_in: str | None = None  # the last seed in the mover's cell of this region: the mover moves again
    capture: DirRef | None = None  # the last seed alone in an own origin cell: take it and the cell this way
    into: str | None = None  # ... into the mover's (one) cell of this region


@dataclass(frozen=True)
class Region(Statement):
    """A named set of cells per player: ``region NAME where EXPR`` (the cells where EXPR holds on ``col``,
    ``row`` and ``rank``, the row counted from each player's own side) or ``region NAME PLAYER CELLS, ...``
    (each player's own cells) or ``region NAME PLAYER where EXPR, ...`` (each player's own condition)."""

    name: str
    where: Expr | None = None
    cells: tuple[tuple[str, tuple[tuple[str, Span], ...]], ...] = ()  # (player, cells) per player
    wheres: tuple[RegionPart, ...] = ()  # a player's own condition, per player

    @property
    def players(self) -> tuple[str, ...]:
        """The players this region names (none for ``region NAME where EXPR``, which serves every player)."""
        return tuple(p for p, _ in self.cells) + tuple(p.player for p in self.wheres)

    @property
    def key(self) -> str:
        return f"region {self.name}"


@dataclass(frozen=True)
class Track(Statement):
    """``track NAME CELLS``: a cyclic order of cells (sowing goes from each to the next, the last to the first)."""

    name: str
    cells: tuple[tuple[str, Span], ...]

    @property
    def key(self) -> str:
        return f"track {self.name}"


@dataclass(frozen=True)
class Counts(Statement):
    """``counts KIND``: a cell holds any number of KIND pieces (seeds), written as a number."""

    kind: str


@dataclass(frozen=True)
class Link(Statement):
    """``link KIND DIRS``: a KIND placed is linked to each of its owner's KIND a leap along DIRS away, unless
    the link would cross one already on the board."""

    kind: str
    directions: tuple[DirRef, ...]


@dataclass(frozen=True)
class Score(Statement):
    """``score PLAYER EXPR, ...``: each player's points, worked out from the position."""

    parts: tuple[tuple[str, Expr, Span], ...]


@dataclass(frozen=True)
class Block(Statement):
    """``rectangle NAME CELL..CELL``: the rectangle of cells between two opposite corners, which ``turn`` turns."""

    name: str
    corners: tuple[tuple[str, Span], tuple[str, Span]]

    @property
    def key(self) -> str:
        return f"rectangle {self.name}"


@dataclass(frozen=True)
class SmallBoards(Statement):
    """``boards W x H won by N in a row``: the board is tiled by small boards, each won by N in a row inside it."""

    width: Expr
    height: Expr
    line: Expr

    @property
    def key(self) -> str:
        return "boards"


@dataclass(frozen=True)
class Moves(Statement):
    rules: tuple[MoveRule, ...]


@dataclass(frozen=True)
class Then(Statement):
    """``then [after N in a row] { RULES }``: the second part of a turn, made from the cell the first
    part ended on (with ``after``: only when the first part's piece then stands in N in a row)."""

    rules: tuple[MoveRule, ...]
    after_row: Expr | None = None


@dataclass(frozen=True)
class Again(Statement):
    after: str | None
    same_piece: bool
    may_pass: bool
    chain: bool = False  # ``in one move``: a whole capture chain is one move
    same_direction: bool = False  # ``in same direction``: each continuation keeps the last jump's direction
    new_cells: bool = False  # ``to new cells``: no continuation lands where the piece stood this turn


@dataclass(frozen=True)
class Freeze(Statement):
    mode: str

    @property
    def key(self) -> str:
        return "freeze"


@dataclass(frozen=True)
class Forbid(Statement):
    what: str
    kind: str = ""  # ``forbid leaving KIND attacked``: the kind (what is "leaving attacked")

    @property
    def key(self) -> str:
        return f"forbid {self.what}"


@dataclass(frozen=True)
class Misere(Statement):
    pass


@dataclass(frozen=True)
class Promote(Statement):
    """``promote KIND to KIND2 on far row``: a piece that ends a move on its far row changes kind."""

    kind: str
    to_kind: str
    choices: tuple[str, ...] = ()  # ``to A, B, C``: the mover picks one (more than one kind)
    zone: str | None = None  # ``in REGION``: a move into, within or out of the mover's REGION may promote
    forced_in: str | None = None  # ``forced in REGION``: landing in the mover's REGION, it must

    @property
    def key(self) -> str:
        return f"promote {self.kind}"


@dataclass(frozen=True)
class MustCapture(Statement):
    """``must capture [most]``: when a capturing move exists, only capturing moves are legal
    (with ``most``: only those that take the most pieces)."""

    most: bool = False
    landing: bool = False  # ``by landing``: only a move that lands on an enemy piece obliges (not one in passing)


@dataclass(frozen=True)
class Keep(Statement):
    """``keep CONDITION``: a move is legal only if CONDITION holds on the board after it."""

    condition: Expr

    @property
    def key(self) -> str:
        return f"keep {self.span.file}:{self.span.line}"  # every keep applies, the parent's too


@dataclass(frozen=True)
class Style(Statement):
    """``style points``: how pictures draw the board (pieces on the points where lines cross)."""

    what: str


@dataclass(frozen=True)
class PassWhenStuck(Statement):
    """``pass when no moves``: a player without a legal move passes instead."""


@dataclass(frozen=True)
class EndRule:
    span: Span
    player: str | None  # None for a draw
    result: str  # "wins", "loses", "draw"; "finishes" or "out" (the player takes a place, the others play on)
    condition: Expr
    by_score: bool = False  # ``best score wins if``: the winner is the player with the highest score

@dataclass(frozen=True)
class End(Statement):
    rules: tuple[EndRule, ...]


@dataclass(frozen=True)
class Feature:
    span: Span
    name: str
    kind: str | None
    weight: float


@dataclass(frozen=True)
class Evaluate(Statement):
    features: tuple[Feature, ...]


class Setting(tuple):
    """An example's ``NAME = VALUE``: a ``(name, expr)`` pair that also knows where the name is."""

    span: Span

    def __new__(cls, name: str, expr: Expr, span: Span):
        pair = super().__new__(cls, (name, expr))
        pair.span = span
        return pair

    def __reduce__(self):
        """Pickled with its span (the cache of checked rule files keeps examples)."""
        return Setting, (self[0], self[1], self.span)


@dataclass(frozen=True)
class Example(Statement):
    """An inline test: a position (or the start), options, and what must hold."""

    name: str
    position: str | None
    settings: tuple[tuple[str, Expr], ...]
    expect: str  # "moves", "perft", "win", "draw", "ongoing", "places" (values: player, place, player, place...)
    values: tuple[str | int, ...] = ()

    @property
    def key(self) -> str:
        return f"example {self.span.line}"


@dataclass
class RuleFile:
    """A parsed file: its statements in order, before ``extends`` is resolved."""

    path: str
    text: str
    statements: list[Statement]
