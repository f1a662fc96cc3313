"""Every word of the language's open vocabularies, declared once with its facts.

Move actions, the options a move rule takes (modifiers), end conditions,
functions and evaluation features. The checker, the syntax-error hints and the
tables of ``docs/language.md`` (``scripts/vocabulary_docs.py``) read this
module; ``tests/test_vocabulary.py`` fails when the grammar's keywords, the
model, the compiler's dispatch or the docs disagree with it. A word the
registry does not know is an error (``E066``, ``E081``), never a fall-through
to another word. ``docs/contributing.md`` shows how to add one.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Action:
    """A move action: ``KIND ACTION DIRECTIONS [modifiers]`` (or ``place KIND ...``)."""

    name: str
    summary: str  # what it moves, one line (docs, hints)
    modifiers: tuple[str, ...] = ()  # the modifiers (keys of MODIFIERS) a rule with this action may carry
    moves_a_piece: bool = True  # False for place and remove: no piece moves from an origin cell
    verb_first: bool = False  # written 'VERB KIND' (place, fly, remove), not 'KIND ACTION': not an ACTION word
    reaches: bool = False  # may follow 'place KIND from last' (the way a placement reaches its cell)


@dataclass(frozen=True)
class Modifier:
    """An option of a move rule: ``over enemy``, ``to empty``, ``capture``, ``line 2..3``..."""

    name: str
    written: str  # how it is written, for docs
    values: tuple[str, ...] = ()  # the words it takes (the first is the default), () when it takes none
    rules: tuple[str, ...] = ()  # the grammar's aliases of move_option that build it (place's are inline)
    misplaced: str = "'{word}' belongs to {owners}, not {action}"  # E061, for another action


@dataclass(frozen=True)
class Condition:
    """An end condition, a built-in boolean of end-rule expressions."""

    written: str  # as written, with PLAYER/KIND/N placeholders (docs, hints)
    node: str  # the model class (rulesdsl.model) that the parser builds
    rule: str  # the grammar's alias (the parser's method)
    summary: str  # what it means, one line
    needs_forward: bool = False  # measured along each player's 'forward'


@dataclass(frozen=True)
class Function:
    """A function of end-rule expressions: ``count(PLAYER [KIND])``."""

    name: str
    summary: str
    args: str = "PLAYER [KIND]"


@dataclass(frozen=True)
class Feature:
    """An evaluation feature: ``FEATURE [KIND] WEIGHT`` in an ``evaluate`` block."""

    name: str
    summary: str  # for one player (the evaluation is mine minus the opponent's)
    takes_kind: bool = True
    needs_forward: bool = False


ACTIONS: dict[str, Action] = {a.name: a for a in (
    Action("step", "one cell (or one leap, along a vector such as `(1, 2)`)", ("to", "from", "within", "unmoved",
                                                                             "safe", "blocked", "taking", "custodial"),
           reaches=True),
    Action("jump", "over the adjacent cell to the cell beyond", ("over", "capture", "flying", "custodial")),
    Action("slide", "any number of cells in a straight line", ("to", "over", "by pieces in line", "exactly", "from",
                                                               "within", "unmoved", "safe", "bringing", "passing",
                                                               "taking", "custodial"),
           reaches=True),
    Action("push", "a line of own pieces one cell, shoving enemy pieces ahead", ("line",)),
    Action("place", "a new piece onto an empty cell (no origin)",
           ("falling", "flanking", "enclosing", "from last", "from hand", "in", "in sent board"),
           moves_a_piece=False, verb_first=True),
    Action("fly", "to any empty cell of the board (`fly KIND`)", verb_first=True),
    Action("remove", "takes an enemy piece of KIND off the board, from any cell (`remove KIND`)", ("except",),
           moves_a_piece=False, verb_first=True),
    Action("sow", "every counted piece of one of the mover's cells, one a cell along a track (`sow KIND from "
           "REGION along TRACK`)", ("skipping", "again in", "capture into"), moves_a_piece=False, verb_first=True),
    Action("walk", "to the next square of a wall grid across an empty groove, leaping a piece in the way "
           "(`walk KIND DIRS`)", verb_first=True),
    Action("build", "a wall: a neutral KIND on a post of a wall grid and the grooves either side "
           "(`build KIND [from hand]`)", moves_a_piece=False, verb_first=True),
    Action("drop", "a piece from the mover's hand onto an empty cell, one move among the others (`drop KIND [in "
           "REGION] [one per column]`; the hand is `hand KIND N, ...`, filled by `captured ... to hand`)",
           ("in", "one per column"),
           moves_a_piece=False, verb_first=True),
    Action("pass", "nothing: the turn goes to the other player, the board unchanged (`pass`, a voluntary pass)",
           moves_a_piece=False, verb_first=True),
    Action("swap", "takes over the first player's lone piece on the second player's first turn (the pie rule; "
           "`swap turning clockwise` moves it to the cell a quarter turn of the board carries it to; `in REGION`: "
           "only a piece on the mover's cells of REGION)", ("in",), moves_a_piece=False, verb_first=True),
    Action("turn", "turns a block of cells a quarter or half round, or over (`turn BLOCK clockwise`)",
           moves_a_piece=False, verb_first=True),
)}

MODIFIERS: dict[str, Modifier] = {d.name: d for d in (
    Modifier("to", "`to empty` (default), `to enemy`, `to empty or enemy`; `to passed`: onto a cell the last "
             "move passed over with `passing`, taking the piece that made it", ("empty", "enemy", "passed"),
             ("to",)),
    Modifier("exactly", "`exactly N`: a slide of exactly N cells (over empty cells)", (), ("exactly",)),
    Modifier("from", "`from REGION`: only a piece standing in the region (`region NAME where ...`)", (),
             ("from_region",)),
    Modifier("within", "`within REGION`: only onto a cell of the region (a palace)", (), ("within_region",)),
    Modifier("unmoved", "`unmoved`: only a piece that has not moved since the start (with `bringing`: nor the "
             "piece brought)", (), ("unmoved",)),
    Modifier("safe", "`safe`: the piece's cell and every cell it passes over are not attacked by the other "
             "player", (), ("safe",)),
    Modifier("bringing", "`bringing KIND`: past the landing cell, over empty cells, the first piece along the "
             "line is the mover's KIND, which comes along to the last cell the mover passed", (), ("bringing",)),
    Modifier("blocked", "`blocked` (step): a leap is not made when the cell of its first step (one cell along "
             "its longer axis, or diagonally when both are equal) holds a piece", (), ("blocked",)),
    Modifier("passing", "`passing`: for one ply, the cells this slide passed over may be taken with `to passed`",
             (), ("passing",)),
    Modifier("over", "`over enemy` (default), `over friend`, `over any`: a jump's jumped piece; the pieces a "
             "slide may pass; `over one` (slide): exactly one piece of either side, a screen, passed on the way",
             ("enemy", "friend", "any", "one"), ("over",)),
    Modifier("taking", "`taking KIND`: a move onto an enemy piece takes only a piece of KIND", (), ("taking",)),
    Modifier("by pieces in line", "`by pieces in line`: exactly as many cells as there are pieces on the whole "
             "line through the piece", (), ("by_line",)),
    Modifier("capture", "`capture`", (), ("capture",),
             misplaced="'{word}' belongs to {owners}; a {action} captures with 'to enemy'"),
    Modifier("line", "`line N`, `line A..B`, `line A..`", (), ("line_exact", "line_range")),
    Modifier("flying", "`flying`", (), ("flying",),
             misplaced="'{word}' belongs to {owners}; a long {action} is a slide"),
    Modifier("falling", "`falling DIRECTION`"),
    Modifier("flanking", "`flanking DIRECTIONS`"),
    Modifier("custodial", "`custodial DIRECTIONS [of any length] [against CELL, ...]`: an enemy piece next to the "
             "landing cell (or, `of any length`, a run of them), with one of the mover's pieces (or an empty hostile "
             "CELL) right beyond, is removed", (), ("custodial",)),
    Modifier("from last", "`from last step|slide DIRECTIONS`"),
    Modifier("from hand", "`from hand`: the piece comes from the player's hand (`hand KIND N`); while the player "
             "to move has pieces in hand, placing one is their only move"),
    Modifier("in", "`in REGION`: only on the empty cells of the mover's REGION"),
    Modifier("one per column", "`one per column`: not in a column that holds one of the mover's KIND already"),
    Modifier("enclosing", "`enclosing DIRECTIONS`: enemy groups left without liberties are removed; `enclosing "
             "KIND in REGION [again]`: each empty cell of REGION next to the placed piece "
             "whose neighbours are all occupied gets the mover's KIND; with `again` the mover moves again"),
    Modifier("skipping", "`skipping REGION`: the sowing passes over the other players' cells of REGION"),
    Modifier("again in", "`again in REGION`: the last seed in the mover's cell of REGION: the mover moves again"),
    Modifier("capture into", "`capture DIRECTION into REGION`: the last seed alone in one of the mover's empty "
             "cells, with seeds in the cell one step along DIRECTION: both go to the mover's cell of REGION"),
    Modifier("in sent board", "`in sent board`: only in the small board (`boards`) that the last placement sends "
             "to, or in any undecided one when there is none"),
    Modifier("except", "`except N in a row`: pieces standing in N in a row are spared, unless every one is"),
)}

CONDITIONS: dict[str, Condition] = {c.node: c for c in (
    Condition("no moves", "NoMoves", "no_moves",
              "the player to move has no legal move (after `freeze`, `forbid` and go-again rules; a continuation "
              "with `or pass` always has the pass, and so does a stuck player under `pass when no moves`)"),
    Condition("nobody can move", "NobodyMoves", "nobody_moves",
              "neither player has a legal move in this position (a forced pass does not count)"),
    Condition("PLAYER has no KIND", "HasNone", "has_none",
              "PLAYER has no piece of KIND on the board (`PLAYER has no pieces`: no piece at all)"),
    Condition("PLAYER has N in a row", "InARow", "in_a_row",
              "N of PLAYER's pieces (any kinds) stand in a straight line along one of the board's directions; "
              "N is a number or an option's name"),
    Condition("PLAYER connects SIDE and SIDE", "Connects", "connects",
              "a chain of PLAYER's pieces, each touching the next along the board's directions (`all`: eight on a "
              "grid, six on a hexagon or rhombus; `along DIRS` limits the steps, e.g. `along orthogonal`; `by links`: "
              "each linked to the next, `link KIND DIRS`), has a "
              "piece on each of the two sides; a side is `top` or `bottom` (the highest or lowest cell of each "
              "column) or `left` or `right` (the first or last cell of each row)"),
    Condition("PLAYER forms one group", "OneGroup", "one_group",
              "PLAYER has at least one piece, and all of PLAYER's pieces form one group: each can be reached from "
              "any other through PLAYER's pieces, one step at a time along the board's directions (`all`; "
              "`along DIRS` limits the steps, e.g. `along orthogonal`)"),
    Condition("PLAYER joins N corners", "Joins", "joins",
              "one group of PLAYER's pieces (each reachable from the others one step at a time along the board's "
              "directions) holds N of the board's corners (`joins 2 corners`: a bridge); `PLAYER joins N edges`: "
              "touches N different edges (`joins 3 edges`: a fork). A corner is a border cell where the border "
              "turns; an edge is the run of border cells between two corners, so a corner counts for no edge"),
    Condition("PLAYER has N in a row of boards", "BoardsInARow", "boards_in_a_row",
              "N small boards (`boards`) won by PLAYER stand in a straight line of the big board"),
    Condition("PLAYER forms a ring", "Ring", "forms_ring",
              "PLAYER's pieces close a loop around at least one cell, whatever that cell holds (on a hexagon or "
              "rhombus; on a grid, diagonal steps close loops too)"),
    Condition("plies without capture", "QuietPlies", "quiet_plies",
              "how many plies have been played since the last capture, a number (counted from 0 when a game starts "
              "or a position is read from a string, and kept only by games whose end rules read it): "
              "`draw if plies without capture >= 40`"),
    Condition("plies since KIND move or capture", "PliesSince", "quiet_plies_since",
              "how many plies have been played since the last capture or move of a piece of KIND, a number (as "
              "`plies without capture`): `draw if plies since pawn move or capture >= 100`"),
    Condition("repetitions", "Repetitions", "repetitions",
              "how many times this position has stood in the game so far, this time included (the board, the "
              "player to move, who still may make `unmoved` moves, the cells open to `to passed`): "
              "`draw if repetitions >= 3`"),
    Condition("turns played", "TurnsPlayed", "turns_played",
              "how many turns have been played, a number (a turn ends when the other player is to move, so a "
              "go-again turn or a turn in two parts counts once; counted from 0 when a game starts or a position "
              "is read from a string, and kept only by games whose end rules read it): `draw if turns played "
              ">= 200`"),
    Condition("passes in a row", "PassesInARow", "passes_in_a_row",
              "how many passes were played in a row up to this position, a number (0 after any other move; "
              "counted from 0 when a position is read from a string): `passes in a row >= 2`"),
    Condition("board repeated", "BoardRepeated", "board_repeated",
              "the last move, not a pass, made a board seen earlier in the game (since its start or the position "
              "it was read from)"),
    Condition("PLAYER can reach far row", "ReachesFarRow", "reaches_far_row",
              "on a wall grid, each of the player's pieces has a path to its far row across grooves without a wall",
              needs_forward=True),
    Condition("PLAYER has KIND on far row", "OnFarRow", "on_far_row",
              "a piece of PLAYER's KIND stands where one step in PLAYER's `forward` direction leaves the board",
              needs_forward=True),
    Condition("PLAYER fills REGION", "Fills", "fills",
              "a turn has ended (no go-again turn is open) and every cell of PLAYER's REGION (a `region` "
              "statement) holds one of PLAYER's pieces"),
    Condition("PLAYER has KIND beyond every PLAYER KIND", "Beyond", "beyond",
              "PLAYER has a piece of KIND, and its most advanced one (measured along PLAYER's `forward`) is "
              "strictly further than every piece of the other PLAYER's KIND; true when there is none",
              needs_forward=True),
)}

FUNCTIONS: dict[str, Function] = {f.name: f for f in (
    Function("count", "how many pieces (of KIND) PLAYER has on the board and in hand (`hand`); without PLAYER, "
             "both players' pieces; a last REGION counts only the pieces standing in it",
             "[PLAYER] [KIND] [REGION]"),
    Function("attacked", "how many of PLAYER's pieces of KIND the other player attacks: could take with a move "
             "rule, were it that player's turn", "PLAYER KIND"),
    Function("total", "how many counted pieces (`counts`) lie on PLAYER's cells of REGION (any other piece counts "
             "one)", "PLAYER REGION"),
    Function("score", "PLAYER's score, as the `score` statement gives it (not inside `score` itself)", "PLAYER"),
    Function("lost", "how many pieces (of KIND) PLAYER has fewer than in the start position for the options "
             "in force"),
    Function("area", "PLAYER's pieces on the board plus the empty cells whose empty region (cells touching along "
             "a side) borders only PLAYER's pieces: area scoring", "PLAYER"),
)}

FEATURES: dict[str, Feature] = {f.name: f for f in (
    Feature("material", "pieces (of KIND) on the board"),
    Feature("mobility", "legal moves the player would have in this position at the start of its turn (whoever "
            "is to move; the first part of a `then` turn): rules with `when` or `from hand`, `freeze`, `keep` "
            "and the pieces' own rules such as `forbid leaving KIND attacked` count; `forbid repetition`, "
            "`must capture`'s filter and a forced pass do not", takes_kind=False),
    Feature("advancement", "for each piece (of KIND): how many steps along the player's `forward` it stands "
            "from the rearmost line of the board", needs_forward=True),
    Feature("centrality", "for each piece (of KIND): the largest distance to the centre on this board minus its "
            "own, counted in steps in the `all` directions"),
    Feature("captures", "enemy pieces lost minus own pieces lost, since the start position", takes_kind=False),
    Feature("score", "the player's score (`score`), so the engine plays for points", takes_kind=False),
    Feature("threatened", "pieces (of KIND) that the other player's move rules could capture or push on this "
            "board, as if it were that player's turn; give it a negative weight (`threatened flag -300` keeps a "
            "flag out of reach)"),
    Feature("area", "the player's pieces plus the empty cells whose empty region borders only the player's pieces "
            "(as `area(PLAYER)` in an end rule: the go family's score)", takes_kind=False),
)}


def moving_actions() -> tuple[str, ...]:
    """The actions written as ``KIND ACTION DIRECTIONS ...`` (the grammar's ACTION words), in order."""
    return tuple(a.name for a in ACTIONS.values() if not a.verb_first)


def owners_of(modifier: str) -> tuple[str, ...]:
    """The actions a modifier belongs to."""
    return tuple(a.name for a in ACTIONS.values() if modifier in a.modifiers)


def or_list(words: tuple[str, ...] | list[str]) -> str:
    """``a, b or c``."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def and_list(words: tuple[str, ...] | list[str]) -> str:
    """``a, b and c``."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def misplaced_message(modifier: str, action: str) -> str:
    """The E061 message for a modifier on an action it does not belong to."""
    return MODIFIERS[modifier].misplaced.format(word=modifier, owners=and_list(owners_of(modifier)), action=action)


def conditions_hint() -> str:
    """The end conditions in words, for a syntax error's hint."""
    return ", ".join(c.written for c in CONDITIONS.values()) + ", or a comparison such as count(PLAYER) > 3"
