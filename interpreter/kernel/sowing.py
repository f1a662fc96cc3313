"""Sowing games on the kernel: counts of pieces per cell as words, ``sow ... along TRACK``.

Why a builder of its own: a cell of a ``counts KIND`` board holds any number of
pieces (seeds), which one bit per cell cannot say, and a sowing changes a run of
cells by amounts the position decides, which shifts and masks do not express.
So here a position is **one word per cell** (the cell's count, in cell order:
:attr:`Kernel.counted <rulesdsl.interpreter.kernel.codegen.Kernel>`), and the
source is straight-line code per origin cell, made from the track's cell
numbers: a sowing of ``n`` seeds from cell ``o`` along a track of ``L`` cells
(the other players' ``skipping`` cells left out) empties ``o``, adds one to
every cell of the track while ``n >= L`` (a lap ends on ``o`` itself), then one
to each of the first ``n`` cells after ``o``; the last seed's cell is known from
the ``n`` left (``0``: ``o``), and only the cells where it has an effect are
tested:

- ``again in REGION``: the last seed in the mover's cell of REGION: the same
  player moves next (the reference's ``Move.bonus``), from no cell;
- ``capture DIR into REGION``: the last seed alone in one of the mover's origin
  cells, the cell along DIR holding seeds: both go to the mover's cell of REGION.

Every word stays a whole number (a 64-bit word in machine code, as
:mod:`rulesdsl.interpreter.kernel.native` types it), there is no division and no
allocation per ply, and a position of a board of at most 64 cells compiles to
machine code like any other kernel. The end rules and ``score`` read
``total(PLAYER REGION)`` (a sum of words), numbers, options, arithmetic,
comparisons, ``and``/``or``/``not`` and ``no moves``; ``best score wins``
comes from :mod:`rulesdsl.interpreter.kernel.scores`. Anything else (another
kind of move, pieces that are not counted, go-again statements, repetition)
leaves the game on the generic path.

tests/test_kernel_counts.py and tests/test_playout.py hold this to the reference
(:mod:`rulesdsl.interpreter.reference.sowing`) and to OpenSpiel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields

from rulesdsl import model as m
from rulesdsl.expr import Value
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.kernel.bitboards import bit_layout
from rulesdsl.interpreter.kernel.codegen import BUILTINS, MAX_SOURCE, Kernel, Unsupported, _Conditions, run_checked
from rulesdsl.interpreter.kernel.scores import best_score, score_parts

# The statements a sowing game may hold (the rest of the language leaves it on the generic path).
SOWING = (m.GameTitle, m.Extends, m.OptionDecl, m.Players, m.Forward, m.Board, m.CellNames, m.PositionFormat,
          m.Notation, m.DirectionSet, m.PieceDecl, m.StartPosition, m.StartLayout, m.Moves, m.Misere, m.End,
          m.Evaluate, m.Example, m.Region, m.Score, m.Counts, m.Track)
RULE_FIELDS = {"span", "guard", "kind", "action", "directions", "sow", "option_spans"}  # a sowing rule's fields read
NESTED = 60  # a track of more cells drops its last seeds with tests side by side (Python nests 100 blocks at most)
CONDITIONS = (m.Literal, m.NameRef, m.Binary, m.Logic, m.Unary, m.Call, m.NoMoves)  # what an end rule may read


class _Totals(_Conditions):
    """End-rule conditions over the counted cells' words: ``total(PLAYER REGION)`` is a sum of words."""

    def visit(self, expr: m.Expr) -> str:
        if not isinstance(expr, CONDITIONS):
            raise Unsupported(type(expr).__name__)
        return super().visit(expr)

    def visit_Call(self, expr: m.Call) -> str:
        if expr.function == "score":
            return super().visit_Call(expr)
        if expr.function != "total" or len(expr.args) != 2:
            raise Unsupported(f"{expr.function}() over counted cells")
        player = self.player(expr.args[0])
        cells = sorted(self.builder.tables.region(expr.args[1], player))
        return "(" + " + ".join(self.builder.word(c) for c in cells) + ")" if cells else "0"


