"""Position strings and move notation, both ways, as a rule file declares them.

A position is ``(FIELD FIELD ...)`` where each field is ``turn`` (a player's
symbol), ``last`` (``""`` or the cell a go-again turn continues from),
``rows`` (one word per row, in the declared listing order) or ``board`` (every
cell in one word), or one of what the rules remember (``hand``, ``unmoved``,
``passed``, ``clock``, ``links``, ``turns``, ``passes``, ``before``). A move is
written by joining ``from``, ``to`` and literal text, e.g. ``from "-" to``
gives ``b2-d2``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from rulesdsl.errors import MoveError, PositionError
from rulesdsl.interpreter.compile.game import NO_CELL, PASS_ACTION, Move, State
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.reference.counts import MAX_COUNT, cell_text, count_symbol, is_count
from rulesdsl.interpreter.reference.drops import DROP_ACTION, DROP_MARK, hand_text, read_hand
from rulesdsl.interpreter.reference.history import History
from rulesdsl.interpreter.reference.linking import format_links, parse_links
from rulesdsl.interpreter.reference.marks import MarkBook, Marks

PASS = "pass"
COUNTED = {"clock": "plies", "turns": "turns", "passes": "passes"}  # what each number field counts
REMOVE_ACTION = "remove"
REMOVE_MARK = "x"  # a removal is written x and the cell: xd2


class SizeMismatch(PositionError):
    """A well-formed position for another board size; says which sizes it implies."""

    def __init__(self, message: str, implied_size: tuple[int, ...]):
        super().__init__(message)
        self.implied_size = implied_size
        self.implied_options: dict[str, int] = {}


def position_codec(tables: Tables, fields: tuple[str, ...], keeps_history: bool,
                   marks_book: Callable[[], MarkBook | None] | None = None):
    """``(parse, format)`` for the declared position format (``marks_book()``: the game's marks, for the
    fields ``unmoved`` and ``passed``)."""
    geometry = tables.geometry
    rows = geometry.rows_listed
    ncells = len(geometry.cells)
    turn_symbols = {p: i for i, p in enumerate(tables.player_symbols)}
    legal = set(tables.owner) | {tables.empty}
    shape = geometry.shape
    nplayers = len(tables.player_names)
    around = board_in_position(tables, fields)
    counted = tables.counted is not None
    board_at = sum(1 for f in fields if f not in ("rows", "board"))  # the board's words come last
    joiner, shown = (",", cell_text) if counted else ("", str)

    def fail(text: str, why: str) -> PositionError:
        return PositionError(f"bad position {text!r}: {why}")

    def parse(text: str) -> State:
        raw = text.strip()
        if raw.startswith("(") and not raw.endswith(")"):
            raise fail(text, "the closing ')' is missing; a position reads like " + example())
        if not (raw.startswith("(") and raw.endswith(")")):
            raise fail(text, "expected it in parentheses, like " + example())
        words = raw[1:-1].split()
        if counted:  # a counting board writes its cells comma-separated, a count as a number
            words = words[:board_at] + [_counted_word(text, w, tables.empty) for w in words[board_at:]]
        turn, last, last_word = None, NO_CELL, '""'
        hand: tuple[int, ...] | None = None
        places: tuple[int, ...] | None = None
        marked: list[tuple[str, str]] = []  # (field, word) of unmoved and passed, read once the board is known
        clock = turns = passes = 0
        before_word = "-"
        links_word = "-"
        cells: list[str] = []
        i = 0
        for field in fields:
            if field == "rows":
                given = words[i:]
                i = len(words)
                if [len(w) for w in given] != [len(r) for r in rows]:
                    raise _size_error(text, given, shape, len(rows), [len(r) for r in rows])
                cells = [""] * ncells
                for row, word in zip(rows, given):
                    for index, ch in zip(row, word):
                        cells[index] = ch
                continue
            if field == "places" and (i >= len(words) or not looks_like_places(words[i], nplayers)):
                places = (0,) * nplayers  # left out: every seat plays
                continue
            if i >= len(words):
                raise fail(text, f"missing the {field} field; expected " + example())
            word = words[i]
            i += 1
            if field == "turn":
                if word not in turn_symbols:
                    raise fail(text, f"turn {word!r} is not a player (expected one of "
                                     f"{', '.join(turn_symbols)})")
                turn = turn_symbols[word]
            elif field == "last":
                last_word = word  # read once the board's size is known
            elif field == "hand" and (len(tables.hand_kinds) > 1 or not word.replace("/", "").isdigit()):
                read = read_hand(word, tables)  # each player's pieces by symbol: PPN/q
                if isinstance(read, str):
                    raise fail(text, read)
                hand = read
            elif field == "hand":
                counts = word.split("/")
                if len(counts) != nplayers or not all(c.isdigit() and len(c) <= 6 for c in counts):
                    raise fail(text, f"hand {word!r} is not the pieces in each player's hand, like "
                                     f"{'/'.join(['9'] * nplayers)}")
                hand = tuple(int(c) for c in counts)
            elif field in ("unmoved", "passed"):
                marked.append((field, word))
            elif field == "links":
                links_word = word
            elif field == "places":
                places = parse_places(word, nplayers, lambda why: fail(text, why))
            elif field in ("clock", "turns", "passes"):
                if not word.isdigit() or len(word) > 6:
                    raise fail(text, f"{field} {word!r} is not a number of {COUNTED[field]}")
                if field == "clock":
                    clock = int(word)
                elif field == "turns":
                    turns = int(word)
                else:
                    passes = int(word)
            elif field == "before":
                before_word = word
            elif field == "board":
                if len(word) != ncells:
                    side = math.isqrt(len(word))
                    implied = (side, side) if side * side == len(word) else ()
                    raise SizeMismatch(f"bad position {text!r}: the board has {len(word)} cells, "
                                       f"expected {ncells}", implied)
                order = [c for row in rows for c in row]
                cells = [""] * ncells
                for index, ch in zip(order, word):
                    cells[index] = ch
        if i < len(words):
            raise fail(text, f"unexpected {words[i]!r} at the end")
        if last_word not in ('""', "''", "-"):
            found = geometry.index_of(last_word.strip('"'))
            if found is None:
                raise fail(text, f"{last_word!r} is not a cell")
            last = found
        bad = sorted({ch for ch in cells if ch not in legal and not (counted and is_count(ch))})
        if bad:
            raise fail(text, f"unknown piece symbol {bad[0]!r} (expected one of {''.join(sorted(legal))})")
        board = "".join(cells)
        turn = turn if turn is not None else 0
        book = marks_book() if marks_book is not None else None
        marks = None
        if book is not None:
            marks = Marks(book.held_on(board))
            for field, word in marked:
                marks = book.parse_field(field, word, text, marks, turn)
        links = parse_links(tables.linking, links_word, geometry.index_of, text, board)
        before = None if before_word == "-" else read_before(text, before_word)
        if places is not None and places[turn] and places.count(0) > 1:
            raise fail(text, f"{tables.player_names[turn]} is to move but has a place already (places "
                             f"{format_places(places)})")
        return State(board, turn, last, History() if keeps_history else None, -1, clock, hand, turns, passes,
                     before, marks=marks, links=links, places=places)

    def read_before(text: str, word: str) -> str:
        """The ``before`` field: a board written as the ``board`` field writes one, in cell-index order."""
        if counted:
            word = _counted_word(text, word, tables.empty)
        order = [c for row in rows for c in row]
        if len(word) != ncells:
            raise fail(text, f"before {word!r} is not a board of {ncells} cells (or - for none)")
        cells = [""] * ncells
        for index, ch in zip(order, word):
            cells[index] = ch
        bad = sorted({ch for ch in cells if ch not in legal and not (counted and is_count(ch))})
        if bad:
            raise fail(text, f"unknown piece symbol {bad[0]!r} in before (expected one of {''.join(sorted(legal))})")
        return "".join(cells)

    def example() -> str:
        if "rows" in fields:
            return around(" ".join(tables.empty * len(r) for r in rows))
        return around(tables.empty * ncells)

    names = [c.name for c in geometry.cells]

    def format_(state: State) -> str:
        parts = []
        board = state.board
        for field in fields:
            if field == "turn":
                parts.append(tables.player_symbols[state.turn])
            elif field == "last":
                parts.append('""' if state.last == NO_CELL else geometry.cells[state.last].name)
            elif field == "hand" and len(tables.hand_kinds) > 1:
                parts.append(hand_text(tables.hand_kinds, tables, state.hand or (0,) * len(tables.hand_starts)
                                       * nplayers))
            elif field == "hand":
                parts.append("/".join(str(n) for n in state.hand or (0,) * nplayers))
            elif field in ("unmoved", "passed"):
                book = marks_book() if marks_book is not None else None
                parts.append(book.format_field(field, state) if book is not None else "-")
            elif field == "clock":
                parts.append(str(state.quiet))
            elif field == "turns":
                parts.append(str(state.turns))
            elif field == "passes":
                parts.append(str(state.passes))
            elif field == "before":
                parts.append("-" if state.before is None else
                             joiner.join(shown(state.before[c]) for row in rows for c in row))
            elif field == "links":
                parts.append(format_links(tables.linking, state.links, names))
            elif field == "places":
                parts.append(format_places(state.places or (0,) * nplayers))
            elif field == "rows":
                parts.extend(joiner.join(shown(board[c]) for c in row) for row in rows)
            else:
                parts.append(joiner.join(shown(board[c]) for row in rows for c in row))
        return "(" + " ".join(parts) + ")"

    return parse, format_


def format_places(places: tuple[int, ...]) -> str:
    """The ``places`` field: each seat's place, ``-`` while it plays (``-/1/-``)."""
    return "/".join(str(p) if p else "-" for p in places)


