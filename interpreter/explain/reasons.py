"""Answers to "why not?" and "what happened?", read off the rule file.

This module lives beside the fast move generator, not inside it: it is
allowed to be slow. For a move a player expected, :func:`explain_move` finds
the move rules that could connect its cells, re-checks each one step by step
(the piece, the direction, the cell jumped over, the push line, the target),
then follows the statements that filter legal moves in the order the
generator applies them (a go-again turn's restriction, ``freeze``,
``forbid repetition``, ``must capture``), and says what stopped the move,
citing the rule file's line. :func:`trace_ply` tells the building blocks of
a ply that was played: the rule that made it, what it pushed or captured, why
the same player moves again or the turn passed, which end rule fired.

Nothing here names a game: every answer comes from the statements in force.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulesdsl import model as m
from rulesdsl.errors import Span
from rulesdsl.expr import evaluate
from rulesdsl.interpreter.compile.compiler import Active, build_tables
from rulesdsl.interpreter.compile.game import NO_CELL, PASS_ACTION, Game, Move, State
from rulesdsl.interpreter.compile.notation import cell_words, side_by_side
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.explain.drops import is_drop_text, why_no_drop
from rulesdsl.interpreter.explain.pieces import piece_reason
from rulesdsl.interpreter.reference.counts import count_of
from rulesdsl.interpreter.reference.drops import DROP_ACTION
from rulesdsl.interpreter.reference.endings import ConditionCompiler
from rulesdsl.interpreter.reference.groups import is_suicide
from rulesdsl.interpreter.reference.legality import board_after, promotes
from rulesdsl.interpreter.reference.movegen import compile_player, compile_rule
from rulesdsl.interpreter.reference.passing import recreates
from rulesdsl.interpreter.reference.piece_legality import PieceRules
from rulesdsl.interpreter.reference.walls import BUILD_ACTION, WALK_ACTION, failed_keep, why_not_build, why_not_walk
from rulesdsl.vocabulary import ACTIONS

PASS_WORD = "pass"


@dataclass(frozen=True)
class Reason:
    """One finding: a short code a program can test, words for people, and the rule-file line.

    Codes: ``legal``, ``game-over``, ``bad-move``, ``no-piece``, ``not-your-piece``,
    ``wrong-kind``, ``occupied``, ``needs-enemy``, ``blocked``, ``no-enemy-to-jump``,
    ``line-length``, ``off-board``, ``line-not-longer``, ``blocked-beyond``, ``no-screen``,
    ``corner``, ``falls-further``, ``no-flank``, ``must-continue``,
    ``not-a-continuation``, ``frozen``, ``repeats``, ``capture-compulsory``,
    ``no-pass``, ``no-rule``, ``piece-condition``, ``leaves-attacked``; for a trace also ``rule``, ``pushed``,
    ``captured``, ``promoted``, ``again``, ``turn``, ``end``.
    """

    code: str
    message: str
    span: Span | None = None
    source: str = ""

    @property
    def line(self) -> int:
        """The cited line of the rule file (0 when nothing is cited)."""
        return self.span.line if self.span is not None else 0

    def citation(self) -> str:
        """``NAME.rules:26: stone jump orthogonal over enemy capture``, or ``""``."""
        if self.span is None or not self.span.line:
            return ""
        return f"{Path(self.span.file).name}:{self.span.line}: {self.source}".rstrip(": ")

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready form (for the web board)."""
        return {"code": self.code, "message": self.message, "line": self.line,
                "file": Path(self.span.file).name if self.span else "", "source": self.source}


@dataclass(frozen=True)
class Answer:
    """What :func:`explain_move` found: whether the move is legal, and why (not)."""

    move: str
    legal: bool
    reasons: tuple[Reason, ...]

    @property
    def first(self) -> Reason:
        """The main reason."""
        return self.reasons[0]

    def text(self) -> str:
        """Lines for a terminal: the verdict, each reason, and the line it cites."""
        head = f"{self.move} is legal" if self.legal else f"{self.move} is not legal"
        out = [head]
        for reason in self.reasons:
            out.append(f"  {reason.message}")
            if reason.citation():
                out.append(f"    {reason.citation()}")
        return "\n".join(out)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {"move": self.move, "legal": self.legal, "reasons": [r.as_dict() for r in self.reasons]}


