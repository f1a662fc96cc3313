"""Placement on a region, and enclosing (``place KIND in REGION [enclosing KIND2 in REGION2 [again]]``).

``in REGION``: the piece goes only on an empty cell of the mover's REGION (the
edges of a dots-and-boxes board, say). ``enclosing``: after the placement,
every empty cell of REGION2 next to the placed piece (along the board's own
directions) whose neighbours on the board are all occupied gets the mover's
KIND2 (a box closed on its four sides); with ``again`` a move that encloses
lets the mover move again (``Move.bonus``).
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import NO_CELL, Move
from rulesdsl.interpreter.compile.tables import Tables


def moves_again(active) -> bool:
    """True when an active move rule can earn the mover another turn (``enclosing ... again``, a sowing's
    ``again in``): then a move does not always hand over the turn."""
    return any((rule.enclose is not None and rule.enclose.again) or (rule.sow is not None and rule.sow.again_in)
               for block in (*active.all(m.Moves), *active.all(m.Then)) for rule in block.rules)


def compile_region_place(rule: m.MoveRule, tables: Tables, player: int) -> Callable[[str, list[Move]], None]:
    """The generator of a placement limited to a region, possibly enclosing cells."""
    sym = tables.placed_symbol(player, rule.kind)
    empty = tables.empty
    ncells = tables.cell_count
    cells = sorted(tables.region(rule.region, player)) if rule.region else list(range(ncells))
    tables_all = [tables.neighbours(v) for v in tables.vectors((m.DirRef(rule.span, "all"),), player)]
    around = [tuple(t[c] for t in tables_all if t[c] >= 0) for c in range(ncells)]
    enclose = rule.enclose
    claim_sym = None
    targets: frozenset[int] = frozenset()
    if enclose is not None:
        claim_sym = tables.symbol.get((player, enclose.kind), tables.neutral.get(enclose.kind))
        if claim_sym is None:
            raise RulesdslError(f"enclosing {enclose.kind}: {tables.player_names[player]} has no {enclose.kind}",
                                enclose.span)
        targets = tables.region(enclose.region, player)
    # per placement cell: the enclosable cells next to it, each with its other neighbours
    beside = [tuple((b, tuple(n for n in around[b] if n != c)) for b in around[c] if b in targets)
              for c in range(ncells)]
    plain = [Move(NO_CELL, t, ((t, sym),), "place") for t in range(ncells)] if sym is not None else []
    again = enclose is not None and enclose.again

    def gen_place_in(board: str, out: list[Move]) -> None:
        if sym is None:
            return
        for t in cells:
            if board[t] != empty:
                continue
            closed = [b for b, others in beside[t] if board[b] == empty and all(board[n] != empty for n in others)]
            if not closed:
                out.append(plain[t])
                continue
            changes = ((t, sym), *((b, claim_sym) for b in closed))
            out.append(Move(NO_CELL, t, changes, "place", (), (), 0, bonus=again))

    return gen_place_in