def looks_like_places(word: str, players: int) -> bool:
    """True when ``word`` is written as a ``places`` field (one entry per seat, ``-`` or a number, by ``/``)."""
    parts = word.split("/")
    return len(parts) == players and all(p == "-" or p.isdigit() for p in parts)


def parse_places(word: str, players: int, fail: Callable[[str], PositionError]) -> tuple[int, ...]:
    """Read a ``places`` field: a place is 1..players; k seats sharing place p cover p .. p + k - 1, which no
    other seat's place may fall in."""
    places = tuple(0 if p == "-" else int(p) for p in word.split("/"))
    covered: list[int] = []
    for place in sorted(set(places) - {0}):
        covered.extend(range(place, place + places.count(place)))
    if len(set(covered)) != len(covered) or any(not 1 <= p <= players for p in covered):
        raise fail(f"places {word!r}: each place is a number from 1 to {players} ('-' for a seat still "
                   "playing); two seats sharing place 2 also hold place 3")
    return places


def _counted_word(text: str, word: str, empty: str) -> str:
    """A row of a counting board (``-,4,4,12``) as board characters; raises :class:`PositionError`."""
    out = []
    for item in word.split(","):
        if item.isdigit():
            if int(item) >= MAX_COUNT:
                raise PositionError(f"bad position {text!r}: {item} is more than a cell can hold")
            out.append(count_symbol(int(item), empty))
        elif len(item) == 1:
            out.append(item)
        else:
            raise PositionError(f"bad position {text!r}: {item!r} is neither a number nor one piece symbol "
                                "(cells are written comma-separated, like -,4,4,0)")
    return "".join(out)


