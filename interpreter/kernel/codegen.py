"""Random playouts, perft and the solver's expansion compiled to Python source: bitboards, one module per rule file.

A random playout (play uniformly random legal moves to the end) asks for the
legal moves and the end rules at every ply, and only needs to pick one move;
perft only needs to count them. For the rule files whose building blocks it
knows, this module writes Python functions that play the game on
integers (one bit per cell per piece symbol, :mod:`rulesdsl.interpreter.kernel.bitboards`):
each rule, piece symbol and direction becomes a few shifts and masks whose
set bits are the moves' landing cells, so a ply costs a handful of integer
operations and a count, never a list of moves. A third function, ``expand``,
lists one position's children as bitboards for the strong solver
(:mod:`rulesdsl.interpreter.solver.successors`).

The source is made only from the checked model's integers (masks, shifts,
counts, player indices) and fixed words of this module; no text of the rule
file enters it. What it covers: any number of players (the turn passes in the
seat order of :mod:`rulesdsl.interpreter.compile.seats`; the mover is the seat
before the player to move, a loser's win goes to its opponent); ``step`` (to empty and/or enemy
cells), ``jump`` (not flying; over enemy, friend or any piece; with or without
capture) and ``push`` (one symbol a side: lines of own pieces, numerical
superiority, push-off, ``forbid corner push-off``); ``slide`` to empty cells
and/or the first enemy piece (:mod:`rulesdsl.interpreter.kernel.slides`);
``slide ... by pieces in line`` (over friend, enemy or any piece;
:mod:`rulesdsl.interpreter.kernel.lines`); ``then`` turns whose second part places from the last cell by step or slide;
capture chains as one move, flying jumps among them, ``must capture [most]``
(:mod:`rulesdsl.interpreter.kernel.chains`); ``promote`` on the far row;
pieces nobody owns; ``plies without capture`` (one more word after the
bitboards); ``place`` on empty cells,
``falling``, ``flanking`` (one symbol a side) and ``pass when no moves``
(:mod:`rulesdsl.interpreter.kernel.place`); ``again after ...`` (same
piece or any, optional pass); ``forbid repetition`` (earlier boards as a set of
tuples of integers, without go-again); ``misere``; end conditions built from
numbers, options, arithmetic, comparisons, ``and``/``or``/``not``, ``count``,
``lost``, ``no moves``, ``nobody can move``, ``has no``, ``on far row``,
``beyond``, ``N in a row``, ``connects`` and ``forms one group``; ``forms a ring``, ``joins N corners`` and
``joins N edges`` (:mod:`rulesdsl.interpreter.kernel.connections`); ``link KIND DIRS`` and ``connects ... by
links`` (one word per link vector, :mod:`rulesdsl.interpreter.kernel.links`), ``swap`` and ``place ... in
REGION`` (:mod:`rulesdsl.interpreter.kernel.swapping`); regions read by ``from``,
``within`` and ``fills`` (constant masks per player,
:mod:`rulesdsl.interpreter.kernel.regions`); boards of points and ``lines`` (steps along
the lines), hands (``place ... from hand``: one more word a player), rules
``when`` a condition holds, ``fly``, ``then after N in a row`` and ``remove
KIND [except N in a row]`` (:mod:`rulesdsl.interpreter.kernel.mills`); ``turns played``, placements ``in REGION
enclosing KIND in REGION [again]`` (:mod:`rulesdsl.interpreter.kernel.enclosing`),
``best score wins`` over ``score`` (:mod:`rulesdsl.interpreter.kernel.scores`), hop chains
``to new cells`` and jump chains ``in same direction`` (words after the bitboards,
:mod:`rulesdsl.interpreter.kernel.turn_words`), beside which a forced pass may
go; ``turn`` of ``rectangle`` blocks (:mod:`rulesdsl.interpreter.kernel.rotations`), small ``boards``, ``in sent
board`` and ``N in a row of boards`` (:mod:`rulesdsl.interpreter.kernel.nested`); cells holding counts (``counts KIND``)
and ``sow`` have a builder of their own, one word per cell (:mod:`rulesdsl.interpreter.kernel.sowing`);
``PLAYER finishes if ...`` and ``PLAYER is out if ...`` (the seats' places in one word, the turn skipping placed
seats: :mod:`rulesdsl.interpreter.kernel.places`); ``place KIND enclosing DIRS`` with ``forbid suicide``
and ``forbid immediate repetition``, ``area(...)`` (:mod:`rulesdsl.interpreter.kernel.liberties`), ``pass``,
``passes in a row``, ``board repeated`` (:mod:`rulesdsl.interpreter.kernel.passing`) and comparisons with a
constant that is not whole (:mod:`rulesdsl.interpreter.kernel.rational`); ``walk``, ``build ... from hand``
(a hand word per player) and ``keep ... can reach far row`` on a wall grid
(:mod:`rulesdsl.interpreter.kernel.walls`);
promotion choices (one group per kind, :mod:`rulesdsl.interpreter.kernel.choices`), ``slide ...
exactly N``, ``passing`` and ``to passed`` (:mod:`rulesdsl.interpreter.kernel.passed_cells`), ``must capture
by landing``, ``plies since KIND move or capture``, ``forbid leaving KIND attacked``, ``safe`` and
``attacked(...)`` (:mod:`rulesdsl.interpreter.kernel.attacks`), promotion ``in REGION [forced in REGION2]``
(:mod:`rulesdsl.interpreter.kernel.zones`), ``forbid dropping KIND giving mate``
(:mod:`rulesdsl.interpreter.kernel.drop_mates`), ``unmoved ... bringing`` with its
rights word (:mod:`rulesdsl.interpreter.kernel.bringing`), ``repetitions`` (a list of earlier positions'
keys, :mod:`rulesdsl.interpreter.kernel.past`; natively a fixed-size array, :mod:`~.native_helpers`)
and counts over both players or in a region. Anything else
(and any statement or field this module does not know) leaves the game on the
generic path: :func:`compile_kernel` returns ``None``.

tests/test_playout.py checks, on random positions of every bundled game, that
one ply of a playout reaches exactly the positions the legal moves reach (as
many times each), that finished games end with the same outcome, and that
perft counts agree with the generic path's.
"""

from __future__ import annotations

import ast
import builtins
import itertools
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import BINARY, Value
from rulesdsl.interpreter.compile.tables import Tables, first_step
from rulesdsl.interpreter.kernel import past
from rulesdsl.interpreter.kernel.attacks import AttackError, Attacks
from rulesdsl.interpreter.kernel.bitboards import BitLayout, bit_layout, shifted
from rulesdsl.interpreter.kernel.bringing import BringingError, castling_groups, rights_cells, touched_lines
from rulesdsl.interpreter.kernel.chains import Chainer, chain_apply, chain_lines, most_lines
from rulesdsl.interpreter.kernel.choices import choice_symbols, with_choices
from rulesdsl.interpreter.kernel.connections import joined, ring
from rulesdsl.interpreter.kernel.drop_mates import DropMateError, DropMates, forbids_drop_mates
from rulesdsl.interpreter.kernel.drops import DropError, Drops, uses_drops
from rulesdsl.interpreter.kernel.enclosing import region_placement
from rulesdsl.interpreter.kernel.lazy_functions import lazy_kernel_functions, own
from rulesdsl.interpreter.kernel.liberties import area, enclosing
from rulesdsl.interpreter.kernel.lines import line_slides, one_group
from rulesdsl.interpreter.kernel.links import LinkError, LinkWords, link_words
from rulesdsl.interpreter.kernel.mills import fly, link_steps, removal, row_through, windows
from rulesdsl.interpreter.kernel.nested import allowed_cells, boards_in_a_row
from rulesdsl.interpreter.kernel.passed_cells import PassedWords, Passing, PassingError, asks_passing, keeps_passed
from rulesdsl.interpreter.kernel.passing import PassWords
from rulesdsl.interpreter.kernel.passing import decode as decode_passing
from rulesdsl.interpreter.kernel.passing import encode as encode_passing
from rulesdsl.interpreter.kernel.passing import width as passing_width
from rulesdsl.interpreter.kernel.place import PlacementError, in_a_row, joins, placement
from rulesdsl.interpreter.kernel.places import PLACED, PlacesError, Placing, pack, unpack
from rulesdsl.interpreter.kernel.rational import fractional_comparison
from rulesdsl.interpreter.kernel.regions import CONFINED, RegionError, confine, fills, origin_cells, reads_region
from rulesdsl.interpreter.kernel.rotations import TURN_FIELDS, TurnError, turn_applies
from rulesdsl.interpreter.kernel.scores import best_score, score_parts
from rulesdsl.interpreter.kernel.screens import screen_groups
from rulesdsl.interpreter.kernel.slides import LAST, longest_ray, ray_groups
from rulesdsl.interpreter.kernel.swapping import SwapError, swap_groups
from rulesdsl.interpreter.kernel.turn_words import DEFAULTS, TurnWords
from rulesdsl.interpreter.kernel.turn_words import decode as decode_words
from rulesdsl.interpreter.kernel.turn_words import encode as encode_words
from rulesdsl.interpreter.kernel.walls import build_groups, reaches, squares, walk_groups
from rulesdsl.interpreter.kernel.zones import with_zones, zone_reach, zones_of
from rulesdsl.interpreter.reference.connections import Outline, board_outline
from rulesdsl.interpreter.reference.counts import count_of, count_symbol
from rulesdsl.interpreter.reference.endings import board_side
from rulesdsl.interpreter.reference.legality import counts_quiet_plies, counts_turns_played
from rulesdsl.interpreter.reference.marks import MarkBook, counts_repetitions
from rulesdsl.interpreter.reference.passing import counts_passes, reads
from rulesdsl.interpreter.reference.piece_counts import in_region
from rulesdsl.interpreter.search.feature_source import NONLINEAR
from rulesdsl.placing_checks import EACH_SEAT, PLACINGS

# Statements that do not change how the game is played, or that this module handles.
KNOWN = (m.GameTitle, m.Extends, m.OptionDecl, m.Players, m.Forward, m.Board, m.CellNames, m.PositionFormat,
         m.Notation, m.DirectionSet, m.PieceDecl, m.StartPosition, m.StartLayout, m.Moves, m.Again, m.Forbid,
         m.Misere, m.End, m.Evaluate, m.Example, m.Freeze, m.PassWhenStuck, m.Then, m.Promote, m.MustCapture,
         m.Region, m.Lines, m.Hand, m.Block, m.SmallBoards, m.Score, m.Link, m.Style, m.Keep, m.DrawnLines,
         m.CapturedToHand)
# The fields of a move rule and of a go-again rule that the kernel reads; any other field must keep its default.
RULE_FIELDS = {"span", "guard", "kind", "action", "directions", "over", "targets", "capture", "line", "option_spans",
               "falling", "flanking", "reach", "region", "within", "by_line", "from_hand", "when", "sent", "enclose",
               "enclosing", "supply", "blocked", "taking"}
# What a rule's ``when`` may read in the kernel: it is worked out before the moves (no ``no moves`` there).
WHEN_NODES = (m.Literal, m.NameRef, m.Binary, m.Logic, m.Unary, m.Call, m.TurnsPlayed, m.QuietPlies, m.HasNone)
AGAIN_FIELDS = {"span", "guard", "after", "same_piece", "may_pass", "chain", "same_direction", "new_cells"}


MAX_BITS = 1024  # a bigger board (in its bounding box) stays on the generic path: its source would be huge
MAX_LINE = 8  # so does a push of longer lines


class Unsupported(Exception):
    """Something the kernel does not compile: the game keeps the generic path."""


