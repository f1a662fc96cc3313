"""Random playouts compiled to Python source: bitboards, one function per rule file.

A random playout (play uniformly random legal moves to the end) asks for the
legal moves and the end rules at every ply, and only needs to pick one move.
For the rule files whose building blocks it knows, this module writes one
Python function that does the whole game on two integers (one bit per cell
per player, :mod:`rulesdsl.interpreter.bitboards`): each rule and direction
becomes a few shifts and masks whose set bits are the moves' landing cells,
so a ply costs a handful of integer operations, the moves' count and one
random index, never a list of moves.

The source is made only from the checked model's integers (masks, shifts,
counts, player indices) and fixed words of this module; no text of the rule
file enters it. What it covers: two players with one piece symbol each;
``step`` (to empty and/or enemy cells), ``jump`` (not flying; over enemy,
friend or any piece; with or without capture) and ``push`` (lines of own
pieces, numerical superiority, push-off, ``forbid corner push-off``);
``again after ...`` (same piece or any, optional pass); ``misere``; end
conditions built from numbers, options, arithmetic, comparisons, ``and``/``or``/
``not``, ``count``, ``lost``, ``no moves``, ``has no`` and ``on far row``.
Anything else (and any statement this module does not know) leaves the game on
the generic path: :func:`compile_kernel` returns ``None``.

Each move is the same move as the generic generator's: tests/test_playout.py
checks, on random positions of every bundled game, that one ply of a playout
reaches exactly the positions that the legal moves reach, as many times each,
and that finished games end with the same outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import BINARY, Value
from rulesdsl.interpreter.bitboards import BitLayout, bit_layout, shifted
from rulesdsl.interpreter.tables import Tables

# Statements that do not change how the game is played, or that this module handles.
KNOWN = (m.GameTitle, m.Extends, m.OptionDecl, m.Players, m.Forward, m.Board, m.CellNames, m.PositionFormat,
         m.Notation, m.DirectionSet, m.PieceDecl, m.StartPosition, m.StartLayout, m.Moves, m.Again, m.Forbid,
         m.Misere, m.End, m.Evaluate, m.Example)
# The fields of a move rule and of a go-again rule that the kernel reads; any other field must keep its default.
RULE_FIELDS = {"span", "guard", "kind", "action", "directions", "over", "targets", "capture", "line", "option_spans"}
AGAIN_FIELDS = {"span", "guard", "after", "same_piece", "may_pass", "chain", "same_direction"}
PLAYERS = ("a", "b")  # the variables holding each player's pieces in the generated function


class Unsupported(Exception):
    """Something the kernel does not compile: the game keeps the generic path."""


@dataclass
class Kernel:
    """A compiled playout: ``run(a, b, turn, last, randrange, cap)``.

    It returns ``(a, b, turn, last, result, plies)``: the final bitboards, the
    player to move, the bit of the cell a go-again turn continues from (0: none),
    ``None`` when ``cap`` plies were played, else ``(winner, rule)`` with
    ``winner`` before ``misere`` (``None``: a draw) and ``rule`` the end rule's
    index, -1 when the player to move had no legal move and no rule fired.
    """

    run: Callable
    layout: BitLayout
    symbols: tuple[str, str]
    has_again: bool
    source: str


@dataclass
class Group:
    """The moves of one rule along one direction (and line length): one mask of landing cells."""

    prelude: list[str]  # statements the mask needs (own, opp, e, and the same-piece restriction)
    mask: str  # the expression of the landing cells
    apply: list[str]  # statements playing the move landing on bit ``t``
    target: str  # the bit the moved piece ends on (a go-again turn continues from it)
    origin_shift: int  # the origin is the landing bit moved back by this many places
    action: str
    captures: bool | None  # None: depends on the position


def compile_kernel(active, tables: Tables, options: Mapping[str, Value],
                   start_board: Callable[[], str]) -> Kernel | None:
    """The playout function of a game, or ``None`` when it uses something the kernel lacks.

    ``start_board()`` gives the start position's board (for ``lost``).
    """
    try:
        return _Builder(active, tables, options, start_board).build()
    except (Unsupported, RulesdslError, KeyError):
        return None


class _Builder:
    def __init__(self, active, tables: Tables, options: Mapping[str, Value], start_board: Callable[[], str]):
        self.active, self.tables, self.options = active, tables, options
        self.start_board = start_board
        for statement in active.statements:
            if not isinstance(statement, KNOWN):
                raise Unsupported(type(statement).__name__)
        if len(tables.player_names) != 2 or tables.promotions or tables.neutral:
            raise Unsupported("players or pieces")
        self.symbols = tuple(tables.symbols_of(p) for p in range(2))
        if any(len(s) != 1 for s in self.symbols) or len(tables.owner) != 2:
            raise Unsupported("one symbol per player")
        forbids = {f.what for f in active.all(m.Forbid)}
        if forbids - {"corner push-off"}:
            raise Unsupported("forbid")
        self.corner_rule = bool(forbids)
        again = active.first(m.Again)
        if again is not None and (again.chain or again.same_direction or _extra_fields(again, AGAIN_FIELDS)):
            raise Unsupported("again")
        if getattr(tables.geometry, "links", None) is not None:
            raise Unsupported("a board of points and lines")
        self.again = again
        moves = active.first(m.Moves)
        self.rules = [r for r in (moves.rules if moves else ()) if r.guard is None or _truth(r.guard, options)]
        self.layout = bit_layout(tables.geometry)
        self.other = tables.seats.next_player  # with two players: the opponent, and who moves next

    # -- the moves ---------------------------------------------------------
    def groups(self, player: int) -> list[Group]:
        """Every move group of a player, in the rules' order."""
        out: list[Group] = []
        for rule in self.rules:
            out.extend(self.rule_groups(rule, player))
        return out

    def rule_groups(self, rule: m.MoveRule, player: int) -> list[Group]:
        tables, layout = self.tables, self.layout
        own, opp = PLAYERS[player], PLAYERS[self.other[player]]
        if rule.action not in ("step", "jump", "push") or rule.flying or _extra_fields(rule, RULE_FIELDS):
            raise Unsupported(rule.action)
        if not tables.symbols_of(player, rule.kind):
            return []
        out = []
        for vector in tables.vectors(rule.directions, player):
            s = layout.shift_of(vector)
            pre = layout.has_next(vector)
            if rule.action == "step":
                targets = set(rule.targets or ("empty",))
                kinds = [t for t in ("empty", "enemy") if t in targets]
                split = self.again is not None and self.again.after == "capture"
                for chosen in ([[k] for k in kinds] if split else [kinds] if kinds else []):
                    into = {"empty": "e", "enemy": opp}
                    reach = " | ".join(into[k] for k in chosen)
                    apply = [f"{own} ^= {shifted('t', -s)} | t"]
                    if "enemy" in chosen:
                        apply.append(f"{opp} &= ~t")
                    out.append(Group([], f"{shifted(f'({own} & {pre})', s)} & ({reach})", apply, "t", s, "step",
                                     chosen == ["enemy"] if len(chosen) == 1 else None))
            elif rule.action == "jump":
                over = {"enemy": opp, "friend": own, "any": "(a | b)"}[rule.over or "enemy"]
                pre2 = layout.has_next(vector, 2)
                first = shifted(f"({own} & {pre2})", s)  # the cells one step past a piece that can jump
                mask = f"{shifted(f'({first} & {over})', s)} & e"
                apply = [f"{own} ^= {shifted('t', -2 * s)} | t"]
                if rule.capture:
                    mid = shifted("t", -s)
                    apply += {"enemy": [f"{opp} ^= {mid}"], "friend": [f"{own} ^= {mid}"],
                              "any": [f"a &= ~{mid}", f"b &= ~{mid}"]}[rule.over or "enemy"]
                out.append(Group([], mask, apply, "t", 2 * s, "jump", rule.capture))
            else:
                out.extend(self.push_groups(rule, vector, own, opp))
        return out

    def push_groups(self, rule: m.MoveRule, vector, own: str, opp: str) -> list[Group]:
        """A push along one direction: one group per line length ``k`` (the landing bit is the cell past the line)."""
        layout, geometry = self.layout, self.tables.geometry
        s = layout.shift_of(vector)
        pre = layout.has_next(vector)
        back = layout.has_next((-vector[0], -vector[1]))
        low, high = rule.line or (1, None)
        longest = max(len(geometry.ray(c.index, vector)) for c in geometry.cells)
        widest = min(high if high is not None else len(geometry.cells), longest)
        bad = 0
        if self.corner_rule:
            bad = layout.mask(c for c in geometry.corners() if geometry.outward(c) == vector)
        edge_ok = layout.full & ~pre & ~bad  # a last pushed piece here leaves the board, and may
        key = f"{abs(s)}{'p' if s > 0 else 'n'}"
        prelude = [f"x1_{key} = {shifted(f'({own} & {pre})', s)}"]  # cells just past an own piece
        if widest >= 2:
            prelude.append(f"f1_{key} = {opp} & ({shifted(f'(e & {back})', -s)} | {edge_ok})")
        groups = []
        for k in range(1, widest + 1):
            if k >= 2:
                prelude.append(f"x{k}_{key} = {shifted(f'(x{k - 1}_{key} & {own} & {pre})', s)}")
                if k >= 3:
                    prelude.append(f"f{k - 1}_{key} = {opp} & {shifted(f'(f{k - 2}_{key} & {back})', -s)}")
            if k < max(low, 1):
                continue
            pushable = " | ".join(f"f{p}_{key}" for p in range(1, k))
            mask = f"x{k}_{key} & (e | {pushable})" if pushable else f"x{k}_{key} & e"
            apply = [f"{own} ^= {shifted('t', -k * s)} | t"]
            if k == 2:
                apply += [f"if t & {opp}:", f"    {opp} ^= t | {shifted(f'(t & {pre})', s)}"]
            elif k > 2:
                apply += [f"if t & {opp}:", f"    {opp} ^= t", "    u = t", "    while True:",
                          f"        nx = {shifted(f'(u & {pre})', s)}", f"        if nx & {opp}:", "            u = nx",
                          "        else:", f"            {opp} |= nx", "            break"]
            groups.append(Group(list(prelude), mask, apply, shifted("t", -(k - 1) * s), k * s, "push",
                                False if k == 1 else None))
            prelude = []
        return groups

    def continues(self, group: Group) -> bool:
        """Whether a move of this group lets the turn go on (``again after ...``)."""
        after = self.again.after
        if after is None:
            return True
        if after == "capture":
            if group.captures is None:
                raise Unsupported("again after capture with a push")
            return group.captures
        return group.action == after

    def movegen(self, player: int, continuing: bool, last: str) -> tuple[list[str], list[Group]]:
        """Statements setting ``m0, m1...`` (and ``n0...``, the counts) for the player's moves."""
        lines: list[str] = []
        groups = []
        for group in self.groups(player):
            if continuing and not self.continues(group):
                continue
            i = len(groups)
            lines += group.prelude
            restrict = f" & {shifted(last, group.origin_shift)}" if continuing and self.again.same_piece else ""
            lines.append(f"m{i} = {group.mask}{restrict}")
            groups.append(group)
        return lines, groups

    # -- one block per (player to move, continuing or not) ------------------
    def block(self, player: int, continuing: bool) -> list[str]:
        mover = player if continuing else self.other[player]
        lines, groups = self.movegen(player, continuing, "last")
        passes = continuing and self.again.may_pass
        for i in range(len(groups)):
            lines.append(f"n{i} = m{i}.bit_count()")
            lines.append(f"c{i} = n0" if i == 0 else f"c{i} = c{i - 1} + n{i}")
        total = f"c{len(groups) - 1}" if groups else "0"
        lines.append(f"total = {total}{' + 1' if passes else ''}")
        lines += self.end_checks(mover)
        lines.append("if not total:")
        lines.append("    return a, b, turn, last, (None, -1), plies")
        lines.append("r = randrange(total)")
        for i, group in enumerate(groups):
            lines.append(f"{'if' if i == 0 else 'elif'} r < c{i}:")
            body = [] if i == 0 else [f"r -= c{i - 1}"]
            body += ["for _ in range(r):", f"    m{i} &= m{i} - 1", f"t = m{i} & -m{i}"]
            body += group.apply
            body += self.after_move(player, group)
            lines += ["    " + line for line in body]
        if passes:
            lines.append("else:" if groups else "if True:")
            lines += ["    plies += 1", f"    turn = {self.other[player]}", "    last = 0"]
        return lines

    def after_move(self, player: int, group: Group) -> list[str]:
        """Who moves next: the same player when a go-again turn goes on, else the other."""
        lines = ["plies += 1"]
        if self.again is None or not self.continues(group):
            return lines + [f"turn = {self.other[player]}"] + (["last = 0"] if self.again is not None else [])
        lines.append(f"g = {group.target}")
        lines.append("e = FULL ^ (a | b)")
        check, groups = self.movegen(player, True, "g")
        if not groups:
            return lines + [f"turn = {self.other[player]}", "last = 0"]
        if any(group.prelude for group in groups):
            lines += check
            lines.append(f"if {' or '.join(f'm{i}' for i in range(len(groups)))}:")
        else:  # stop at the first direction that has a move
            tests = " or ".join("(" + line.split(" = ", 1)[1] + ")" for line in check)
            lines.append(f"if {tests}:")
        lines.append("    last = g")
        lines.append("else:")
        lines.append(f"    turn = {self.other[player]}")
        lines.append("    last = 0")
        return lines

    def end_checks(self, mover: int) -> list[str]:
        lines = []
        end = self.active.first(m.End)
        conditions = _Conditions(self, mover)
        for i, rule in enumerate(end.rules if end else ()):
            test = conditions.visit(rule.condition)
            if rule.result == "draw":
                winner = "None"
            else:
                who = conditions.player(rule.player or "mover")
                winner = str(who if rule.result == "wins" else self.other[who])
            lines.append(f"if {test}:")
            lines.append(f"    return a, b, turn, last, ({winner}, {i}), plies")
        return lines

    def build(self) -> Kernel:
        full = self.layout.full
        body = ["plies = 0", "while True:", "    if plies == cap:", "        return a, b, turn, last, None, plies",
                f"    e = {full} ^ (a | b)", "    if turn == 0:"]
        for player in (0, 1):
            if player == 1:
                body.append("    else:")
            if self.again is not None:
                body.append("        if last:")
                body += ["            " + line for line in self.block(player, True)]
                body.append("        else:")
                body += ["            " + line for line in self.block(player, False)]
            else:
                body += ["        " + line for line in self.block(player, False)]
        source = "def playout(a, b, turn, last, randrange, cap):\n" + "".join(
            "    " + line.replace("FULL", str(full)) + "\n" for line in body)
        namespace: dict = {"__builtins__": {"range": range, "bool": bool}}
        exec(compile(source, "<rulesdsl playout>", "exec"), namespace)  # noqa: S102 - built from integers only
        symbols = (next(iter(self.symbols[0])), next(iter(self.symbols[1])))
        return Kernel(namespace["playout"], self.layout, symbols, self.again is not None, source)


