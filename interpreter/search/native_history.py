"""Source of the search helpers of a native kernel that keeps earlier positions: the engine's leaves over ``children``.

A kernel whose ``hist`` holds earlier positions (``repetitions``, ``forbid repetition``) has no ``expand``: its
native module has ``children(*words, turn, last, hist, depth, out, rs, pick)``
(:mod:`rulesdsl.interpreter.kernel.native_helpers`), which at depth 2 or more writes the children's rows and lets
the position's key join ``hist`` (the caller restores ``hist[0, 0]``), returns ``-2 - i`` when the game is over
there by the ``i``-th end check (whose winner is ``hendwin[i]``, -1 a draw), at depth 1 the number of moves (or
the end check's code) and at depth 0 the number of moves whoever is to move, without the end checks. These
helpers take a position as one row of words (as :mod:`~.native_search`'s: the words, the player to move, the
go-again word) and one ``hist`` array that the search carries along its path; each restores ``hist[0, 0]``
before it returns. They are written from fixed text, the number of words and the end checks' winners only
(never from a rule file), appended to the kernel's native source and checked with it:

- ``hexpand(row, hist, out, rs)``: ``children`` of the row at depth 2 (its key stays in ``hist``);
- ``hscore(row, mh, out, rs, weights, consts, mobw, ft)``: the static evaluation for the row's mover (the
  linear features folded into one weight per word and bit, plus ``mobw`` times the difference of the two
  players' move counts, each from ``children`` at depth 0 over ``mh``, an empty history with room for one key,
  so that ``forbid repetition`` takes nothing away, as the evaluation's ``mobility`` ignores it (depth 0 leaves
  out ``must capture``'s filter and a forced pass too: :mod:`~rulesdsl.interpreter.kernel.mobility_cut`); plus
  ``area`` and ``threatened`` from the tables ``ft``, :mod:`~.native_features`);
- ``hscorerow(row, mh, out, rs, weights, consts, mobw, ft, limit)``: that within ``±limit`` (NaN: 0);
- ``hfrontier(row, ply, hist, mh, out, leaves, rs, weights, consts, mobw, ft, win, limit, misere, beta)``: the
  value of a row searched one ply deep (each child's outcome, with the history, or static value), exact below
  ``beta`` (the children stop at the first worth ``beta`` or more: a lower bound), ``children``'s answer for the
  row itself (a count, or how the game ended there: the caller scores that) and the children looked at;
- ``hordering(row, out, k, res, leaves, mh, rs, weights, consts, mobw, ft, limit)``: the ``k`` children's static
  values from the row's mover's side (move order).
"""

from __future__ import annotations

from rulesdsl.interpreter.search.feature_source import FEATS
from rulesdsl.interpreter.search.native_search import _clamp, _lookup, _sum_bits, terminal_value


def _args(name: str, symbols: int, turn: str, last: str) -> str:
    """The words of row ``name``, then the player to move and the go-again word, as ``children`` takes them."""
    return "".join(f"{name}[{i}], " for i in range(symbols)) + f"{turn}, {last}"


def history_search_source(symbols: int, opponent: tuple[int, ...], counted: int, winners: list[int],
                          features: bool = False) -> str:
    """The helpers' source for a kernel of ``symbols`` words (the last ``counted`` of them counts of pieces in
    cells) whose players' opponents are ``opponent`` and whose end checks' winners are ``winners`` (-1 a draw);
    ``features``: with ``feats`` (the evaluation uses ``area`` or ``threatened``:
    :mod:`~rulesdsl.interpreter.search.native_features`)."""
    other = _lookup(opponent, "turn")
    other_winner = _lookup(opponent, "ow")
    row = _args("row", symbols, f"i64(row[{symbols}])", f"row[{symbols + 1}]")
    lines = [f"hendwin = ({''.join(f'{w}, ' for w in winners)})", "", "",
             "def hexpand(row, hist, out, rs):",
             f"    return children({row}, hist, 2, out, rs, -1)", "", "",
             "def hscore(row, mh, out, rs, weights, consts, mobw):",
             f"    turn = i64(row[{symbols}])", "    s = consts[turn]"]
    lines += [f"    v{i} = row[{i}]" for i in range(symbols)]
    lines += _sum_bits(symbols, "    ", counted)
    if features:
        words = "".join(f"v{i}, " for i in range(symbols))
        lines += ["    if ft[2]:", f"        s += feats(({words}), turn, {other}, consts, ft)"]  # area, threatened
    lines += ["    if mobw:",  # over the empty history mh (``forbid repetition`` ignored); each call adds a key
              "        mh[0, 0] = u64(0)",
              f"        a = children({_args('row', symbols, 'turn', 'u64(0)')}, mh, 0, out, rs, -1)",
              "        mh[0, 0] = u64(0)",
              f"        b = children({_args('row', symbols, other, 'u64(0)')}, mh, 0, out, rs, -1)",
              "        s += mobw * (a - b)",
              "    return s", "", "",
              "def hscorerow(row, mh, out, rs, weights, consts, mobw, limit):",
              "    val = hscore(row, mh, out, rs, weights, consts, mobw)"]
    lines += _clamp("val", "    ") + ["    return val", "", ""]
    lines += ["def hfrontier(row, ply, hist, mh, out, leaves, rs, weights, consts, mobw, win, limit, misere, beta):",
              "    n = hist[0, 0]",
              f"    k = children({row}, hist, 2, out, rs, -1)",
              "    best = -(win + win)",
              "    if k <= 0:",
              "        hist[0, 0] = n",
              "        return best, k, 0",
              f"    turn = i64(row[{symbols}])",
              "    for j in range(k):",
              "        c = out[j]",
              f"        tn = i64(c[{symbols}])",
              f"        ck = children({_args('c', symbols, 'tn', f'c[{symbols + 1}]')}, hist, 1, leaves, rs, -1)",
              "        hist[0, 0] = n + u64(1)",
              "        if ck <= 0:",
              "            ow = -1",
              "            if ck < -1:",
              "                ow = hendwin[-2 - ck]"]
    lines += terminal_value(other_winner, "            ")
    lines += ["        else:",
              "            val = hscore(c, mh, leaves, rs, weights, consts, mobw)"]
    lines += _clamp("val", "            ")
    lines += ["        if tn != turn:", "            val = -val", "        if val > best:", "            best = val",
              "            if best >= beta:", "                hist[0, 0] = n", "                return best, k, j + 1",
              "    hist[0, 0] = n", "    return best, k, k", "", "",
              "def hordering(row, out, k, res, leaves, mh, rs, weights, consts, mobw, limit):",
              f"    turn = i64(row[{symbols}])",
              "    for j in range(k):",
              "        c = out[j]",
              f"        tn = i64(c[{symbols}])",
              "        val = hscore(c, mh, leaves, rs, weights, consts, mobw)"]
    lines += _clamp("val", "        ")
    lines += ["        if tn != turn:", "            val = -val", "        res[j] = val", "    return k"]
    source = ("\n".join(lines) + "\n").replace("weights, consts, mobw", "weights, consts, mobw, ft")  # ft after mobw
    return source + FEATS if features else source