@dataclass
class Kernel:
    """The compiled functions of one game, over one integer per piece symbol (``symbols`` order), and one
    more, the plies since the last capture, in a game that counts them (``counter``; ``*bits`` below holds it).

    ``playout(*bits, turn, last, history, randrange, cap)`` returns
    ``(*bits, turn, last, result, plies)``: the final bitboards, the player to
    move, the bit of the cell a go-again turn continues from (0: none), and
    ``None`` when ``cap`` plies were played, else ``(winner, rule)`` with
    ``winner`` before ``misere`` (``None``: a draw) and ``rule`` the end rule's
    index, -1 when the player to move had no legal move and no rule fired.
    ``history`` is a set of earlier boards as tuples of bitboards (games that
    forbid repetition; it grows as the game goes on), else ``None``.
    ``perft(*bits, turn, last, history, depth)`` counts the move sequences of
    ``depth`` >= 1 plies.
    ``expand(*bits, turn, last, put)`` (``None`` in a game that forbids
    repetition) returns the result of a finished position as ``playout`` does,
    else ``None`` after calling ``put((*bits, turn, last))`` once per legal
    move with the position it leads to (the solver's successor function).
    """

    playout: Callable
    perft: Callable
    expand: Callable | None
    layout: BitLayout
    symbols: tuple[str, ...]
    has_again: bool
    repetition: bool
    misere: bool  # the kernel's winners are before ``misere`` swaps them
    opponent: tuple[int, ...]  # each player's opponent (the seat order's: with more than two, the next to move)
    source: str
    constants: dict[str, object] = field(default_factory=dict)  # the tables the source reads by name (``beyond``'s)
    counter: bool = False  # one more word after the bitboards: the plies since the last capture
    hands: int = 0  # words after it: the pieces in each player's hand (``hand``; 0: none)
    words: tuple[str, ...] = ()  # the State fields kept in words after those (:mod:`~.turn_words`)
    links: LinkWords | None = None  # the links between pieces, one word per link vector after those (:mod:`~.links`)
    seats: int = 0  # the seats whose places one more word keeps, after those (:mod:`~.places`; 0: none)
    passes: bool = False  # words between the turn words and the places': the passes in a row (:mod:`~.passing`)
    before: bool = False  # and the board before the last ply (whether it is known, one word per symbol)
    empty: str = "-"  # the empty cell's symbol (to write that board)
    counted: tuple[int, ...] = ()  # cells whose count of pieces is one word each, last (:mod:`~.sowing`)
    marks: tuple[str, ...] = ()  # the State.marks fields kept in words after the turn words (:mod:`~.past`)
    features: bool = False  # the evaluation uses ``area`` or ``threatened`` (the search helpers then compute them)
    past: bool = False  # ``hist`` is the list of earlier positions' keys (``repetitions``, :mod:`~.past`)
    native: bool = True  # False: the source calls a function of its own (``attacked``), which stays in Python

    @property
    def width(self) -> int:
        """How many words a position's board takes: one per symbol, the counter's, the hands' (``hands`` of them),
        the turn words, the marks', the links', the passes' and earlier board's, the places' and the counted
        cells' (a game has at most one kind of word after the turn words)."""
        return len(self.symbols) + self.counter + self.hands + len(self.words) + len(self.marks) \
            + (len(self.links.names) if self.links else 0) + passing_width(self.passes, self.before, self.symbols) \
            + bool(self.seats) + len(self.counted)

    def extra(self, state) -> tuple[int, ...]:
        """The words a state keeps after its bitboards (the counter, the hands, the turn words, the links, the
        counts)."""
        return ((state.quiet,) if self.counter else ()) + (tuple(state.hand) if self.hands else ()) \
            + encode_words(state, self.words, self.layout) + past.encode(state, self.marks, self.layout) \
            + (self.links.encode(state.links) if self.links else ()) \
            + encode_passing(state, self.passes, self.before, self.layout, self.symbols) \
            + ((pack(state.places),) if self.seats else ()) + tuple(count_of(state.board[c]) for c in self.counted)

    def board(self, empty: str, bits) -> str:
        """The board string of a position's words: the bitboards' symbols, then the counted cells' counts."""
        board = self.layout.decode(empty, tuple(zip(bits, self.symbols)))
        if not self.counted:
            return board
        cells = list(board)
        for cell, n in zip(self.counted, bits[self.width - len(self.counted):self.width]):
            cells[cell] = count_symbol(int(n), empty)
        return "".join(cells)

    def fields(self, words) -> dict[str, object]:
        """The state's fields (keywords) held by the words after the bitboards."""
        words = [int(w) for w in words[len(self.symbols):self.width - len(self.counted)]]
        out: dict[str, object] = {}
        if self.counter:
            out["quiet"] = words.pop(0)
        if self.hands:
            out["hand"] = tuple(words.pop(0) for _ in range(self.hands))
        out.update(decode_words(words[:len(self.words)], self.words, self.layout))
        words = words[len(self.words):]
        if self.marks or self.past:
            out["marks"] = past.decode(words, self.marks, self.layout)
            words = words[len(self.marks):]
        if self.links:
            out["links"] = self.links.decode(words[:len(self.links.names)])
            words = words[len(self.links.names):]
        out.update(decode_passing(words, self.passes, self.before, self.layout, self.symbols, self.empty))
        if self.seats:
            out["places"] = unpack(words[passing_width(self.passes, self.before, self.symbols)], self.seats)
        return out

    def plain(self, state):
        """The state with the fields the kernel keeps in words set to their defaults."""
        kept: dict[str, object] = {"quiet": 0} if self.counter else {}
        if self.hands:
            kept["hand"] = None
        kept.update((name, DEFAULTS[name]) for name in self.words)
        if self.links:
            kept["links"] = 0
        if self.seats:
            kept["places"] = None
        if self.passes:
            kept["passes"] = 0
        if self.before:
            kept["before"] = None
        if self.marks or self.past:
            kept["marks"] = None
        return state._replace(**kept)


@dataclass
class Group:
    """The moves of one rule, piece symbol and direction (and line length): one mask of landing cells."""

    prelude: list[str]  # statements the mask needs
    mask: str  # the expression of the landing cells (reads the bitboards and the empty cells ``E``)
    apply: list[str]  # statements playing the move landing on bit ``t``, in place
    target: str  # the bit the moved piece ends on (a go-again turn continues from it)
    origin_shift: int  # the origin is the landing bit moved back by this many places
    action: str
    captures: bool | None  # None: depends on the position
    moved: tuple[int, ...] = ()  # the own pieces that move sit this many places back from the landing bit
    exists: str | None = None  # an expression not zero when the group has a move, without the prelude (slides)
    walks: bool = False  # the origin is not a fixed shift back: playing a move finds it (slides)
    second: bool = False  # a move of a turn's second part (``then``): the turn ends with it
    promotes: int = 0  # the cells where the moving piece changes kind (``promote``): the turn ends there
    heading: int = -1  # a jump's direction among the board's directions (``in same direction``), -1: not a jump
    guard: str | None = None  # the group has moves only where this holds (``when``, the hand's phases)
    origins: str | None = None  # pairs: any of these cells (bit ``f``) to any landing cell is a move (``fly``)
    keeps: str | None = None  # after the move, not zero when the mover moves again (``enclosing ... again``)
    piece: str | None = None  # the bitboard of the piece that moves (promotion choices, ``plies since KIND move``)
    aside: bool = False  # it captures a piece it does not land on (in passing: not for ``must capture by landing``)
    opens: bool = False  # it sets the words of a passed cell itself (``passing``); any other move clears them
    touches: str | None = None  # the cells its move changes, where not the origin and the landing cell (castling)
    board: list[str] | None = None  # the statements of ``apply`` that change the board (the attack test's)
    echo: bool = False  # its moves are the group before's on the same cells (promotion choices): as legal
    zone: str | None = None  # a slide's landing cells where its piece may promote (``promote ... in``, :mod:`~.zones`)


MAX_SOURCE = 3_000_000  # characters of generated source compiled at most (the bundled games: under 1.5 MB)
CACHED = 32  # compile outcomes kept: the same rules and options compile once (examples, suites, playouts)
_outcomes: OrderedDict[tuple, Kernel | None] = OrderedDict()


def compile_kernel(active, tables: Tables, options: Mapping[str, Value],
                   start_board: Callable[[], str]) -> Kernel | None:
    """The compiled playout and perft of a game, or ``None`` when it uses something the kernel lacks.

    ``start_board()`` gives the start position's board (for ``lost``). The outcome (a kernel, or none)
    is kept per set of active statements and options, so a file whose examples share an option set
    compiles its kernel once, and a kernel that cannot be had is not tried again.
    """
    try:
        key: tuple | None = (tuple(active.statements), tuple(sorted((k, repr(v)) for k, v in options.items())))
        hash(key)
    except TypeError:  # a statement that cannot be a key: compile without keeping the outcome
        key = None
    if key is not None and key in _outcomes:
        _outcomes.move_to_end(key)
        return _outcomes[key]
    try:
        if tables.counted is not None:  # counts of pieces per cell: words, not bitboards
            from rulesdsl.interpreter.kernel.sowing import sowing_kernel

            kernel = sowing_kernel(active, tables, options, start_board)
        else:
            kernel = _Builder(active, tables, options, start_board).build()
    except (Unsupported, PlacementError, RegionError, TurnError, RulesdslError, KeyError, ValueError, RecursionError,
            MemoryError):
        kernel = None  # the generic path plays every rule file
    if key is not None:
        _outcomes[key] = kernel
        while len(_outcomes) > CACHED:
            _outcomes.popitem(last=False)
    return kernel


