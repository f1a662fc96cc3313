"""Groups and liberties: placements that capture enclosed enemy groups, and area scoring.

A **group** is a set of one player's pieces, each reaching the others through
that player's pieces one step at a time along the given directions; its
**liberties** are the empty cells next to it. ``place KIND enclosing DIRS``
puts a piece on an empty cell and removes every enemy group left without a
liberty; if the placed piece's own group then has none, the group is removed
too (a suicide, which ``forbid suicide`` makes illegal). The neighbour lists
are built once per compiled rule; a board is analysed once (its groups and
their liberties), after which each empty cell is decided by looking at its
neighbours only.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import NO_CELL, Move
from rulesdsl.interpreter.compile.tables import NEUTRAL, Tables

Neighbours = list[tuple[int, ...]]


def neighbour_lists(tables: Tables, vectors: list[tuple[int, int]]) -> Neighbours:
    """For each cell, its neighbours along ``vectors`` (cells on the board only)."""
    rays = [tables.neighbours(v) for v in vectors]
    return [tuple(ray[c] for ray in rays if ray[c] >= 0) for c in range(tables.cell_count)]


def side_neighbours(tables: Tables) -> Neighbours:
    """Each cell's neighbours across a side: orthogonal on a grid, all six on a hexagonal board, the lines on
    a board of points."""
    geometry = tables.geometry
    name = "orthogonal" if "orthogonal" in geometry.direction_sets and not geometry.has_lines else "all"
    return neighbour_lists(tables, [geometry.directions[d] for d in geometry.direction_sets[name]])


class Groups:
    """The groups of one board: ``group[cell]`` (-1 for an empty cell or a neutral piece), and per group its
    owner, cells and liberties."""

    __slots__ = ("group", "owner", "cells", "liberties")

    def __init__(self, board: str, around: Neighbours, owner_of: dict[str, int], empty: str):
        group = [-1] * len(board)
        owners: list[int] = []
        cells: list[list[int]] = []
        liberties: list[set[int]] = []
        for start, sym in enumerate(board):
            if sym == empty or group[start] >= 0:
                continue
            who = owner_of.get(sym, NEUTRAL)
            if who == NEUTRAL:
                continue
            number = len(owners)
            group[start] = number
            members, free, todo = [start], set(), [start]
            while todo:
                for n in around[todo.pop()]:
                    there = board[n]
                    if there == empty:
                        free.add(n)
                    elif group[n] < 0 and owner_of.get(there, NEUTRAL) == who:
                        group[n] = number
                        members.append(n)
                        todo.append(n)
            owners.append(who)
            cells.append(members)
            liberties.append(free)
        self.group, self.owner, self.cells, self.liberties = group, owners, cells, liberties


def enclosing_placement(rule: m.MoveRule, tables: Tables, player: int) -> Callable[[str, list[Move]], None]:
    """``place KIND enclosing DIRS``: a new piece on every empty cell, removing enemy groups left without a
    liberty (and its own group, a suicide, when that has none left)."""
    sym = tables.placed_symbol(player, rule.kind)
    empty = tables.empty
    around = neighbour_lists(tables, tables.vectors(rule.enclosing, player))
    owner_of = dict(tables.owner)
    quiet = [Move(NO_CELL, t, ((t, sym),), "place") for t in range(tables.cell_count)]

    def gen_enclosing(board: str, out: list[Move]) -> None:
        if sym is None:
            return
        groups: Groups | None = None
        t = board.find(empty)
        while t >= 0:
            near = around[t]
            if all(board[n] == empty for n in near):  # the commonest case: nothing around
                out.append(quiet[t])
                t = board.find(empty, t + 1)
                continue
            if groups is None:
                groups = Groups(board, around, owner_of, empty)
            out.append(_placed(t, near, board, groups, player, sym, empty, quiet[t]))
            t = board.find(empty, t + 1)

    gen_enclosing.exists = lambda board: sym is not None and empty in board  # type: ignore[attr-defined]
    return gen_enclosing


def _placed(t: int, near: tuple[int, ...], board: str, groups: Groups, player: int, sym: str, empty: str,
            quiet: Move) -> Move:
    """The move placing ``sym`` on ``t``, with what it captures (or, a suicide, its own group removed)."""
    alive = False
    taken: list[int] = []
    own: list[int] = []
    seen: set[int] = set()
    for n in near:
        number = groups.group[n]
        if board[n] == empty:
            alive = True
        if number < 0 or number in seen:
            continue
        seen.add(number)
        if groups.owner[number] == player:
            own.append(number)
            if len(groups.liberties[number]) > 1:  # a liberty besides t
                alive = True
        elif len(groups.liberties[number]) == 1:  # t was its last liberty
            taken.extend(groups.cells[number])
    if taken:
        changes = ((t, sym), *((c, empty) for c in taken))
        return Move(NO_CELL, t, changes, "place", (), tuple(taken), len(taken))
    if alive:
        return quiet
    removed = [c for number in own for c in groups.cells[number]]
    return Move(NO_CELL, t, ((t, empty), *((c, empty) for c in removed)), "place")


def is_suicide(move: Move, empty: str) -> bool:
    """True when the piece a placement puts down does not stay (its group had no liberty left)."""
    return move.action == "place" and any(c == move.target and s == empty for c, s in move.changes)


def area_scorer(tables: Tables) -> Callable[[str, int], int]:
    """``area(board, player)``: the player's pieces plus the empty cells whose empty region borders only the
    player's pieces (regions and borders across the cells' sides); the last board's answer is kept."""
    around = side_neighbours(tables)
    owner_of = dict(tables.owner)
    empty = tables.empty
    nplayers = len(tables.player_names)
    last: list = [None, None]

    def scores(board: str) -> list[int]:
        counts = [0] * nplayers
        for sym in board:
            who = owner_of.get(sym, NEUTRAL) if sym != empty else NEUTRAL
            if who != NEUTRAL:
                counts[who] += 1
        seen = [False] * len(board)
        for start, sym in enumerate(board):
            if sym != empty or seen[start]:
                continue
            seen[start] = True
            size, todo, borders = 0, [start], set()
            while todo:
                cell = todo.pop()
                size += 1
                for n in around[cell]:
                    there = board[n]
                    if there == empty:
                        if not seen[n]:
                            seen[n] = True
                            todo.append(n)
                    else:
                        borders.add(owner_of.get(there, NEUTRAL))
            borders.discard(NEUTRAL)
            if len(borders) == 1:
                counts[borders.pop()] += size
        return counts

    def area(board: str, player: int) -> int:
        if last[0] is not board:
            last[0], last[1] = board, scores(board)
        return last[1][player]

    return area