def board_in_position(tables: Tables, fields: tuple[str, ...]) -> Callable[[str], str]:
    """``around(board)``: a position string with the first player to move around a board text.

    Used to read a bare board (a ``--history`` entry, say) with the position parser.
    """
    def around(board: str) -> str:
        words = []
        for field in fields:
            if field == "turn":
                words.append(tables.player_symbols[0])
            elif field == "last":
                words.append('""')
            elif field == "hand":
                empty_hand = "-" if len(tables.hand_kinds) > 1 else "0"
                words.append("/".join(empty_hand * len(tables.player_names)))
            elif field in ("unmoved", "passed", "links", "before"):
                words.append("-")
            elif field in ("clock", "turns", "passes"):
                words.append("0")
            elif field == "places":
                words.append(format_places((0,) * len(tables.player_names)))
            else:
                words.append(board.strip())
        return "(" + " ".join(words) + ")"

    return around


def _size_error(text: str, given: list[str], shape: str, want_rows: int, lengths: list[int]) -> PositionError:
    """A position of another size: say so, and what sizes it implies."""
    message = (f"bad position {text!r}: expected {want_rows} rows of lengths "
               f"{' '.join(map(str, lengths))}, got {len(given)} rows of lengths "
               f"{' '.join(str(len(w)) for w in given)}")
    if given and shape in ("grid", "rhombus") and len({len(w) for w in given}) == 1:
        return SizeMismatch(message, (len(given[0]), len(given)))
    if given and shape == "grid" and len(set(lengths)) > 1:  # a board cut by 'where': its widest row, its rows
        return SizeMismatch(message, (max(len(w) for w in given), len(given)))
    if given and shape == "hexagon" and len(given) % 2 == 1:
        return SizeMismatch(message, ((len(given) + 1) // 2,))
    return PositionError(message)


def move_codec(tables: Tables, parts: tuple[str, ...], suffix: Callable[[str, Move], str] | None = None):
    """``(format, parse)`` for moves; parsing matches against the legal moves (``suffix(board, move)``: text
    written after a move, the kind a promotion with a choice makes)."""
    names = [c.name for c in tables.geometry.cells]
    # A capture chain writes each cell it lands on, joined by the text written before 'to' ("a1-c3-e5").
    joint = next((parts[i - 1] for i in range(1, len(parts)) if parts[i] == "to" and parts[i - 1] != "from"),
                 "-")

    def format_(state: State, move: Move) -> str:
        if move.action == PASS_ACTION:
            return PASS
        if move.action == REMOVE_ACTION:
            return REMOVE_MARK + names[move.target]
        if move.label:
            return move.label
        if move.action == DROP_ACTION:  # the dropped piece's symbol, then where: P@e4
            return move.changes[0][1] + DROP_MARK + names[move.target]
        out = []
        skipping = False  # a placement from no cell: the text between 'from' and 'to' goes too
        for part in parts:
            if skipping and part not in ("from", "to"):
                continue
            skipping = False
            if part == "from":
                out.append(names[move.origin] if move.origin != NO_CELL else "")
                skipping = move.origin == NO_CELL
            elif part == "to":
                out.append("".join(names[c] + joint for c in move.path) + names[move.target])
            else:
                out.append(part)
        if suffix is not None:
            out.append(suffix(state.board, move))
        return "".join(out)

    def normal(text: str) -> str:
        return " ".join(text.lower().split())

    def parse(state: State, text: str, legal: Callable[[State], list[Move]]) -> Move:
        wanted = normal(text)
        if not wanted:
            raise MoveError("empty move")
        moves = legal(state)
        for move in moves:
            if normal(format_(state, move)) == wanted:
                return move
        is_cell = lambda word: tables.geometry.index_of(word) is not None  # noqa: E731
        unknown = [w for w in cell_words(wanted, parts, is_cell) if not is_cell(w)]
        if unknown and wanted != PASS:
            if side_by_side(parts) and moves:
                raise MoveError(f"{text.strip()!r} does not read as cells of this board written side by side "
                                f"(like {format_(state, moves[0])!r})")
            raise MoveError(f"{text.strip()!r}: {unknown[0]!r} is not a cell of this board")
        if not moves:
            raise MoveError(f"{text.strip()!r}: the game is over, there are no moves")
        shown = ", ".join(format_(state, m) for m in moves[:12]) + (", ..." if len(moves) > 12 else "")
        raise MoveError(f"{text.strip()!r} is not a legal move here (legal: {shown})")

    return format_, parse


def cell_words(text: str, parts: tuple[str, ...], is_cell: Callable[[str], bool] | None = None) -> list[str]:
    """Split a move's text at the literal separators of its notation; where the notation writes two cells
    side by side with nothing between (``from to``: ``a5b5``), split a word that is no cell at the one place
    that leaves two cells (``is_cell`` tells a cell's name)."""
    pieces = [text]
    for part in parts:
        if part not in ("from", "to") and part.strip():
            sep = part.strip().lower()
            pieces = [p for chunk in pieces for p in chunk.split(sep)]
    words = [p for chunk in pieces for p in chunk.split() if p]
    if is_cell is None or not side_by_side(parts):
        return words
    split: list[str] = []
    for word in words:
        split.extend(_two_cells(word, is_cell) or (word,))
    return split


def _two_cells(word: str, is_cell: Callable[[str], bool]) -> tuple[str, str] | None:
    """``(first, second)`` where ``word`` is no cell but two cells written together, split at the one place that
    leaves two cells (a letter after the second cell, a promotion's ``e7e8q``, is left out), or ``None``."""
    if is_cell(word):
        return None
    for end in (len(word), len(word) - 1):
        halves = [(word[:i], word[i:end]) for i in range(1, end) if is_cell(word[:i]) and is_cell(word[i:end])]
        if len(halves) == 1:
            return halves[0]
    return None


def side_by_side(parts: tuple[str, ...]) -> bool:
    """Whether the notation writes two cells with no separator between them (``notation from to``)."""
    cells = [i for i, part in enumerate(parts) if part in ("from", "to")]
    return any(b == a + 1 or all(not p.strip() for p in parts[a + 1:b]) for a, b in zip(cells, cells[1:]))