class _Builder:
    def __init__(self, active, tables: Tables, options: Mapping[str, Value], start_board: Callable[[], str]):
        self.active, self.tables, self.options = active, tables, options
        self.start_board = start_board
        for statement in active.statements:
            if not isinstance(statement, KNOWN):
                raise Unsupported(type(statement).__name__)
        self.symbols = tuple(sorted(tables.owner))
        self.var = {sym: f"v{i}" for i, sym in enumerate(self.symbols)}
        self.vars = "".join(f"{self.var[s]}, " for s in self.symbols).rstrip(" ")  # "v0, v1,": a tuple
        self.board_vars = self.vars  # the bitboards alone: what the attack tests read (:mod:`~.attacks`)
        forbids = {f.what for f in active.all(m.Forbid)}
        if forbids - {"corner push-off", "repetition", "suicide", "immediate repetition", "leaving attacked",
                      "drop mate"}:
            raise Unsupported("forbid")
        self.suicide, self.ko = "suicide" in forbids, "immediate repetition" in forbids
        self.corner_rule = "corner push-off" in forbids
        self.repetition = "repetition" in forbids
        again = active.first(m.Again)
        self.chain = again is not None and again.chain and again.after == "capture" and again.same_piece \
            and not again.may_pass and not _extra_fields(again, AGAIN_FIELDS)
        if self.chain:  # a whole capture chain is one move: no turn goes on after it
            again = None
        if again is not None and (again.chain or _extra_fields(again, AGAIN_FIELDS)
                                  or self.repetition or (again.new_cells and not again.same_piece)):
            raise Unsupported("again")
        self.again = again
        then = active.first(m.Then)
        if then is not None and (again is not None or self.repetition):
            raise Unsupported("a turn in two parts beside go-again turns or repetition")
        self.after_row = int(_value(then.after_row, options)) if then is not None and then.after_row else 0
        self.then = [r for r in then.rules if r.guard is None or _truth(r.guard, options)] if then else None
        self.continued = again is not None or then is not None  # a position may be in the middle of a turn
        if self.continued and any(p.zone is not None for p in active.all(m.Promote)):
            raise Unsupported("promotion in a zone beside go-again or two-part turns")
        # small boards: ``last`` is the bit of the last placement's cell, kept across turns (kernel/nested.py)
        self.keeps_last = tables.nest is not None
        if self.keeps_last and (self.continued or self.repetition or self.chain or active.all(m.PassWhenStuck)):
            raise Unsupported("small boards beside go-again or two-part turns, repetition, chains or passes")
        musts = active.all(m.MustCapture)
        if any(must.most for must in musts) and not self.chain:
            raise Unsupported("must capture most beside moves that are not capture chains")
        self.landing = any(must.landing for must in musts)  # a capture in passing does not oblige
        self.most = any(must.most for must in musts)
        self.must = bool(musts)  # when a capturing move exists, only capturing moves
        # plies since the last capture, kept in one more word after the bitboards (``plies without capture``)
        self.counter = f"v{len(self.symbols)}" if counts_quiet_plies(active) else None
        if self.counter is not None:
            self.vars += f" {self.counter},"
        self.supply = False  # a hand of walls built at will (``build KIND from hand``), not placements first
        self.hand_vars = self.hands(active, tables, options)  # each player's pieces in hand, a word each
        self.vars += "".join(f" {h}," for h in self.hand_vars)
        # the turns played, the cells a ``to new cells`` turn stood on and a straight turn's direction, after those
        width = len(self.symbols) + (self.counter is not None) + len(self.hand_vars)
        names = iter(f"v{width + i}" for i in range(3))
        self.words = TurnWords(next(names) if counts_turns_played(active) else None,
                               next(names) if again is not None and again.new_cells else None,
                               next(names) if again is not None and again.same_direction else None)
        for name in self.words.names:
            self.vars += f" {name},"
        # passes in a row and the board before the last ply, after those; ``board repeated`` reads ``hist``
        width += len(self.words.names)
        count = len(self.symbols)
        self.passing = PassWords(f"v{width}" if counts_passes(active) else None,
                                 f"v{width + counts_passes(active)}" if self.ko else None,
                                 tuple(f"v{width + counts_passes(active) + 1 + i}" for i in range(count * self.ko)),
                                 tuple(self.var[sym] for sym in self.symbols))
        self.vars += "".join(f" {name}," for name in self.passing.names)
        width += len(self.passing.names)
        self.history = reads(active, m.BoardRepeated)
        if (self.passing.names or self.history) and (self.repetition or again is not None or then is not None
                                                     or self.counter is not None or self.hand_vars):
            raise Unsupported("passes or earlier boards beside repetition, go-again or two-part turns, counts")
        self.placing: Placing | None = None  # the placing rules (finishes, is out) over one more word, the places
        if self.words.names and (self.repetition or self.chain):
            raise Unsupported("turns played or new cells beside repetition or capture chains")
        self.marks_words(active, options, width)
        self.rays: dict[tuple, int] = {}  # the number of each slide rule and symbol in the source's names
        self.freeze = active.first(m.Freeze)
        self.stuck = bool(active.all(m.PassWhenStuck))  # a player without a move passes
        moves = active.first(m.Moves)
        self.rules = [r for r in (moves.rules if moves else ()) if r.guard is None or _truth(r.guard, options)]
        self.pass_rule = any(r.action == "pass" for r in self.rules)  # the player to move may always pass
        if any(r.action == "pass" and (r.when is not None or _extra_fields(r, RULE_FIELDS)) for r in self.rules):
            raise Unsupported("a pass with a condition")
        self.rules = [r for r in self.rules if r.action != "pass"]
        if self.ko and any(not (r.action == "place" and r.enclosing) for r in self.rules):
            raise Unsupported("forbid immediate repetition beside moves that are not enclosing placements")
        if any(reads_region(r) and r.action not in (*CONFINED, "place", "swap", "drop")
               for r in [*self.rules, *(self.then or ())]):
            raise Unsupported("a region read by a move that is not a step or a slide")
        if tables.neutral and any(r.action == "push" for r in self.rules):
            raise Unsupported("a push beside pieces nobody owns")
        if self.then is not None and self.freeze is not None:
            raise Unsupported("a turn in two parts beside freeze")
        if tables.promotions and any(r.action not in ("step", "jump", "slide") for r in self.rules):
            raise Unsupported("promotion beside moves that are not steps or jumps")
        if any(r.action == "place" for r in self.rules) and (again is not None or self.freeze is not None):
            raise Unsupported("placements beside go-again turns or freeze")
        if self.counter is not None and (self.stuck or self.repetition or (again is not None and again.may_pass)):
            raise Unsupported("plies without capture beside passes or repetition")
        if self.hand_vars and ((self.stuck and not self.supply) or self.repetition or self.chain
                               or (again is not None and again.may_pass)):
            raise Unsupported("hands beside passes, repetition or capture chains")
        if tables.geometry.has_lines and any(r.action not in ("step", "place", "fly") or r.falling is not None
                                             or r.flanking for r in self.rules):
            raise Unsupported("a board of points and lines beside moves that are not steps, placements or flights")
        if self.stuck and (then is not None or self.repetition):
            raise Unsupported("a forced pass beside two-part turns or repetition")
        if self.chain and any(r.action not in ("step", "slide", "jump")
                              or (r.action in ("step", "slide") and set(r.targets or ("empty",)) != {"empty"})
                              or (r.action == "jump" and (not r.capture or r.over not in (None, "enemy")))
                              for r in self.rules):
            raise Unsupported("capture chains beside moves that are not steps or slides to empty cells or captures")
        if self.chain and (self.then is not None or self.stuck or self.freeze is not None):
            raise Unsupported("capture chains beside two-part turns, passes or freeze")
        self.layout = bit_layout(tables.geometry)
        if max(self.layout.bit) >= MAX_BITS:
            raise Unsupported("a board too big for the kernel")
        self.other = tables.seats.next_player  # who moves next
        self.previous = tables.seats.previous_player  # who made the last ply (when no go-again turn goes on)
        self.opponent = tables.seats.opponent  # ``opponent`` in an end rule, and who wins when a player loses
        self.constants: dict[str, object] = {}  # tables the generated code reads by name
        self.judging = True  # the moves are judged by ``forbid dropping KIND giving mate`` (:mod:`~.drop_mates`)
        self.drop_mates = self.drop_mate_tests(active)
        self.links = self.link_words()  # the links' words (``link KIND DIRS``), after the turn words
        # a playout's last placed piece, in a game whose every move places a piece of the mover's own and changes
        # nothing else, for the end rules that need only its group (``joins``)
        end = active.first(m.End)
        own = all(r.action == "place" and not r.flanking and (player, r.kind) in tables.symbol
                  for r in self.rules for player in range(len(self.other)))
        self.newest = "lpz" if self.rules and own and not (self.continued or self.stuck or self.repetition
                                                           or self.chain) and end is not None \
            and any(isinstance(node, m.Joins) for rule in end.rules for node in m.walk(rule.condition)) else None
        if tables.placing:
            self.placing = self.places_word(active, tables, f"v{width}")

    def places_word(self, active, tables: Tables, word: str) -> Placing:
        """The placing rules over the word ``word`` (:mod:`~rulesdsl.interpreter.kernel.places`)."""
        if self.repetition or self.chain or active.first(m.Then) is not None:
            raise Unsupported("places beside repetition, capture chains or two-part turns")
        self.vars += f" {word},"

        def condition(expr: m.Expr, seat: int) -> tuple[list[str], str]:
            conditions = _Conditions(self, -1, seat)
            test = conditions.visit(expr)
            return conditions.before, test

        try:
            return Placing(active.first(m.End), word, len(tables.player_names), tables.seats.next_player,
                           tuple(tables.player_names), condition)
        except PlacesError as error:
            raise Unsupported(str(error)) from None

    def hand_to(self, player: int, turn: str, passed: bool = False) -> tuple[list[str], str]:
        """Statements passing the turn on after ``player``'s complete turn (``passed``: a pass), and the
        expression of the seat to move: the next seat, past those with a place (``turn``: the name that holds
        it then)."""
        lines = [*self.words.handover(), *self.passing.played(passed)]
        if self.placing is None:
            return lines, str(self.other[player])
        return [f"{turn} = {self.other[player]}", *lines, *self.placing.settle(self.other[player], turn)], turn

    def marks_words(self, active, options: Mapping[str, Value], first: int) -> None:
        """The words of State.marks (the passed cell, :mod:`~.passing`) and the earlier positions' keys
        (``repetitions``, :mod:`~.past`), the clock's resets (``plies since KIND move``), promotion choices."""
        moves = active.first(m.Moves)
        rules = [r for r in (moves.rules if moves else ()) if r.guard is None or _truth(r.guard, options)]
        if any((r.unmoved or r.safe) and r.bringing is None or (r.blocked or r.taking) and r.action != "step"
               and not (r.action == "slide" and not r.blocked) for r in rules):
            raise Unsupported("unmoved or safe without bringing, or blocked or taking but by a step")
        self.book = MarkBook(active, self.tables, self.start_board(), options) if any(r.unmoved for r in rules) \
            else None
        self.rights = f"v{first}" if self.book is not None and self.book.rights else None
        first += self.rights is not None
        opened = keeps_passed(rules)
        self.passwords = PassedWords(f"v{first}", f"v{first + 1}") if opened else PassedWords()
        self.mark_fields = (("rights",) if self.rights else ()) + (("passed", "passer") if opened else ())
        self.vars += "".join(f" {n}," for n in ((self.rights,) if self.rights else ()) + self.passwords.names)
        self.past = counts_repetitions(active)
        self.protect = [f.kind for f in active.all(m.Forbid) if f.what == "leaving attacked"]
        self.attacks: Attacks | None = None  # made when a rule or condition asks (:meth:`attack_tests`)
        self.castles = itertools.count()  # numbers the names of the castling groups' landing cells
        if (opened or self.past or self.rights) and (self.continued or self.repetition or self.stuck_rule(active)
                                                     or (self.hand_vars and self.drops is None) or self.words.names
                                                     or self.chain or self.passing.names or self.history
                                                     or self.tables.placing):
            raise Unsupported("marks beside go-again or two-part turns, passes, hands, turn words or places")
        self.resets = {e.kind for end in active.all(m.End) for rule in end.rules for e in m.walk(rule.condition)
                       if isinstance(e, m.PliesSince)}
        self.choices = [choice_symbols(active, self.tables, p) for p in range(len(self.tables.player_names))]

    @staticmethod
    def stuck_rule(active) -> bool:
        return bool(active.all(m.PassWhenStuck))

    def key(self) -> str:
        """The source of the position's key for ``repetitions`` (:func:`~.past.key_source`)."""
        return past.key_source([self.var[s] for s in self.symbols],
                               dict(zip(self.mark_fields, [*([self.rights] if self.rights else []),
                                                           *self.passwords.names])), "turn")

    def attack_tests(self) -> Attacks:
        """The attack tests of the game's move rules (:mod:`~.attacks`)."""
        if self.attacks is None:
            try:
                self.attacks = Attacks(self.rules, self.tables, self.layout, self.bits)
            except AttackError as error:
                raise Unsupported(str(error)) from error
        return self.attacks

    def hands(self, active, tables: Tables, options: Mapping[str, Value]) -> list[str]:
        """The names of the words holding each player's pieces in hand (none in a game without ``hand``)."""
        self.drops = None
        if not active.all(m.Hand):
            return []
        if uses_drops(active):  # a count a player and kind, of captured pieces and drops (:mod:`~.drops`)
            first = len(self.symbols) + (self.counter is not None)
            self.drops = Drops(active, tables, bit_layout(tables.geometry), first, self.var)
            return self.drops.names
        moves = active.first(m.Moves)
        rules = [r for r in (moves.rules if moves else ()) if r.guard is None or _truth(r.guard, options)]
        first = len(self.symbols) + (self.counter is not None)
        self.supply = any(r.action == "build" and r.supply for r in rules)  # walls drawn from the hand at will
        if self.supply and len(tables.hand_kinds) == 1 and not active.all(m.CapturedToHand) \
                and not any(r.from_hand for r in rules):
            return [f"v{first + i}" for i in range(len(tables.player_names))]
        if len(tables.hand_kinds) != 1 or active.all(m.CapturedToHand) or len(tables.player_names) != 2 \
                or not any(r.from_hand for r in rules):
            raise Unsupported("a hand of several kinds, of captured pieces, not placed from, or of three players")
        return [f"v{first}", f"v{first + 1}"]

    def outline(self) -> tuple[BitLayout, list, Outline]:
        """The layout, the board's own directions and its border, corners and edges (rings, corners, edges)."""
        if self.tables.geometry.has_lines:
            raise Unsupported("rings, corners or edges on a board of points and lines")
        geometry = self.tables.geometry
        vectors = [geometry.directions[name] for name in geometry.direction_sets["all"]]
        return self.layout, vectors, board_outline(geometry)

    def link_words(self) -> LinkWords | None:
        """The words of the links between pieces (:mod:`~.links`), or ``None`` in a game without links."""
        if self.tables.linking is None:
            return None
        if any(r.action not in ("place", "swap") or r.flanking for r in self.rules) or self.continued \
                or self.passing.names or self.tables.placing or self.mark_fields or self.past:
            raise Unsupported("links beside moves that are not placements or swaps, go-again turns, passes or places")
        first = len(self.symbols) + (self.counter is not None) + len(self.hand_vars) + len(self.words.names)
        try:
            words = link_words(self.tables.linking, self.layout, first)
        except LinkError as error:
            raise Unsupported(str(error)) from None
        self.vars += "".join(f" {name}," for name in words.names)
        return words

    def bits(self, symbols) -> str:
        """The expression of the cells holding any of ``symbols``."""
        names = [self.var[s] for s in sorted(symbols)]
        if not names:
            return "0"
        return names[0] if len(names) == 1 else "(" + " | ".join(names) + ")"

    # -- the moves ---------------------------------------------------------
    def groups(self, player: int) -> list[Group]:
        """Every move group of a player, in the rules' order."""
        out: list[Group] = []
        far = self.layout.mask(self.tables.far_cells(player))
        chosen = {self.var[s]: tuple(self.var[c] for c in cs) for s, cs in self.choices[player].items()}
        for rule in self.rules:
            if not (self.chain and rule.action == "jump"):  # jumps make chains (``chainers``)
                made = with_choices(self.rule_groups(rule, player), chosen, far, self.layout)
                made = with_zones(made, zones_of(self.active, self.tables, self.layout, self.var, player), self.layout)
                out.extend(self.guarded(rule, player, [replace(g, board=list(g.apply)) for g in made]))
        if self.rights:
            out = [replace(g, apply=[*g.apply, *self.rights_kept(g)]) for g in out]
        if self.drops is not None and self.drops.book.captures:  # the piece taken joins the mover's hand
            out = [replace(g, apply=[*self.taken_to_hand(g, player), *g.apply]) for g in out]
        if self.passwords.names:
            out = [g if g.opens else replace(g, apply=[*g.apply, *self.passwords.closed()]) for g in out]
        return self.counted_plies(out)

    def guarded(self, rule: m.MoveRule, player: int, groups: list[Group]) -> list[Group]:
        """A rule's groups with the condition of their moves: the rule's ``when`` (``mover``: the player to
        move), and in a game with a hand, a placement from it while the hand lasts, any other move after."""
        tests = []
        if self.drops is not None:  # a drop keeps its own count (:mod:`~.drops`)
            if rule.when is not None or (rule.from_hand and rule.action != "drop"):
                raise Unsupported("a placement from a hand of several kinds, or a rule with a condition")
            return groups
        if self.supply:
            if rule.action == "build":
                tests.append(f"{self.hand_vars[player]} > 0")
                groups = [replace(g, apply=[*g.apply, f"{self.hand_vars[player]} -= 1"]) for g in groups]
        elif self.hand_vars:
            tests.append(f"{self.hand_vars[player]} {'>' if rule.from_hand else '=='} 0")
        elif rule.from_hand:
            raise Unsupported("a placement from hand without a hand")
        if rule.when is not None:
            if not all(isinstance(node, WHEN_NODES) for node in m.walk(rule.when)):
                raise Unsupported("a 'when' that reads more than counts, numbers and turns")
            tests.append(_Conditions(self, player).visit(rule.when))
        if rule.from_hand:
            groups = [replace(g, apply=[*g.apply, f"{self.hand_vars[player]} -= 1"]) for g in groups]
        guard = " and ".join(f"({t})" for t in tests) or None
        return [replace(g, guard=guard) for g in groups]

    def taken_to_hand(self, group: Group, player: int) -> list[str]:
        """Statements adding the piece a group's move takes to the mover's hand (before the move is played)."""
        if group.captures is False:
            return []
        if group.action not in ("step", "slide") or group.origins is not None:
            raise Unsupported("captured to hand beside captures that are not steps or slides")
        return self.drops.gains(player, self.passwords.passer if group.aside else "t")

    def rights_kept(self, group: Group) -> list[str]:
        """Statements clearing the rights whose cells the group's move changed (:mod:`~.bringing`)."""
        if group.touches is not None:
            touched = group.touches
        elif group.action == "drop":
            touched = "t"
        elif group.action in ("step", "slide") and group.origins is None:
            origin = "u" if group.walks else shifted("t", -group.origin_shift)
            touched = f"({origin} | t{f' | {self.passwords.passer}' if group.aside else ''})"
        else:
            raise Unsupported("rights beside moves that are not steps or slides")
        return touched_lines(touched, self.rights, rights_cells(self.book.rights, self.layout), self.layout,
                             self.constants)

    def chainers(self, player: int) -> list[Chainer]:
        """The player's symbols that jump, each with its jumps (capture chains as one move)."""
        tables, layout = self.tables, self.layout
        far = layout.mask(tables.far_cells(player))
        out = []
        for sym in sorted(tables.symbols_of(player)):
            jumps = [(layout.shift_of(v), layout.has_next(v), layout.has_next(v, 2), rule.flying)
                     for rule in self.rules if rule.action == "jump" and sym in tables.symbols_of(player, rule.kind)
                     for v in tables.vectors(rule.directions, player)]
            if jumps:
                crowned = self.var[tables.promotions[sym]] if sym in tables.promotions and far else None
                out.append(Chainer(self.var[sym], f"fd{self.symbols.index(sym)}", jumps, crowned, far))
        return out

    def counted_plies(self, groups: list[Group]) -> list[Group]:
        """The groups with the count of plies since a capture brought up to date (or ``must capture``'s
        knowledge of which groups capture checked)."""
        if (self.counter is not None or self.must) and any(g.captures is None for g in groups):
            raise Unsupported("a move that may or may not capture beside counted plies or must capture")
        if self.counter is None:
            return groups
        resets = {self.var[s] for p in range(len(self.other)) for k in self.resets
                  for s in self.tables.symbols_of(p, k)}
        if self.resets and any(g.piece is None and g.action != "drop" for g in groups):
            raise Unsupported("plies since a move of a kind beside moves the kernel does not name the piece of")
        return [replace(g, apply=[*g.apply, f"{self.counter} = 0" if g.captures or g.piece in resets
                                  else f"{self.counter} += 1"]) for g in groups]

    def then_groups(self, player: int) -> list[Group]:
        """The move groups of the second part of a turn (``then``), whose masks read ``L``, the bit of the cell
        the first part ended on."""
        out: list[Group] = []
        for rule in self.then or ():
            if rule.action == "remove" and not _extra_fields(rule, {"span", "kind", "action", "directions",
                                                                    "spared", "option_spans"}):
                spared = int(_value(rule.spared, self.options)) if rule.spared is not None else 0
                made = removal(rule, self.tables, self.layout, player, self.var, self.bits, spared)
                if made is not None:
                    prelude, mask, apply, exists = made
                    out.append(Group(prelude, mask, apply, "t", 0, "remove", True, (), exists, False, True))
                continue
            if rule.action == "turn":
                out += self.turn_groups(rule, True)
                continue
            if rule.action != "place" or rule.reach is None or rule.falling is not None or rule.flanking \
                    or rule.when is not None or rule.from_hand \
                    or _extra_fields(rule, RULE_FIELDS):
                raise Unsupported("a second part that is not a placement from the last cell")
            symbol = self.tables.placed_symbol(player, rule.kind)
            if symbol is None:
                continue
            for vector in self.tables.vectors(rule.directions, player):
                longest = 1 if rule.reach == "step" else longest_ray(self.tables.geometry, vector)
                for r in ray_groups(self.layout, vector, LAST, self.ray_number(rule, symbol), longest, True, None,
                                    None, self.var[symbol], []):
                    out.append(Group(r.prelude, r.mask, r.apply, "t", 0, "place", False, (), r.exists, True, True))
        return self.counted_plies(out)

    def turn_groups(self, rule: m.MoveRule, second: bool) -> list[Group]:
        """``turn BLOCKS WAY``: one group a block and way, whose one move (mask ``1``) permutes every bitboard
        (:mod:`rulesdsl.interpreter.kernel.rotations`)."""
        if _extra_fields(rule, TURN_FIELDS) or (not second and self.continued) or self.keeps_last:
            raise Unsupported("a turn of a block with modifiers, beside go-again or two-part turns or small boards")
        applies = turn_applies(rule, self.tables, self.layout, [self.var[s] for s in self.symbols])
        return [Group([], "1", apply, "t", 0, "turn", False, second=second) for apply in applies]

    def ray_number(self, rule: m.MoveRule, symbol: str) -> int:
        """The number that tells one rule's slide rays for one symbol apart in the names of the source."""
        return self.rays.setdefault((id(rule), symbol), len(self.rays))

    def slide_groups(self, rule: m.MoveRule, player: int) -> list[Group]:
        """``KIND slide DIRS [to empty or enemy]``: one group per symbol, direction and distance."""
        tables = self.tables
        if rule.flying or rule.reach is not None or _extra_fields(rule, RULE_FIELDS):
            raise Unsupported(rule.action)
        if rule.over not in (None, "one") or any(s in tables.promotions for s in tables.symbols_of(player, rule.kind)) \
                or (rule.over == "one" and rule.region is not None):
            raise Unsupported("a slide over pieces, of a piece that is promoted, or over one from a region")
        targets = set(rule.targets or ("empty",))
        theirs = self.victims(rule, player)
        enemy = self.bits(theirs) if "enemy" in targets and theirs else None
        out = []
        for sym in sorted(tables.symbols_of(player, rule.kind)):
            for vector in tables.vectors(rule.directions, player):
                if rule.over == "one":  # past one piece, the screen (:mod:`~.screens`)
                    out += [Group(**kw) for kw in screen_groups(
                        self.layout, vector, self.var[sym], self.ray_number(rule, sym), self.bits(self.symbols),
                        "empty" in targets, enemy, [self.var[x] for x in sorted(theirs)])]
                    continue
                origin = origin_cells(rule, tables, self.layout, player, self.var[sym])
                zone = zones_of(self.active, tables, self.layout, self.var, player).get(self.var[sym])
                step = self.layout.shift_of(vector)
                reach, may = zone_reach(self.layout, vector, origin, zone,
                                        f"{self.ray_number(rule, sym)}_{abs(step)}{'p' if step > 0 else 'n'}")
                for r in ray_groups(self.layout, vector, origin, self.ray_number(rule, sym),
                                    longest_ray(tables.geometry, vector), "empty" in targets, enemy, self.var[sym],
                                    None, [self.var[x] for x in sorted(theirs)]):
                    out.append(Group(r.prelude + reach if r.prelude else [], r.mask, r.apply, "t", 0, "slide",
                                     r.captures, (), r.exists, True, piece=self.var[sym], zone=may))
        return confine(out, rule, tables, self.layout, player, origins_done=True)

    def victims(self, rule: m.MoveRule, player: int) -> frozenset[str]:
        """The enemy symbols a rule's move may take (``taking KIND``: only that kind's)."""
        theirs = self.tables.enemy_symbols(player)
        if rule.taking is None:
            return theirs
        return frozenset(s for s in theirs if self.tables.kind.get(s) == rule.taking)

    def line_groups(self, rule: m.MoveRule, player: int) -> list[Group]:
        """``KIND slide DIRS by pieces in line [over CLASS] [to empty or enemy]``: one group per symbol, direction
        and kind of landing cell (:mod:`rulesdsl.interpreter.kernel.lines`)."""
        tables = self.tables
        if rule.over == "one" or any(s in tables.promotions for s in tables.symbols_of(player, rule.kind)):
            raise Unsupported("a slide by the pieces in line over one piece, or of a piece that is promoted")
        targets = set(rule.targets or ("empty",))
        mine, theirs = tables.symbols_of(player), tables.enemy_symbols(player)
        passable = {None: frozenset(), "friend": mine, "enemy": theirs, "any": frozenset(tables.owner)}[rule.over]
        blocking = self.bits(frozenset(tables.owner) - passable)
        enemy = self.bits(theirs) if "enemy" in targets and theirs else None
        out = []
        for sym in sorted(tables.symbols_of(player, rule.kind)):
            for g in line_slides(self.layout, tables.vectors(rule.directions, player), self.var[sym],
                                 self.ray_number(rule, sym), self.bits(self.symbols), blocking, "empty" in targets,
                                 enemy, [self.var[x] for x in sorted(theirs)], self.constants):
                out.append(Group(g.prelude, g.mask, g.apply, "t", 0, "slide", g.captures, (), None, True))
        return out

    def rule_groups(self, rule: m.MoveRule, player: int) -> list[Group]:
        tables = self.tables
        if rule.action == "turn":
            return self.turn_groups(rule, False)
        if rule.action == "swap":
            try:
                made = swap_groups(rule, tables, self.layout, player, self.var, self.bits, self.constants)
            except SwapError as error:
                raise Unsupported(str(error)) from None
            return [Group(*group, "t", 0, "swap", False) for group in made]
        if rule.action == "drop" and self.drops is not None:
            try:
                return [Group(**kw) for kw in self.drops.groups(rule, player)]
            except DropError as error:
                raise Unsupported(str(error)) from error
        if rule.bringing is not None:
            try:
                made = castling_groups(rule, tables, self.layout, player, self.book.index if self.book else {},
                                       self.var, self.start_board(), self.rights or "0", self.attack_tests(),
                                       self.bits(self.symbols), self.castles.__next__, self.board_vars)
            except BringingError as error:
                raise Unsupported(str(error)) from error
            return [Group(**kw) for kw in made]
        if asks_passing(rule) and not rule.flying and rule.reach is None \
                and not _extra_fields(rule, RULE_FIELDS | {"distance", "passing"}):
            try:
                passing = Passing(tables, self.layout, self.rules, self.var, self.bits, self.passwords)
                made = passing.groups(rule, player)
            except PassingError as error:
                raise Unsupported(str(error)) from error
            return confine([Group(**kw) for kw in made], rule, tables, self.layout, player, origins_done=True)
        if rule.action not in ("step", "jump", "push", "place", "slide", "fly", "walk", "build") or rule.flying \
                or rule.reach is not None or _extra_fields(rule, RULE_FIELDS):
            raise Unsupported(rule.action)
        if rule.action in ("walk", "build"):
            return self.wall_groups(rule, player)
        if rule.action == "fly":
            if any(s in tables.promotions for s in tables.symbols_of(player, rule.kind)):
                raise Unsupported("flying with promotion")
            return [Group([], "E", apply, "t", 0, "fly", False, walks=True, origins=origins)
                    for origins, apply in fly(rule, tables, player, self.var)]
        if rule.action == "slide" and rule.by_line:
            return confine(self.line_groups(rule, player), rule, self.tables, self.layout, player)
        if rule.action == "slide":
            return self.slide_groups(rule, player)
        if rule.action == "place" and rule.enclose is not None:
            made = region_placement(rule, tables, self.layout, player, self.var, self.bits(self.symbols))
            return [Group([], mask, apply, "t", 0, "place", False, keeps=keeps)
                    for mask, apply, keeps in ([made] if made is not None else [])]
        return confine(self.plain_groups(rule, player), rule, self.tables, self.layout, player)

    def plain_groups(self, rule: m.MoveRule, player: int) -> list[Group]:
        """A rule's groups, before its regions confine them."""
        tables, layout = self.tables, self.layout
        if rule.action not in ("step", "jump", "push", "place") or rule.flying or rule.reach is not None \
                or _extra_fields(rule, RULE_FIELDS):
            raise Unsupported(rule.action)
        if rule.action == "place" and rule.enclosing:
            return self.enclosing_groups(rule, player)
        if rule.action == "place":
            made = placement(rule, tables, layout, player, self.var, self.bits)
            if made is None:
                return []
            if self.keeps_last or rule.sent:
                made = self.on_small_boards(rule, made)
            if self.links is not None:  # the piece placed links to its own pieces a link's leap away
                symbol = tables.placed_symbol(player, rule.kind)
                made = (*made[:2], made[2] + self.links.made(self.var[symbol], symbol))
            return [Group(*made, "t", 0, "place", bool(rule.flanking))]
        if rule.falling is not None or rule.flanking:
            raise Unsupported("falling or flanking beside a move that is not a placement")
        movers = sorted(tables.symbols_of(player, rule.kind))
        mine, theirs = tables.symbols_of(player), tables.enemy_symbols(player)
        own, opp = self.bits(mine), self.bits(theirs)
        enemy_vars = [self.var[s] for s in sorted(theirs)]
        out = []
        if rule.action == "push":
            if len(mine) != 1 or len(theirs) > 1:
                raise Unsupported("a push by a side of several symbols")
            for vector in tables.vectors(rule.directions, player):
                out.extend(self.push_groups(rule, vector, own, opp))
            return out
        far = layout.mask(tables.far_cells(player))
        for sym in movers:
            mover = self.var[sym]
            crowned = self.var[tables.promotions[sym]] if sym in tables.promotions and far else None

            promotes = far if crowned is not None else 0
            for vector in tables.vectors(rule.directions, player):
                s = layout.shift_of(vector)
                pre = layout.has_next(vector)
                if rule.action == "step" and tables.geometry.has_lines:  # to the next point of a line
                    if set(rule.targets or ("empty",)) != {"empty"}:
                        raise Unsupported("a step along lines to cells that are not empty")
                    for s, pre in link_steps(layout, vector):
                        out.append(Group([], f"{shifted(f'({mover} & {pre})', s)} & E", _moved(mover, crowned, far, s),
                                         "t", s, "step", False, (s,), promotes=promotes, piece=mover))
                elif rule.action == "step":
                    targets = set(rule.targets or ("empty",))
                    kinds = [t for t in ("empty", "enemy") if t in targets]
                    source, leg = mover, first_step(vector)
                    if rule.blocked and leg != vector:  # a leap: its first cell must be empty
                        source = f"({mover} & {layout.has_next(leg)} & {shifted('E', -layout.shift_of(leg))})"
                    victims = self.victims(rule, player)
                    opp, enemy_vars = self.bits(victims), [self.var[x] for x in sorted(victims)]
                    split = (self.again is not None and self.again.after == "capture") or self.must \
                        or self.counter is not None
                    for chosen in ([[k] for k in kinds] if split else [kinds] if kinds else []):
                        into = {"empty": "E", "enemy": opp}
                        reach = " | ".join(into[k] for k in chosen)
                        apply = _moved(mover, crowned, far, s)
                        if "enemy" in chosen:
                            apply += [f"{v} &= ~t" for v in enemy_vars]
                        out.append(Group([], f"{shifted(f'({source} & {pre})', s)} & ({reach})", apply, "t", s,
                                         "step", chosen == ["enemy"] if len(chosen) == 1 else None, (s,),
                                         promotes=promotes, piece=mover))
                else:
                    over_syms = {"enemy": theirs, "friend": mine, "any": frozenset(tables.owner)}[rule.over or "enemy"]
                    pre2 = layout.has_next(vector, 2)
                    first = shifted(f"({mover} & {pre2})", s)  # the cells one step past a piece that can jump
                    mask = f"{shifted(f'({first} & {self.bits(over_syms)})', s)} & E"
                    apply = _moved(mover, crowned, far, 2 * s)
                    if rule.capture:
                        mid = shifted("t", -s)
                        taken = [self.var[x] for x in sorted(over_syms)]
                        apply += ([f"{taken[0]} ^= {mid}"] if len(taken) == 1
                                  else [f"{v} &= ~{mid}" for v in taken])
                    out.append(Group([], mask, apply, "t", 2 * s, "jump", rule.capture, (2 * s,),
                                     promotes=promotes, heading=tables.heading(vector), piece=mover))
        return out

    def on_small_boards(self, rule: m.MoveRule, made: tuple[list[str], str, list[str]]):
        """A placement's ``(prelude, mask, apply)`` confined to the small boards it may go in now."""
        prelude, mask, apply = made
        if not self.keeps_last or mask != "E" or prelude:
            raise Unsupported("a placement on small boards that falls or flanks, or in sent board without boards")
        players = [self.bits(self.tables.symbols_of(p)) for p in range(len(self.other))]
        more, allowed = allowed_cells(self.tables, self.layout, players, rule.sent)
        return more, allowed, apply
    def wall_groups(self, rule: m.MoveRule, player: int) -> list[Group]:
        """``walk KIND DIRS`` and ``build KIND [from hand]`` on a wall grid, ``keep`` read after each move
        (:mod:`~rulesdsl.interpreter.kernel.walls`)."""
        tables, layout = self.tables, self.layout
        keeps = [k.condition for k in self.active.all(m.Keep)]
        if any(not isinstance(node, (m.ReachesFarRow, m.Logic, m.Unary)) for k in keeps for node in m.walk(k)) \
                or tables.promotions or rule.region or rule.within or rule.when is not None:
            raise Unsupported("walls beside keep conditions other than 'can reach far row', or promotions")

        def kept() -> tuple[list[str], str] | None:
            if not keeps:
                return None
            conditions = _Conditions(self, player)
            tests = [conditions.visit(k) for k in keeps]
            return conditions.before, " and ".join(tests)

        if rule.action == "build":
            wall = tables.neutral.get(rule.kind)
            if wall is None or (rule.supply and not self.supply):
                raise Unsupported("a wall that is not neutral, or a supply without a hand")
            made = build_groups(layout, self.var[wall], kept(), player)
            return [Group(g.prelude, g.mask, g.apply, "t", 0, "build", False) for g in made]
        out = []
        for number, sym in enumerate(sorted(tables.symbols_of(player, rule.kind))):
            made = walk_groups(layout, tables.vectors(rule.directions, player), self.var[sym],
                               self.bits(self.symbols), "km" if keeps else str(layout.full))
            if keeps and number == 0:  # the board keeps the conditions, so does every walk
                lines, test = kept()
                made[0].prelude[:0] = [*lines, f"km = {layout.full}", f"if not {test}:", "    km ^= km"]
            out += [Group(g.prelude, g.mask, g.apply, "t", g.back, "walk", False, (g.back,)) for g in made]
        return out

    def enclosing_groups(self, rule: m.MoveRule, player: int) -> list[Group]:
        """``place KIND enclosing DIRS`` where suicide is forbidden (:mod:`~rulesdsl.interpreter.kernel.liberties`)."""
        tables = self.tables
        mine, theirs = sorted(tables.symbols_of(player)), sorted(tables.enemy_symbols(player))
        symbol = tables.placed_symbol(player, rule.kind)
        if not self.suicide or len(mine) != 1 or len(theirs) != 1 or symbol != mine[0] or tables.neutral \
                or rule.falling is not None or rule.flanking or tables.geometry.has_lines:
            raise Unsupported("enclosing placements without 'forbid suicide', or beside more than one symbol a side")
        before = None
        if self.ko:
            words = dict(zip(self.symbols, self.passing.before))
            before = (words[mine[0]], words[theirs[0]], self.passing.known)
        prelude, mask, apply = enclosing(self.layout, tables.vectors(rule.enclosing, player), self.var[mine[0]],
                                         self.var[theirs[0]], before, player)
        return [Group(prelude, mask, apply, "t", 0, "place", None)]

    def push_groups(self, rule: m.MoveRule, vector, own: str, opp: str) -> list[Group]:
        """A push along one direction: one group per line length ``k`` (the landing bit is the cell past the line)."""
        layout, geometry = self.layout, self.tables.geometry
        s = layout.shift_of(vector)
        pre = layout.has_next(vector)
        back = layout.has_next((-vector[0], -vector[1]))
        low, high = rule.line or (1, None)
        longest = max(len(geometry.ray(c.index, vector)) for c in geometry.cells)
        widest = min(high if high is not None else len(geometry.cells), longest)
        if widest > MAX_LINE:
            raise Unsupported("pushes of long lines")
        bad = 0
        if self.corner_rule:
            bad = layout.mask(c for c in geometry.corners() if geometry.outward(c) == vector)
        edge_ok = layout.full & ~pre & ~bad  # a last pushed piece here leaves the board, and may
        key = f"{abs(s)}{'p' if s > 0 else 'n'}"
        prelude = [f"x1_{key} = {shifted(f'({own} & {pre})', s)}"]  # cells just past an own piece
        if widest >= 2:
            prelude.append(f"f1_{key} = {opp} & ({shifted(f'(E & {back})', -s)} | {edge_ok})")
        groups = []
        for k in range(1, widest + 1):
            if k >= 2:
                prelude.append(f"x{k}_{key} = {shifted(f'(x{k - 1}_{key} & {own} & {pre})', s)}")
                if k >= 3:
                    prelude.append(f"f{k - 1}_{key} = {opp} & {shifted(f'(f{k - 2}_{key} & {back})', -s)}")
            if k < max(low, 1):
                continue
            pushable = " | ".join(f"f{p}_{key}" for p in range(1, k))
            mask = f"x{k}_{key} & (E | {pushable})" if pushable else f"x{k}_{key} & E"
            apply = [f"{own} ^= {shifted('t', -k * s)} | t"]
            if k == 2:
                apply += [f"if t & {opp}:", f"    {opp} ^= t | {shifted(f'(t & {pre})', s)}"]
            elif k > 2:
                apply += [f"if t & {opp}:", f"    {opp} ^= t", "    u = t", "    while True:",
                          f"        nx = {shifted(f'(u & {pre})', s)}", f"        if nx & {opp}:", "            u = nx",
                          "        else:", f"            {opp} |= nx", "            break"]
            groups.append(Group(list(prelude), mask, apply, shifted("t", -(k - 1) * s), k * s, "push",
                                False if k == 1 else None, tuple(j * s for j in range(1, k + 1))))
            prelude = []
        return groups

    def threat_lines(self, player: int, empty: str) -> list[str]:
        """Statements setting ``frz`` to the cells of the other player's pieces that ``player``'s pushes could
        push (what ``freeze`` freezes); only pushes are read."""
        tables, layout, geometry = self.tables, self.layout, self.tables.geometry
        lines, terms = [], []
        own, opp = self.bits(tables.symbols_of(player)), self.bits(tables.enemy_symbols(player))
        for number, rule in enumerate(self.rules):
            if rule.action != "push":
                raise Unsupported("freeze beside a move that is not a push")
            if not tables.symbols_of(player, rule.kind):
                continue
            low, high = rule.line or (1, None)
            for vector in tables.vectors(rule.directions, player):
                s = layout.shift_of(vector)
                pre, back = layout.has_next(vector), layout.has_next((-vector[0], -vector[1]))
                longest = max(len(geometry.ray(c.index, vector)) for c in geometry.cells)
                widest = min(high if high is not None else len(geometry.cells), longest)
                if widest > MAX_LINE:
                    raise Unsupported("pushes of long lines")
                if widest < 2:
                    continue
                bad = 0
                if self.corner_rule:
                    bad = layout.mask(c for c in geometry.corners() if geometry.outward(c) == vector)
                key = f"z{number}_{abs(s)}{'p' if s > 0 else 'n'}"
                here: list[str] = []
                lines.append(f"x1{key} = {shifted(f'({own} & {pre})', s)}")
                lines.append(f"f1{key} = {opp} & ({shifted(f'({empty} & {back})', -s)} | {layout.full & ~pre & ~bad})")
                for k in range(2, widest + 1):
                    lines.append(f"x{k}{key} = {shifted(f'(x{k - 1}{key} & {own} & {pre})', s)}")
                    if k >= 3:
                        lines.append(f"f{k - 1}{key} = {opp} & {shifted(f'(f{k - 2}{key} & {back})', -s)}")
                    if k < low:
                        continue
                    for p in range(1, k):
                        here += [shifted(f"(x{k}{key} & f{p}{key})", j * s) for j in range(p)]
                if here:
                    terms.append(" | ".join(here))
        return lines + ["frz = 0"] + [f"frz |= {term}" for term in terms]  # one statement per direction

    def frozen(self, group: Group) -> str:
        """The filter that drops the group's moves that move a frozen piece."""
        if self.freeze.mode == "strict":
            return " & ~(" + " | ".join(shifted("frz", x) for x in group.moved) + ")"
        return f" & ~{shifted('frz', group.origin_shift)}"

    def continues(self, group: Group) -> bool:
        """Whether a move of this group lets the turn go on (``again after ...``; a turn's first part always may)."""
        if self.again is None:
            return True
        after = self.again.after
        if after is None:
            return True
        if after == "capture":
            if group.captures is None:
                raise Unsupported("again after capture with a push")
            return group.captures
        return group.action == after

    def movegen(self, player: int, continuing: bool, last: str, prefix: str = "m",
                empty: str = "e", existence: bool = False, visited: str | None = None,
                heading: str | None = None) -> tuple[list[str], list[Group]]:
        """Statements setting ``m0, m1...`` to the landing cells of the player's move groups (``continuing``: of
        a go-again turn or a turn's second part; ``existence``: enough to tell whether there is a move, a group's
        ``exists`` in place of its mask where it has one)."""
        lines: list[str] = self.threat_lines(self.other[player], empty) if self.freeze is not None else []
        groups = []
        guards: dict[str, str] = {}
        second = continuing and self.then is not None

        def placed(text: str) -> str:
            text = text.replace("E", empty)
            return re.sub(rf"\b{LAST}\b", last, text) if second else text

        for group in (self.then_groups(player) if second else self.groups(player)):
            if continuing and not second and not self.continues(group):
                continue
            i = len(groups)
            same = continuing and self.again is not None and self.again.same_piece
            if group.walks and (same or self.freeze is not None):
                raise Unsupported("a slide beside a go-again turn of the same piece or freeze")
            here: list[str] = []
            if existence and group.exists is not None:
                here.append(f"{prefix}{i} = {placed(group.exists)}")
            else:
                here += [placed(line) for line in group.prelude]
                restrict = f" & {shifted(last, group.origin_shift)}" if same else ""
                if continuing and not second:  # ``to new cells``: not where the turn has stood
                    restrict += self.words.fresh(visited or self.words.visited or "")
                if self.freeze is not None:
                    restrict += self.frozen(group)
                if group.origins is not None:  # no landing cells without an origin
                    here += [f"{prefix}o{i} = {group.origins}", f"{prefix}{i} = 0", f"if {prefix}o{i}:",
                             f"    {prefix}{i} = {placed(group.mask)}{restrict}"]
                else:
                    here.append(f"{prefix}{i} = {placed(group.mask)}{restrict}")
                if continuing and not second:  # ``in same direction``: not along another direction than the turn's
                    here += self.words.straight(group.heading, heading, f"{prefix}{i}")
            if group.guard is not None:  # no moves where the guard fails (each guard worked out once)
                if group.guard not in guards:
                    guards[group.guard] = f"{prefix}g{len(guards)}"
                    lines.append(f"{guards[group.guard]} = {group.guard}")
                here = [f"{prefix}{i} = 0", *([f"{prefix}o{i} = 0"] if group.origins is not None else []),
                        f"if {guards[group.guard]}:"] + ["    " + line for line in here]
            lines += here
            groups.append(group)
        lines = self.hoisted(player, prefix, lines)
        if self.protect:
            if existence:
                raise Unsupported("whether a player can move, beside forbid leaving attacked")
            lines += self.kept_safe(player, groups, prefix)
        if self.drop_mates is not None and self.judging and not existence:
            royal = self.bits(frozenset(s for k in self.protect for s in self.tables.symbols_of(self.other[player], k)))
            lines += self.drop_mates.lines(player, self.other[player], groups, prefix, self.vars, royal,
                                           self.attack_tests().call(self.board_vars, "dmk", player, "dmc"))
        taking = []
        if self.chain and not existence:
            opp = self.bits(self.tables.enemy_symbols(player))
            for chainer in self.chainers(player):
                lines += chain_lines(chainer, opp, empty)
                taking.append(f"len({chainer.found})")
            if self.most:
                lines += most_lines([chainer.found for chainer in self.chainers(player)])
        elif self.chain:
            raise Unsupported("whether a player can move, with capture chains")
        if self.must and not existence:  # a capture exists: the moves that do not capture are dropped
            obliges = [bool(group.captures) and not (self.landing and group.aside) for group in groups]
            taking += [f"{prefix}{i}" for i, group in enumerate(groups) if obliges[i]]
            quiet = [f"{prefix}{i}" for i, group in enumerate(groups) if not obliges[i]]
            if taking and quiet:
                lines += [f"if {' | '.join(taking)}:"] + [f"    {name} = 0" for name in quiet]
        return lines, groups

    def hoisted(self, player: int, prefix: str, lines: list[str]) -> list[str]:
        """The masks' statements with the cells of the player's pieces and of the enemy's, where several read
        them, worked out once before them (``mow``, ``mop``): a game of many symbols repeats those unions in every
        group's mask (the boards do not change while the masks are made)."""
        for name, symbols in (("op", self.tables.enemy_symbols(player)), ("ow", self.tables.symbols_of(player))):
            union = self.bits(symbols)
            if " | " in union and sum(line.count(union) for line in lines) > 1:
                lines = [f"{prefix}{name} = {union}", *(line.replace(union, f"{prefix}{name}") for line in lines)]
        return lines

    def drop_mate_tests(self, active) -> DropMates | None:
        """The drop-mate test (``forbid dropping KIND giving mate``, :mod:`~.drop_mates`), or ``None``."""
        if not forbids_drop_mates(active):
            return None
        if not self.protect or len(self.other) != 2 or self.continued or self.stuck:
            raise Unsupported("a drop that may not mate beside no protected kind, go-again turns or passes")
        try:
            return DropMates(active, self.tables, self.layout, self.var, self.rules, self.constants)
        except DropMateError as error:
            raise Unsupported(str(error)) from None

    def can_move(self) -> str:
        """The source of ``canmove``: the moves of the player to move, not judged by the drop-mate rule."""
        self.judging = False
        body = [f"e = {self.layout.full} ^ {self.bits(self.symbols)}"]
        for player in range(len(self.other)):
            body.append(f"{'if' if player == 0 else 'else'}{f' turn == {player}' if player == 0 else ''}:")
            lines, groups = self.movegen(player, False, "last", prefix="x")
            found = " | ".join(f"x{i}" for i in range(len(groups))) or "0"
            body += ["    " + line for line in [*lines, f"return {found}"]]
        self.judging = True
        return self.drop_mates.function(self.vars, body)

    def kept_safe(self, player: int, groups: list[Group], prefix: str) -> list[str]:
        """Statements dropping from each group's landing cells the moves after which a piece of a protected kind
        of ``player`` is attacked (``forbid leaving KIND attacked``): a move that only takes its piece from one
        cell to another (or drops one) is tested on the position before it (``hitafter``: the cells it leaves and
        lands on), any other is played, tested and taken back."""
        royal = self.bits(frozenset(s for k in self.protect for s in self.tables.symbols_of(player, k)))
        if royal == "0":
            return []
        attacks, opponent = self.attack_tests(), self.opponent[player]
        test = [attacks.call(self.board_vars, royal, opponent, "chk")]
        # A move of a piece that is not protected, taking nothing but on its landing cell, that neither leaves a
        # cell of ``pin`` (a line to a protected piece, a leap's first cell) nor enters one of ``arr`` (a line
        # where a screen would open an attack), cannot expose a protected piece not attacked now: only the
        # others are tested.
        lines = [attacks.call(self.board_vars, royal, opponent, "chn"),
                 attacks.pins(self.board_vars, royal, opponent, "pin", "arr")]
        saved = False  # whether a move is played and taken back (from ``sv``)
        protected = {self.var[s] for k in self.protect for s in self.tables.symbols_of(player, k)}
        for i, group in enumerate(groups):
            if group.origins is not None:
                raise Unsupported("forbid leaving attacked beside flights")
            if group.echo:
                lines.append(f"{prefix}{i} &= {prefix}{i - 1}")
                continue
            lines.append(f"lm = {prefix}{i}")
            if group.action == "drop":  # a piece put on the board opens no line (but may be a screen)
                lines += ["if not chn:", "    lm &= arr"]
            elif group.action in ("step", "slide") and not group.aside and group.touches is None \
                    and group.piece is not None and group.piece not in protected:
                if group.walks:
                    lines += ["if not chn and not pin & " + group.piece + ":", "    lm &= arr"]
                else:
                    lines += ["if not chn:", f"    lm &= {shifted('pin', group.origin_shift)} | arr"]
            lines += ["while lm:", "    t = lm & -lm", "    lm ^= t"]
            moved = _origin(group, protected, attacks.reads_victims)
            if moved is None:  # played, tested and taken back
                body = [*(group.board or group.apply), *test, f"{self.vars} = sv"]
                saved = True
            else:  # tested on the position before it: the cells it empties and the one it lands on
                walk, origin = moved
                after = f"({royal} ^ {origin}) | t" if group.piece in protected else royal
                body = [*walk, attacks.call_after(self.board_vars, after, opponent, origin, "t", "chk")]
            lines += ["    " + line for line in [*body, "if chk:", f"    {prefix}{i} ^= t"]]
        return [*lines[:2], f"sv = {self.vars}", *lines[2:]] if saved else lines

    def counted(self, player: int, continuing: bool) -> tuple[list[str], list[Group], bool]:
        """The move masks, their running counts ``c0, c1...`` and ``total`` (with a pass, or after the repetition
        filter, which lists the children's bitboards in ``found``)."""
        lines, groups = self.movegen(player, continuing, "last")
        passes = (continuing and self.again is not None and self.again.may_pass) or self.pass_rule
        for i in range(len(groups)):
            lines.append(f"n{i} = m{i}.bit_count()" + (f" * mo{i}.bit_count()" if groups[i].origins else ""))
            lines.append(f"c{i} = n0" if i == 0 else f"c{i} = c{i - 1} + n{i}")
        if self.repetition:
            lines += [f"cur = {self.vars}", "found = []"]
            lines += self.each_child(groups, lambda group: [f"key = {self.vars}", "if key != cur and key not in hist:",
                                                            "    found.append(key)"])
            lines.append("total = len(found)")
        else:
            total = f"c{len(groups) - 1}" if groups else "0"
            if self.chain:  # the chains come first, then the groups' moves
                lines.append(f"nf = ({' + '.join(f'len({c.found})' for c in self.chainers(player)) or '0'}) // 3")
                total += " + nf"
            lines.append(f"total = {total}{' + 1' if passes else ''}")
        if self.stuck and not passes:  # no move: the one move is a pass (``raw`` counts the others)
            lines += [f"raw = {lines.pop().split(' = ', 1)[1]}", "total = raw", "if not total:", "    total = 1"]
            passes = True
        elif self.stuck:  # a go-again turn's pass: the player always has a move (``raw`` too)
            lines.append("raw = total")
        return lines, groups, passes

    def forced(self, continuing: bool) -> bool:
        """Whether the pass after the moves is the forced pass of a player without a move (else: a go-again
        turn's optional pass, or none)."""
        return self.stuck and not (continuing and self.again is not None and self.again.may_pass)

    def each_child(self, groups: list[Group], use: Callable[[Group], list[str]]) -> list[str]:
        """Statements that play every move of ``groups`` in turn (the bitboards saved in ``cur`` beforehand),
        run ``use(group)``'s statements on the child, and restore the bitboards."""
        lines = []
        for i, group in enumerate(groups):
            body = group.apply + use(group) + [f"{self.vars} = cur"]
            if group.origins is not None:  # each origin, then each landing cell
                lines += [f"while mo{i}:", f"    f = mo{i} & -mo{i}", f"    mo{i} ^= f", f"    mm = m{i}"]
                lines += ["    while mm:", "        t = mm & -mm", "        mm ^= t"]
                lines += ["        " + line for line in body]
                continue
            lines += [f"while m{i}:", f"    t = m{i} & -m{i}", f"    m{i} ^= t"]
            lines += ["    " + line for line in body]
        return lines

    # -- playout: one block per (player to move, continuing or not) ---------
    def playout_block(self, player: int, continuing: bool) -> list[str]:
        mover = player if continuing else self.previous[player]
        lines, groups, passes = self.counted(player, continuing)
        lines += self.end_checks(mover, lambda result: [f"return {self.vars} turn, last, {result}, plies"],
                                 self.mid_turn(continuing), self.newest)
        lines.append("r = randrange(total)")
        if self.history:  # the board before this ply joins the earlier boards
            lines.append(f"hist.add({self.passing.board()})")
        if self.past:  # the position left joins the earlier ones (``repetitions``)
            lines.append(f"hist.append({self.key()})")
        if self.repetition:
            return lines + ["hist.add(cur)", f"{self.vars} = found[r]", "plies += 1", f"turn = {self.other[player]}"]
        if self.chain:
            return lines + self.chain_pick(player, self.pick(player, groups, passes, continuing))
        return lines + self.pick(player, groups, passes, continuing)

    def chain_pick(self, player: int, rest: list[str]) -> list[str]:
        """Statements playing chain ``r`` when ``r < nf``, else ``rest`` with ``r`` counted past the chains."""
        lines = ["if r < nf:"]
        done = self.chain_done(player) + ["plies += 1", f"turn = {self.other[player]}"]
        before = "0"  # the chains of the symbols before this one
        for k, chainer in enumerate(self.chainers(player)):
            upto = f"{before} + len({chainer.found}) // 3"
            lines.append(f"    {'if' if k == 0 else 'elif'} r < {upto}:")
            play = [f"r -= {before}", *chain_apply(chainer, "r", self.enemy_vars(player)), *done]
            lines += ["        " + line for line in play]
            before = upto
        return lines + ["else:", "    r -= nf"] + ["    " + line for line in rest]

    def chain_done(self, player: int) -> list[str]:
        """What a chain does besides its pieces: it captures (the count of plies without capture restarts)."""
        return [f"{self.counter} = 0"] if self.counter is not None else []

    def enemy_vars(self, player: int) -> list[str]:
        return [self.var[x] for x in sorted(self.tables.enemy_symbols(player))]

    def chain_children(self, player: int, use: list[str]) -> list[str]:
        """Statements that play every chain in turn, run ``use`` on the child and restore the bitboards."""
        lines = []
        for chainer in self.chainers(player):
            lines += [f"for q in range(len({chainer.found}) // 3):"]
            lines += ["    " + line for line in chain_apply(chainer, "q", self.enemy_vars(player))
                      + self.chain_done(player) + use + [f"{self.vars} = cur"]]
        return lines

    def pick(self, player: int, groups: list[Group], passes: bool, continuing: bool) -> list[str]:
        """Statements playing move ``r`` of the groups (or the pass after them)."""
        lines: list[str] = []
        for i, group in enumerate(groups):
            lines.append(f"{'if' if i == 0 else 'elif'} r < c{i}:")
            body = [] if i == 0 else [f"r -= c{i - 1}"]
            if group.origins is not None:  # move r: origin r // (landing cells), landing cell r % (landing cells)
                body += [f"nm = m{i}.bit_count()", "for i in range(r // nm):", f"    mo{i} &= mo{i} - 1",
                         f"f = mo{i} & -mo{i}", "r = r % nm"]
            body += ["for i in range(r):", f"    m{i} &= m{i} - 1", f"t = m{i} & -m{i}"]
            body += group.apply + ([f"{self.newest} = t"] if self.newest else [])
            body += ["plies += 1"] + self.after_move(player, group, "turn", "last", continuing)
            lines += ["    " + line for line in body]
        if passes:
            lines.append("else:" if groups else "if True:")
            lines += ["    " + line for line in ["plies += 1", f"turn = {self.other[player]}", "last = 0",
                                                    *self.hand_to(player, "turn", True)[0]]]
        return lines

    def after_move(self, player: int, group: Group, turn: str, last: str, continuing: bool) -> list[str]:
        """Who moves next (into ``turn`` and ``last``): the same player when a go-again turn goes on, else the other
        (``continuing``: the move was made inside a go-again turn)."""
        hand_over = [f"{turn} = {self.other[player]}"] + ([f"{last} = {group.target}"] if self.keeps_last
                                                           else [f"{last} = 0"] if self.continued else [])
        hand_over += self.hand_to(player, turn)[0]
        if group.keeps is not None:  # the move earned another turn: the same player, from no cell
            if self.continued:
                raise Unsupported("a move that earns another turn beside go-again or two-part turns")
            return [f"if {group.keeps}:", f"    {turn} = {player}", "else:"] + ["    " + line for line in hand_over]
        if not self.continued or not self.continues(group) or group.second:
            return hand_over
        if self.words.visited and group.walks:
            raise Unsupported("to new cells after a move that walks back to its origin")
        lines = [f"g = {group.target}", f"ce = {self.layout.full} ^ {self.bits(self.symbols)}"]
        lines += self.words.landed(continuing, group.origin_shift)
        check, groups = self.movegen(player, True, "g", prefix="k", empty="ce", existence=True, visited="nv",
                                     heading=str(group.heading + 1))
        if not groups:
            return lines + hand_over
        if self.freeze is not None or len(check) != len(groups):  # statements besides the masks
            lines += check
            tests = " or ".join(f"k{i}" for i in range(len(groups)))
        else:  # stop at the first direction that has a move
            tests = " or ".join("(" + line.split(" = ", 1)[1] + ")" for line in check)
        if self.after_row:  # the second part only when the piece landed in a row
            rows = windows(self.tables, self.layout, self.after_row)
            tests = f"{row_through(self.bits(self.tables.symbols_of(player)), rows, 'g')} and ({tests})"
        lines.append(f"if {tests}:")
        lines += ["    " + line for line in [f"{turn} = {player}", f"{last} = g", *self.words.go_on(group.heading)]]
        lines += ["else:"] + ["    " + line for line in hand_over]
        if group.promotes:  # a piece crowned ends its turn
            return ([f"if {group.target} & {group.promotes}:"] + ["    " + line for line in hand_over] + ["else:"]
                    + ["    " + line for line in lines])
        return lines

    # -- expand: every child of one position --------------------------------
    def expand_block(self, player: int, continuing: bool) -> list[str]:
        mover = player if continuing else self.previous[player]
        lines, groups = self.movegen(player, continuing, "last")
        passes = (continuing and self.again is not None and self.again.may_pass) or self.pass_rule
        # the end rules only ask whether there is a move (``no moves``), never how many
        found = " | ".join([*(f"m{i}" for i in range(len(groups))),
                            *(f"len({c.found})" for c in (self.chainers(player) if self.chain else ()))]) or "0"
        if self.stuck:
            lines += [f"raw = {found}", "total = 1"]
        else:
            lines.append(f"total = {'1' if passes else found}")
        lines += self.end_checks(mover, lambda result: [f"return {result}"], self.mid_turn(continuing))
        lines.append(f"cur = {self.vars}")
        if not self.continued and not self.keeps_last and not any(g.keeps for g in groups):  # the next player is known
            if self.chain:
                lines += self.chain_children(player, [f"put(({self.vars} {self.other[player]}, 0))"])
            handed, nt = self.hand_to(player, "nt")
            lines += self.each_child(groups, lambda group: [*handed, f"put(({self.vars} {nt}, 0))"])
        else:
            lines += self.each_child(groups, lambda group: self.after_move(player, group, "nt", "nl", continuing)
                                     + [f"put(({self.vars} nt, {'nl' if self.continued or self.keeps_last else 0}))"])
        handed, nt = self.hand_to(player, "nt", True)
        passed = [*handed, f"put(({self.vars} {nt}, 0))"]
        if passes:
            lines += passed
        elif self.stuck:
            lines += ["if not raw:"] + ["    " + line for line in passed]
        return lines + ["return None"]

    # -- perft -------------------------------------------------------------
    def perft_block(self, player: int, continuing: bool) -> list[str]:
        mover = player if continuing else self.previous[player]
        lines, groups, passes = self.counted(player, continuing)
        lines += self.end_checks(mover, lambda result: ["return 0"], self.mid_turn(continuing))
        following = self.other[player]
        if self.repetition:
            return lines + ["if depth == 1:", "    return total", "n = 0", "fresh = cur not in hist", "hist.add(cur)",
                            "for key in found:", f"    n += perft(*key, {following}, 0, hist, depth - 1)",
                            "if fresh:", "    hist.discard(cur)", "return n"]
        lines += ["if depth == 1:", "    return total", "n = 0", f"cur = {self.vars}"]
        if self.history:  # the board joins the earlier boards while the plies below it are counted
            lines += [f"key = {self.passing.board()}", "fresh = key not in hist", "hist.add(key)"]
        if self.past:
            lines.append(f"hist.append({self.key()})")
        if self.chain:
            lines += self.chain_children(player, [f"n += perft({self.vars} {following}, 0, hist, depth - 1)"])
        lines += self.each_child(groups, lambda group: self.after_move(player, group, "nt", "nl", continuing)
                                 + (["nl = 0"] if not self.continued and not self.keeps_last else [])
                                 + [f"n += perft({self.vars} nt, nl, hist, depth - 1)"])
        if passes:
            lines += (["if not raw:"] if self.forced(continuing) else ["if True:"])
            handed, nt = self.hand_to(player, "nt", True)
            lines += ["    " + line for line in [*handed, f"n += perft({self.vars} {nt}, 0, hist, depth - 1)"]]
        if self.history:
            lines += ["if fresh:", "    hist.discard(key)"]
        return lines + (["hist.pop()"] if self.past else []) + ["return n"]

    def mid_turn(self, continuing: bool) -> bool:
        """Between the two parts of a turn: the end rules wait for the turn to be complete."""
        return continuing and self.then is not None

    def end_checks(self, mover: int, finish: Callable[[str], list[str]], mid_turn: bool = False,
                   newest: str | None = None) -> list[str]:
        lines: list[str] = []
        end = self.active.first(m.End)
        conditions = _Conditions(self, mover, newest=newest)
        if self.placing is not None:  # at most one seat plays, once a turn is complete: every seat has a place
            lines += [f"if not last and {self.placing.over()}:", *("    " + x for x in finish(f"(None, {PLACED})"))]
        rules = [rule for rule in (end.rules if end and not mid_turn else ()) if rule.result not in PLACINGS]
        for i, rule in enumerate(rules):
            test = conditions.visit(rule.condition)
            if rule.by_score:  # the scores decide who wins
                scores = [conditions.visit(expr) for expr in score_parts(self.active, self.tables)]
                lines += [f"if {test}:"] + ["    " + line for line in
                                            best_score(scores, rule.result == "loses", i, finish)]
                continue
            if rule.result == "draw":
                winner = "None"
            else:
                who = conditions.player(rule.player or "mover")
                winner = str(who if rule.result == "wins" else self.opponent[who])
            lines.append(f"if {test}:")
            lines += ["    " + line for line in finish(f"({winner}, {i})")]
        lines.append("if not total:")
        lines += ["    " + line for line in finish("(None, -1)")]
        return (self.opponent_moves(mover) if conditions.nobody else []) + conditions.before + lines

    def opponent_moves(self, mover: int) -> list[str]:
        """Statements setting ``om`` to a mask that is not zero when the other player (``mover``, who just
        moved) has a move, computed only when the player to move has none (``nobody can move``)."""
        if self.continued or len(self.other) != 2:
            raise Unsupported("nobody can move beside go-again or two-part turns, or among more than two players")
        check, groups = self.movegen(mover, False, "last", prefix="o")
        found = " | ".join(f"o{i}" for i in range(len(groups))) or "0"
        return ["om = 1", f"if not {'raw' if self.stuck else 'total'}:"] + [
            "    " + line for line in [*check, f"om = {found}"]]

    def function(self, head: str, block: Callable[[int, bool], list[str]], loop: bool) -> str:
        full = self.layout.full
        body = [f"e = {full} ^ {self.bits(self.symbols)}", *self.passing.save()]
        count = len(self.other)
        for player in range(count):
            body.append("if True:" if count == 1 else "else:" if player == count - 1
                        else f"{'if' if player == 0 else 'elif'} turn == {player}:")
            if self.continued:
                body.append("    if last:")
                body += ["        " + line for line in block(player, True)]
                body.append("    else:")
                body += ["        " + line for line in block(player, False)]
            else:
                body += ["    " + line for line in block(player, False)]
        if loop:
            body = ["plies = 0", *([f"{self.newest} = 0"] if self.newest else []), "while True:",
                    "    if plies == cap:", f"        return {self.vars} turn, last, None, plies"] \
                + ["    " + line for line in body]
        return head + "".join("    " + line + "\n" for line in body)

    def nonlinear(self) -> bool:
        """Whether the evaluation uses a feature the search helpers compute with ``feats`` (``area``...)."""
        stmt = self.active.first(m.Evaluate)
        return stmt is not None and any(f.name in NONLINEAR for f in stmt.features)

    def build(self) -> Kernel:
        functions = {"playout": self.function(f"def playout({self.vars} turn, last, hist, randrange, cap):\n",
                                              self.playout_block, loop=True),
                     "perft": self.function(f"def perft({self.vars} turn, last, hist, depth):\n",
                                            self.perft_block, loop=False)}
        if not self.repetition and not self.history and not self.past:
            functions["expand"] = self.function(f"def expand({self.vars} turn, last, put):\n", self.expand_block,
                                                loop=False)
        helpers = []
        if self.drop_mates is not None:  # the other player's moves after a drop that may mate
            helpers.append(self.can_move())
        if self.attacks is not None:  # the attack test the moves and conditions call (:mod:`~.attacks`)
            helpers.append(self.attacks.function(self.board_vars, self.bits(self.symbols), self.constants))
        source = "\n\n".join([*functions.values(), *helpers])
        if len(source) > MAX_SOURCE:  # compiling it would take longer than the generic path saves
            raise Unsupported(f"generated source of {len(source):,} characters")
        namespace: dict = {"__builtins__": dict(BUILTINS), **self.constants}
        lazy = lazy_kernel_functions(namespace, functions, "\n\n".join(helpers))  # each checked at its first call
        kernel = Kernel(lazy["playout"], lazy["perft"], lazy.get("expand"), self.layout, self.symbols,
                        self.continued or self.keeps_last, self.repetition or self.history,
                        bool(self.active.all(m.Misere)), tuple(self.opponent), source,
                        {k: v for k, v in self.constants.items() if k != "beyond"}, self.counter is not None,
                        len(self.hand_vars), self.words.fields, links=self.links,
                        seats=len(self.tables.player_names) if self.placing is not None else 0,
                        passes=self.passing.passes is not None, before=self.passing.known is not None,
                        empty=self.tables.empty, marks=self.mark_fields, past=self.past, native=self.attacks is None,
                        features=self.nonlinear())
        own(kernel, lazy)
        return kernel


