"""The one interface every algorithm (search, solver, REPL, CLI) talks to.

A compiled rule file becomes a :class:`Game`. States and moves are small
immutable tuples so that they can be hashed, stored and shared freely; the
game object holds the precomputed tables and closures that make them move.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from rulesdsl.errors import PositionError, Span
from rulesdsl.interpreter.compile.geometry import Geometry
from rulesdsl.interpreter.reference.history import History

if TYPE_CHECKING:
    from rulesdsl.interpreter.kernel.codegen import Kernel
    from rulesdsl.interpreter.reference.marks import Marks

NO_CELL = -1


class State(NamedTuple):
    """A position: the board, whose turn it is, and what the rules remember.

    ``board`` holds one symbol per cell, in cell-index order (``geometry.cells``).
    ``last`` is the cell a go-again turn continues from, or ``NO_CELL``.
    ``history`` is the set of earlier boards, kept only by games that forbid
    repeating a board (otherwise ``None``): a :class:`History`, which grows in
    O(1) per ply (any other set, a frozenset say, is accepted and converted).
    """

    board: str
    turn: int
    last: int = NO_CELL
    history: AbstractSet[str] | None = None
    heading: int = -1  # the direction of the jump that began a go-again turn (``in same direction``), -1: any
    quiet: int = 0  # plies since the last capture, kept only by games that count them
    hand: tuple[int, ...] | None = None  # pieces in hand per player (games with ``hand`` only)
    turns: int = 0  # turns played, kept only by games whose end rules read ``turns played``
    passes: int = 0  # passes played in a row, kept only by games whose end rules read them
    before: str | None = None  # the board before the last ply, kept only by games that forbid immediate repetition
    marks: Marks | None = None  # what a piece's past allows (reference/marks.py), kept only by games that ask
    visited: int = 0  # cells (bit i: cell i) a ``to new cells`` go-again turn has stood on, 0 outside one
    links: int = 0  # the links between pieces (``link KIND DIRS``), one bit each (interpreter/reference/linking.py)
    places: tuple[int, ...] | None = None  # each seat's finishing place, 0 while it plays (``finishes``/``is out``)


class Move(NamedTuple):
    """One ply: which piece moved where, and every cell it changes.

    ``origin`` is the picked piece's cell and ``target`` where that piece lands
    (both ``NO_CELL`` for a pass or for a placement's origin). ``moved`` lists
    the mover's own pieces that leave their cells; ``displaced`` the enemy
    pieces that are pushed or captured. ``changes`` pairs each changed cell with
    its new symbol; applying a move is writing those symbols. ``path`` lists
    the cells a capture chain lands on before ``target``; ``heading`` is the
    direction of a jump (an index into the board's directions), -1 for others.
    """

    origin: int
    target: int
    changes: tuple[tuple[int, str], ...]
    action: str
    moved: tuple[int, ...] = ()
    displaced: tuple[int, ...] = ()
    captures: int = 0
    path: tuple[int, ...] = ()
    heading: int = -1
    passed: tuple[int, ...] = ()  # the cells a ``passing`` move leaves open to ``to passed`` for one ply
    bonus: bool = False  # the mover moves again after it (a seed sown into the store, a box closed)
    label: str = ""  # how a move that names no cell is written (a turn of a block: ``nw+``)


PASS_ACTION = "pass"


@dataclass(frozen=True)
class Player:
    """A player: its name (``white``), its turn symbol (``w``), its index."""

    name: str
    symbol: str
    index: int


class EndRuleRef(NamedTuple):
    """The end rule that decided a game: its place in the ``end`` block and in the source."""

    number: int  # 1 for the first rule of the end block in force, 2 for the second...
    span: Span  # where the rule is written (file, line, column)


class Outcome(NamedTuple):
    """The result of a finished game: the winner's index, or ``None`` for a draw.

    ``rule`` is the end rule that fired, as data; ``None`` when no end rule
    did (the player to move had no legal move and no rule said who wins).
    ``places`` ranks every seat (1 = first; tied seats share the better
    place) in games whose end rules finish or eliminate players; ``None``
    elsewhere, where :meth:`ranking` derives it from the winner.
    """

    winner: int | None
    reason: str
    rule: EndRuleRef | None = None
    places: tuple[int, ...] | None = None

    def score_for(self, player: int) -> int:
        """+1 when ``player`` won, -1 when it lost, 0 for a draw."""
        if self.winner is None:
            return 0
        return 1 if self.winner == player else -1

    def ranking(self, players: int) -> tuple[int, ...]:
        """Each seat's place (1 = first, tied seats share the better place) among ``players`` seats."""
        if self.places is not None:
            return self.places
        if self.winner is None:
            return (1,) * players
        return tuple(1 if p == self.winner else 2 for p in range(players))

    def returns(self, players: int) -> tuple[float, ...]:
        """Each seat's reward from -1 (last) to +1 (first): ``(n + 1 - 2 * place) / (n - 1)`` with
        tied seats sharing the mean of the places they cover; the rewards sum to 0."""
        return rank_returns(self.ranking(players))


def rank_returns(places: tuple[int, ...]) -> tuple[float, ...]:
    """Rewards from places (see :meth:`Outcome.returns`): 2 players give +1 / -1, a draw 0 / 0."""
    n = len(places)
    if n < 2:
        return (0.0,) * n
    out = []
    for place in places:
        tied = places.count(place)
        mean = place + (tied - 1) / 2  # the tied seats cover places place .. place + tied - 1
        out.append((n + 1 - 2 * mean) / (n - 1))
    return tuple(out)


class Playout(NamedTuple):
    """The end of a random playout: the last position, its result (``None`` when cut at ``cap``), the plies played."""

    state: State
    outcome: Outcome | None
    plies: int


class RandomSource(Protocol):
    """What a playout draws its moves with (``random.Random`` is one)."""

    def randrange(self, stop: int) -> int:
        """A uniformly random whole number from 0 to ``stop - 1``."""


class CompiledFast(Protocol):
    """A game's compiled playout and perft; each answers ``None`` where it does not apply."""

    def playout(self, state: State, rng: RandomSource, cap: int) -> Playout | None:
        """A random playout, as :meth:`Game.playout`."""

    def perft(self, state: State, depth: int) -> int | None:
        """A perft count, as :meth:`Game.perft`."""

    def available(self) -> bool:
        """True when the game has a kernel."""

    def kernel(self) -> Kernel | None:
        """The compiled kernel, or ``None`` when the rules use something it lacks."""

    def native(self, wait: bool = False, start: bool = True, load: bool = True, search: bool = False):
        """The kernel in machine code once it is ready, else ``None``."""

    def engine_name(self) -> str:
        """``native``, ``python`` or ``generic``."""


def generic_perft(game: Game, state: State, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` plies from ``state``, through ``status`` and ``apply``."""
    if depth == 0:
        return 1
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(generic_perft(game, game.apply(state, m), depth - 1) for m in moves)


def position_hint(game: Game) -> str:
    """What a position string for this game's board looks like, for a hint (empty if it cannot be made)."""
    try:
        empty = State(game.empty * len(game.geometry.cells), 0, NO_CELL, None)
        return f"a position for this board looks like {game.format_position(empty)}"
    except Exception:  # only a courtesy: the error stands without it
        return ""


@dataclass
class Game:
    """A compiled game. Built by :mod:`rulesdsl.interpreter.compile.compiler`.

    The methods are thin: the compiler supplies the closures that do the work.
    """

    title: str
    options: dict[str, object]
    players: tuple[Player, ...]
    geometry: Geometry
    empty: str
    piece_names: dict[str, tuple[str, int]]  # symbol -> (kind, owner)
    _initial: Callable[[], State]
    _status: Callable[[State], tuple[list[Move], Outcome | None]]
    _apply: Callable[[State, Move], State]
    _evaluate: Callable[[State, int], float]
    _parse_position: Callable[[str], State]
    _format_position: Callable[[State], str]
    _format_move: Callable[[State, Move], str]
    _parse_move: Callable[[State, str], Move]
    _parse_board: Callable[[str], str]
    source: str = "<rules>"
    resolved: object = None  # the rule file it was compiled from (to recompile for other sizes)
    # compiled playout and perft (kernel/compiled.py), or None; each answers None for a state it does not take
    _compiled: CompiledFast | None = None
    # the result without the move list (only whether a move exists), or None: status(state)[1]
    _outcome: Callable[[State], Outcome | None] | None = None
    # each player's score in a position (``score``), or None when the game keeps none
    _scores: Callable[[State], tuple[int, ...]] | None = None
    # what the board counts (``counts KIND``), or None
    counted: str | None = None
    style: str = ""  # how pictures draw the board ('style points': pieces where lines cross), '' by its shape
    drawn: tuple[tuple[int, int], ...] = ()  # ``drawn lines``: the segments pictures draw between points
    # rectangles of cells a picture outlines, as lattice corners (x0, y0, x1, y1): turned blocks, small boards
    outlined: tuple[tuple[int, int, int, int], ...] = ()
    hand_kinds: tuple[str, ...] = ()  # the kinds a hand holds, in the order of a state's hand counts
    # the links of a position as pairs of cells (``link KIND DIRS``), or None for a game without links
    _links: Callable[[State], list[tuple[int, int]]] | None = None

    # -- positions -----------------------------------------------------------
    def initial_state(self) -> State:
        """The start position for the game's options."""
        return self._initial()

    def parse_position(self, text: str) -> State:
        """Read a position string; raises :class:`PositionError`."""
        return self._parse_position(text)

    def format_position(self, state: State) -> str:
        """Write a position string that :meth:`parse_position` reads back."""
        return self._format_position(state)

    @property
    def has_links(self) -> bool:
        """True for a game that links its pieces (``link KIND DIRS``): its positions hold more than the board."""
        return self._links is not None

    def links(self, state: State) -> list[tuple[int, int]]:
        """The links between pieces in ``state`` as pairs of cell indices ([] for a game without links)."""
        return self._links(state) if self._links is not None else []

    # -- moves ---------------------------------------------------------------
    def to_move(self, state: State) -> int:
        """Index of the player to move."""
        return state.turn

    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move; empty when the game is over."""
        return self._status(state)[0]

    def status(self, state: State) -> tuple[list[Move], Outcome | None]:
        """Legal moves and result together, generating moves only once.

        A finished game has no moves; an unfinished one has at least one.
        """
        return self._status(state)

    def apply(self, state: State, move: Move) -> State:
        """The position after ``move`` (which must be legal in ``state``)."""
        return self._apply(state, move)

    def outcome(self, state: State) -> Outcome | None:
        """The result when the game is over, else ``None``.

        The same as ``status(state)[1]``, often cheaper: an end rule that reads
        ``no moves`` only needs to know whether a move exists, and placements
        on any empty cell answer that without listing them (a search's leaves).
        """
        if self._outcome is not None:
            return self._outcome(state)
        return self.status(state)[1]

    def is_over(self, state: State) -> bool:
        """True when the end conditions decide the game."""
        return self.outcome(state) is not None

    def format_move(self, state: State, move: Move) -> str:
        """A move's notation, e.g. ``b2-d2`` or ``pass``."""
        return self._format_move(state, move)

    def parse_move(self, state: State, text: str) -> Move:
        """The legal move that ``text`` names; raises :class:`MoveError`."""
        return self._parse_move(state, text)

    def with_history(self, state: State, boards: list[str]) -> State:
        """``state`` with earlier boards (each written as in a position string) remembered."""
        if state.history is None:
            raise PositionError("this game does not forbid repetition, so it keeps no history")
        return state._replace(history=History([*state.history, *(self.parse_board(b) for b in boards)]))

    def parse_board(self, text: str) -> str:
        """A board written as in a position string (without turn or other fields)."""
        return self._parse_board(text)

    def playout(self, state: State, rng: RandomSource, cap: int = 1000) -> Playout:
        """Play uniformly random legal moves from ``state`` until the game ends or ``cap`` plies are played.

        Each ply draws ``rng.randrange(number of legal moves)`` once, as a loop over
        :meth:`status` and :meth:`apply` would. Games whose rules the playout
        compiler knows (:mod:`rulesdsl.interpreter.kernel.codegen`) run on bitboards
        without building moves; the others take that loop. The outcome is
        ``None`` when the game was cut at ``cap``.
        """
        if self._compiled is not None:
            fast = self._compiled.playout(state, rng, cap)
            if fast is not None:
                return fast
        plies = 0
        while plies < cap:
            moves, outcome = self.status(state)
            if outcome is not None:
                return Playout(state, outcome, plies)
            state = self.apply(state, moves[rng.randrange(len(moves))])
            plies += 1
        return Playout(state, None, plies)

    def perft(self, state: State, depth: int) -> int:
        """The number of move sequences of exactly ``depth`` plies from ``state`` (counted, not listed, where
        the game has a compiled kernel)."""
        if self._compiled is not None:
            fast = self._compiled.perft(state, depth)
            if fast is not None:
                return fast
        return generic_perft(self, state, depth)

    def kernel(self) -> Kernel | None:
        """The game's compiled bitboard functions (:mod:`rulesdsl.interpreter.kernel.codegen`), or ``None`` when it has
        none (the solver expands positions with it)."""
        return self._compiled.kernel() if self._compiled is not None else None

    def native_kernel(self, wait: bool = False, search: bool = False):
        """The kernel in machine code (:mod:`rulesdsl.interpreter.kernel.native`) once it is ready, else ``None``;
        ``wait``: compile it (or load it from the cache) now; ``search``: only with its search helpers ready."""
        return self._compiled.native(wait, search=search) if self._compiled is not None else None

    def kernel_engine(self) -> str:
        """Which engine plays this game's playouts and perft now: ``native``, ``python`` or ``generic``."""
        return self._compiled.engine_name() if self._compiled is not None else "generic"

    @property
    def has_fast_playout(self) -> bool:
        """True when :meth:`playout` and :meth:`perft` run a compiled kernel for this game's positions."""
        return self._compiled is not None and self._compiled.available()

    # -- scores --------------------------------------------------------------
    @property
    def has_scores(self) -> bool:
        """True when the rules give each player a score (``score``)."""
        return self._scores is not None

    def scores(self, state: State) -> tuple[int, ...] | None:
        """Each player's score in ``state`` (in player order), or ``None`` when the game keeps none."""
        return self._scores(state) if self._scores is not None else None

    # -- evaluation ----------------------------------------------------------
    def evaluate(self, state: State, player: int) -> float:
        """Static score of ``state`` from ``player``'s point of view."""
        return self._evaluate(state, player)

    def hash(self, state: State) -> int:
        """A hash of everything that decides the future of the game."""
        return hash(state)

    # -- conveniences --------------------------------------------------------
    def player_named(self, text: str) -> Player | None:
        """The player named by name, symbol or number (1 = first)."""
        wanted = text.strip().lower()
        for player in self.players:
            if wanted in (player.name.lower(), player.symbol.lower(), str(player.index + 1)):
                return player
        return None
