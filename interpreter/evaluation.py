"""The static evaluation: a weighted sum of features, each mine minus the opponent's.

Features: ``material [KIND]`` (pieces on the board), ``mobility`` (moves the
move rules allow), ``advancement [KIND]`` (steps along the player's forward
direction), ``centrality [KIND]`` (closeness to the board's centre, in moves),
``captures`` (enemy pieces lost minus own pieces lost, from the start) and
``threatened [KIND]`` (pieces the other player could capture or push next;
give it a negative weight).
A file without ``evaluate`` gets ``mobility 1``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.endings import cells_holding
from rulesdsl.interpreter.game import Move, State
from rulesdsl.interpreter.tables import Tables

Feature = Callable[[str, int], float]
# name -> (symbols of each player, tables, raw moves, threats, start board) -> the feature.
# One entry per feature of rulesdsl.vocabulary.FEATURES (tests/test_vocabulary.py checks it).
BUILDERS: dict[str, Callable[..., Feature]] = {
    "material": lambda syms, tables, raw_moves, threats, start_board: _counter(syms),
    "mobility": lambda syms, tables, raw_moves, threats, start_board: lambda board, p: len(raw_moves[p](board)),
    "advancement": lambda syms, tables, raw_moves, threats, start_board: _weighted(syms, _advancement(tables)),
    "centrality": lambda syms, tables, raw_moves, threats, start_board: _weighted(syms, _centrality(tables)),
    "captures": lambda syms, tables, raw_moves, threats, start_board: _captures(syms, start_board,
                                                                                 tables.seats.opponent),
    "threatened": lambda syms, tables, raw_moves, threats, start_board: _threatened(syms, threats,
                                                                                     tables.seats.opponent),
}


def centre_distances(tables: Tables) -> list[int]:
    """Moves from each cell to the cell nearest the board's centroid."""
    geometry = tables.geometry
    cells = geometry.cells
    cx = sum(c.x for c in cells) / len(cells)
    cy = sum(c.y for c in cells) / len(cells)
    nearest = min((c.x - cx) ** 2 + (c.y - cy) ** 2 for c in cells)
    start = [c.index for c in cells if (c.x - cx) ** 2 + (c.y - cy) ** 2 == nearest]
    vectors = [geometry.directions[d] for d in geometry.direction_sets["all"]]
    dist = [-1] * len(cells)
    queue = deque(start)
    for s in start:
        dist[s] = 0
    while queue:
        c = queue.popleft()
        for v in vectors:
            n = geometry.step(c, v)
            if n >= 0 and dist[n] < 0:
                dist[n] = dist[c] + 1
                queue.append(n)
    return dist


def compile_evaluation(
    features: tuple[m.Feature, ...],
    tables: Tables,
    raw_moves: list[Callable[[str], list[Move]]],
    threats: list[Callable[[str], set[int]]],
    start_board: Callable[[], str],
) -> Callable[[State, int], float]:
    """``evaluate(state, player)`` for the declared features."""
    for feature in features:
        if feature.name not in BUILDERS:  # the checker reports it (E081); never drop a feature silently
            raise RulesdslError(f"no evaluation for the feature {feature.name!r}", feature.span)
    players = range(len(tables.player_names))
    parts: list[tuple[float, Feature]] = []
    for feature in features:
        syms = [tables.symbols_of(p, feature.kind) for p in players]
        parts.append((feature.weight, BUILDERS[feature.name](syms, tables, raw_moves, threats, start_board)))

    opponent = tables.seats.opponent

    def evaluate(state: State, player: int) -> float:
        board = state.board
        other = opponent[player]
        return sum(w * (f(board, player) - f(board, other)) for w, f in parts)

    return evaluate


def _threatened(syms: list[frozenset[str]], threats: list[Callable[[str], set[int]]],
                opponent: tuple[int, ...]) -> Feature:
    """How many of a player's pieces the other player could capture or push next move."""
    def count(board: str, p: int) -> float:
        mine = syms[p]
        return sum(1 for c in threats[opponent[p]](board) if board[c] in mine)

    return count


def _counter(syms: list[frozenset[str]]) -> Feature:
    def count(board: str, p: int) -> float:
        return sum(board.count(s) for s in syms[p])

    return count


def _advancement(tables: Tables) -> list[list[int]]:
    cells = tables.geometry.cells
    table = []
    for p in range(len(tables.player_names)):
        fx, fy = tables.forward.get(p, (0, 0))
        proj = [c.x * fx + c.y * fy for c in cells]
        low = min(proj)
        table.append([v - low for v in proj])
    return table


def _centrality(tables: Tables) -> list[list[int]]:
    dist = centre_distances(tables)
    far = max(dist)
    row = [far - d for d in dist]
    return [row for _ in tables.player_names]


def _weighted(syms: list[frozenset[str]], table: list[list[int]]) -> Feature:
    def score(board: str, p: int) -> float:
        values = table[p]
        return sum(values[i] for i in cells_holding(board, syms[p]))

    return score


def _captures(syms: list[frozenset[str]], start_board: Callable[[], str], opponent: tuple[int, ...]) -> Feature:
    start: list[int] = []

    def lost(board: str, p: int) -> int:
        if not start:
            first = start_board()
            start.extend(sum(first.count(s) for s in syms[q]) for q in range(len(syms)))
        return start[p] - sum(board.count(s) for s in syms[p])

    return lambda board, p: lost(board, opponent[p]) - lost(board, p)
