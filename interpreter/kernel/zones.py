"""Promotion zones on bitboards: ``promote KIND to KIND2 in REGION [forced in REGION2]``.

The reference (:mod:`rulesdsl.interpreter.reference.promotion_zones`) offers a
move of a KIND piece that starts or ends in the mover's REGION twice: as it is
and with the piece becoming KIND2 where it lands; landing in REGION2 only the
promoted move is left. The kernel does the same per move group: a group of such
a piece becomes the group without the forced landing cells where it may
promote, and a second group on the cells where it may promote, whose move then
swaps the landed piece for the promoted one. The cells where it may promote
are constant for a step or a jump (the landing cell in REGION, or its origin a
fixed shift back in REGION); a slide walks back to its origin, so
:func:`zone_reach` fills its direction once more from the pieces in REGION
alone: a landing cell may promote when it is in REGION or in that fill. The count
of a ply stays the sum of the groups' bit counts; nothing is allocated per move.
tests/test_kernel_zones.py holds this to the reference.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted


class ZoneError(ValueError):
    """A move the kernel does not promote in a zone (the game keeps the generic path)."""


@dataclass(frozen=True)
class Zone:
    """One symbol's promotion in a zone: the bitboard it becomes, the zone's and the forced cells' masks."""

    new: str
    cells: int
    forced: int


def zones_of(active, tables: Tables, layout: BitLayout, var: dict[str, str], player: int) -> dict[str, Zone]:
    """The player's bitboards (names) that promote in a zone, each with its :class:`Zone`."""
    out: dict[str, Zone] = {}
    for stmt in active.all(m.Promote):
        if stmt.zone is None:
            continue
        sym, new = tables.symbol.get((player, stmt.kind)), tables.symbol.get((player, stmt.to_kind))
        if sym is None or new is None:
            continue
        forced = layout.mask(tables.region(stmt.forced_in, player)) if stmt.forced_in else 0
        out[var[sym]] = Zone(var[new], layout.mask(tables.region(stmt.zone, player)), forced)
    return out


def zone_reach(layout: BitLayout, vector, origin: str, zone: Zone | None, name: str) -> tuple[list[str], str | None]:
    """For a slide along ``vector`` of the pieces ``origin`` (an expression): statements setting ``zb`` + ``name`` to
    the cells it reaches from the pieces in the zone (a fill over empty cells, the first piece past them included),
    and the expression of its landing cells where it may promote (in the zone, or from there); no statements and
    ``None`` when the piece has no zone."""
    if zone is None:
        return [], None
    step, pre = layout.shift_of(vector), layout.has_next(vector)
    front, reach = f"za{name}", f"zb{name}"
    return [f"{front} = {shifted(f'({origin} & {zone.cells & pre})', step)}", f"{reach} = {front}",
            f"while {front}:", f"    {front} = {shifted(f'({front} & E & {pre})', step)}", f"    {reach} |= {front}"], \
        f"({zone.cells} | {reach})"


def with_zones(groups: list, zones: dict[str, Zone], layout: BitLayout) -> list:
    """``groups`` with each group of a piece that promotes in a zone (``Group.piece``) followed by its promoted
    copy; the group itself loses the landing cells where the promotion is forced. A walking group (a slide)
    carries the expression of the cells where it may promote in ``Group.zone`` (:func:`zone_reach`)."""
    if not zones:
        return groups
    out = []
    for group in groups:
        zone = zones.get(group.piece or "")
        if zone is None or group.action == "drop":
            out.append(group)
            continue
        if group.action not in ("step", "slide", "jump") or group.origins is not None:
            raise ZoneError(f"promotion in a zone beside a {group.action}")
        if group.walks:  # the cells of :func:`zone_reach`
            if group.zone is None:
                raise ZoneError("a slide without its promotion cells")
            may, must = group.zone, f"~({group.zone} & {zone.forced})" if zone.forced else ""
        else:  # the landing cell in the zone, or the origin a fixed shift back in it
            back = group.origin_shift
            cells = (zone.cells | ((zone.cells << back) if back >= 0 else (zone.cells >> -back))) & layout.full
            if not cells:
                out.append(group)
                continue
            may, must = str(cells), str(layout.full & ~(cells & zone.forced)) if cells & zone.forced else ""
        out.append(replace(group, mask=f"({group.mask}) & {must}" if must else group.mask, exists=None))
        # the prelude was run for the first copy already (its names hold the same values)
        out.append(replace(group, prelude=[], mask=f"({group.mask}) & {may}", exists=None,
                           apply=[*group.apply, f"{group.piece} ^= t", f"{zone.new} |= t"]))
    return out
