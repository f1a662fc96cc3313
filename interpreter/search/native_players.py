"""Source of the native kernel's helpers for searches of more than two players (paranoid, max^n).

Appended by :func:`rulesdsl.interpreter.search.native_search.search_source` to the
kernel's native source when a game seats more than two players (a two-player
kernel's source, and so its cached machine code, is unchanged). Written from
fixed text and the number of words only, like the two-player helpers, over the
same row of words and the same ``score`` (the static evaluation for any
player, whoever is to move):

- ``scorefor(row, player, weights, consts, mobw, ft, limit)``: ``player``'s static value of
  a row, kept within ``±limit`` (:func:`rulesdsl.interpreter.search.minimax.static_score`);
- ``scoresfor(out, k, res, player, ...)``: that for each of ``k`` children;
- ``vectorrow(row, res, players, ...)``: every player's static value of a row;
- ``pfrontier(row, ply, out, me, ..., win, limit, misere)``: the paranoid value for the root
  player ``me`` of a row searched one ply deep (``me`` maximises, everyone else minimises), how
  many children the row has and how many of them are not over (cut by the depth);
- ``mfrontier(row, ply, out, res, tmp, players, loser, ..., win, limit, misere)``: the max^n
  value vector of a row searched one ply deep, into ``res`` (``loser``: the reward of a seat
  that did not win, as :meth:`Outcome.returns` gives it); it returns the counts ``pfrontier`` does;
- ``preferred(a, b, turn, players)``: whether the player ``turn`` prefers the vector ``a`` to ``b``
  (:func:`rulesdsl.interpreter.search.maxn.preferred`).

In a game that gives places (``finishes``: the seats' places in one word of the
row, :mod:`rulesdsl.interpreter.kernel.places`) a finished child is worth each
seat's reward for its final place (:meth:`Outcome.returns`) times ``win - ply``
in both searches, as the generic ones score it; ``preward(word, ow, p)``
gives that reward from the places word and the winner ``ow`` (-1: none): the
winner takes the best place open, the seats still playing share the next one
(:func:`rulesdsl.interpreter.reference.places.final_places`: the best place
open is one more than the seats that finished, not counting those out).
"""

from __future__ import annotations

from rulesdsl.interpreter.kernel.places import FIELD, NIBBLE, OUT

MARK = "pfrontier"  # a module holding this function holds them all


def _words(prefix: str, symbols: int) -> str:
    return "".join(f"{prefix}[{i}], " for i in range(symbols))


def _clamped(target: str, words: str, player: str, indent: str) -> list[str]:
    """Lines setting ``target`` to ``player``'s static value of the words, kept within ``±limit`` (NaN: 0)."""
    lines = [f"val = score({words}{player}, weights, consts, mobw)", "if val != val:", "    val = limit - limit",
             "elif val > limit:", "    val = limit", "elif val < -limit:", "    val = -limit", f"{target} = val"]
    return [indent + line for line in lines]


def _ended(symbols: int, winner: str, indent: str) -> list[str]:
    """Lines reading a child's outcome into ``ow`` (-2: not over; -1: a draw; else the winner after misere)."""
    child = f"{_words('c', symbols)}i64(c[{symbols}]), c[{symbols + 1}]"
    lines = [f"ow, orr, ok = outcome({child}, out)", "if ow >= 0 and misere:", f"    ow = {winner}"]
    return [indent + line for line in lines]


def _place_reward(players: int) -> list[str]:
    """The source of ``preward`` for ``players`` seats (see the module docstring)."""
    def place(seat: str) -> list[str]:  # lines setting ``q`` to ``seat``'s final place
        return [f"q = (w >> ({NIBBLE} * {seat})) & {FIELD}", f"if {seat} == ow and wp:", "    q = wp",
                "elif not q:", "    q = k + 1"]
    lines = ["def preward(word, ow, p):", "    w = i64(word)", "    k = 0", f"    for s in range({players}):",
             f"        if 0 < (w >> ({NIBBLE} * s)) & {FIELD | OUT} < {OUT}:",  # finished, not out
             "            k += 1", "    wp = 0",
             f"    if ow >= 0 and not (w >> ({NIBBLE} * ow)) & {FIELD}:", "        k += 1", "        wp = k"]
    lines += ["    " + line for line in place("p")]
    lines += ["    mine = q", "    tied = 0", f"    for s in range({players}):"]
    lines += ["        " + line for line in place("s")] + ["        if q == mine:", "            tied += 1"]
    return lines + [f"    return ({players + 1} - 2 * mine - (tied - 1)) / {players - 1}", "", ""]


