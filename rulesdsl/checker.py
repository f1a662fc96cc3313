"""Semantic checks: every name resolved, every value in range, all errors at once.

``check(resolved)`` returns diagnostics sorted by place; errors stop the
pipeline, warnings do not (unless ``check --strict``).
"""

from __future__ import annotations

import contextlib
from string import ascii_letters

from rulesdsl import model as m
from rulesdsl.block_checks import BlockChecks
from rulesdsl.counting_checks import CountingChecks
from rulesdsl.directions import RELATIVE, SIDES, absolute_directions, builtin_sets, relative_vector
from rulesdsl.errors import Diagnostic, Span, suggest
from rulesdsl.expr import ExprError, evaluate, names_in
from rulesdsl.link_checks import LinkChecks
from rulesdsl.lint import Lints, never_holds
from rulesdsl.options import fold_options, option_hint, option_problem
from rulesdsl.piece_checks import REGION_NAMES, PieceRuleChecks, is_vector
from rulesdsl.placing_checks import EACH_SEAT, PLACINGS, check_places_field, check_placings
from rulesdsl.typecheck import TypeChecks
from rulesdsl.vocabulary import (
    ACTIONS,
    CONDITIONS,
    FEATURES,
    FUNCTIONS,
    MODIFIERS,
    misplaced_message,
    or_list,
)

__all__ = ["Checker", "check", "never_holds", "suggest"]

ROLES = ("mover", "opponent")
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # seats a game may declare, in the order they move
# The keyword of each statement whose key is its class name (for messages).
STATEMENT_WORDS = {
    "GameTitle": "game", "Players": "players", "Forward": "forward", "Board": "board", "CellNames": "cells",
    "PositionFormat": "position", "Notation": "notation", "Moves": "moves", "Again": "again",
    "Misere": "misere", "End": "end", "Evaluate": "evaluate", "PassWhenStuck": "pass when no moves",
    "MustCapture": "must capture", "Then": "then", "Lines": "lines", "DrawnLines": "drawn lines", "Hand": "hand",
    "Style": "style", "CapturedToHand": "captured",
    "Block": "rectangle", "SmallBoards": "boards",
}


def seats_named(statements: list[m.Players]) -> list[m.PlayerDecl]:
    """Every player any ``players`` statement seats (guarded ones seat players only for some options)."""
    seen: dict[tuple[str, str], m.PlayerDecl] = {}
    for stmt in statements:
        for player in stmt.players:
            seen.setdefault((player.name, player.symbol), player)
    return list(seen.values())