class Explainer:
    """The statements in force for one compiled game, and slow re-checks of its rules."""

    def __init__(self, game: Game) -> None:
        self.game = game
        resolved = game.resolved
        if resolved is None:
            raise ValueError("this game was not compiled from a rule file")
        self.resolved = resolved
        self.active = Active(resolved, game.options)
        self.tables: Tables = build_tables(self.active, game.options)[0]
        self.geometry = self.tables.geometry
        self.nplayers = len(self.tables.player_names)
        moves_stmt = self.active.first(m.Moves)
        self.rules: list[m.MoveRule] = [r for r in (moves_stmt.rules if moves_stmt else ())
                                        if r.guard is None or evaluate(r.guard, game.options)]
        forbids = self.active.all(m.Forbid)
        self.repetition = next((f for f in forbids if f.what == "repetition"), None)
        self.corner = next((f for f in forbids if f.what == "corner push-off"), None)
        self.suicide = next((f for f in forbids if f.what == "suicide"), None)
        self.undoing = next((f for f in forbids if f.what == "immediate repetition"), None)
        self.freeze: m.Freeze | None = self.active.first(m.Freeze)
        self.again: m.Again | None = self.active.first(m.Again)
        self.must_capture: m.MustCapture | None = self.active.first(m.MustCapture)
        self.stuck_pass: m.PassWhenStuck | None = self.active.first(m.PassWhenStuck)
        self.promote: list[m.Promote] = self.active.all(m.Promote)
        self.end: m.End | None = self.active.first(m.End)
        self.misere: m.Misere | None = self.active.first(m.Misere)
        notation = self.active.first(m.Notation)
        self.notation: tuple[str, ...] = notation.parts if notation else ("from", "-", "to")
        corner_rule = self.corner is not None
        self.pieces = PieceRules(self.active, self.tables, game.options, self.rules,
                                 lambda: game.initial_state().board,
                                 lambda rs, p: compile_player(rs, self.tables, p, corner_rule)[0])
        self._marks = None  # the marks of the position being explained (for rules that read the past)
        self._per_rule = [[self._rule_generator(r, p, corner_rule) for r in self.rules]
                          for p in range(self.nplayers)]
        self._threats = [compile_player(self.rules, self.tables, p, corner_rule)
                         for p in range(self.nplayers)]

    # -- words ----------------------------------------------------------------
    def cite(self, code: str, message: str, node: object | None) -> Reason:
        """A reason citing the line of a statement or rule (``node.span``)."""
        span = getattr(node, "span", None) if node is not None else None
        source = self.resolved.source_line(span).split("#")[0].strip() if span is not None else ""
        return Reason(code, message, span, source)

    def cell(self, index: int) -> str:
        """A cell's name."""
        return self.geometry.cells[index].name

    def player(self, index: int) -> str:
        """A player's name."""
        return self.tables.player_names[index]

    def piece(self, symbol: str) -> str:
        """``black's stone``."""
        return f"{self.player(self.tables.owner[symbol])}'s {self.tables.kind[symbol]}"

    def _rule_generator(self, rule: m.MoveRule, player: int, corner_rule: bool):
        """``gen(board, out)`` for one rule; a rule that reads the past reads the explained position's marks."""
        if not self.pieces.generates(rule) or rule not in self.pieces.own:  # board-only (a drop: nothing)
            return compile_rule(rule, self.tables, player, corner_rule)
        index = self.pieces.own.index(rule)
        gen = self.pieces.generators[player][index]
        return lambda board, out: gen(State(board, player, marks=self._marks), out)

    # -- moves of one rule ----------------------------------------------------
    def rule_moves(self, player: int, board: str) -> list[tuple[m.MoveRule, Move]]:
        """Every move the move rules allow ``player`` on ``board``, with the rule that made it."""
        out: list[tuple[m.MoveRule, Move]] = []
        for rule, gen in zip(self.rules, self._per_rule[player]):
            found: list[Move] = []
            gen(board, found)
            out.extend((rule, mv) for mv in found)
        return out

    def rule_of(self, state: State, move: Move) -> m.MoveRule | None:
        """The move rule that makes ``move`` in ``state``."""
        for rule, mv in self.rule_moves(state.turn, state.board):
            if mv.origin == move.origin and mv.target == move.target and mv.changes == move.changes:
                return rule
        return None

    # -- reading a move's text ------------------------------------------------
    def cells_of(self, text: str) -> tuple[int, int] | Reason:
        """``(origin, target)`` named by a move's text (origin ``NO_CELL`` when the notation has none)."""
        words = cell_words(text.strip().lower(), self.notation, lambda w: self.geometry.index_of(w) is not None)
        wanted = [p for p in self.notation if p in ("from", "to")]
        if len(words) != len(wanted):
            example = "".join({"from": self.cell(0), "to": self.cell(-1)}.get(p, p) for p in self.notation)
            if side_by_side(self.notation):
                return Reason("bad-move", f"{text.strip()!r} does not read as cells of this board written side by "
                              f"side: write it like {example!r}")
            return Reason("bad-move", f"{text.strip()!r} does not read as a move: write it like {example!r}")
        found: dict[str, int] = {}
        for part, word in zip(wanted, words):
            index = self.geometry.index_of(word)
            if index is None:
                return Reason("bad-move", f"{word!r} is not a cell of this board")
            found[part] = index
        return found.get("from", NO_CELL), found.get("to", NO_CELL)  # no 'to': a sowing is named by its pit

    # -- why not? -------------------------------------------------------------
    def explain(self, state: State, text: str) -> Answer:
        """Is the move named by ``text`` legal in ``state``, and if not, what stopped it?"""
        shown = " ".join(text.split()) or text
        self._marks = state.marks
        legal, outcome = self.game.status(state)
        if outcome is not None:
            return Answer(shown, False, (self.game_over(state, outcome),))
        for mv in legal:
            if " ".join(self.game.format_move(state, mv).lower().split()) == shown.lower():
                return Answer(shown, True, (self.made_by(state, mv),))
        if shown.lower() == PASS_WORD:
            return Answer(shown, False, (self.why_no_pass(state),))
        if self.tables.hand_kinds and is_drop_text(shown):
            return Answer(shown, False, (why_no_drop(self, state, shown),))
        cells = self.cells_of(shown)
        if isinstance(cells, Reason):
            return Answer(shown, False, (cells,))
        origin, target = cells
        board, player = state.board, state.turn
        made = [(rule, mv) for rule, mv in self.rule_moves(player, board)
                if mv.origin == origin and (mv.target == target or target == NO_CELL)]
        if not made:
            return Answer(shown, False, tuple(self.why_no_rule(player, board, origin, target)))
        return Answer(shown, False, (self.why_filtered(state, made),))

    def made_by(self, state: State, move: Move) -> Reason:
        """A legal move: the rule that makes it."""
        if move.action == PASS_ACTION:
            node = self.again if state.last != NO_CELL and self.again else self.stuck_pass
            return self.cite("legal", "a pass is allowed here", node)
        rule = self.rule_of(state, move)
        if rule is None and move.action == DROP_ACTION:
            kind = self.tables.kind.get(move.changes[0][1])
            rule = next((r for r in self.rules if r.action == DROP_ACTION and r.kind == kind), None)
        if rule is None:
            return self.cite("legal", "a move rule makes this move", rule)
        verb_first = ACTIONS[rule.action].verb_first if rule.action in ACTIONS else False
        name = f"{rule.action} {rule.kind}" if verb_first else f"{rule.kind} {rule.action}"
        return self.cite("legal", f"the rule '{name}' makes this move", rule)

    def game_over(self, state: State, outcome) -> Reason:
        """The end rule that finished the game."""
        rule = getattr(outcome, "rule", None) or self.fired_end_rule(outcome.reason)
        result = "a draw" if outcome.winner is None else f"{self.player(outcome.winner)} has won"
        return self.cite("game-over", f"the game is over: {result} ({outcome.reason})", rule)

    def fired_end_rule(self, reason: str) -> m.EndRule | None:
        """The end rule whose condition reads ``reason`` (as the compiler words it)."""
        for rule in self.end.rules if self.end else ():
            span = rule.condition.span
            text = self.resolved.source_line(span)
            if span.line == span.end_line and text[span.column - 1:span.end_column - 1].strip() == reason:
                return rule
        return None

    def why_no_pass(self, state: State) -> Reason:
        """Why ``pass`` is not a legal move here."""
        if self.again is not None and self.again.may_pass:
            return self.cite("no-pass", "a pass is allowed only in a go-again turn, after a move that lets "
                             "the same player move again", self.again)
        if self.stuck_pass is not None:
            return self.cite("no-pass", "a pass is allowed only when there is no other move", self.stuck_pass)
        return Reason("no-rule", "no rule of this game allows a pass")

    def why_no_rule(self, player: int, board: str, origin: int, target: int) -> list[Reason]:
        """No move rule makes the move: what each rule that could connect the cells says."""
        found: list[tuple[int, Reason]] = []
        for rule in self.rules:
            verdict = self.check_rule(rule, player, board, origin, target)
            if verdict is not None:
                found.append(verdict)
        if found:
            found.sort(key=lambda pair: pair[0])
            best = found[0][0]
            return [reason for rank, reason in found if rank == best]
        what = f"from {self.cell(origin)}" if target == NO_CELL else \
            f"from {self.cell(origin)} to {self.cell(target)}" if origin != NO_CELL else f"onto {self.cell(target)}"
        if origin != NO_CELL and board[origin] in self.tables.owner:
            what = f"{self.piece(board[origin])} {what}"
        elif origin != NO_CELL:
            what = f"a piece {what} ({self.cell(origin)} is empty)"
        return [Reason("no-rule", f"no move rule of this game moves {what}")]

    def vectors(self, rule: m.MoveRule, player: int) -> list[tuple[int, int]]:
        """The lattice vectors of a rule for a player."""
        return self.tables.vectors(rule.directions, player)

    def check_rule(self, rule: m.MoveRule, player: int, board: str, origin: int,
                   target: int) -> tuple[int, Reason] | None:
        """Why ``rule`` does not move from ``origin`` to ``target``; ``None`` if it never could.

        The rank orders the answers of several rules: a rule for the piece
        that stands there (rank 0) before a rule for another kind (1), before
        a rule that would need a piece of the player where there is none (2).
        """
        geometry = self.geometry
        empty = self.tables.empty
        if rule.action == "place":
            if origin != NO_CELL:
                return None
            return 0, self.check_place(rule, player, board, target)
        if rule.action == "sow":
            return None if origin == NO_CELL else (0, self.check_sow(rule, player, board, origin))
        if rule.action == BUILD_ACTION:
            why = why_not_build(self.tables, board, origin, target)
            return None if why is None else (0, self.cite("taken", why, rule))
        if rule.action == WALK_ACTION and origin != NO_CELL and board[origin] in self.tables.symbols_of(
                player, rule.kind):
            return 0, self.cite("no-walk", why_not_walk(self.tables, board, origin, target), rule)
        if origin == NO_CELL or not self.tables.symbols_of(player, rule.kind):
            return None  # no cell to move from, or a kind this player never owns (its directions may not exist)
        vector = None
        for v in self.vectors(rule, player):
            reach = {"step": 1, "push": 1, "jump": 2}.get(rule.action)
            path = [origin]
            for _ in range(reach or 10 ** 6):
                nxt = geometry.step(path[-1], v)
                if nxt < 0:
                    break
                path.append(nxt)
                if nxt == target:
                    break
            if path[-1] == target and (reach is None or len(path) == reach + 1):
                vector = v
                break
        if vector is None:
            return None
        piece = board[origin]
        wanted = self.tables.symbols_of(player, rule.kind)
        if piece == empty:
            return 2, self.cite("no-piece", f"{self.cell(origin)} is empty: there is no piece to move", rule)
        if self.tables.owner.get(piece) != player:
            return 2, self.cite("not-your-piece", f"not your piece: {self.cell(origin)} holds {self.piece(piece)}, "
                                f"and {self.player(player)} is to move", rule)
        if piece not in wanted:
            return 1, self.cite("wrong-kind", f"{self.cell(origin)} holds your {self.tables.kind[piece]}; "
                                f"this rule moves a {rule.kind}", rule)
        if self.pieces.generates(rule):
            names = [c.name for c in self.geometry.cells]
            said = piece_reason(self.pieces, rule, player, board, origin, target, vector, self._marks, names)
            if said is not None:
                return 0, self.cite("piece-condition", said, rule)
        if rule.action in ("step", "slide"):
            return 0, self.check_step(rule, player, board, origin, target, vector)
        if rule.action == "jump":
            return 0, self.check_jump(rule, player, board, origin, target, vector)
        return 0, self.check_push(rule, player, board, origin, vector)

    def target_reason(self, rule: m.MoveRule, player: int, board: str, target: int) -> Reason:
        """Why the target cell does not take the piece."""
        there = board[target]
        targets = set(rule.targets or ("empty",))
        if there == self.tables.empty:
            return self.cite("needs-enemy", f"{self.cell(target)} is empty, and this rule only captures "
                             "onto an enemy piece", rule)
        if self.tables.owner.get(there) == player:
            return self.cite("occupied", f"the target {self.cell(target)} is occupied by your own "
                             f"{self.tables.kind[there]}", rule)
        extra = "" if "enemy" in targets else ", and this rule moves only onto an empty cell"
        return self.cite("occupied", f"the target {self.cell(target)} is occupied by {self.piece(there)}{extra}",
                         rule)

    def check_step(self, rule: m.MoveRule, player: int, board: str, origin: int, target: int,
                   vector: tuple[int, int]) -> Reason:
        """A step or slide that the generator did not make."""
        cell = self.geometry.step(origin, vector)
        if rule.over == "one":  # a screen: exactly one piece on the way
            between = []
            while cell != target:
                if board[cell] != self.tables.empty:
                    between.append(self.cell(cell))
                cell = self.geometry.step(cell, vector)
            if len(between) != 1:
                found = "no piece stands" if not between else f"{len(between)} pieces stand ({', '.join(between)})"
                return self.cite("no-screen", f"{found} between: this rule leaps exactly one piece", rule)
            return self.target_reason(rule, player, board, target)
        while cell != target:
            if board[cell] != self.tables.empty:
                return self.cite("blocked", f"the way is blocked: {self.cell(cell)} holds "
                                 f"{self.piece(board[cell])}", rule)
            cell = self.geometry.step(cell, vector)
        return self.target_reason(rule, player, board, target)

    def check_jump(self, rule: m.MoveRule, player: int, board: str, origin: int, target: int,
                   vector: tuple[int, int]) -> Reason:
        """A jump that the generator did not make."""
        mid = self.geometry.step(origin, vector)
        over = rule.over or "enemy"
        there = board[mid]
        owner = self.tables.owner.get(there)
        fits = (there != self.tables.empty and
                (over == "any" or (over == "enemy") == (owner != player)))
        if not fits:
            what = {"enemy": "an enemy piece", "friend": "one of your pieces", "any": "a piece"}[over]
            holds = "is empty" if there == self.tables.empty else f"holds {self.piece(there)}"
            code = "no-enemy-to-jump" if over == "enemy" else "no-piece-to-jump"
            return self.cite(code, f"no enemy to jump over: {self.cell(mid)} {holds}; this rule jumps over {what}"
                             if over == "enemy" else f"nothing to jump over: {self.cell(mid)} {holds}; "
                             f"this rule jumps over {what}", rule)
        return self.target_reason(rule, player, board, target)

    def check_push(self, rule: m.MoveRule, player: int, board: str, origin: int,
                   vector: tuple[int, int]) -> Reason:
        """A line push that the generator did not make."""
        geometry, owner, empty = self.geometry, self.tables.owner, self.tables.empty
        line = [origin]
        t = geometry.step(origin, vector)
        while t >= 0 and owner.get(board[t]) == player:
            line.append(t)
            t = geometry.step(t, vector)
        k = len(line)
        low, high = rule.line or (1, None)
        if k < low or (high is not None and k > high):
            size = str(low) if low == high else f"{low} to {high}" if high is not None else f"{low} or more"
            return self.cite("line-length", f"the line from {self.cell(origin)} has {k} of your pieces; this rule "
                             f"moves lines of {size}", rule)
        names = "-".join(self.cell(c) for c in line)
        if t < 0:
            return self.cite("off-board", f"your line {names} would push your own piece off the board", rule)
        if board[t] == empty:
            return self.cite("no-rule", "the move rule allows this push, yet it was not made", rule)
        pushed = []
        u = t
        while u >= 0 and board[u] != empty and owner.get(board[u]) != player:
            pushed.append(u)
            u = geometry.step(u, vector)
        enemy = "-".join(self.cell(c) for c in pushed)
        if len(pushed) >= k:
            return self.cite("line-not-longer", f"your line of {k} ({names}) is not longer than the enemy line of "
                             f"{len(pushed)} ({enemy})", rule)
        if u >= 0 and board[u] != empty:
            return self.cite("blocked-beyond", f"the cell beyond the enemy line, {self.cell(u)}, holds "
                             f"{self.piece(board[u])}: a line can only be pushed into an empty cell or off "
                             "the board", rule)
        last = pushed[-1]
        if self.corner is not None:
            return self.cite("corner", f"it would push {self.piece(board[last])} on {self.cell(last)} straight out "
                             "of its corner", self.corner)
        return self.cite("no-rule", "the move rule allows this push, yet it was not made", rule)

    def check_place(self, rule: m.MoveRule, player: int, board: str, target: int) -> Reason:
        """A placement that the generator did not make."""
        empty = self.tables.empty
        if board[target] != empty:
            return self.cite("occupied", f"{self.cell(target)} is occupied by {self.piece(board[target])}", rule)
        if rule.falling is not None:
            below = self.geometry.step(target, self.tables.vectors((rule.falling,), player)[0])
            if below >= 0 and board[below] == empty:
                return self.cite("falls-further", f"a {rule.kind} put on {self.cell(target)} would fall further: "
                                 f"{self.cell(below)} below it is empty", rule)
        if rule.flanking:
            return self.cite("no-flank", f"a {rule.kind} on {self.cell(target)} would outflank no enemy line: "
                             "no run of enemy pieces from it ends at one of yours", rule)
        if self.tables.placed_symbol(player, rule.kind) is None:
            return self.cite("wrong-kind", f"{self.player(player)} has no {rule.kind} to place", rule)
        if rule.region is not None and target not in self.tables.region(rule.region, player):
            return self.cite("not-in-region", f"{self.cell(target)} is not one of {self.player(player)}'s "
                             f"{rule.region} cells", rule)
        return self.cite("no-rule", "the move rule allows this placement, yet it was not made", rule)

    def check_sow(self, rule: m.MoveRule, player: int, board: str, origin: int) -> Reason:
        """A sowing that the generator did not make: not the mover's cell, or nothing to sow."""
        region = rule.sow.origin if rule.sow else ""
        if origin not in self.tables.region(region, player):
            return self.cite("not-in-region", f"{self.cell(origin)} is not one of {self.player(player)}'s "
                             f"{region} cells", rule)
        if not count_of(board[origin]):
            return self.cite("nothing-to-sow", f"{self.cell(origin)} holds no {rule.kind}", rule)
        return self.cite("no-rule", "the move rule allows this sowing, yet it was not made", rule)

    def why_filtered(self, state: State, made: list[tuple[m.MoveRule, Move]]) -> Reason:
        """A move the rules make that a later statement forbids, in the generator's order."""
        board, player = state.board, state.turn
        moves = [mv for _, mv in self.rule_moves(player, board)]
        mine = [mv for _, mv in made]
        again = self.again
        if again is not None and state.last != NO_CELL:
            def continues(mv: Move) -> bool:
                return (again.after is None or mv.action == again.after
                        or (again.after == "capture" and mv.captures > 0))
            if not any(continues(mv) for mv in mine):
                return self.cite("not-a-continuation", f"a go-again turn continues only with a {again.after}",
                                 again)
            if again.same_piece and all(mv.origin != state.last for mv in mine):
                return self.cite("must-continue", f"the go-again must continue with the piece on "
                                 f"{self.cell(state.last)}", again)
            moves = [mv for mv in moves if continues(mv) and (not again.same_piece or mv.origin == state.last)]
        if self.freeze is not None:
            enemy = (player + 1) % self.nplayers
            frozen = self._threats[enemy][1](board)
            strict = self.freeze.mode == "strict"
            held = [c for mv in mine for c in (mv.moved if strict else (mv.origin,)) if c in frozen]
            if held and all(any(c in frozen for c in (mv.moved if strict else (mv.origin,))) for mv in mine):
                cell = held[0]
                return self.cite("frozen", f"{self.cell(cell)} is frozen: {self.threat(enemy, board, cell)}",
                                 self.freeze)
            moves = [mv for mv in moves if not any(c in frozen for c in (mv.moved if strict else (mv.origin,)))]
        if self.repetition is not None:
            seen = state.history or frozenset()
            if all(board_after(board, mv) in seen or board_after(board, mv) == board for mv in mine):
                return self.cite("repeats", "it would repeat an earlier board", self.repetition)
            moves = [mv for mv in moves if board_after(board, mv) not in seen and board_after(board, mv) != board]
        if self.suicide is not None and all(is_suicide(mv, self.game.empty) for mv in mine):
            return self.cite("suicide", "its group would have no liberty left, and it captures nothing", self.suicide)
        if self.undoing is not None and state.before is not None and all(
                recreates(board, mv, state.before) for mv in mine):
            return self.cite("undoes", "it would make the board as it was before the opponent's last move at once",
                             self.undoing)
        if any(mv.action == BUILD_ACTION for mv in mine) and state.hand is not None and not state.hand[player] \
                and any(r.action == BUILD_ACTION and r.supply for r in self.rules):
            return self.cite("empty-hand", f"{self.player(player)} has no {self.tables.hand_kind} left in hand",
                             next(r for r in self.rules if r.action == BUILD_ACTION))
        conditions = ConditionCompiler(self.tables, self.game.options, lambda: "", lambda state: False)
        keep = failed_keep(self.active, self.tables, conditions.compile, board_after, state, mine)
        if keep is not None:
            return self.cite("kept", "after it, the 'keep' condition would no longer hold", keep)
        if self.must_capture is not None and not any(mv.captures for mv in mine):
            capturing = [mv for mv in moves if mv.captures]
            if capturing:
                example = self.game.format_move(state, capturing[0])
                return self.cite("capture-compulsory", f"a capture is compulsory: {example} captures",
                                 self.must_capture)
        protected = next((f for f in self.active.all(m.Forbid) if f.what == "leaving attacked"), None)
        if protected is not None and not self.pieces.keep_safe(board, player, mine):
            return self.cite("leaves-attacked", f"it would leave {self.player(player)}'s {protected.kind} attacked",
                             protected)
        return Reason("no-rule", "the rules make this move, yet it is not among the legal moves")

    def threat(self, enemy: int, board: str, cell: int) -> str:
        """Which enemy move could displace ``cell``: ``white's line d4-c3 could push it (line 27)``."""
        for rule, mv in self.rule_moves(enemy, board):
            if cell in mv.displaced:
                line = "-".join(self.cell(c) for c in mv.moved) or self.cell(mv.origin)
                return f"{self.player(enemy)}'s line {line} could push it (move rule at line {rule.span.line})"
        return f"{self.player(enemy)} could displace it"

    # -- trace ------------------------------------------------------------------
    def trace(self, before: State, move: Move, after: State) -> list[Reason]:
        """The building blocks of one ply played from ``before`` to ``after``."""
        mover = before.turn
        out: list[Reason] = []
        text = self.game.format_move(before, move)
        if move.action == PASS_ACTION:
            node = self.again if before.last != NO_CELL and self.again else self.stuck_pass
            out.append(self.cite("rule", f"{self.player(mover)} passed", node))
        else:
            rule = self.rule_of(before, move)
            out.append(self.cite("rule", f"{self.player(mover)} played {text}: "
                                 f"{rule.kind + ' ' + rule.action if rule else 'a move rule'}", rule))
            for cell in move.displaced:
                sym = before.board[cell]
                gone = after.board.count(sym) < before.board.count(sym) and all(
                    c != cell or s == self.tables.empty for c, s in move.changes)
                if rule is not None and rule.action == "push":
                    end = [c for c, s in move.changes if s == sym]
                    where = f" to {self.cell(end[-1])}" if end and not move.captures else " off the board"
                    out.append(self.cite("pushed", f"pushed {self.piece(sym)} on {self.cell(cell)}{where}", rule))
                elif gone or (rule is not None and rule.capture):
                    out.append(self.cite("captured", f"captured {self.piece(sym)} on {self.cell(cell)}", rule))
                else:
                    out.append(self.cite("captured", f"turned {self.piece(sym)} on {self.cell(cell)}", rule))
            if move.action != BUILD_ACTION and promotes(before.board, move):
                new = after.board[move.target]
                stmt = next((p for p in self.promote if p.to_kind == self.tables.kind.get(new)), None)
                out.append(self.cite("promoted", f"the piece on {self.cell(move.target)} became a "
                                     f"{self.tables.kind.get(new, new)}", stmt))
        if after.turn == mover and after.last != NO_CELL:
            out.append(self.cite("again", f"{self.player(mover)} moves again (from {self.cell(after.last)})",
                                 self.again))
        else:
            why = ""
            if self.again is not None and move.action != PASS_ACTION:
                why = " (no move may follow this one in the same turn)"
            out.append(self.cite("turn", f"the turn passes to {self.player(after.turn)}{why}",
                                 self.again if why else None))
        outcome = self.game.outcome(after)
        if outcome is not None:
            rule = getattr(outcome, "rule", None) or self.fired_end_rule(outcome.reason)
            result = "draw" if outcome.winner is None else f"{self.player(outcome.winner)} wins"
            note = " (misere swaps the result)" if self.misere is not None and outcome.winner is not None else ""
            out.append(self.cite("end", f"{result}: {outcome.reason}{note}", rule))
        return out


_CACHE: dict[int, Explainer] = {}


def explainer_for(game: Game) -> Explainer:
    """The explainer of a compiled game (kept while the game lives)."""
    found = _CACHE.get(id(game))
    if found is None or found.game is not game:
        if len(_CACHE) > 64:
            _CACHE.clear()
        found = _CACHE[id(game)] = Explainer(game)
    return found


def explain_move(game: Game, state: State, text: str) -> Answer:
    """Whether the move ``text`` is legal in ``state``, and the rule-file lines that say why (not)."""
    return explainer_for(game).explain(state, text)


def trace_ply(game: Game, before: State, move: Move, after: State) -> list[Reason]:
    """The building blocks of the ply ``move`` from ``before`` to ``after``, each with its rule-file line."""
    return explainer_for(game).trace(before, move, after)