BUILTINS = {"range": range, "bool": bool, "len": len}
# Everything the generated source may contain: these statements and expressions, whole numbers,
# True/False/None, the names it makes itself, and these methods of integers, lists and sets.
NODES = (ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.While, ast.If, ast.For, ast.Assign, ast.AugAssign,
         ast.Return, ast.Expr, ast.Break, ast.Pass, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.Call, ast.Name,
         ast.Constant, ast.Tuple, ast.List, ast.Attribute, ast.Subscript, ast.Starred, ast.Load, ast.Store,
         ast.operator, ast.unaryop, ast.boolop, ast.cmpop)
METHODS = {"bit_count", "bit_length", "append", "add", "discard", "pop", "count"}
NAME = re.compile(r"[a-z]{1,9}[0-9]*(_[0-9]+[pn])?|[a-z][0-9]+z[0-9]+_[0-9]+[pn]|(AHEAD|ATLEAST)P[01]|LNA[0-9]+"
                  r"|TURN[0-9]")
PYTHON_NAMES = set(dir(builtins)) - set(BUILTINS)  # a builtin the namespace does not hand over is refused


class KernelSourceError(RulesdslError):
    """Generated source that is not made of what this module writes (a bug, never run)."""


def check_source(source: str) -> ast.Module:
    """The syntax tree of generated source, after checking that it holds nothing but integer code.

    This is the one place where the interpreter compiles Python: the source is
    written by this module from integers, and this check makes sure of it
    before anything runs (tests/test_no_code_execution.py holds it to that):
    no string or float constant, no name it does not make, no attribute but
    the few integer and container methods, no import, lambda, class or
    comprehension.
    """
    tree = ast.parse(source)
    seen: set[str] = set()  # names already found good (a kernel repeats a few hundred names many times)
    stack: list[ast.AST] = [tree]
    while stack:  # every node once; faster than ast.walk, which a native start would wait on
        node = stack.pop()
        kind = type(node)
        if kind not in _ALLOWED:
            raise KernelSourceError(f"generated source holds a {kind.__name__}")
        if kind is ast.Name:
            _check_name(node.id, seen)
            stack.append(node.ctx)
            continue
        if kind is ast.Constant:
            if not (node.value is None or isinstance(node.value, (bool, int))):
                raise KernelSourceError("generated source holds a constant that is not a number")
            continue
        if kind is ast.List and node.elts:
            raise KernelSourceError("generated source holds a list display that is not empty")
        elif kind is ast.Attribute and node.attr not in METHODS:
            raise KernelSourceError(f"generated source reads .{node.attr}")
        elif kind is ast.arg:
            _check_name(node.arg, seen)
        elif kind is ast.FunctionDef:
            _check_name(node.name, seen)
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                stack.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
    return tree