def _finished(places: int, me: str, target: str, loss: str, indent: str) -> list[str]:
    """The branches, after ``if ow == -2:``, setting ``target`` to a finished child's value for ``me`` (``ow``: its
    winner, -1 a draw): by places when the row keeps them in column ``places``, else a win, a draw or ``loss``."""
    if places >= 0:
        lines = ["else:", f"    {target} = preward(c[{places}], ow, {me}) * (win - (ply + 1))"]
    else:
        lines = ["elif ow < 0:", f"    {target} = win - win", f"elif ow == {me}:", f"    {target} = win - (ply + 1)",
                 "else:", f"    {target} = {loss}"]
    return [indent + line for line in lines]


def players_source(symbols: int, winner_after_misere: str, places: int = -1, players: int = 3) -> str:
    """The helpers' source for a kernel of ``symbols`` words; ``winner_after_misere``: the expression of the
    winner ``ow`` after a misere swap; ``places``: the row's column of the seats' places (-1: none) and
    ``players`` the seats."""
    row = f"{_words('row', symbols)}i64(row[{symbols}]), row[{symbols + 1}]"
    rwords, cwords = _words("row", symbols), _words("c", symbols)
    lines = _place_reward(players) if places >= 0 else []
    lines += ["def scorefor(row, player, weights, consts, mobw, limit):"]
    lines += _clamped("s", rwords, "player", "    ") + ["    return s", "", ""]
    lines += ["def scoresfor(out, k, res, player, weights, consts, mobw, limit):", "    for j in range(k):",
              "        c = out[j]"]
    lines += _clamped("res[j]", cwords, "player", "        ") + ["    return k", "", ""]
    lines += ["def vectorrow(row, res, players, weights, consts, mobw, limit):", "    for p in range(players):"]
    lines += _clamped("res[p]", rwords, "p", "        ") + ["    return players", "", ""]
    lines += ["def preferred(a, b, turn, players):",
              "    if a[turn] != b[turn]:", "        return a[turn] > b[turn]",
              "    sa = a[0]", "    sb = b[0]",
              "    for p in range(1, players):", "        sa += a[p]", "        sb += b[p]",
              "    if sa != sb:", "        return sa < sb",
              "    for p in range(players):", "        if a[p] != b[p]:", "            return a[p] < b[p]",
              "    return False", "", ""]
    lines += ["def pfrontier(row, ply, out, me, weights, consts, mobw, win, limit, misere):",
              f"    w, r, k = expand({row}, out)",
              f"    mine = i64(row[{symbols}]) == me",
              "    best = win + win",
              "    live = 0",
              "    if mine:",
              "        best = -best",
              "    for j in range(k):",
              "        c = out[j]"]
    lines += _ended(symbols, winner_after_misere, "        ")
    lines += ["        if ow == -2:", "            live += 1"]
    lines += _clamped("val", cwords, "me", "            ")
    lines += _finished(places, "me", "val", "(ply + 1) - win", "        ")
    lines += ["        if mine:", "            if val > best:", "                best = val",
              "        elif val < best:", "            best = val",
              "    return best, k, live", "", ""]
    lines += ["def mfrontier(row, ply, out, res, tmp, players, loser, weights, consts, mobw, win, limit, misere):",
              f"    w, r, k = expand({row}, out)",
              f"    turn = i64(row[{symbols}])",
              "    live = 0",
              "    for j in range(k):",
              "        c = out[j]"]
    lines += _ended(symbols, winner_after_misere, "        ")
    lines += ["        if ow == -2:", "            live += 1",
              "        for p in range(players):", "            if ow == -2:"]
    lines += _clamped("tmp[p]", cwords, "p", "                ")
    lines += _finished(places, "p", "tmp[p]", "loser * (win - (ply + 1))", "            ")
    lines += ["        if j == 0 or preferred(tmp, res, turn, players):",
              "            for p in range(players):", "                res[p] = tmp[p]",
              "    return k, live"]
    return "\n".join(lines) + "\n"


def warm_players(native, symbols: int, word: int) -> None:
    """Compile (or load) the helpers on the types :mod:`rulesdsl.interpreter.search.kernel_players` passes."""
    import numpy as np

    module = native.module
    players = len(native.kernel.opponent)
    row = np.zeros(symbols + 2, dtype=np.uint64)
    out = np.zeros((native.children_max, symbols + 2), dtype=np.uint64)
    weights, consts = np.zeros((players, symbols, word)), np.zeros(players)
    ft = np.zeros(16, dtype=np.int64)  # no area or threatened (two players only)
    vector, other = np.zeros(players), np.zeros(players)
    module.scorefor(row, 0, weights, consts, 1.0, ft, 1.0)
    module.scoresfor(out, 0, np.zeros(native.children_max), 0, weights, consts, 1.0, ft, 1.0)
    module.vectorrow(row, vector, players, weights, consts, 1.0, ft, 1.0)
    module.pfrontier(row, 1, out, 0, weights, consts, 1.0, ft, 2.0, 1.0, False)
    module.mfrontier(row, 1, out, vector, other, players, -0.5, weights, consts, 1.0, ft, 2.0, 1.0, False)
