"""Which cells a player attacks: could take with a move rule, were it that player's turn.

Step and slide rules that may land on an enemy piece are read backwards from
the attacked cell (a slide: along the line to the first piece; ``over one``: to
the piece past the first), so a question
costs a few table lookups per direction and builds no moves. Any other rule
that displaces pieces (a capturing jump, a push...) is answered by generating
its moves. ``unmoved``, ``safe`` and ``when`` do not limit an attack.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import Move
from rulesdsl.interpreter.compile.regions import Regions
from rulesdsl.interpreter.compile.tables import Tables, first_step


class Pattern(NamedTuple):
    """One rule of one player, read backwards: the symbols that attack, and from where."""

    symbols: frozenset[str]
    backs: tuple[tuple[int, ...], ...]  # per direction, each cell's neighbour against it
    sliding: bool
    distance: int | None  # a slide of exactly this many cells, or None
    region: frozenset[int] | None  # the attacker must stand here
    legs: tuple[tuple[int, ...] | None, ...] = ()  # ``blocked``: per direction, each cell's first step of the leap
    inside: frozenset[int] | None = None  # ``within``: only cells of this region are attacked
    screen: bool = False  # ``over one``: exactly one piece stands between, which is passed
    victims: frozenset[str] | None = None  # ``taking KIND``: only a piece of these symbols is attacked


def _reads_backwards(rule: m.MoveRule) -> bool:
    return (rule.action in ("step", "slide") and "enemy" in rule.targets and rule.over in (None, "one")
            and not rule.by_line and rule.bringing is None)


def _displaces(rule: m.MoveRule) -> bool:
    """A rule that may take or push an enemy piece, and is not read backwards."""
    if _reads_backwards(rule):
        return False
    return (rule.capture or rule.action == "push" or "enemy" in rule.targets or bool(rule.flanking)
            or rule.action == "remove")


class Attacks:
    """``attacked(board, cell, by)`` and ``attacked_any(board, cells, by)`` for a game's move rules."""

    def __init__(self, rules: list[m.MoveRule], tables: Tables, regions: Regions,
                 generate: Callable[[list[m.MoveRule], int], Callable[[str], list[Move]]]):
        self.empty = tables.empty
        nplayers = len(tables.player_names)
        self.patterns: list[list[Pattern]] = [[] for _ in range(nplayers)]
        self.others: list[Callable[[str], list[Move]] | None] = [None] * nplayers
        for player in range(nplayers):
            for rule in rules:
                if not _reads_backwards(rule):
                    continue
                symbols = tables.symbols_of(player, rule.kind)
                if not symbols:
                    continue
                vectors = tables.vectors(rule.directions, player)
                backs = tuple(tables.neighbours((-x, -y)) for x, y in vectors)
                region = regions[rule.region][player] if rule.region is not None else None
                legs = tuple(tables.neighbours(first_step(v)) if rule.blocked and first_step(v) != v else None
                             for v in vectors)
                inside = regions[rule.within][player] if rule.within is not None else None
                victims = (None if rule.taking is None else
                           frozenset(s for s in tables.enemy_symbols(player) if tables.kind.get(s) == rule.taking))
                self.patterns[player].append(Pattern(symbols, backs, rule.action == "slide", rule.distance, region,
                                                     legs, inside, rule.over == "one", victims))
            rest = [r for r in rules if _displaces(r)]
            if rest:
                self.others[player] = generate(rest, player)

    def attacked(self, board: str, cell: int, by: int) -> bool:
        """True when ``by`` could take the piece on ``cell`` (or one put there)."""
        empty = self.empty
        for symbols, backs, sliding, distance, region, legs, inside, screen, victims in self.patterns[by]:
            if (inside is not None and cell not in inside) or (victims is not None and board[cell] not in victims):
                continue
            for i, back in enumerate(backs):
                s, k = back[cell], 1
                if screen:  # over empty cells to the screen, past it, then over empty cells to the attacker
                    while s >= 0 and board[s] == empty:
                        s = back[s]
                    s = back[s] if s >= 0 else s
                    while s >= 0 and board[s] == empty:
                        s = back[s]
                    if s >= 0 and board[s] in symbols and (region is None or s in region):
                        return True
                    continue
                if legs and legs[i] is not None and s >= 0 and board[legs[i][s]] != empty:
                    continue  # the leap from s is blocked
                while s >= 0:
                    there = board[s]
                    if there != empty:
                        if there in symbols and (distance is None or k == distance) and (
                                region is None or s in region) and (sliding or k == 1):
                            return True
                        break
                    if not sliding or (distance is not None and k >= distance):
                        break
                    s, k = back[s], k + 1
        other = self.others[by]
        if other is not None:
            return any(cell in move.displaced or cell == move.target for move in other(board))
        return False

    def attacked_any(self, board: str, cells: list[int], by: int) -> bool:
        """True when ``by`` attacks one of ``cells``."""
        return any(self.attacked(board, c, by) for c in cells)