def _check_name(name: str, seen: set[str]) -> None:
    if name in seen:
        return
    if not NAME.fullmatch(name) or name in PYTHON_NAMES:
        raise KernelSourceError(f"generated source names {name!r}")
    seen.add(name)


def _subclasses(kind: type) -> set[type]:
    return {kind}.union(*(_subclasses(k) for k in kind.__subclasses__()))


_ALLOWED = frozenset().union(*(_subclasses(k) for k in NODES))  # the node types, operators' kinds included


def run_checked(source: str, namespace: dict) -> None:
    """Compile and run checked source (function definitions) into ``namespace``."""
    code = compile(check_source(source), "<rulesdsl kernel>", "exec")  # noqa: S102 - checked: integers only
    exec(code, namespace)  # noqa: S102 - defines the kernel's functions, nothing else


def beyond(mine: int, theirs: int, ahead: tuple[int, ...], at_least: tuple[int, ...]) -> bool:
    """``P has KIND beyond every OTHER``: some piece of ``mine`` is further ahead than every piece of ``theirs``.

    ``ahead[bit]`` is a cell's distance along the player's forward direction,
    ``at_least[d]`` the cells at distance ``d`` or more (``d`` counted from the
    smallest distance).
    """
    if not mine:
        return False
    best = max(ahead[b] for b in _bits(mine))
    return not theirs & at_least[best]


