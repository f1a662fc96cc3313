"""Walls between cells: a wall grid, walking across it, building walls, and paths around them.

A wall grid is a grid board of 2N-1 by 2N-1 cells: a cell with an even column and row (counting from 0)
is a square where pieces stand; a cell between two squares is a groove; a cell where four grooves meet
is a post. ``build KIND`` puts a neutral piece on a post and the two grooves on either side of it (one
wall spanning two square edges); walls cannot overlap (the grooves are taken) nor cross (the post is).
``walk KIND DIRS`` moves a piece to the next square across an empty groove, leaping an adjacent piece
(straight on, or to either side of it when a wall or the board's edge stands behind it). ``PLAYER can
reach far row`` asks for a path of orthogonal steps through cells without a wall from each of the
player's pieces to its far row. Everything works on the board string: state stays fixed in size.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import Move, State
from rulesdsl.interpreter.compile.tables import Tables

BUILD_ACTION = "build"
WALK_ACTION = "walk"

Generator = Callable[[str, list[Move]], None]


def _nothing(board: str, out: list[Move]) -> None:
    """A rule with nothing to move."""


def square_cells(tables: Tables) -> list[int]:
    """The cells where pieces stand: an even number of cells from the bottom-left corner each way."""
    left, _, bottom, _ = tables.geometry.bounds
    return [c.index for c in tables.geometry.cells if (c.x - left) % 2 == 0 and (c.y - bottom) % 2 == 0]


def post_cells(tables: Tables) -> list[int]:
    """The cells where four grooves meet: an odd number of cells from the bottom-left corner each way."""
    left, _, bottom, _ = tables.geometry.bounds
    return [c.index for c in tables.geometry.cells if (c.x - left) % 2 == 1 and (c.y - bottom) % 2 == 1]


def require_wall_grid(rule: m.MoveRule, tables: Tables) -> None:
    """Refuse a ``walk`` or ``build`` rule on a board that is not a wall grid, saying what to write."""
    geometry = tables.geometry
    left, right, bottom, top = geometry.bounds
    width, height = right - left + 1, top - bottom + 1
    if geometry.shape != "grid" or geometry.has_lines or len(geometry.cells) != width * height:
        raise RulesdslError(f"'{rule.action}' needs a wall grid: a full 'board grid' with no 'where' or 'lines'",
                            rule.span)
    if width % 2 == 0 or height % 2 == 0:
        raise RulesdslError(f"'{rule.action}' needs a wall grid, with an odd number of columns and rows "
                            f"(this board is {width} x {height}): write 'board grid 2 * N - 1 x 2 * N - 1' "
                            "for N x N squares", rule.span)


def walking(rule: m.MoveRule, tables: Tables, player: int) -> Generator:
    """``walk KIND DIRS``: to the next square across an empty groove, leaping a piece in the way."""
    require_wall_grid(rule, tables)
    movers = tables.symbols_of(player, rule.kind)
    if not movers:
        return _nothing
    empty = tables.empty
    vectors = tables.vectors(rule.directions, player)
    rays = [tables.neighbours(v) for v in vectors]
    sides = [[tables.neighbours(w) for w in vectors if w[0] * v[0] + w[1] * v[1] == 0] for v in vectors]
    squares = square_cells(tables)

    def across(ray: tuple[int, ...], board: str, cell: int) -> int:
        """The square beyond the groove along ``ray``, or -1 when the groove is walled or off the board."""
        groove = ray[cell]
        return ray[groove] if groove >= 0 and board[groove] == empty else -1

    def gen(board: str, out: list[Move]) -> None:
        for c in squares:
            sym = board[c]
            if sym not in movers:
                continue
            for ray, side_rays in zip(rays, sides):
                t = across(ray, board, c)
                if t < 0:
                    continue
                if board[t] == empty:
                    out.append(Move(c, t, ((c, empty), (t, sym)), WALK_ACTION, (c,)))
                    continue
                beyond = across(ray, board, t)
                if beyond >= 0:  # straight over the piece
                    if board[beyond] == empty:
                        out.append(Move(c, beyond, ((c, empty), (beyond, sym)), WALK_ACTION, (c,)))
                    continue
                for side in side_rays:  # a wall or the edge behind it: to either side of it
                    d = across(side, board, t)
                    if d >= 0 and board[d] == empty:
                        out.append(Move(c, d, ((c, empty), (d, sym)), WALK_ACTION, (c,)))

    return gen


def wall_slots(tables: Tables) -> list[tuple[int, int, int]]:
    """Every place a wall may stand: (one end, post, other end), horizontal ones first at each post."""
    geometry = tables.geometry
    slots = []
    for post in post_cells(tables):
        c = geometry.cells[post]
        for dx, dy in ((1, 0), (0, 1)):
            a, b = geometry.at(c.x - dx, c.y - dy), geometry.at(c.x + dx, c.y + dy)
            if a >= 0 and b >= 0:
                slots.append((a, post, b))
    return slots


def building(rule: m.MoveRule, tables: Tables, player: int) -> Generator:
    """``build KIND``: a wall on a post and the grooves either side of it, all three empty."""
    require_wall_grid(rule, tables)
    sym = tables.neutral.get(rule.kind)
    if sym is None:
        raise RulesdslError(f"'build {rule.kind}': a wall belongs to nobody; declare it as a neutral piece, "
                            f"'piece {rule.kind} \"#\"'", rule.span)
    if rule.supply and tables.hand_kind != rule.kind:
        raise RulesdslError(f"'build {rule.kind} from hand' needs a hand of {rule.kind}s: write "
                            f"'hand {rule.kind} N' (N walls each)", rule.span)
    empty = tables.empty
    slots = [(a, p, b, Move(a, b, ((a, sym), (p, sym), (b, sym)), BUILD_ACTION)) for a, p, b in wall_slots(tables)]

    def gen(board: str, out: list[Move]) -> None:
        for a, p, b, move in slots:
            if board[a] == empty and board[p] == empty and board[b] == empty:
                out.append(move)

    return gen


def reaches_far_row(tables: Tables, who: Callable[[State], int], span=None) -> Callable[[State, object], bool]:
    """``PLAYER can reach far row``: on a wall grid, every piece of the player has a path to its far row, from
    square to square across grooves without a wall (other pieces do not block it)."""
    geometry = tables.geometry
    left, right, bottom, top = geometry.bounds
    if (right - left) % 2 or (top - bottom) % 2:
        raise RulesdslError("'can reach far row' reads a wall grid, with an odd number of columns and rows: "
                            "write 'board grid 2 * N - 1 x 2 * N - 1' for N x N squares", span)
    missing = [name for p, name in enumerate(tables.player_names) if p not in tables.forward]
    if missing:
        raise RulesdslError(f"'can reach far row' needs each player's forward direction: write "
                            f"'forward {missing[0]} n' (or s, e, w)", span)
    squares = square_cells(tables)
    crossings: list[tuple[tuple[int, int], ...]] = [()] * len(geometry.cells)
    for c in squares:  # (groove, square beyond) in each orthogonal direction
        found = []
        for v in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            groove = geometry.step(c, v)
            if groove >= 0:
                found.append((groove, geometry.step(groove, v)))
        crossings[c] = tuple(found)
    empty = tables.empty
    nplayers = len(tables.player_names)
    on_squares = set(squares)
    far = [tuple(c for c in tables.far_cells(p) if c in on_squares) for p in range(nplayers)]
    mine = [tables.symbols_of(p) for p in range(nplayers)]

    def reaches(state: State, moves: object) -> bool:
        player = who(state)
        board = state.board
        pieces = [i for i, s in enumerate(board) if s in mine[player]]
        if not pieces:
            return True
        seen = [False] * len(board)
        todo = list(far[player])
        for c in todo:
            seen[c] = True
        while todo:
            c = todo.pop()
            for groove, n in crossings[c]:
                if not seen[n] and board[groove] == empty:
                    seen[n] = True
                    todo.append(n)
        return all(seen[c] for c in pieces)

    return reaches


def supply_filter(active, tables: Tables) -> Callable[[State, list[Move]], list[Move]] | None:
    """For ``build KIND from hand``: drop the build moves of a player whose hand is empty (else ``None``)."""
    moves_stmt = active.first(m.Moves)
    if moves_stmt is None or not any(r.action == BUILD_ACTION and r.supply for r in moves_stmt.rules):
        return None

    def filtered(state: State, moves: list[Move]) -> list[Move]:
        if state.hand is not None and state.hand[state.turn] > 0:
            return moves
        return [mv for mv in moves if mv.action != BUILD_ACTION]

    return filtered


def uses_supply(active) -> bool:
    """True when a ``build KIND from hand`` rule draws its pieces from the hand."""
    moves_stmt = active.first(m.Moves)
    return moves_stmt is not None and any(r.action == BUILD_ACTION and r.supply for r in moves_stmt.rules)


def keep_filter(active, compile_condition: Callable[[m.Expr], Callable],
                board_after: Callable[[str, Move], str]) -> Callable[[State, list[Move]], list[Move]] | None:
    """``keep CONDITION``: only the moves after which every condition holds ('mover': who moved), or ``None``."""
    for keep in active.all(m.Keep):
        for node in m.walk(keep.condition):
            if isinstance(node, (m.NoMoves, m.NobodyMoves)):
                raise RulesdslError("a 'keep' condition is read on the board after each move, before anybody "
                                    "moves again: it cannot ask about moves", node.span)
    conditions = [compile_condition(k.condition) for k in active.all(m.Keep)]
    if not conditions:
        return None

    def kept(state: State, moves: list[Move]) -> list[Move]:
        out = []
        for mv in moves:
            after = state._replace(board=board_after(state.board, mv), last=0)  # last set: 'mover' is who moved
            if all(cond(after, _no_moves) for cond in conditions):
                out.append(mv)
        return out

    return kept


def _no_moves() -> list[Move]:
    raise AssertionError("a keep condition cannot ask about moves (the checker refuses it)")


def why_not_walk(tables: Tables, board: str, origin: int, target: int) -> str:
    """Why a walk from ``origin`` to ``target`` is not made (for ``why``)."""
    names = [c.name for c in tables.geometry.cells]
    if origin in square_cells(tables) and target in square_cells(tables):
        return (f"{names[origin]} to {names[target]} is no walk: a piece goes to the next square across an empty "
                "groove, leaps a piece in the way straight on, or to its sides only when a wall or the edge "
                "stands behind it")
    return f"{names[origin]} to {names[target]} is no walk: pieces stand and walk on squares only"


def why_not_build(tables: Tables, board: str, origin: int, target: int) -> str | None:
    """Why no wall from ``origin`` to ``target`` is built (``None``: no wall could ever span those two ends)."""
    names = [c.name for c in tables.geometry.cells]
    for a, post, b in wall_slots(tables):
        if {a, b} == {origin, target}:
            taken = [c for c in (a, post, b) if board[c] != tables.empty]
            if taken:
                return f"{names[taken[0]]} is taken: walls may not overlap or cross"
            return None
    return None


def failed_keep(active, tables: Tables, compile_condition: Callable[[m.Expr], Callable],
                board_after: Callable[[str, Move], str], state: State, moves: list[Move]) -> m.Keep | None:
    """The ``keep`` statement that every one of ``moves`` breaks, or ``None``."""
    for keep in active.all(m.Keep):
        condition = compile_condition(keep.condition)
        if all(not condition(state._replace(board=board_after(state.board, mv), last=0), _no_moves) for mv in moves):
            return keep
    return None
