"""The static evaluation: a weighted sum of features, each mine minus the opponent's.

Features: ``material [KIND]`` (pieces on the board), ``mobility`` (the moves the
player would have if it were to move, as the kernel counts them: ``mobility`` of
:mod:`rulesdsl.interpreter.reference.legality`), ``advancement [KIND]`` (steps along the player's forward
direction), ``centrality [KIND]`` (closeness to the board's centre, in moves),
``captures`` (enemy pieces lost minus own pieces lost, from the start) and
``threatened [KIND]`` (pieces the other player could capture or push next;
give it a negative weight).
``score`` (the player's score, from a ``score`` statement).
A file without ``evaluate`` gets ``mobility 1``, or ``score 10, mobility 1`` when it keeps scores.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.cells import cells_holding
from rulesdsl.interpreter.compile.game import State
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.reference.groups import area_scorer

Feature = Callable[[str, int], float]  # f(board, player)
Mobility = Callable[[State, int], int]  # a player's moves in a state, as the kernel counts them (legality.py)
# name -> (symbols of each player, tables, mobility, threats, start board) -> the feature, of the board alone or
# (the names in OF_STATE) of the whole state.
# One entry per feature of rulesdsl.vocabulary.FEATURES (tests/test_vocabulary.py checks it).
BUILDERS: dict[str, Callable[..., Feature]] = {
    "material": lambda syms, tables, mobility, threats, start_board: _counter(syms),
    "mobility": lambda syms, tables, mobility, threats, start_board: mobility,
    "advancement": lambda syms, tables, mobility, threats, start_board: _weighted(syms, _advancement(tables)),
    "centrality": lambda syms, tables, mobility, threats, start_board: _weighted(syms, _centrality(tables)),
    "captures": lambda syms, tables, mobility, threats, start_board: _captures(syms, start_board,
                                                                               tables.seats.opponent),
    "threatened": lambda syms, tables, mobility, threats, start_board: _threatened(syms, threats,
                                                                                   tables.seats.opponent),
    "score": lambda syms, tables, mobility, threats, start_board: _score(tables),
    "area": lambda syms, tables, mobility, threats, start_board: area_scorer(tables),
}
OF_STATE = frozenset({"mobility"})  # features given the state, not the board alone


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
    mobility: Mobility,
    threats: list[Callable[[str], set[int]]],
    start_board: Callable[[], str],
) -> Callable[[State, int], float]:
    """``evaluate(state, player)`` for the declared features; ``mobility(state, player)`` counts a player's
    moves (:func:`~rulesdsl.interpreter.reference.legality.compile_legality`'s)."""
    for feature in features:
        if feature.name not in BUILDERS:  # the checker reports it (E081); never drop a feature silently
            raise RulesdslError(f"no evaluation for the feature {feature.name!r}", feature.span)
    players = range(len(tables.player_names))
    opponent = tables.seats.opponent
    linear = [f for f in features if f.name in LINEAR]
    parts: list[tuple[float, Feature, bool]] = []  # weight, feature, given the state
    for feature in features:
        if feature.name not in LINEAR:
            syms = [tables.symbols_of(p, feature.kind) for p in players]
            parts.append((feature.weight, BUILDERS[feature.name](syms, tables, mobility, threats, start_board),
                          feature.name in OF_STATE))
    # For each player: (symbol, a weight per cell) pairs and a constant: the linear features folded
    # into one table per point of view. Made at the first call (the captures need the start board).
    squares: list[tuple[list[tuple[str, list[float]]], float]] = []

    def evaluate(state: State, player: int) -> float:
        if not squares:
            squares.extend(_fold(linear, tables, start_board))
        board = state.board
        rows, total = squares[player]
        for sym, row in rows:
            i = board.find(sym)
            while i >= 0:
                total += row[i]
                i = board.find(sym, i + 1)
        if parts:
            other = opponent[player]
            for w, f, whole in parts:
                seen = state if whole else board
                total += w * (f(seen, player) - f(seen, other))
        return total

    return evaluate


LINEAR = frozenset({"material", "advancement", "centrality", "captures"})  # sums over pieces of a weight per cell


def linear_terms(features: tuple[m.Feature, ...], tables: Tables, start_board: Callable[[], str],
                 scores: list[tuple[dict[str, float], float]] | None = None
                 ) -> tuple[list[tuple[list[tuple[str, list[float]]], float]], float] | None:
    """The evaluation as tables, for code that computes it on bitboards: for each player, (symbol, weight per
    cell) pairs and a constant (the linear features, mine minus the opponent's), and the summed weight of
    ``mobility``; ``None`` when another feature is used (``threatened``). ``scores``: each player's score as a
    weight per symbol and a constant (:mod:`~rulesdsl.interpreter.search.score_terms`), which makes ``score``
    linear too."""
    linear = LINEAR | ({"score"} if scores is not None else set())
    if any(f.name not in linear and f.name != "mobility" for f in features):
        return None
    mobility = sum(f.weight for f in features if f.name == "mobility")
    return _fold([f for f in features if f.name in linear], tables, start_board, scores), mobility


def _fold(features: list[m.Feature], tables: Tables, start_board: Callable[[], str],
          scores: list[tuple[dict[str, float], float]] | None = None
          ) -> list[tuple[list[tuple[str, list[float]]], float]]:
    """For each player ``p``, the linear features' ``w * (f(board, p) - f(board, opponent))`` as a
    weight per (symbol, cell) plus a constant."""
    players = range(len(tables.player_names))
    opponent = tables.seats.opponent
    size = len(tables.geometry.cells)
    # of each feature, for each player q: f(board, q) as {symbol: weight per cell}, constant
    terms = [[_square_term(f, q, tables, start_board) if f.name != "score" else scores[q] for q in players]
             for f in features]
    folded = []
    for p in players:
        rows: dict[str, list[float]] = {}
        constant = 0.0
        for feature, per_player in zip(features, terms):
            for q, sign in ((p, 1.0), (opponent[p], -1.0)):
                weights, const = per_player[q]
                constant += sign * feature.weight * const
                for sym, cells in weights.items():
                    row = rows.setdefault(sym, [0.0] * size)
                    for i, value in enumerate(cells):
                        row[i] += sign * feature.weight * value
        folded.append(([(sym, row) for sym, row in rows.items() if any(row)], constant))
    return folded


def _square_term(feature: m.Feature, q: int, tables: Tables, start_board: Callable[[], str]
                 ) -> tuple[dict[str, list[float]], float]:
    """``f(board, q)`` for one linear feature, as a weight per cell for each symbol plus a constant."""
    size = len(tables.geometry.cells)
    mine = tables.symbols_of(q, feature.kind)
    if feature.name == "material":
        return {s: [1.0] * size for s in mine}, 0.0
    if feature.name == "advancement":
        row = [float(v) for v in _advancement(tables)[q]]
        return {s: row for s in mine}, 0.0
    if feature.name == "centrality":
        row = [float(v) for v in _centrality(tables)[q]]
        return {s: row for s in mine}, 0.0
    # captures: lost(opponent) - lost(q), lost(r) = pieces of r at the start - pieces of r now
    other = tables.seats.opponent[q]
    theirs = tables.symbols_of(other, feature.kind)
    first = start_board()
    start_mine = sum(first.count(s) for s in mine)
    start_theirs = sum(first.count(s) for s in theirs)
    weights = {s: [1.0] * size for s in mine}
    weights.update({s: [-1.0] * size for s in theirs})
    return weights, float(start_theirs - start_mine)


def _threatened(syms: list[frozenset[str]], threats: list[Callable[[str], set[int]]],
                opponent: tuple[int, ...]) -> Feature:
    """How many of a player's pieces the other player could capture or push next move."""
    def count(board: str, p: int) -> float:
        mine = syms[p]
        return sum(1 for c in threats[opponent[p]](board) if board[c] in mine)

    return count


def _score(tables: Tables) -> Feature:
    """The player's score (``score``), worked out on the board."""
    scores = tables.score_of
    if scores is None:
        raise RulesdslError("the evaluation feature 'score' needs a 'score' statement")
    return lambda board, p: scores(State(board, p))[p]


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