def _bits(x: int):
    """The bit numbers set in ``x``."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class _Conditions(m.ExprVisitor):
    """End-rule conditions as Python expressions over the bitboards and ``total``, for a known mover."""

    OPERATORS = {op: op for op in BINARY}  # the same operators, spelled the same in Python

    def __init__(self, builder: _Builder, mover: int, bound: int | None = None, newest: str | None = None):
        self.builder = builder
        self.mover = mover
        self.bound = bound  # the seat ``player`` names in a placing rule's condition
        self.newest = newest  # a playout's last placed piece (the mover's), for conditions that need only its group
        self.guards: list[str] = []  # the conditions an ``and`` puts before the item being visited
        self.areas = 0  # the areas worked out so far (``ar0``, ``ar1``...)
        self.nobody = False  # a condition reads ``nobody can move`` (``om``: the other player's moves)
        self.before: list[str] = []  # statements the conditions read the results of (``connects``' flood fills)

    def player(self, name: str) -> int:
        if name == EACH_SEAT and self.bound is not None:
            return self.bound
        if name in ("mover", "opponent") and self.builder.placing is not None:
            raise Unsupported("mover or opponent where the turn skips placed seats")
        if name == "mover":
            return self.mover
        if name == "opponent":
            return self.builder.opponent[self.mover]
        return self.builder.tables.player_index(name)

    def generic_visit(self, expr: m.Expr) -> str:
        raise Unsupported(type(expr).__name__)

    def visit_Literal(self, expr: m.Literal) -> str:
        return _number(expr.value)

    def visit_NameRef(self, expr: m.NameRef) -> str:
        return _number(self.builder.options[expr.name])

    def visit_Binary(self, expr: m.Binary) -> str:
        if expr.op not in self.OPERATORS:
            raise Unsupported(expr.op)
        compared = fractional_comparison(expr, self.builder.options, self.visit)
        if compared is not None:
            return compared
        return f"({self.visit(expr.left)} {self.OPERATORS[expr.op]} {self.visit(expr.right)})"

    def visit_Logic(self, expr: m.Logic) -> str:
        if expr.op not in ("and", "or"):
            raise Unsupported(expr.op)
        items: list[str] = []
        for item in expr.items:  # work out what an item needs first only where the items before it hold
            self.guards.append(f" {expr.op} ".join(items) if expr.op == "and" and items else "")
            items.append(self.visit(item))
            self.guards.pop()
        return "bool(" + f" {expr.op} ".join(items) + ")"

    def visit_PassesInARow(self, expr: m.PassesInARow) -> str:
        return self.builder.passing.passes

    def visit_BoardRepeated(self, expr: m.BoardRepeated) -> str:
        return f"(not {self.builder.passing.passes} and {self.builder.passing.board()} in hist)"

    def area(self, expr: m.Call) -> str:
        """``area(PLAYER)`` (:func:`~rulesdsl.interpreter.kernel.liberties.area`), worked out only where the
        conditions it is joined to by ``and`` hold."""
        builder, tables = self.builder, self.builder.tables
        geometry = tables.geometry
        if len(expr.args) != 1 or geometry.has_lines or "orthogonal" not in geometry.direction_sets:
            raise Unsupported("an area on this board")
        mine, player = self.pieces(expr.args[0], None)
        theirs = builder.bits(frozenset(tables.owner) - tables.symbols_of(player))
        vectors = [geometry.directions[d] for d in geometry.direction_sets["orthogonal"]]
        name = f"ar{self.areas}"
        self.areas += 1
        lines = area(builder.layout, vectors, mine, theirs, name)
        guard = " and ".join(f"({g})" for g in self.guards if g)
        if guard:
            lines = [f"{name} = 0", f"if {guard}:"] + ["    " + line for line in lines]
        self.before += lines
        return name

    def visit_Unary(self, expr: m.Unary) -> str:
        return f"(not {self.visit(expr.operand)})" if expr.op == "not" else f"(-{self.visit(expr.operand)})"

    def pieces(self, who: str, kind: str | None) -> tuple[str, int]:
        """The expression of a player's pieces of a kind (``0`` when the player has none of it), and the player."""
        player = self.player(who)
        return self.builder.bits(self.builder.tables.symbols_of(player, kind)), player

    def visit_Call(self, expr: m.Call) -> str:
        builder = self.builder
        if expr.function == "score":  # the player's score expression (a score is never made of scores)
            return f"({self.visit(score_parts(self.builder.active, self.builder.tables)[self.player(expr.args[0])])})"
        if expr.function == "area":
            return self.area(expr)
        if expr.function == "attacked" and len(expr.args) == 2:  # ``attacked(PLAYER KIND)``: how many are attacked
            pieces, player = self.pieces(expr.args[0], expr.args[1])
            number = sum(line.startswith("ak") and " = 0" in line for line in self.before)
            lines, name = builder.attack_tests().count_lines(builder.board_vars, pieces, builder.opponent[player],
                                                             number)
            self.before += lines
            return name
        if expr.function == "count" and (expr.args[0] not in ("mover", "opponent", EACH_SEAT,
                                                                         *builder.tables.player_names)
                                         or in_region(builder.tables, expr.args)):
            return self.region_count(list(expr.args))
        if len(expr.args) > 2:
            raise Unsupported("a count of more than a player and a kind")
        kind = expr.args[1] if len(expr.args) > 1 else None
        bits, player = self.pieces(expr.args[0], kind)
        now = f"{bits}.bit_count()" if bits != "0" else "0"
        builder = self.builder
        if builder.drops is not None:  # the pieces in hand count too, kind by kind (:mod:`~.drops`)
            if expr.function != "count":
                raise Unsupported("lost beside a hand")
            now = " + ".join([now, *builder.drops.held(player, kind)])
        elif builder.hand_vars and kind in (None, builder.tables.hand_kind):  # the pieces in hand count too
            if expr.function != "count":
                raise Unsupported("lost beside a hand")
            now = f"{now} + {builder.hand_vars[player]}"
        if expr.function == "count":
            return f"({now})"
        if expr.function == "lost":
            syms = self.builder.tables.symbols_of(player, kind)
            board = self.builder.start_board()
            start = sum(board.count(s) for s in syms)
            return f"({start} - {now})"
        raise Unsupported(expr.function)

    def region_count(self, args: list[str]) -> str:
        """``count([PLAYER] [KIND] [REGION])`` (both players' pieces when none is named), as the reference's
        :func:`~rulesdsl.interpreter.reference.piece_counts.region_count` counts them."""
        builder = self.builder
        tables = builder.tables
        if builder.hand_vars and builder.drops is None:
            raise Unsupported("a count in a region beside a hand")
        who = args.pop(0) if args and args[0] in ("mover", "opponent", *tables.player_names) else None
        region = args.pop() if in_region(tables, tuple(args)) else None
        kind = args[0] if args else None
        players = [self.player(who)] if who is not None else range(len(tables.player_names))
        terms = []
        for p in players:
            pieces = builder.bits(tables.symbols_of(p, kind))
            if pieces == "0":
                continue
            if region is not None:
                pieces = f"({pieces} & {builder.layout.mask(tables.region(region, p))})"
            terms.append(f"{pieces}.bit_count()")
        return "(" + (" + ".join(terms) or "0") + ")"

    def visit_QuietPlies(self, expr: m.QuietPlies) -> str:
        if self.builder.counter is None:
            raise Unsupported("plies without capture")
        return self.builder.counter

    def visit_PliesSince(self, expr: m.PliesSince) -> str:
        return self.visit_QuietPlies(expr)

    def visit_Repetitions(self, expr: m.Repetitions) -> str:
        return f"(1 + hist.count({self.builder.key()}))"

    def visit_TurnsPlayed(self, expr: m.TurnsPlayed) -> str:
        return self.builder.words.turns or "0"

    def visit_NoMoves(self, expr: m.NoMoves) -> str:
        return "(not total)"

    def visit_NobodyMoves(self, expr: m.NobodyMoves) -> str:
        self.nobody = True
        return f"(not {'raw' if self.builder.stuck else 'total'} and not om)"

    def visit_OneGroup(self, expr: m.OneGroup) -> str:
        bits, player = self.pieces(expr.player, None)
        builder = self.builder
        along = expr.directions or (m.DirRef(expr.span, "all"),)
        lines, test = one_group(builder.layout, builder.tables.vectors(along, player), bits,
                                sum(line.startswith("ogp") for line in self.before))
        self.before += lines
        return test

    def visit_Connects(self, expr: m.Connects) -> str:
        if self.builder.tables.geometry.has_lines:
            raise Unsupported("connects on a board of points and lines")
        bits, player = self.pieces(expr.player, None)
        builder = self.builder
        first, goal = (board_side(builder.tables.geometry, side.name) for side in expr.sides)
        if expr.links:  # a chain of linked pieces (:mod:`~.links`)
            if builder.links is None:
                raise Unsupported("connects by links without links")
            name = f"cj{sum(line.startswith('cj') for line in self.before)}"
            lines, test = builder.links.joins(bits, builder.layout.mask(first), builder.layout.mask(goal), name)
            self.before += lines
            return test
        along = expr.along or (m.DirRef(expr.span, "all"),)
        lines, test = joins(builder.tables, builder.layout, bits, player, first, goal, along,
                            f"cj{sum(line.startswith('cj') for line in self.before)}")
        self.before += lines
        return test

    def visit_Ring(self, expr: m.Ring) -> str:
        bits, _ = self.pieces(expr.player, None)
        lines, test = ring(*self.builder.outline(), bits, len(self.before))
        self.before += lines
        return test

    def visit_Joins(self, expr: m.Joins) -> str:
        bits, player = self.pieces(expr.player, None)
        wanted = _value(expr.count, self.builder.options)
        if isinstance(wanted, bool) or not isinstance(wanted, int):
            raise Unsupported("a count of corners or edges that is not a whole number")
        # once each player has placed a piece in the playout, only the mover's newest piece's group is new
        newest = (f"plies >= {len(self.builder.other)}", self.newest) if self.newest and player == self.mover else None
        lines, test = joined(*self.builder.outline(), bits, expr.what, wanted, len(self.before), newest)
        self.before += lines
        return test

    def visit_InARow(self, expr: m.InARow) -> str:
        from rulesdsl.expr import evaluate

        length = evaluate(expr.length, self.builder.options)
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise Unsupported("a row length that is not a whole number")
        if self.builder.tables.geometry.has_lines:
            raise Unsupported("rows on a board of points and lines")
        bits, _ = self.pieces(expr.player, None)
        return in_a_row(self.builder.tables, self.builder.layout, bits, length)

    def visit_BoardsInARow(self, expr: m.BoardsInARow) -> str:
        from rulesdsl.expr import evaluate

        if self.builder.tables.nest is None:
            raise Unsupported("in a row of boards without small boards")
        bits, _ = self.pieces(expr.player, None)
        lines, test = boards_in_a_row(self.builder.tables, self.builder.layout, bits,
                                      int(evaluate(expr.length, self.builder.options)),
                                      f"bw{sum(line.startswith('bw') for line in self.before)}")
        self.before += lines
        return test

    def visit_Fills(self, expr: m.Fills) -> str:
        bits, player = self.pieces(expr.player, None)
        # a placing rule's condition is tried once a turn is complete, where ``last`` may still be the parent's
        return fills(self.builder.tables, self.builder.layout, bits, expr.region, player, self.bound is not None)

    def visit_ReachesFarRow(self, expr: m.ReachesFarRow) -> str:
        builder = self.builder
        tables, layout = builder.tables, builder.layout
        if expr.player not in ("mover", "opponent", *tables.player_names):
            return "True"  # a seat left empty: no pawn to shut in
        bits, player = self.pieces(expr.player, None)
        if bits == "0":
            return "True"
        walls = builder.bits(frozenset(tables.neutral.values()))
        far = layout.mask(tables.far_cells(player)) & squares(layout)
        lines, test = reaches(layout, far, bits, walls, f"rf{player}")
        self.before += lines
        return test

    def visit_HasNone(self, expr: m.HasNone) -> str:
        bits, _ = self.pieces(expr.player, None if expr.kind == "pieces" else expr.kind)
        return f"(not {bits})" if bits != "0" else "True"

    def visit_OnFarRow(self, expr: m.OnFarRow) -> str:
        bits, player = self.pieces(expr.player, expr.kind)
        tables = self.builder.tables
        if bits == "0" or player not in tables.forward:
            return "False"
        far = self.builder.layout.full & ~self.builder.layout.has_next(tables.forward[player])
        return f"bool({bits} & {far})"

    def visit_Beyond(self, expr: m.Beyond) -> str:
        if self.builder.tables.geometry.has_lines:
            raise Unsupported("beyond on a board of points and lines")
        mine, player = self.pieces(expr.player, expr.kind)
        theirs, _ = self.pieces(expr.other, expr.other_kind)
        builder = self.builder
        if player not in builder.tables.forward:
            raise Unsupported("beyond without a forward direction")
        fx, fy = builder.tables.forward[player]
        layout = builder.layout
        distance = {layout.bit[c.index]: c.x * fx + c.y * fy for c in builder.tables.geometry.cells}
        low = min(distance.values())
        ahead = [0] * (max(distance) + 1)
        for b, d in distance.items():
            ahead[b] = d - low
        at_least = tuple(sum(1 << b for b, d in distance.items() if d - low >= k)
                         for k in range(max(distance.values()) - low + 1))
        name = f"P{player}"
        builder.constants[f"AHEAD{name}"], builder.constants[f"ATLEAST{name}"] = tuple(ahead), at_least
        builder.constants["beyond"] = beyond
        return f"beyond({mine}, {theirs}, AHEAD{name}, ATLEAST{name})"


