"""Why a rule that reads a piece's past or its region did not make a move (for ``moves --why``)."""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.tables import first_step
from rulesdsl.interpreter.reference.marks import Marks
from rulesdsl.interpreter.reference.piece_legality import PieceRules


def piece_reason(pieces: PieceRules, rule: m.MoveRule, player: int, board: str, origin: int, target: int,
                 vector: tuple[int, int], marks: Marks | None, names: list[str]) -> str | None:
    """What a condition of ``rule`` says against the move ``origin`` -> ``target``, or ``None``."""
    tables = pieces.tables
    marks = marks or Marks()
    path, cell = [], tables.geometry.step(origin, vector)
    while cell >= 0 and cell != target:
        path.append(cell)
        cell = tables.geometry.step(cell, vector)
    if rule.action == "slide" and rule.distance is not None and len(path) + 1 != rule.distance:
        return f"this rule slides exactly {rule.distance} cells, and {names[target]} is {len(path) + 1} away"
    if rule.region is not None and origin not in pieces.regions[rule.region][player]:
        return f"{names[origin]} is not in the region {rule.region}, where this rule starts"
    if rule.within is not None and target not in pieces.regions[rule.within][player]:
        return f"{names[target]} is not in the region {rule.within}, where this rule ends"
    if rule.blocked:
        leg = tables.neighbours(first_step(vector))[origin]
        if leg >= 0 and leg != target and board[leg] != tables.empty:
            return f"the leap is blocked: {names[leg]}, on its way, holds a piece"
    there = board[target]
    if rule.taking is not None and there != tables.empty and tables.owner.get(there) != player \
            and tables.kind.get(there) != rule.taking:
        return f"{names[target]} holds a {tables.kind.get(there)}, and this rule takes only a {rule.taking}"
    index = pieces.index
    opponent = tables.seats.opponent[player]
    if rule.unmoved and rule.bringing is None and not marks.rights >> index.get((origin,), 99) & 1:
        return f"the {rule.kind} on {names[origin]} has moved"
    if rule.bringing is not None:
        ray = tables.neighbours(vector)
        beyond = ray[target]
        while beyond >= 0 and board[beyond] == tables.empty:
            beyond = ray[beyond]
        if beyond < 0 or board[beyond] not in tables.symbols_of(player, rule.bringing):
            return f"no {rule.bringing} of yours stands beyond {names[target]} with only empty cells between"
        bit = index.get((origin, beyond))
        if rule.unmoved and (bit is None or not marks.rights >> bit & 1):
            return f"the {rule.kind} on {names[origin]} or the {rule.bringing} on {names[beyond]} has moved"
    if rule.safe:
        for cell in (origin, *path):
            if pieces.attacks.attacked(board, cell, opponent):
                return f"{names[cell]} is attacked, and this move must start and pass on cells that are not"
    if "passed" in rule.targets and board[target] == tables.empty and target not in marks.passed:
        return f"{names[target]} is empty, and no piece passed it on the last move"
    return None