class _Conditions(m.ExprVisitor):
    """End-rule conditions as Python expressions over ``a``, ``b`` and ``total``, for a known mover."""

    OPERATORS = {op: op for op in BINARY}  # the same operators, spelled the same in Python

    def __init__(self, builder: _Builder, mover: int):
        self.builder = builder
        self.mover = mover

    def player(self, name: str) -> int:
        if name == "mover":
            return self.mover
        if name == "opponent":
            return self.builder.other[self.mover]
        return self.builder.tables.player_index(name)

    def generic_visit(self, expr: m.Expr) -> str:
        raise Unsupported(type(expr).__name__)

    def visit_Literal(self, expr: m.Literal) -> str:
        return _number(expr.value)

    def visit_NameRef(self, expr: m.NameRef) -> str:
        return _number(self.builder.options[expr.name])

    def visit_Binary(self, expr: m.Binary) -> str:
        if expr.op not in self.OPERATORS:
            raise Unsupported(expr.op)
        return f"({self.visit(expr.left)} {self.OPERATORS[expr.op]} {self.visit(expr.right)})"

    def visit_Logic(self, expr: m.Logic) -> str:
        if expr.op not in ("and", "or"):
            raise Unsupported(expr.op)
        return "bool(" + f" {expr.op} ".join(self.visit(item) for item in expr.items) + ")"

    def visit_Unary(self, expr: m.Unary) -> str:
        return f"(not {self.visit(expr.operand)})" if expr.op == "not" else f"(-{self.visit(expr.operand)})"

    def pieces(self, who: str, kind: str | None) -> tuple[str | None, int]:
        """The variable holding a player's pieces of a kind (``None``: the player has none of it), and the player."""
        player = self.player(who)
        has = self.builder.tables.symbols_of(player, kind)
        return (PLAYERS[player] if has else None), player

    def visit_Call(self, expr: m.Call) -> str:
        kind = expr.args[1] if len(expr.args) > 1 else None
        bits, player = self.pieces(expr.args[0], kind)
        now = f"{bits}.bit_count()" if bits else "0"
        if expr.function == "count":
            return f"({now})"
        if expr.function == "lost":
            syms = self.builder.tables.symbols_of(player, kind)
            board = self.builder.start_board()
            start = sum(board.count(s) for s in syms)
            return f"({start} - {now})"
        raise Unsupported(expr.function)

    def visit_NoMoves(self, expr: m.NoMoves) -> str:
        return "(not total)"

    def visit_HasNone(self, expr: m.HasNone) -> str:
        bits, _ = self.pieces(expr.player, None if expr.kind == "pieces" else expr.kind)
        return f"(not {bits})" if bits else "True"

    def visit_OnFarRow(self, expr: m.OnFarRow) -> str:
        bits, player = self.pieces(expr.player, expr.kind)
        tables = self.builder.tables
        if not bits or player not in tables.forward:
            return "False"
        far = self.builder.layout.full & ~self.builder.layout.has_next(tables.forward[player])
        return f"bool({bits} & {far})"


def _extra_fields(statement, known: set[str]) -> bool:
    """True when a field the kernel does not read differs from its default (a newer word of the language)."""
    return any(f.name not in known and getattr(statement, f.name) != f.default for f in fields(statement))


def _number(value: Value) -> str:
    """A number or truth value as Python source (anything else is not compiled)."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(int(value))
    raise Unsupported("a value that is not a number")


def _truth(expr: m.Expr, options: Mapping[str, Value]) -> bool:
    from rulesdsl.expr import evaluate

    return bool(evaluate(expr, options))