def _origin(group: Group, protected: set[str], reads_victims: bool) -> tuple[list[str], str] | None:
    """For a move that only takes its piece from one cell to the landing cell ``t`` (taking what stood there, maybe
    promoting it) or drops a piece there: the statements finding the cell it leaves and that cell's expression
    (``"0"`` for a drop); ``None`` for any other move (castling, in passing, pushes...), or for a move of a
    protected piece when an attack reads the kind of the piece it takes (``taking KIND``)."""
    if group.action == "drop":
        board = group.board or group.apply
        return ([], "0") if not any(name in line for line in board for name in protected) else None
    if group.action not in ("step", "slide") or group.origins is not None or group.aside \
            or group.touches is not None or group.piece is None or group.moved not in ((), (group.origin_shift,)) \
            or (reads_victims and group.piece in protected):
        return None
    if not group.walks:
        return [], shifted("t", -group.origin_shift)
    board = group.board or group.apply
    walked = f"{group.piece} ^= u | t"  # a slide walks back from the landing cell to its piece (``u``)
    return (board[:board.index(walked)], "u") if walked in board else None


def _moved(mover: str, crowned: str | None, far: int, back: int) -> list[str]:
    """Statements moving a piece of the bitboard ``mover`` from ``back`` places behind bit ``t`` to ``t``; with
    ``crowned``, a piece landing on the cells ``far`` becomes a piece of that bitboard (``promote``)."""
    if crowned is None:
        return [f"{mover} ^= {shifted('t', -back)} | t"]
    return [f"{mover} ^= {shifted('t', -back)}", f"if t & {far}:", f"    {crowned} |= t", "else:", f"    {mover} |= t"]


def _extra_fields(statement, known: set[str]) -> bool:
    """True when a field the kernel does not read differs from its default (a newer word of the language)."""
    return any(f.name not in known and getattr(statement, f.name) != f.default for f in fields(statement))


def _number(value: Value) -> str:
    """A number or truth value as Python source (anything else is not compiled)."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float) and value.is_integer():  # an option with a decimal part set to a whole number
        return str(int(value))
    raise Unsupported("a value that is not a number")


def _truth(expr: m.Expr, options: Mapping[str, Value]) -> bool:
    return bool(_value(expr, options))


def _value(expr: m.Expr, options: Mapping[str, Value]) -> Value:
    from rulesdsl.expr import evaluate

    return evaluate(expr, options)
