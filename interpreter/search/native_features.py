"""The evaluation features that are not sums over pieces (``area``, ``threatened``), in machine code.

The native search's ``score`` (:mod:`rulesdsl.interpreter.search.native_search`)
sums the linear features as a weight per word and bit. The features here are
not linear in the pieces, so ``score`` calls ``feats(words, turn, other, consts, ft)``,
whose source is fixed text (the same for every rule file; :func:`features_source`).
Everything that depends on the board is in the int64 array ``ft``
(:func:`feature_table`), which also holds the function's scratch room, so no
call allocates:

- the row's bitboard columns are read once into a cell array (``ft``'s
  scratch: 0 for an empty cell, else a symbol's number), through a table of
  the cell at each (column, bit) and the symbol of each column; a cell array
  serves boards of any size, one word a bitboard or several
  (:mod:`rulesdsl.interpreter.kernel.lanes`), with one text, where a flood over
  words would need the lanes' shifts written per board;
- ``area`` (:func:`rulesdsl.interpreter.reference.groups.area_scorer`): each
  player's pieces plus the empty regions that border only that player's pieces,
  found by a flood fill over the cell array with a constant neighbour table
  (across the cells' sides, as the reference);
- ``threatened KIND`` (:func:`rulesdsl.interpreter.search.evaluation`): the
  player's pieces of KIND that the other player's move rules could displace,
  from a table of patterns, one per (rule, origin cell, vector): the attacker's
  symbols at the origin, a victim's symbols on the victim cell, and for a jump
  an empty landing cell. The patterns are listed by origin cell, so only the
  occupied cells' are read, and the cells each player threatens are marked
  once per position for every ``threatened`` feature. Steps onto an enemy piece and capturing jumps are
  compiled; rules that displace otherwise (slides onto enemies, pushes,
  flanking, capture chains...) raise :class:`Unsupported` and the game keeps
  the generic evaluation.

The feature weights are ``consts[2 + f]`` (``consts[0]``, ``consts[1]``: each
player's constant). ``ft``'s header (:data:`HEADER`) says where each table is.
The search is two-sided: ``other`` is the player to move's opponent, whose opponent is the player to move.
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import fields

import numpy as np

from rulesdsl import model as m
from rulesdsl.expr import evaluate
from rulesdsl.interpreter.compile.tables import NEUTRAL, Tables
from rulesdsl.interpreter.reference.groups import side_neighbours
from rulesdsl.interpreter.reference.piece_moves import asks_piece
from rulesdsl.interpreter.search.evaluation import linear_terms
from rulesdsl.interpreter.search.feature_source import NONLINEAR

# ft's header: cells, bitboard columns, features, and the offsets of: the cell at each (column, bit), the symbol
# of each column, the owner of each symbol (0: empty, -2), the neighbours (DEGREE a cell, -1 padded), the
# features (3 a feature: its number, its KIND's symbols for player 0, for player 1), the threat patterns
# (5 a pattern, by origin cell), where each origin cell's patterns start (one more for the end), then the
# scratch room (5 cells each: board, seen, stack, the cells each of the two players threatens).
CELLS, COLUMNS, COUNT, CELL_AT, SYMBOL_AT, OWNER, NEAR, DEGREE, FEATURES, PATTERNS, STARTS, SCRATCH = range(12)
HEADER = 12
# The move rule's fields that a compiled threat pattern needs at their defaults (the rest are read).
PLAIN = frozenset({"line", "falling", "flanking", "by_line", "reach", "flying", "spared", "enclosing", "custodial",
                   "distance", "region", "within", "unmoved", "safe", "bringing", "passing", "blocked", "taking",
                   "enclose", "sow", "blocks", "sent", "supply", "one_per_column"})
WORD = 64


class Unsupported(Exception):
    """A feature or a move rule this module does not compile (the game keeps the generic evaluation)."""


Extra = tuple[str, float, str | None]  # a nonlinear feature: its name, weight and KIND


def native_terms(features: tuple[m.Feature, ...], tables: Tables, start_board: Callable[[], str],
                 scores=None) -> tuple[list, float, list[Extra]] | None:
    """:func:`~rulesdsl.interpreter.search.evaluation.linear_terms` of the linear features, with the summed
    ``mobility`` weight and the nonlinear features this module computes (name, weight, kind); ``None`` when
    another feature is used."""
    extra = [(f.name, float(f.weight), f.kind) for f in features if f.name in NONLINEAR]
    terms = linear_terms(tuple(f for f in features if f.name not in NONLINEAR), tables, start_board, scores)
    if terms is None:
        return None
    return terms[0], terms[1], extra


def feature_table(extra: list[Extra], tables: Tables, active, kernel,
                  place: Callable[[int, int], tuple[int, int]], width: int) -> np.ndarray:
    """``ft`` for the nonlinear features ``extra`` (:data:`HEADER`) of a kernel: ``place(s, cell)`` is the (row
    column, bit) holding ``cell`` of the kernel's ``s``-th bitboard, ``width`` the row's columns before the
    player to move. Raises :class:`Unsupported` for what it does not compile."""
    if not extra:
        return np.zeros(HEADER, dtype=np.int64)  # no features: ``score`` never calls ``feats``
    symbols = list(kernel.symbols)
    if len(symbols) > 62 or kernel.counted:
        raise Unsupported("more than 62 piece symbols, or counts of pieces in cells")
    size = tables.cell_count
    number = {s: i + 1 for i, s in enumerate(symbols)}  # 0: empty
    cell_at, symbol_at = [-1] * (width * WORD), [0] * width
    for s in range(len(symbols)):
        for cell in range(size):
            column, bit = place(s, cell)
            cell_at[column * WORD + bit] = cell
            symbol_at[column] = s + 1
    columns = max((c + 1 for c in range(width) if symbol_at[c]), default=0)
    owner = [-2] + [tables.owner.get(sym, NEUTRAL) for sym in symbols]
    owner = [-1 if o == NEUTRAL else o for o in owner]
    near = side_neighbours(tables)
    degree = max((len(n) for n in near), default=0)
    flat_near = [n[k] if k < len(n) else -1 for n in near for k in range(degree)]

    def mask(syms) -> int:
        return sum(1 << number[s] for s in syms if s in number)

    rows = []
    for name, _, kind in extra:
        rows += [NONLINEAR.index(name) + 1, *(mask(tables.symbols_of(p, kind)) for p in (0, 1))]
    patterns = threat_patterns(tables, active, mask) if any(name == "threatened" for name, _, _ in extra) else []
    patterns.sort(key=lambda row: row[3])  # by origin cell
    origins = [row[3] for row in patterns]
    starts = [bisect_left(origins, cell) for cell in range(size + 1)]
    flat = [v for row in patterns for v in (*row[:3], *row[4:])]  # the origin is the start table's
    parts = [cell_at, symbol_at, owner, flat_near, rows, flat, starts]
    header = [size, columns, len(extra)] + [0] * (HEADER - 3)
    at = HEADER
    for slot, part in zip((CELL_AT, SYMBOL_AT, OWNER, NEAR, FEATURES, PATTERNS, STARTS), parts):
        header[slot] = at
        at += len(part)
    header[DEGREE], header[SCRATCH] = degree, at
    return np.array(header + [v for part in parts for v in part] + [0] * (5 * size), dtype=np.int64)


def threat_patterns(tables: Tables, active, mask: Callable[[frozenset[str]], int]) -> list[tuple[int, ...]]:
    """For each player's move rules (those the reference's threats read), the patterns of the enemy cells they
    could displace: (attacking player, attackers' symbols, victims' symbols, origin, victim cell, landing cell
    that must be empty or -1)."""
    options = tables.options
    stmt = active.first(m.Moves)
    rules = [r for r in (stmt.rules if stmt else ()) if r.guard is None or evaluate(r.guard, options)]
    rules = [r for r in rules if r.when is None and not r.from_hand and not asks_piece(r)]
    again = active.first(m.Again)
    chains = again is not None and again.chain
    patterns: list[tuple[int, ...]] = []
    for player in range(len(tables.player_names)):
        for rule in rules:
            patterns += _rule_patterns(rule, tables, player, mask, chains)
    return patterns


def _rule_patterns(rule: m.MoveRule, tables: Tables, player: int, mask: Callable[[frozenset[str]], int],
                   chains: bool) -> list[tuple[int, ...]]:
    """One rule's threat patterns for one player (see :func:`threat_patterns`)."""
    action = rule.action
    if action in ("pass", "drop") or (action == "place" and not (rule.flanking or rule.enclosing or rule.custodial)):
        return []  # these put pieces on empty cells (or pass) and displace nothing
    onto = "enemy" in rule.targets
    if action in ("step", "slide") and not onto and not rule.capture and not rule.custodial and rule.over is None:
        return []  # moves onto empty cells only
    if action == "jump" and not rule.capture and not rule.custodial:
        return []  # a jump that takes nothing
    plain = all(getattr(rule, f.name) == f.default for f in fields(m.MoveRule) if f.name in PLAIN)
    if not plain or not (action == "step" and onto and rule.over is None
                         or action == "jump" and rule.capture and not chains):
        raise Unsupported(f"the threats of a {action} rule")
    movers = tables.symbols_of(player, rule.kind)
    if not movers:
        return []
    attackers = mask(movers)
    out = []
    for vector in tables.vectors(rule.directions, player):
        ray = tables.neighbours(vector)
        for c in range(tables.cell_count):
            t = ray[c]
            if t < 0:
                continue
            if action == "step":
                out.append((player, attackers, mask(tables.enemy_symbols(player)), c, t, -1))
                continue
            land = ray[t]
            if land >= 0:
                over = {"enemy": tables.enemy_symbols(player), "friend": tables.symbols_of(player),
                        "any": frozenset(tables.owner)}[rule.over or "enemy"]
                out.append((player, attackers, mask(over), c, t, land))
    return out


@functools.cache
def features_module():
    """``feats`` alone in machine code (its own file in the native cache): for a kernel whose machine code has no
    search helpers (one with earlier positions), to measure or test the features by themselves."""
    from rulesdsl.interpreter.kernel.native import import_checked
    from rulesdsl.interpreter.search.feature_source import FEATS

    return import_checked(FEATS.strip() + "\n")()