class Checker(TypeChecks, Lints, CountingChecks, PieceRuleChecks, BlockChecks, LinkChecks):
    """Names, structure and values of one resolved rule file; types and warnings come from
    the parts it is made of. (The trial compile is the interpreter's: ``interpreter/compile/trial.py``.)"""

    # -- the checks -----------------------------------------------------------------
    def run(self) -> list[Diagnostic]:
        r = self.resolved
        self.options = {s.name: s for s in r.of(m.OptionDecl)}
        self.players = seats_named(r.of(m.Players))
        self.player_names = [p.name for p in self.players]
        self.kinds = {s.kind: s for s in r.of(m.PieceDecl)}
        self.sets = {s.name: s for s in r.of(m.DirectionSet)}
        boards = r.of(m.Board)
        self.shape = boards[0].shape if boards else "grid"
        self.has_forward = bool(r.of(m.Forward))
        self.check_required()
        self.check_duplicates()
        self.check_options()
        self.check_players_and_pieces()
        self.check_board()
        self.check_directions()
        self.check_regions()
        self.check_start()
        self.check_moves()
        self.check_blocks()
        self.check_small_boards()
        self.check_links()
        self.check_promotions()
        self.check_counting()
        self.check_piece_rules()
        self.check_end()
        check_places_field(self)
        self.check_evaluate()
        self.check_guards()
        self.check_examples()
        self.check_types()
        self.check_example_settings()
        self.check_unused()
        self.check_end_never_holds()
        self.check_again_never_ends()
        self.check_counters_in_moves()
        return sorted(self.found, key=lambda d: (d.span.file, d.span.line, d.span.column))

    def check_required(self) -> None:
        top = Span(1, 1, 1, 2, self.file)
        needed = [(m.Players, "players", "players white \"w\", black \"b\""),
                  (m.Board, "board", "board grid 8 x 8"),
                  (m.PieceDecl, "piece", "piece pawn white \"w\", black \"b\""),
                  (m.Moves, "moves", "moves { pawn step orthogonal }")]
        for kind, word, example in needed:
            if not self.resolved.of(kind):
                self.error(top, f"the file has no '{word}' statement", "E010", f"add e.g. {example}")
        if not self.resolved.of(m.End):
            self.warning(top, "the file has no 'end' block: a player without moves draws", "W010")

    def check_duplicates(self) -> None:
        seen: dict[str, m.Statement] = {}
        for stmt in self.resolved.statements:
            if isinstance(stmt, (m.OptionDecl, m.PieceDecl, m.DirectionSet)) or stmt.guard is None:
                first = seen.get(stmt.key)
                if first is not None and first.guard is None:
                    word, _, name = stmt.key.partition(" ")
                    keyword = STATEMENT_WORDS.get(word, word.lower())
                    what = f"{word} {name!r}" if name else f"'{keyword}' statement"
                    where = f"line {first.span.line}"
                    if first.span.file != stmt.span.file:
                        where += f" of {first.span.file}"
                    self.error(stmt.span, f"duplicate {what}: it is already defined at {where}", "E011",
                               "each is defined once; a variant changes it by 'extends'")
                    continue
            seen.setdefault(stmt.key, stmt)

    def check_options(self) -> None:
        values: dict[str, object] = {}
        for decl in self.resolved.of(m.OptionDecl):
            bounds = [e for e in (decl.default, decl.low, decl.high) if e is not None]
            for ref in (ref for expr in bounds for ref in names_in(expr)):
                if ref.name not in self.options:
                    self.unknown(ref.span, "option", ref.name, self.options, "E020")
            try:
                value = evaluate(decl.default, values)
                values[decl.name] = value
                if decl.choices is not None and value not in decl.choices:
                    self.error(decl.default.span, f"option {decl.name}: default {value!r} is not one of the "
                               "choices", "E021", f"choices: {', '.join(decl.choices)}")
                if decl.low is not None:
                    low, high = evaluate(decl.low, values), evaluate(decl.high, values)
                    bad_bound = next((e for e, v in ((decl.low, low), (decl.high, high))
                                      if isinstance(v, bool) or not isinstance(v, int)), None)
                    if bad_bound is not None:
                        self.error(bad_bound.span, f"option {decl.name}: the bounds of a range are "
                                   "whole numbers", "E021", "write e.g. in 1..8")
                    elif isinstance(value, bool) or not isinstance(value, int):
                        self.error(decl.default.span, f"option {decl.name}: a range needs a whole-number "
                                   "default", "E021", f"the allowed range is {low}..{high}")
                    elif low > high:
                        self.error(decl.low.span, f"option {decl.name}: the range {low}..{high} is empty",
                                   "E021", "write the smaller bound first")
                    elif not low <= value <= high:
                        self.error(decl.default.span, f"option {decl.name}: default {value} is outside "
                                   f"{low}..{high}", "E021", f"the allowed range is {low}..{high}")
            except ExprError as error:
                if "unknown name" not in error.message:
                    self.error(error.span, error.message, "E022")

    def check_player_words(self, player: m.PlayerDecl, earlier: list[m.PlayerDecl]) -> None:
        """A player's name and symbol, read in any case (``--as W``, the REPL), name no earlier player."""
        for other in earlier:
            theirs = {other.name.casefold(): "name", other.symbol.casefold(): "symbol"}
            for word, what in ((player.name, "name"), (player.symbol, "symbol")):
                if word.casefold() in theirs:
                    clash = theirs[word.casefold()]
                    same = other.name if clash == "name" else other.symbol
                    how = "differs only in case from" if what == clash else "reads as"
                    self.error(player.span, f"player {what} {word!r} {how} player {other.name}'s {clash} {same!r}",
                               "E011", "'--as' and the REPL read a player's name or symbol in any case: "
                                       "make them differ by more than case")
                    return

    def check_players_and_pieces(self) -> None:
        for stmt in self.resolved.of(m.Players):
            if not MIN_PLAYERS <= len(stmt.players) <= MAX_PLAYERS:
                self.error(stmt.span, f"{len(stmt.players)} players declared; a game has "
                           f"{MIN_PLAYERS} to {MAX_PLAYERS}", "E012",
                           "list each player once, in the order they move (docs/language.md, section 6)")
        symbols: dict[str, Span] = {}
        for player in self.players:
            if player.name in ROLES:
                self.error(player.span, f"{player.name!r} is a reserved word and cannot name a player", "E013")
        names = [p.name for p in self.players]
        for i, player in enumerate(self.players):
            if player.name in names[:i]:
                self.error(player.span, f"duplicate player {player.name!r}", "E011",
                           "the two players need different names")
            elif player.symbol in [p.symbol for p in self.players[:i]]:
                self.error(player.span, f"player symbol {player.symbol!r} is already used", "E011",
                           "positions name the player to move by this symbol: make them differ")
            elif not player.symbol or any(ch.isspace() or ch in "()\"'" for ch in player.symbol):
                self.error(player.span, f"player symbol {player.symbol!r} cannot be written in a position",
                           "E031", "use a letter, e.g. white \"w\"")
            else:
                self.check_player_words(player, self.players[:i])
        for piece in self.kinds.values():
            owners = []
            for player, sym, span in piece.symbols:
                if player not in self.player_names and not piece.neutral:
                    self.unknown(span, "player", player, self.player_names, "E030")
                owners.append(player)
                if len(sym) != 1 or sym.isspace() or sym in "-()\"'":
                    self.error(span, f"piece symbol {sym!r} must be one character other than - ( ) and quotes",
                               "E031")
                elif sym in symbols:
                    self.error(span, f"symbol {sym!r} is already used", "E031",
                               f"first used at line {symbols[sym].line}")
                symbols.setdefault(sym, span)
            for player in set(owners):
                if owners.count(player) > 1:
                    self.error(piece.span, f"piece {piece.kind}: two symbols for {player}", "E031")

    def check_board(self) -> None:
        for board in self.resolved.of(m.Board):
            for expr in board.size:
                self.check_names(expr, self.options)
            if board.where is not None:
                self.check_names(board.where, {**self.options, "col": None, "row": None})
        for stmt in self.resolved.of(m.PositionFormat):
            fields = list(stmt.fields)
            if sum(f in ("rows", "board") for f in fields) != 1:
                self.error(stmt.span, "a position needs exactly one of 'rows' or 'board'", "E040")
            for field in set(fields):
                if fields.count(field) > 1:
                    self.error(stmt.span, f"position field {field!r} given twice", "E040")
            if "rows" in fields and fields[-1] != "rows":
                self.error(stmt.span, "'rows' must be the last position field", "E040")
        for stmt in self.resolved.of(m.CellNames):
            for part in stmt.parts:
                if isinstance(part.first, str) and (len(part.first) != 1 or part.first not in ascii_letters):
                    self.error(part.span, f"a letter axis starts at one letter, not {part.first!r}", "E041",
                               "letters are a to z or A to Z")
                elif part.skip and (not isinstance(part.first, str) or len(part.skip) != 1
                                    or part.skip.islower() != part.first.islower() or part.skip <= part.first
                                    or part.skip not in ascii_letters):
                    self.error(part.span, f"'skipping {part.skip}' leaves out one letter after the first of a "
                               "letter axis, in its case", "E041", 'e.g. cells column "a" skipping "i" row 1')
                wrong = {"column": "top", "row": "right"}[part.axis]
                if part.end_word == wrong:
                    right = {"column": "right", "row": "top"}[part.axis]
                    self.error(part.span, f"a {part.axis} is counted from the {right}, not the {wrong}", "E041",
                               f"write '{part.axis} ... from {right}'")
        # A chain in one move leaves no turn open, so it needs no 'last'.
        again = [a for a in self.resolved.of(m.Again) if not a.chain] or self.resolved.of(m.Then)
        formats = self.resolved.of(m.PositionFormat)
        word = "again" if self.resolved.of(m.Again) else "then"
        # what 'last' holds: the cell a go-again turn goes on from, or where the first part of a turn ended
        unwritten = ("a turn that goes on (the cell it goes on from) cannot be written down" if word == "again"
                     else "the second part of a turn (the cell where its first part ended) cannot be written down")
        if again and formats and "last" not in formats[0].fields:
            self.error(formats[0].span, f"a game with '{word}' needs the 'last' field in its position format, "
                       f"or {unwritten}", "E045", "e.g. position (turn last rows)")
        elif again and not formats:  # the default format has no 'last' either
            self.error(again[0].span, f"a game with '{word}' needs a 'position' statement with the 'last' field "
                       f"(the default position format has none), or {unwritten}", "E045",
                       "e.g. position (turn last rows)")
        players = self.resolved.of(m.Players)
        if formats and "turn" not in formats[0].fields and players and len(players[-1].players) > 1:
            self.error(formats[0].span, "the position format needs the 'turn' field: without it a position "
                       "string cannot say whose turn it is", "E040", "e.g. position (turn rows)")
        hands = self.resolved.of(m.Hand)
        if hands and formats and "hand" not in formats[0].fields:
            self.error(formats[0].span, "a game with 'hand' needs the 'hand' field in its position format, "
                       "or the pieces in hand cannot be written down", "E045", "e.g. position (turn hand rows)")
        if formats and "hand" in formats[0].fields and not hands:
            self.error(formats[0].span, "the position field 'hand' needs a 'hand' statement", "E040",
                       "e.g. hand man 9")
        for hand in hands:
            for kind, count in hand.parts:
                self.check_piece(hand.span, kind, None)
                self.check_names(count, self.options)
        self.check_captured_to_hand(hands)
        for stmt in (*self.resolved.of(m.Lines), *self.resolved.of(m.DrawnLines)):
            for line in stmt.lines:
                names = [name for name, _ in line]
                for i, (name, span) in enumerate(line):
                    if name in names[:i]:
                        self.error(span, f"point {name!r} is already on this line", "E046",
                                   "a line lists each point once, in order")
        for stmt in self.resolved.of(m.Notation):
            if "from" not in stmt.parts and "to" not in stmt.parts:
                self.error(stmt.span, "move notation needs 'from' or 'to'", "E042")

    def direction_names(self) -> set[str]:
        """Every direction name of this board (worked out once: a file may have thousands of sets)."""
        if getattr(self, "_direction_names", None) is None:
            self._direction_names = (set(absolute_directions(self.shape)) | set(builtin_sets(self.shape))
                                     | set(self.sets) | set(RELATIVE))
        return self._direction_names

    def check_dirs(self, refs: tuple[m.DirRef, ...]) -> None:
        known = self.direction_names()
        for ref in refs:
            if is_vector(ref.name):
                self.check_vector(ref)
            elif ref.name not in known:
                self.unknown(ref.span, "direction", ref.name, known - set(RELATIVE), "E050")
            elif ref.name in RELATIVE and not self.has_forward:
                self.missing_forward(ref.span, f"direction {ref.name!r} is relative to the player")
            elif ref.name in RELATIVE:
                self.check_relative(ref)

    def missing_forward(self, span: Span, what: str) -> None:
        """E051 once per file (the first use that needs a 'forward' statement), its hint in the file's own
        player names."""
        if getattr(self, "_forward_missing_said", False):
            return
        self._forward_missing_said = True
        first, second = (self.player_names + ["white", "black"])[:2]
        self.error(span, f"{what}, but no 'forward' statement says which way each player faces", "E051",
                   f"add e.g. forward {first} n, {second} s")

    def check_relative(self, ref: m.DirRef) -> None:
        """A relative direction must land on a direction of the board for every player's forward."""
        absolute = absolute_directions(self.shape)
        for stmt in self.resolved.of(m.Forward):
            for player, facing, _ in stmt.pairs:
                if facing not in absolute:
                    continue  # reported with the forward statement
                if relative_vector(ref.name, absolute[facing]) not in absolute.values():
                    self.error(ref.span, f"direction {ref.name!r} does not exist for {player}, who faces "
                               f"{facing}: it is not a direction of a {self.shape} board", "E053",
                               "use absolute directions here, or a forward along a row or column")
                    return

    def relative_in(self, refs: tuple[m.DirRef, ...], seen: frozenset[str] = frozenset()) -> m.DirRef | None:
        """The first direction (directly or inside a direction set) that is relative to the player."""
        for ref in refs:
            if ref.name in RELATIVE:
                return ref
            if ref.name in self.sets and ref.name not in seen and \
                    self.relative_in(self.sets[ref.name].directions, seen | {ref.name}) is not None:
                return ref
        return None

    def direction_cycles(self) -> list[tuple[m.DirectionSet, list[str]]]:
        """Each cycle of two or more direction sets naming each other, once, at its first set in the file."""
        state: dict[str, int] = {}  # 1: being walked, 2: done
        found: list[tuple[m.DirectionSet, list[str]]] = []
        for root in self.sets:
            if root in state:
                continue
            stack: list[tuple[str, int]] = [(root, 0)]
            trail: list[str] = [root]
            state[root] = 1
            while stack:  # depth first, without recursion: a file may chain thousands of sets
                name, index = stack[-1]
                refs = self.sets[name].directions
                if index == len(refs):
                    stack.pop()
                    trail.pop()
                    state[name] = 2
                    continue
                stack[-1] = (name, index + 1)
                target = refs[index].name
                if target not in self.sets or target == name:
                    continue
                if state.get(target) == 1:  # back to a set on the trail: a cycle
                    cycle = trail[trail.index(target):]
                    first = min(cycle, key=lambda n: (self.sets[n].span.line, self.sets[n].span.column))
                    at = cycle.index(first)
                    ordered = cycle[at:] + cycle[:at]
                    found.append((self.sets[first], [*ordered, first]))
                elif target not in state:
                    state[target] = 1
                    stack.append((target, 0))
                    trail.append(target)
        return found

    def check_forward_of_owners(self, rule: m.MoveRule) -> None:
        """Each player who has the rule's piece kind faces a way, if the rule uses relative directions."""
        ref = self.relative_in((*rule.directions, *filter(None, [rule.falling]), *rule.flanking))
        if ref is None or not self.has_forward or rule.kind not in self.kinds:
            return
        facing = {player for stmt in self.resolved.of(m.Forward) for player, _, _ in stmt.pairs}
        for player, _, _ in self.kinds[rule.kind].symbols:
            if player in self.player_names and player not in facing:
                self.error(ref.span, f"direction {ref.name!r} is relative to the player, and {player} has a "
                           f"{rule.kind} but no forward direction", "E051",
                           f"add {player} to the 'forward' statement")
                return

    def check_directions(self) -> None:
        for stmt in self.sets.values():
            self.check_dirs(stmt.directions)
            if any(ref.name == stmt.name for ref in stmt.directions):
                self.error(stmt.span, f"directions {stmt.name} refers to itself", "E052")
        for stmt, path in self.direction_cycles():
            self.error(stmt.span, f"directions {stmt.name} refers to itself through {' -> '.join(path)}", "E052",
                       "a set may name other sets, but never one that leads back to it")
        absolute = absolute_directions(self.shape)
        for stmt in self.resolved.of(m.Forward):
            for player, direction, span in stmt.pairs:
                if player not in self.player_names:
                    self.unknown(span, "player", player, self.player_names, "E030")
                if direction not in absolute:
                    self.unknown(span, "direction", direction, absolute, "E050")

    def check_regions(self) -> None:
        """Each region names known players, each once, with expressions over ``col``, ``row`` and options."""
        for stmt in self.resolved.of(m.Region):
            seen: set[str] = {player for player, _ in stmt.cells}
            for part in stmt.wheres:
                if part.player in ROLES:
                    self.error(part.span, f"a region belongs to a declared player, not to {part.player!r}",
                               "E030", "name the player, e.g. region goal white where row == 8")
                else:
                    self.player_ref(part.span, part.player)
                if part.player in seen:
                    self.error(part.span, f"region {stmt.name} gives {part.player} cells twice", "E011",
                               "join the conditions with 'or'")
                seen.add(part.player)
                self.check_names(part.where, {**self.options, **dict.fromkeys(REGION_NAMES)})

    def check_region_of(self, span: Span, region: str, player: str | None) -> None:
        """``region`` is declared, with cells for ``player`` (any player when ``None`` or a role)."""
        statements = [s for s in self.resolved.of(m.Region) if s.name == region]
        if not statements:
            self.unknown(span, "region", region, sorted({s.name for s in self.resolved.of(m.Region)}), "E076")
        elif player not in (None, *self.roles()) and all(s.where is None and player not in s.players
                                                          for s in statements):
            self.error(span, f"region {region} gives {player} no cells", "E076",
                       f"add e.g. '{player} where row == 1' to the region statement")

    def check_start(self) -> None:
        for stmt in self.resolved.of(m.StartLayout):
            for item in stmt.items:
                if item.kind is not None:
                    self.check_piece(item.span, item.kind, item.player)
                if item.where is not None:
                    self.check_names(item.where, {**self.options, "col": None, "row": None})
                if item.region is not None and item.amount is None:
                    self.check_region_of(item.span, item.region, item.player)
                for ref in item.cells:
                    if ref.xy is not None:
                        for expr in ref.xy:
                            self.check_names(expr, self.options)

    def check_piece(self, span: Span, kind: str, player: str | None) -> None:
        if kind not in self.kinds:
            self.unknown(span, "piece kind", kind, self.kinds, "E032")
        if player is not None and player not in self.player_names:
            self.unknown(span, "player", player, self.player_names, "E030")
        if kind in self.kinds and player in self.player_names and not self.kinds[kind].neutral:
            owners = [p for p, _, _ in self.kinds[kind].symbols]
            if player not in owners:
                self.error(span, f"{player} has no {kind}: piece {kind} gives symbols only for "
                           f"{', '.join(owners)}", "E033", f"add {player} \"X\" to 'piece {kind}'")

    def check_moves(self) -> None:
        for block in (*self.resolved.of(m.Moves), *self.resolved.of(m.Then)):
            if not block.rules and isinstance(block, m.Moves):
                self.warning(block.span, "the moves block is empty: nobody can ever move", "W020")
            if isinstance(block, m.Then) and block.after_row is not None:
                self.check_row_length(block.after_row)
            for rule in block.rules:
                if rule.action == "turn":  # turns a block, names no piece kind (rulesdsl/block_checks.py)
                    self.check_turn(rule)
                    continue
                if rule.action == "swap":  # takes over a piece, names no kind (rulesdsl/link_checks.py)
                    continue
                self.check_reach(rule, isinstance(block, m.Then))
                self.check_when_and_hand(rule)
                if rule.action == "pass":
                    continue
                if rule.kind not in self.kinds:
                    at = rule.span  # a rule starts with its kind: underline just that word
                    word = Span(at.line, at.column, at.line, at.column + len(rule.kind), at.file)
                    self.unknown(word, "piece kind", rule.kind, self.kinds, "E032")
                self.check_dirs(rule.directions)
                self.check_forward_of_owners(rule)
                if rule.falling is not None:
                    self.check_dirs((rule.falling,))
                self.check_dirs(rule.flanking)
                self.check_dirs(rule.enclosing)
                self.check_dirs(rule.custodial)
                spans = dict(rule.option_spans)
                action = ACTIONS.get(rule.action)
                if action is None:
                    self.unknown(rule.span, "move action", rule.action, ACTIONS, "E066")
                    continue
                over = MODIFIERS["over"].values
                if rule.over is not None and rule.over not in over:
                    self.unknown(spans["over"], "jump target", rule.over, over, "E060")
                for word, given in (("over", rule.over is not None), ("capture", rule.capture),
                                    ("line", rule.line is not None), ("by pieces in line", rule.by_line),
                                    ("flying", rule.flying), ("custodial", bool(rule.custodial))):
                    if given and word not in action.modifiers:
                        self.error(spans[word], misplaced_message(word, rule.action), "E061")
                if rule.line is not None:
                    low, high = rule.line
                    if low < 1 or (high is not None and high < low):
                        shown = f"{low}..{high}" if high is not None else f"{low}.."
                        self.error(spans["line"], f"line {shown}: lengths must be at least 1 and "
                                   "ascending", "E062")
                targets = MODIFIERS["to"].values
                for target in rule.targets:
                    if target not in targets:
                        self.unknown(spans["to"], "target", target, targets, "E060")
                if rule.targets and "to" not in action.modifiers:
                    self.error(spans["to"], misplaced_message("to", rule.action), "E061")
        thens = self.resolved.of(m.Then)
        if thens and self.resolved.of(m.Again):
            self.error(thens[0].span, "a game has either 'again' or 'then', not both", "E065",
                       "'then' makes every turn two parts; 'again' repeats one kind of move")
        for again in self.resolved.of(m.Again):
            if again.after is not None and again.after not in (*ACTIONS, "capture"):
                self.unknown(again.span, "action", again.after, (*ACTIONS, "capture"), "E063")
            mode = ("in one move" if again.chain else "in same direction" if again.same_direction
                    else "to new cells" if again.new_cells else "")
            if mode and not again.same_piece:
                self.error(again.span, f"'{mode}' follows one piece: write 'with same piece'", "E067")
            if again.chain and again.may_pass:
                self.error(again.span, "a chain in one move goes on while it can: it has no pass", "E067",
                           "delete 'or pass'")

    def check_row_length(self, expr: m.Expr) -> None:
        """``after N in a row``, ``except N in a row``: N is an option or a number of at least 1."""
        self.check_names(expr, self.options)
        if isinstance(expr, m.Literal) and isinstance(expr.value, int) and expr.value < 1:
            self.error(expr.span, "a row has at least 1 piece", "E072")

    def check_when_and_hand(self, rule: m.MoveRule) -> None:
        """A rule's ``when`` condition, ``place from hand`` and ``remove ... except``."""
        if rule.when is not None:
            self.check_condition(rule.when)
            for node in m.walk(rule.when):
                if isinstance(node, (m.NoMoves, m.NobodyMoves)):
                    self.error(node.span, "a move rule's condition cannot ask about the moves themselves",
                               "E075", "use counts, rows and options in 'when'")
        if rule.spared is not None:
            self.check_row_length(rule.spared)
        if rule.from_hand:
            span = dict(rule.option_spans)["from hand"]
            hands = self.resolved.of(m.Hand)
            if not hands:
                self.error(span, "'from hand' needs a 'hand' statement saying how many pieces each player "
                           "holds", "E064", f"e.g. hand {rule.kind} 9")
            elif rule.kind not in (held := [kind for kind, _ in hands[0].parts]):
                self.error(span, f"the hand holds {', '.join(held)} pieces, not {rule.kind}", "E064",
                           f"write {rule.action} {held[0]}" + (" from hand" if rule.action == "place" else ""))

    def check_captured_to_hand(self, hands: list[m.Hand]) -> None:
        """``captured KIND, ... to hand [as KIND2]``: known kinds, a hand that holds KIND2."""
        held = [kind for kind, _ in hands[0].parts] if hands else []
        for stmt in self.resolved.of(m.CapturedToHand):
            if not hands:
                self.error(stmt.span, "'captured ... to hand' needs a 'hand' statement naming the kinds a hand "
                           "holds", "E064", "e.g. hand pawn 0, knight 0")
                continue
            for kind in stmt.kinds:
                if kind != "pieces":
                    self.check_piece(stmt.span, kind, None)
            if stmt.as_kind is not None and stmt.as_kind not in held:
                self.error(stmt.span, f"the hand holds {', '.join(held)} pieces, not {stmt.as_kind}", "E064",
                           f"add {stmt.as_kind} 0 to the 'hand' statement")

    def check_reach(self, rule: m.MoveRule, in_then: bool) -> None:
        """``place KIND from last ACTION DIRS``: a step or slide, in the second part of a turn."""
        if rule.reach is None:
            return
        span = dict(rule.option_spans)["from last"]
        if rule.reach not in ACTIONS or not ACTIONS[rule.reach].reaches:
            ways = or_list([f"a {a.name}" for a in ACTIONS.values() if a.reaches])
            self.error(span, f"a placement from last reaches its cell by {ways}, not a {rule.reach}",
                       "E061", "write e.g. place arrow from last slide all")
        if not in_then:
            self.error(span, "'from last' belongs in a 'then' block: only the second part of a turn "
                       "continues from a cell", "E064", "e.g. then { place arrow from last slide all }")

    def check_promotions(self) -> None:
        for stmt in self.resolved.of(m.Promote):
            for kind in (stmt.kind, stmt.to_kind):
                if kind not in self.kinds:
                    self.unknown(stmt.span, "piece kind", kind, self.kinds, "E032")
            if stmt.kind in self.kinds and stmt.to_kind in self.kinds:
                owners = {p for p, _, _ in self.kinds[stmt.to_kind].symbols}
                for player, _, _ in self.kinds[stmt.kind].symbols:
                    if player not in owners:
                        self.error(stmt.span, f"{player}'s {stmt.kind} cannot become a {stmt.to_kind}: piece "
                                   f"{stmt.to_kind} has no symbol for {player}", "E033",
                                   f"add {player} \"X\" to 'piece {stmt.to_kind}'")
            for region in (stmt.zone, stmt.forced_in):
                if region is not None and region not in self.regions():
                    self.unknown(stmt.span, "region", region, self.regions(), "E054")
            if stmt.zone is None and not self.has_forward:
                self.missing_forward(stmt.span, "'on far row' is measured along each player's forward direction")

    def player_ref(self, span: Span, name: str) -> None:
        roles = self.roles()
        if name == EACH_SEAT and name not in roles and name not in self.player_names:
            self.error(span, f"unknown player {name!r}: it names every player in turn only in a rule that gives "
                       "places", "E030", f"write e.g. '{EACH_SEAT} finishes if {EACH_SEAT} fills goal', or name "
                       "mover, opponent or a player")
        elif name not in roles and name not in self.player_names:
            self.unknown(span, "player", name, (*roles, *self.player_names), "E030")

    def roles(self) -> tuple[str, ...]:
        """The player words an end condition may use (``player`` too inside a rule for every seat)."""
        return (*ROLES, EACH_SEAT) if getattr(self, "each_seat", False) else ROLES

    def check_condition(self, expr: m.Expr) -> None:
        """Names, arguments and needs of an end condition (and the expressions inside it)."""
        ConditionChecks(self).visit(expr)

    def check_end(self) -> None:
        for block in self.resolved.of(m.End):
            for rule in block.rules:
                self.each_seat = rule.result in PLACINGS and rule.player == EACH_SEAT
                if rule.player is not None:
                    self.player_ref(rule.span, rule.player)
                if rule.result == "loses" and len(self.players) > 2:
                    self.error(rule.span, f"'{rule.player} loses' names no winner among "
                               f"{len(self.players)} players", "E077",
                               "say who wins instead, e.g. 'mover wins if ...'")
                self.check_condition(rule.condition)
                self.each_seat = False
            check_placings(self, block)

    def check_evaluate(self) -> None:
        for block in self.resolved.of(m.Evaluate):
            for feature in block.features:
                known = FEATURES.get(feature.name)
                if known is None:
                    self.unknown(feature.span, "evaluation feature", feature.name, FEATURES, "E081")
                    continue
                if feature.kind is not None:
                    if not known.takes_kind:
                        self.error(feature.span, f"{feature.name} takes no piece kind", "E080")
                    else:
                        self.check_piece(feature.span, feature.kind, None)
                if feature.name == "score" and not self.resolved.of(m.Score):
                    self.error(feature.span, "the feature 'score' needs a 'score' statement", "E133",
                               "add e.g. score white count(white), black count(black)")
                if known.needs_forward and not self.has_forward:
                    self.error(feature.span, f"{feature.name} needs a 'forward' statement", "E051")

    def check_guards(self) -> None:
        for stmt in self.resolved.statements:
            if stmt.guard is not None:
                self.check_names(stmt.guard, self.options)
            if isinstance(stmt, (m.Moves, m.Then)):
                for rule in stmt.rules:
                    if rule.guard is not None:
                        self.check_names(rule.guard, self.options)

    def check_examples(self) -> None:
        for example in self.resolved.examples:
            for setting in example.settings:
                name, expr = setting
                if name not in self.options:
                    self.unknown(getattr(setting, "span", example.span), "option", name, self.options, "E020")
                self.check_names(expr, self.options)

    # -- example settings, and what a file declares but never uses (warnings) ----------------------
    def check_example_settings(self) -> None:
        """Each ``with NAME = VALUE`` of an example fits the option's kind and range."""
        for example in self.resolved.examples:
            given: dict[str, tuple[object, m.Expr]] = {}
            for name, expr in example.settings:
                if name in self.options:
                    with contextlib.suppress(ExprError):  # reported by the name and type checks
                        given[name] = (evaluate(expr, {}), expr)
            try:
                values = fold_options(self.resolved.of(m.OptionDecl), given={k: v for k, (v, _) in given.items()})
            except ExprError:
                continue
            for name, (_, expr) in given.items():
                problem = option_problem(self.options[name], values)
                if problem:
                    self.error(expr.span, f"example {example.name!r}: {problem}", "E024",
                               option_hint(self.options[name], values))

    def check_names(self, expr: m.Expr, known) -> None:
        for ref in names_in(expr):
            if ref.name not in known:
                self.unknown(ref.span, "option", ref.name, [k for k in known if k not in ("col", "row")]
                             if known is not self.options else known, "E020")


