"""Move rules compiled to closures: ``gen(board, out)`` appends pseudo-legal moves.

Each building block (step, slide, jump, push) is resolved per player when the
game is compiled: direction names become neighbour tables, piece kinds become
symbol sets. The closures only index strings and tuples.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.interpreter.game import Move
from rulesdsl.interpreter.tables import Tables

Generator = Callable[[str, list[Move]], None]


def compile_rule(rule: m.MoveRule, tables: Tables, player: int, corner_rule: bool) -> Generator:
    """One move rule for one player, as a generator closure."""
    movers = tables.symbols_of(player, rule.kind)
    mine = tables.symbols_of(player)
    theirs = frozenset(tables.owner) - mine
    empty = tables.empty
    rays = [tables.neighbours(v) for v in tables.vectors(rule.directions, player)]
    cells = range(tables.cell_count)
    targets = set(rule.targets or ("empty",))
    may_capture_onto = "enemy" in targets
    action = rule.action

    if action in ("step", "slide"):
        sliding = action == "slide"

        def gen_step(board: str, out: list[Move]) -> None:
            for c in cells:
                piece = board[c]
                if piece not in movers:
                    continue
                for ray in rays:
                    t = ray[c]
                    while t >= 0:
                        there = board[t]
                        if there == empty:
                            out.append(Move(c, t, ((c, empty), (t, piece)), action, (c,)))
                        else:
                            if may_capture_onto and there in theirs:
                                out.append(Move(c, t, ((c, empty), (t, piece)), action, (c,), (t,), 1))
                            break
                        if not sliding:
                            break
                        t = ray[t]

        return gen_step

    if action == "jump":
        over = {"enemy": theirs, "friend": mine, "any": frozenset(tables.owner)}[rule.over or "enemy"]
        capture = rule.capture

        def gen_jump(board: str, out: list[Move]) -> None:
            for c in cells:
                piece = board[c]
                if piece not in movers:
                    continue
                for ray in rays:
                    mid = ray[c]
                    if mid < 0 or board[mid] not in over:
                        continue
                    t = ray[mid]
                    if t < 0 or board[t] != empty:
                        continue
                    if capture:
                        out.append(Move(c, t, ((c, empty), (mid, empty), (t, piece)), action, (c,), (mid,), 1))
                    else:
                        out.append(Move(c, t, ((c, empty), (t, piece)), action, (c,)))

        return gen_jump

    # push: a line of own pieces moves one cell, shoving a shorter enemy line.
    low, high = rule.line or (1, None)
    corners = set(tables.geometry.corners()) if corner_rule else set()
    outward = {c: tables.geometry.outward(c) for c in corners}
    vectors = tables.vectors(rule.directions, player)

    def gen_push(board: str, out: list[Move]) -> None:
        for c in cells:
            if board[c] not in movers:
                continue
            for ray, vector in zip(rays, vectors):
                line = [c]
                t = ray[c]
                while t >= 0 and board[t] in mine:
                    line.append(t)
                    t = ray[t]
                k = len(line)
                if k < low or (high is not None and k > high) or t < 0:
                    continue
                pushed: list[int] = []
                if board[t] != empty:
                    u = t
                    while u >= 0 and board[u] in theirs:
                        pushed.append(u)
                        u = ray[u]
                    if len(pushed) >= k:
                        continue
                    if u >= 0:
                        if board[u] != empty:
                            continue
                        pushed_to = u
                    else:
                        last = pushed[-1]
                        if last in corners and outward[last] == vector:
                            continue
                        pushed_to = -1
                    seq = line + pushed + ([pushed_to] if pushed_to >= 0 else [])
                else:
                    seq = line + [t]
                changes = [(seq[0], empty)] + [(seq[i], board[seq[i - 1]]) for i in range(1, len(seq))]
                captured = 1 if pushed and seq[-1] == pushed[-1] else 0
                out.append(Move(c, line[1] if k > 1 else t, tuple(changes), action,
                                tuple(line), tuple(pushed), captured))

    return gen_push


def compile_player_moves(rules: list[m.MoveRule], tables: Tables, player: int,
                         corner_rule: bool) -> Callable[[str], list[Move]]:
    """All of a player's move rules together: ``moves(board) -> list``."""
    generators = [compile_rule(rule, tables, player, corner_rule) for rule in rules]

    def moves(board: str) -> list[Move]:
        out: list[Move] = []
        for gen in generators:
            gen(board, out)
        return out

    return moves