class _Sowing:
    """The source of a sowing game's playout, perft and expand (see the module docstring)."""

    def __init__(self, active, tables: Tables, options: Mapping[str, Value]):
        for statement in active.statements:
            if not isinstance(statement, SOWING):
                raise Unsupported(type(statement).__name__)
        if set(tables.owner) | set(tables.neutral.values()) != {tables.neutral.get(tables.counted)}:
            raise Unsupported("pieces that are not counted beside counted ones")
        self.active, self.tables, self.options = active, tables, options
        self.cells = len(tables.geometry.cells)
        self.vars = "".join(f"v{c}, " for c in range(self.cells)).rstrip(" ")  # "v0, v1, ...,": a tuple
        moves = active.first(m.Moves)
        self.rules = [r for r in (moves.rules if moves else ())
                      if r.guard is None or bool(_evaluate(r.guard, options))]
        for rule in self.rules:
            if rule.action != "sow" or rule.sow is None or rule.kind != tables.counted \
                    or any(f.name not in RULE_FIELDS and getattr(rule, f.name) != f.default for f in fields(rule)):
                raise Unsupported("a move that is not a sowing")
        self.other = tables.seats.next_player
        self.previous = tables.seats.previous_player
        self.opponent = tables.seats.opponent

    @staticmethod
    def word(cell: int) -> str:
        """The name of a cell's word."""
        return f"v{cell}"

    # -- one sowing ------------------------------------------------------------------------------------------------
    def sowings(self, player: int) -> list[tuple[int, list[str], str | None]]:
        """Each of the player's sowings, in the rules' and the cells' order: its origin cell, the statements
        playing it (the origin's word is not zero) and the expression that is not zero when the mover moves
        again (``None``: never)."""
        out = []
        for rule in self.rules:
            out += [self.sow(rule.sow, player, origin) for origin in self.origins(rule.sow, player)]
        return out

    def origins(self, sow: m.Sow, player: int) -> list[int]:
        return sorted(self.tables.region(sow.origin, player))

    def sow(self, sow: m.Sow, player: int, origin: int) -> tuple[int, list[str], str | None]:
        tables = self.tables
        skipped = set().union(*(tables.region(sow.skip, p) for p in range(len(tables.player_names)) if p != player)) \
            if sow.skip else set()
        track = [c for c in tables.tracks[sow.track] if c not in skipped]
        if origin not in track:
            raise Unsupported("a sowing from a cell off its track")
        at = track.index(origin)
        after = track[at + 1:] + track[:at + 1]  # the cells a seed lands on, in order: the origin last
        size = len(after)
        w = self.word
        lines = [f"sn = {w(origin)}", f"{w(origin)} = 0"]
        lines += [f"while sn >= {size}:", f"    sn -= {size}"] + [f"    {w(c)} += 1" for c in after]
        effects: dict[int, list[str]] = {}  # seeds left after the laps -> what the last seed does there
        if sow.capture is not None and sow.into is not None:
            stores = sorted(tables.region(sow.into, player))
            if len(stores) != 1:
                raise Unsupported("a capture into a region of several cells")
            across = tables.neighbours(tables.vectors((sow.capture,), player)[0])
            for k, cell in enumerate(after, start=1):
                if cell in self.origins(sow, player) and across[cell] >= 0:
                    o = across[cell]
                    effects.setdefault(k % size, []).extend([
                        f"if {w(cell)} == 1 and {w(o)}:", f"    {w(stores[0])} += {w(o)} + 1", f"    {w(cell)} = 0",
                        f"    {w(o)} = 0"])
        again = tables.region(sow.again_in, player) if sow.again_in else frozenset()
        keeps = [k % size for k, cell in enumerate(after, start=1) if cell in again]
        for seeds in keeps:
            effects.setdefault(seeds, []).append("sa = 1")
        if keeps:
            lines.append("sa = 0")
        return origin, lines + _remainder([w(c) for c in after], effects), "sa" if keeps else None

    def after(self, player: int, keeps: str | None, turn: str) -> list[str]:
        """Statements setting ``turn`` to who moves next after a sowing of ``player``."""
        if keeps is None:
            return [f"{turn} = {self.other[player]}"]
        return [f"if {keeps}:", f"    {turn} = {player}", "else:", f"    {turn} = {self.other[player]}"]

    # -- the functions ---------------------------------------------------------------------------------------------
    def moves(self, player: int) -> list[str]:
        """Statements setting ``total`` to the number of the player's moves (the non-empty origin cells)."""
        lines = ["total = 0"]
        for origin, _, _ in self.sowings(player):
            lines += [f"if {self.word(origin)}:", "    total += 1"]
        return lines

    def end_checks(self, player: int, finish: Callable[[str], list[str]]) -> list[str]:
        mover = self.previous[player]
        conditions = _Totals(self, mover)
        end = self.active.first(m.End)
        lines: list[str] = []
        for i, rule in enumerate(end.rules if end else ()):
            if rule.result not in ("wins", "loses", "draw"):
                raise Unsupported(f"an end rule that {rule.result}")
            lines.append(f"if {conditions.visit(rule.condition)}:")
            if rule.by_score:
                scores = [conditions.visit(expr) for expr in score_parts(self.active, self.tables)]
                body = best_score(scores, rule.result == "loses", i, finish)
            elif rule.result == "draw":
                body = finish(f"(None, {i})")
            else:
                who = conditions.player(rule.player or "mover")
                body = finish(f"({who if rule.result == 'wins' else self.opponent[who]}, {i})")
            lines += ["    " + line for line in body]
        return lines + ["if not total:"] + ["    " + line for line in finish("(None, -1)")]

    def playout_block(self, player: int) -> list[str]:
        lines = self.moves(player)
        lines += self.end_checks(player, lambda result: [f"return {self.vars} turn, last, {result}, plies"])
        lines += ["r = randrange(total)"]
        for origin, sow, keeps in self.sowings(player):  # move r: the r-th non-empty origin (r < 0 once played)
            play = [*sow, "plies += 1", *self.after(player, keeps, "turn")]
            lines += [f"if {self.word(origin)}:", "    if r == 0:"] + ["        " + line for line in play] + \
                ["    r -= 1"]
        return lines

    def perft_block(self, player: int) -> list[str]:
        lines = self.moves(player) + self.end_checks(player, lambda result: ["return 0"])
        lines += ["if depth == 1:", "    return total", "n = 0", f"cur = {self.vars}"]
        for origin, sow, keeps in self.sowings(player):
            play = [*sow, *self.after(player, keeps, "nt"), f"n += perft({self.vars} nt, 0, hist, depth - 1)",
                    f"{self.vars} = cur"]
            lines += [f"if {self.word(origin)}:"] + ["    " + line for line in play]
        return lines + ["return n"]

    def expand_block(self, player: int) -> list[str]:
        lines = self.moves(player) + self.end_checks(player, lambda result: [f"return {result}"])
        lines += [f"cur = {self.vars}"]
        for origin, sow, keeps in self.sowings(player):
            play = [*sow, *self.after(player, keeps, "nt"), f"put(({self.vars} nt, 0))", f"{self.vars} = cur"]
            lines += [f"if {self.word(origin)}:"] + ["    " + line for line in play]
        return lines + ["return None"]

    def function(self, head: str, block: Callable[[int], list[str]], loop: bool) -> str:
        body: list[str] = []
        count = len(self.other)
        for player in range(count):
            body.append("if True:" if count == 1 else "else:" if player == count - 1
                        else f"{'if' if player == 0 else 'elif'} turn == {player}:")
            body += ["    " + line for line in block(player)]
        if loop:
            body = ["plies = 0", "while True:", "    if plies == cap:",
                    f"        return {self.vars} turn, last, None, plies"] + ["    " + line for line in body]
        return head + "".join("    " + line + "\n" for line in body)

    def source(self) -> str:
        return "\n\n".join([
            self.function(f"def playout({self.vars} turn, last, hist, randrange, cap):\n", self.playout_block, True),
            self.function(f"def perft({self.vars} turn, last, hist, depth):\n", self.perft_block, False),
            self.function(f"def expand({self.vars} turn, last, put):\n", self.expand_block, False)])