def check(resolved) -> list[Diagnostic]:
    """Every static finding for a resolved rule file, sorted by place."""
    return [resolved.attach(d) for d in Checker(resolved).run()]


class ConditionChecks(m.ExprVisitor):
    """The checker's pass over one end-rule expression: one method per kind of node."""

    def __init__(self, checker: Checker):
        self.c = checker

    def visit(self, expr: m.Expr) -> None:
        super().visit(expr)
        condition = CONDITIONS.get(type(expr).__name__)
        if condition is not None and condition.needs_forward and not self.c.has_forward:
            self.c.missing_forward(expr.span, "this condition is measured along each player's forward direction")

    def visit_NameRef(self, expr: m.NameRef) -> None:
        if expr.name not in self.c.options and expr.name in SIDES:  # 'mover connects top and left and bottom'
            self.c.error(expr.span, f"{expr.name!r} is a side of the board, not a condition: 'connects' joins "
                         "exactly two sides", "E074", "write 'PLAYER connects SIDE and SIDE', one pair of sides "
                         "(e.g. mover connects top and bottom); a chain that touches three sides cannot be "
                         "written yet")
        elif expr.name not in self.c.options:
            self.c.unknown(expr.span, "option", expr.name, self.c.options, "E020")

    def visit_Call(self, expr: m.Call) -> None:
        c = self.c
        if expr.function not in FUNCTIONS:
            c.unknown(expr.span, "function", expr.function, FUNCTIONS, "E070")
        elif expr.function == "count":
            c.check_count_args(expr.span, expr.args, c.roles())
        elif expr.function == "attacked" and len(expr.args) != 2:
            c.error(expr.span, "attacked() takes a player and a piece kind", "E071")
        elif FUNCTIONS[expr.function].args == "PLAYER" and len(expr.args) != 1:
            c.error(expr.span, f"{expr.function}() takes one player", "E071", f"e.g. {expr.function}(mover)")
        elif not 1 <= len(expr.args) <= 2:
            c.error(expr.span, f"{expr.function}() takes a player and an optional piece kind", "E071")
        elif expr.function == "total" and len(expr.args) != 2:
            c.error(expr.span, "total() takes a player and a region: total(PLAYER REGION)", "E071")
        elif expr.function == "score" and len(expr.args) != 1:
            c.error(expr.span, "score() takes a player: score(PLAYER)", "E071")
        else:
            c.player_ref(expr.span, expr.args[0])
            if expr.function == "total":
                c.region_ref(expr.span, expr.args[1])
            elif len(expr.args) == 2:
                c.check_piece(expr.span, expr.args[1], None)

    def visit_PliesSince(self, expr: m.PliesSince) -> None:
        self.c.check_piece(expr.span, expr.kind, None)

    def visit_HasNone(self, expr: m.HasNone) -> None:
        c = self.c
        c.player_ref(expr.span, expr.player)
        if expr.kind == "moves" and "moves" not in c.kinds:
            c.error(expr.span, f"'{expr.player} has no moves' is not a condition: 'no moves' is said of "
                    "the player to move", "E073",
                    "write 'no moves' alone: after a move the player to move is the opponent")
        elif expr.kind != "pieces":
            c.check_piece(expr.span, expr.kind, None)

    def visit_InARow(self, expr: m.InARow) -> None:
        self.c.player_ref(expr.span, expr.player)
        self.visit(expr.length)
        length = expr.length
        if isinstance(length, m.Literal) and isinstance(length.value, int) and length.value < 1:
            self.c.error(length.span, "a row has at least 1 piece", "E072")

    def visit_Connects(self, expr: m.Connects) -> None:
        c = self.c
        c.player_ref(expr.span, expr.player)
        for side in expr.sides:
            if side.name not in SIDES:
                c.unknown(side.span, "side", side.name, SIDES, "E074")
        if expr.sides[0].name == expr.sides[1].name:
            c.error(expr.sides[1].span, "a chain joins two different sides", "E074", "e.g. connects top and bottom")
        c.check_dirs(expr.along)

    def visit_OneGroup(self, expr: m.OneGroup) -> None:
        self.c.player_ref(expr.span, expr.player)
        self.c.check_dirs(expr.directions)

    def visit_Joins(self, expr: m.Joins) -> None:
        self.c.player_ref(expr.span, expr.player)
        self.visit(expr.count)
        if isinstance(expr.count, m.Literal) and isinstance(expr.count.value, int) and expr.count.value < 1:
            self.c.error(expr.count.span, f"a group joins at least 1 of the board's {expr.what}", "E152",
                         f"e.g. joins 2 {expr.what}")

    def visit_BoardsInARow(self, expr: m.BoardsInARow) -> None:
        self.c.player_ref(expr.span, expr.player)
        self.visit(expr.length)
        length = expr.length
        if isinstance(length, m.Literal) and isinstance(length.value, int) and length.value < 1:
            self.c.error(length.span, "a row has at least 1 board", "E072")
        if not self.c.resolved.of(m.SmallBoards):
            self.c.error(expr.span, "'in a row of boards' needs small boards", "E153",
                         "add e.g. boards 3 x 3 won by 3 in a row")

    def visit_Ring(self, expr: m.Ring) -> None:
        self.c.player_ref(expr.span, expr.player)

    def visit_OnFarRow(self, expr: m.OnFarRow) -> None:
        self.c.player_ref(expr.span, expr.player)
        self.c.check_piece(expr.span, expr.kind, None)

    def visit_Fills(self, expr: m.Fills) -> None:
        self.c.player_ref(expr.span, expr.player)
        self.c.check_region_of(expr.span, expr.region, expr.player)

    def visit_Beyond(self, expr: m.Beyond) -> None:
        self.visit_OnFarRow(expr)
        self.c.player_ref(expr.span, expr.other)
        self.c.check_piece(expr.span, expr.other_kind, None)
