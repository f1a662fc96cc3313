"""``slide DIRS over one`` on bitboards: a move past exactly one piece (a screen), as a cannon takes.

Along one direction (:func:`rulesdsl.interpreter.reference.movegen._slide_over_screen`
is the reference): a fill from the sliding pieces over empty cells finds the
first piece past each (the screens, of either side); a second fill from the
screens over empty cells gives the landing cells ``to empty``, and the first
piece past those, if it is an enemy piece (of the ``taking`` kind), the
landing cells ``to enemy``. Each landing cell has one origin: walking back
from it, the first piece met is its screen and the next its slider, so a
move's origin is found by that walk. tests/test_kernel_chess_blocks.py holds
it to the reference.
"""

from __future__ import annotations

from rulesdsl.interpreter.kernel.bitboards import BitLayout, shifted


def screen_groups(layout: BitLayout, vector, mover: str, number: int, occupied: str, into_empty: bool,
                  victims: str | None, victim_vars: list[str]) -> list[dict]:
    """The groups of one direction of a slide over one, as ``Group`` keyword arguments (``occupied``: the source
    of the occupied cells; ``victims``: the cells a landing may take, ``None``: it takes nothing)."""
    s, pre = layout.shift_of(vector), layout.has_next(vector)
    key = f"{number}_{abs(s)}{'p' if s > 0 else 'n'}"
    front, filled, screens, beyond = f"sa{key}", f"sb{key}", f"sc{key}", f"sd{key}"
    prelude = [f"{front} = {shifted(f'({mover} & {pre})', s)} & E", f"{filled} = {front}", f"while {front}:",
               f"    {front} = {shifted(f'({front} & {pre})', s)} & E", f"    {filled} |= {front}",
               f"{screens} = {shifted(f'(({mover} | {filled}) & {pre})', s)} & {occupied}",
               f"{front} = {shifted(f'({screens} & {pre})', s)} & E", f"{beyond} = {front}", f"while {front}:",
               f"    {front} = {shifted(f'({front} & {pre})', s)} & E", f"    {beyond} |= {front}"]
    walk = ["u = " + shifted("t", -s), f"while not u & {occupied}:", "    u = " + shifted("u", -s),
            "u = " + shifted("u", -s), f"while not u & {occupied}:", "    u = " + shifted("u", -s),
            f"{mover} ^= u | t"]
    common = dict(target="t", origin_shift=0, action="slide", moved=(), exists=None, walks=True, piece=mover)
    out = []
    if into_empty:
        out.append(dict(prelude=prelude, mask=beyond, apply=walk, captures=False, **common))
        prelude = []
    if victims is not None:
        landing = f"{shifted(f'(({screens} | {beyond}) & {pre})', s)} & {victims}"
        # the walk reads the board before the piece taken leaves it: the landing cell is not walked over
        out.append(dict(prelude=prelude, mask=landing, apply=walk + [f"{v} &= ~t" for v in victim_vars],
                        captures=True, **common))
    return out
