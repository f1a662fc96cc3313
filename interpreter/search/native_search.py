"""Source of the native kernel's search helpers: a position as one row of words, its static value, its leaves.

The alpha-beta engine's path on the kernel (:mod:`rulesdsl.interpreter.search.kernel_search`)
holds a position as one row of unsigned words: the bitboards in ``symbols``
order (a board over 64 cells gives each several, :mod:`rulesdsl.interpreter.kernel.lanes`),
the kernel's other words, then the player to move, then the go-again bit. These
functions are written here from fixed text and the number of words only (never
from a rule file), appended to the kernel's native source (either kind) and
checked with it by ``check_source``:

- ``expandrow(row, out)``: ``expand`` of a row;
- ``score(v..., turn, weights, consts, mobw, ft)``: the static evaluation for the
  player ``turn`` (the linear features folded into one weight per word and
  bit, plus ``mobw`` times the difference of the two players' move counts,
  plus ``area`` and ``threatened`` when ``ft`` has them:
  :mod:`~rulesdsl.interpreter.search.native_features`, ``feats``);
- ``scorerow(row, weights, consts, mobw, ft, limit)``: that, kept within
  ``±limit`` (NaN: 0), as :func:`rulesdsl.interpreter.search.minimax.static_score`;
- ``frontier(row, ply, out, weights, consts, mobw, ft, win, limit, misere)``: the
  exact value of a row searched one ply deep (every child's outcome or static
  value, negated when the turn changes), and how many children it has: the
  last ply of a search, without a call from Python per leaf;
- ``ordering(row, out, k, res, weights, consts, mobw, ft, limit)``: each of
  the ``k`` children's static value from the row's mover's side (move order).

With more than two players the source also holds the helpers of
:mod:`rulesdsl.interpreter.search.native_players` (paranoid and max^n).
"""

from __future__ import annotations

from rulesdsl.interpreter.search.feature_source import FEATS


def _words(prefix: str, symbols: int) -> str:
    return "".join(f"{prefix}[{i}], " for i in range(symbols))


def _sum_bits(symbols: int, indent: str, counted: int = 0) -> list[str]:
    """The weights of each bitboard's set bits; the last ``counted`` words are counts, whose weight is that
    word's first weight times the count."""
    lines = [f"s += weights[turn, {i}, 0] * v{i}" for i in range(symbols - counted, symbols)]
    for i in range(symbols - counted):
        lines += [f"x = v{i}", "while x:", "    low = x & (u64(0) - x)",
                  f"    s += weights[turn, {i}, popcount(low - u64(1))]", "    x ^= low"]
    return [indent + line for line in lines]


def _clamp(name: str, indent: str) -> list[str]:
    return [indent + line for line in (f"if {name} != {name}:", f"    {name} = limit - limit",
                                       f"elif {name} > limit:", f"    {name} = limit",
                                       f"elif {name} < -limit:", f"    {name} = -limit")]


def _lookup(table: tuple[int, ...], index: str) -> str:
    """The expression of ``table[index]`` for a player index, in arithmetic (the kernel's source has no tests
    inside expressions): a line through two players, a turn of the seats among more."""
    if len(table) == 2:
        return f"({table[0]} + ({table[1] - table[0]}) * {index})"  # table[p] for p in 0, 1
    count = len(table)
    shift = (table[0]) % count
    if all(table[p] == (p + shift) % count for p in range(count)):
        return f"(({index} + {shift}) % {count})"
    return "(" + " + ".join(f"{table[p]} * ({index} == {p})" for p in range(count)) + ")"


def terminal_value(other_winner: str, indent: str) -> list[str]:
    """The lines giving ``val``, a finished child's value for its mover ``tn`` at ``ply + 1`` (``ow`` the winner,
    -1 a draw, swapped here for misere; ``other_winner``: the opponent of ``ow`` as an expression)."""
    return [indent + line for line in ("if ow >= 0 and misere:", f"    ow = {other_winner}", "if ow < 0:",
                                       "    val = win - win", "elif ow == tn:", "    val = win - (ply + 1)", "else:",
                                       "    val = (ply + 1) - win")]


def search_source(symbols: int, opponent: tuple[int, ...], counted: int = 0, features: bool = False,
                  places: int = -1) -> str:
    """The helpers' source for a kernel of ``symbols`` words (the last ``counted`` of them counts of pieces in
    cells, the others bitboards) whose players' opponents are ``opponent``; ``features``: with ``feats`` (the
    evaluation uses ``area`` or ``threatened``); ``places``: the row's column of the seats' places (-1: none)."""
    other = _lookup(opponent, "turn")
    other_winner = _lookup(opponent, "ow")
    v = "".join(f"v{i}, " for i in range(symbols))
    row = f"{_words('row', symbols)}i64(row[{symbols}]), row[{symbols + 1}]"
    child = f"{_words('c', symbols)}tn, c[{symbols + 1}]"
    lines = ["def expandrow(row, out):", f"    return expand({row}, out)", "", "",
             f"def score({v}turn, weights, consts, mobw):", "    s = consts[turn]"]
    lines += _sum_bits(symbols, "    ", counted)
    if features:
        lines += ["    if ft[2]:", f"        s += feats(({v}), turn, {other}, consts, ft)"]  # area, threatened
    lines += ["    if mobw:",
              f"        s += mobw * (mobility({v}turn, u64(0), None, 1) - mobility({v}{other}, u64(0), None, 1))",
              "    return s", "", "",
              "def scorerow(row, weights, consts, mobw, limit):",
              f"    val = score({_words('row', symbols)}i64(row[{symbols}]), weights, consts, mobw)"]
    lines += _clamp("val", "    ") + ["    return val", "", ""]
    lines += ["def frontier(row, ply, out, weights, consts, mobw, win, limit, misere):",
              f"    w, r, k = expand({row}, out)",
              f"    turn = i64(row[{symbols}])",
              "    best = -(win + win)",
              "    for j in range(k):",
              "        c = out[j]",
              f"        tn = i64(c[{symbols}])",
              f"        ow, orr, ok = outcome({child}, out)",
              "        if ow != -2:"]
    lines += terminal_value(other_winner, "            ")
    lines += ["        else:",
              f"            val = score({_words('c', symbols)}tn, weights, consts, mobw)"]
    lines += _clamp("val", "            ")
    lines += ["        if tn != turn:", "            val = -val", "        if val > best:", "            best = val",
              "    return best, k", "", "",
              "def ordering(row, out, k, res, weights, consts, mobw, limit):",
              f"    turn = i64(row[{symbols}])",
              "    for j in range(k):",
              "        c = out[j]",
              f"        tn = i64(c[{symbols}])",
              f"        val = score({_words('c', symbols)}tn, weights, consts, mobw)"]
    lines += _clamp("val", "        ")
    lines += ["        if tn != turn:", "            val = -val", "        res[j] = val", "    return k"]
    source = ("\n".join(lines) + "\n")
    if len(opponent) > 2:  # the helpers of the searches of more than two players
        from rulesdsl.interpreter.search.native_players import players_source

        source += "\n\n" + players_source(symbols, other_winner, places, len(opponent))
    source = source.replace("weights, consts, mobw", "weights, consts, mobw, ft")  # the features' tables after mobw
    return source + FEATS if features else source