def sowing_kernel(active, tables: Tables, options: Mapping[str, Value], start_board: Callable[[], str]) -> Kernel:
    """The kernel of a game whose cells hold counts of one kind of piece (raises ``Unsupported`` otherwise)."""
    builder = _Sowing(active, tables, options)
    source = builder.source()
    if len(source) > MAX_SOURCE:
        raise Unsupported(f"generated source of {len(source):,} characters")
    namespace: dict = {"__builtins__": dict(BUILTINS)}
    run_checked(source, namespace)
    return Kernel(namespace["playout"], namespace["perft"], namespace["expand"], bit_layout(tables.geometry), (),
                  False, False, bool(active.all(m.Misere)), tuple(builder.opponent), source,
                  counted=tuple(range(builder.cells)))


def _remainder(words: list[str], effects: dict[int, list[str]]) -> list[str]:
    """Statements dropping the ``sn`` seeds left (fewer than the track's cells) on the first cells of ``words``
    (the track after the origin, the origin last) and running ``effects[k]`` when the last seed falls on the k-th
    (``effects[0]``: on the origin, the laps' last seed): one test a seed, nested, so that the drop stops where
    the seeds do; a track too long for nested blocks tests each cell and then the last seed's cell."""
    size = len(words)
    if size > NESTED:
        lines = []
        for k in range(1, size):
            lines += [f"if sn >= {k}:", f"    {words[k - 1]} += 1"]
        for number, (seeds, body) in enumerate(sorted(effects.items())):
            lines += [f"{'if' if number == 0 else 'elif'} sn == {seeds}:"] + ["    " + line for line in body]
        return lines
    lines = effects.get(size - 1, [])  # the deepest level: the last seed on the cell before the origin
    for k in range(size - 1, 0, -1):
        deeper = [f"if sn > {k}:"] + ["    " + line for line in lines] if k < size - 1 else lines
        if k < size - 1 and effects.get(k):
            deeper += ["else:"] + ["    " + line for line in effects[k]]
        lines = [f"{words[k - 1]} += 1", *deeper]
    return ["if sn:"] + ["    " + line for line in lines] + (
        ["else:"] + ["    " + line for line in effects[0]] if effects.get(0) else [])


def _evaluate(expr: m.Expr, options: Mapping[str, Value]) -> Value:
    from rulesdsl.expr import evaluate

    return evaluate(expr, options)
