"""Sowing (``sow KIND from REGION along TRACK ...``): take every seed of a cell, drop one at a time along a track.

The mover picks a cell of their ``from`` region holding at least one counted
piece; all of them are taken up and dropped one per cell on the following
cells of the track (cyclic: after the last comes the first), passing over the
other players' cells of the ``skipping`` region; the emptied cell gets one
again when a lap comes round. Where the last one lands decides the effects:

- ``again in REGION``: in the mover's own cell of REGION, the mover moves again;
- ``capture DIR into REGION``: alone in one of the mover's ``from`` cells (it was
  empty) with pieces in the cell one step along DIR (a player-relative
  direction such as ``forward``), it and those pieces go to the mover's cell of
  REGION.

Everything is worked out on a small list of counts; the move's ``changes``
write the new counts (:mod:`rulesdsl.interpreter.reference.counts`), so applying it is
like applying any move.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.interpreter.compile.game import Move
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.reference.counts import count_of, count_symbol

SOW_ACTION = "sow"


def compile_sow(rule: m.MoveRule, tables: Tables, player: int) -> Callable[[str, list[Move]], None]:
    """The generator of one sowing rule for one player."""
    sow = rule.sow
    if sow is None or tables.counted != rule.kind:
        raise RulesdslError(f"sow {rule.kind}: the board does not count {rule.kind} (write 'counts {rule.kind}')",
                            rule.span)
    track = tables.tracks[sow.track]
    nplayers = len(tables.player_names)
    skipped = frozenset().union(*(tables.region(sow.skip, p) for p in range(nplayers) if p != player)) \
        if sow.skip else frozenset()
    # the next cell of the track after each cell, passing over skipped cells
    on_track = [c for c in track if c not in skipped]
    following = {c: on_track[(i + 1) % len(on_track)] for i, c in enumerate(on_track)}
    off = sorted(c for c in tables.region(sow.origin, player) if c not in following)
    if off:
        names = ", ".join(tables.geometry.cells[c].name for c in off)
        raise RulesdslError(f"sow from {sow.origin}: {names} of {tables.player_names[player]}'s {sow.origin} "
                            f"{'is' if len(off) == 1 else 'are'} not on track {sow.track} (or skipped); a sowing "
                            "starts on its track", sow.span)
    origins = sorted(tables.region(sow.origin, player))
    again_cells = tables.region(sow.again_in, player) if sow.again_in else frozenset()
    own = frozenset(origins)
    across: dict[int, int] = {}
    store = -1
    if sow.capture is not None and sow.into is not None:
        table = tables.neighbours(tables.vectors((sow.capture,), player)[0])
        across = {c: table[c] for c in own if table[c] >= 0}
        stores = sorted(tables.region(sow.into, player))
        if len(stores) != 1:
            raise RulesdslError(f"capture into {sow.into}: {tables.player_names[player]} has {len(stores)} cells "
                                "there; a capture goes into exactly one", sow.span)
        store = stores[0]
    empty = tables.empty

    def gen_sow(board: str, out: list[Move]) -> None:
        for origin in origins:
            seeds = count_of(board[origin])
            if not seeds:
                continue
            changed: dict[int, int] = {origin: 0}
            cell = origin
            for _ in range(seeds):
                cell = following[cell]
                changed[cell] = changed.get(cell, count_of(board[cell])) + 1
            captured = 0
            if cell in across and changed[cell] == 1:
                opposite = across[cell]
                taken = changed.get(opposite, count_of(board[opposite]))
                if taken:
                    captured = taken
                    changed[opposite] = 0
                    changed[cell] = 0
                    changed[store] = changed.get(store, count_of(board[store])) + taken + 1
            changes = tuple((c, count_symbol(n, empty)) for c, n in sorted(changed.items()))
            out.append(Move(origin, cell, changes, SOW_ACTION, (origin,), (), captured,
                            bonus=cell in again_cells))

    return gen_sow
