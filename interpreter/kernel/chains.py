"""Capture chains as one move on bitboards: the kernel's source for ``again after capture ... in one move``.

A chain is one move: the piece jumps from cell to cell while it can, the
pieces it jumps stay on the board until the end (each jumped once, each
blocking the way), and only complete chains are moves; chains with the same
start, end and taken pieces are one move (as :mod:`rulesdsl.interpreter.reference.chains`
says). The kernel finds them with a depth-first walk per piece, over integers
only: a stack (a list of words, two a node: the cell reached and the pieces
taken so far, words both: nothing taken is ``o ^ o``, so that
machine code keeps one type) and, per jumping symbol, a list of the chains found, three
words each (origin, landing cell, taken pieces), checked against the earlier
ones so that a chain taken in another order is not counted twice. A jump from
one cell along one direction is one shift, two masks and a second shift (a
``flying`` jump walks over empty cells to the first piece, and may land on
every empty cell beyond it); the origin counts as empty while its piece is
under way. Walks begin only from the pieces that have a first jump (one mask
per direction; every piece of a symbol that flies). ``must capture most``
keeps the chains whose taken pieces are the most.

Playing a chain clears the origin, puts the piece on the landing cell (its
promoted symbol there when the landing cell is on its far row) and clears the
taken pieces. tests/test_playout.py holds this to the reference path.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.interpreter.kernel.bitboards import shifted

# At most this many capture chains of one symbol are kept in one position: the machine code's child rows are
# sized for them and numba checks no bounds, so a position with more (none in play; a built one could) is
# cut short rather than written past its buffer. The reference path (interpreter/reference/) has no limit.
MAX_CHAINS = 1024


@dataclass
class Chainer:
    """One symbol's capture chains: its bitboard, its list of chains, its jumps and its promotion."""

    mover: str  # the symbol's bitboard
    found: str  # the list of its chains (origin, landing, taken: three words each)
    jumps: list[tuple[int, int, int, bool]]  # (shift of one step, the cells with a next cell and with two, flying)
    crowned: str | None  # the promoted symbol's bitboard, if the symbol is promoted on ``far``
    far: int


def chain_lines(chainer: Chainer, opp: str, empty: str) -> list[str]:
    """Statements filling ``chainer.found`` with the symbol's chains on the position (``opp``: the enemy
    pieces' cells, ``empty``: the empty cells)."""
    found, mover = chainer.found, chainer.mover
    # the pieces with a first jump: the only ones whose walk is begun (most positions have none)
    flies = any(flying for *_, flying in chainer.jumps)
    starts = mover if flies else " | ".join(_first_jumps(mover, s, pre2, opp, empty) for s, _, pre2, _ in chainer.jumps)
    walk = ["while pp:", "    o = pp & -pp", "    pp ^= o", f"    ee = {empty} | o", "    sk.append(o)",
            "    sk.append(o ^ o)", "    while len(sk):", "        tk = sk.pop()", "        cc = sk.pop()",
            "        more = 0"]
    for s, pre, pre2, flying in chainer.jumps:
        if flying:  # over empty cells to the first piece, then onto any empty cell beyond it
            walk += [f"        uu = {shifted(f'(cc & {pre})', s)}", "        while uu & ee:",
                     f"            uu = {shifted(f'(uu & {pre})', s)}", f"        if uu & {opp} & ~tk:",
                     f"            jj = {shifted(f'(uu & {pre})', s)} & ee", "            while jj:",
                     "                more = 1", "                sk.append(jj)", "                sk.append(tk | uu)",
                     f"                jj = {shifted(f'(jj & {pre})', s)} & ee"]
            continue
        landing = shifted(f"({shifted(f'(cc & {pre2})', s)} & {opp} & ~tk)", s)
        walk += [f"        jj = {landing} & ee", "        if jj:", "            more = 1", "            sk.append(jj)",
                 f"            sk.append(tk | {shifted('jj', -s)})"]
    walk += ["        if not more and tk:", "            new = 1", f"            for i in range(0, len({found}), 3):",
             f"                if {found}[i] == o and {found}[i + 1] == cc and {found}[i + 2] == tk:",
             "                    new = 0",
             f"            if new and len({found}) < {3 * MAX_CHAINS}:", f"                {found}.append(o)",
             f"                {found}.append(cc)",
             f"                {found}.append(tk)"]
    return [f"{found} = []", f"pp = {starts}", "if pp:", "    sk = []"] + ["    " + line for line in walk]


def _first_jumps(mover: str, s: int, pre2: int, opp: str, empty: str) -> str:
    """The expression of the pieces of ``mover`` that can jump an enemy piece along the shift ``s``."""
    over = shifted(f"({mover} & {pre2})", s)
    landing = shifted(f"({over} & {opp})", s)
    return shifted(f"({landing} & {empty})", -2 * s)


def most_lines(found: list[str]) -> list[str]:
    """Statements keeping, of the chains in the lists ``found``, only those that take the most pieces
    (``must capture most``)."""
    lines = ["best = 0"]  # under ``if len(...) > 3`` (more than one chain): the native mobility drops it whole
    for name in found:
        lines += [f"for i in range(0, len({name}), 3):", f"    if {name}[i + 2].bit_count() > best:",
                  f"        best = {name}[i + 2].bit_count()"]
    for name in found:
        lines += ["kept = []", f"for i in range(0, len({name}), 3):", f"    if {name}[i + 2].bit_count() == best:",
                  f"        kept.append({name}[i])", f"        kept.append({name}[i + 1])",
                  f"        kept.append({name}[i + 2])", f"{name} = kept"]
    return [f"if {' + '.join(f'len({name})' for name in found)} > 3:"] + ["    " + line for line in lines]


def chain_apply(chainer: Chainer, index: str, enemy_vars: list[str]) -> list[str]:
    """Statements playing the chain at ``index`` (an expression: its place among the symbol's chains)."""
    found, mover = chainer.found, chainer.mover
    lines = [f"o = {found}[3 * {index}]", f"cc = {found}[3 * {index} + 1]", f"tk = {found}[3 * {index} + 2]",
             f"{mover} ^= o"]
    if chainer.crowned is not None:
        lines += [f"if cc & {chainer.far}:", f"    {chainer.crowned} |= cc", "else:", f"    {mover} |= cc"]
    else:
        lines.append(f"{mover} |= cc")
    return lines + [f"{v} &= ~tk" for v in enemy_vars]
