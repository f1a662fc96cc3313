"""Legal moves and their effects: the rules that filter and follow the move rules.

The move rules (:mod:`rulesdsl.interpreter.reference.movegen`) propose moves; here the
statements that judge them are applied, in this order: a go-again turn's
restriction (or the ``then`` part of a turn), ``freeze``, ``forbid repetition``, ``forbid suicide``,
``forbid immediate repetition``, ``must capture``, the optional pass of a go-again turn, and the
forced pass of ``pass when no moves``. ``apply`` writes a move's changes and decides who moves next
(go-again, which a promotion ends; pass), and keeps what the end rules and filters read (earlier
boards, passes in a row, the board before the ply).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import Value, evaluate
from rulesdsl.interpreter.compile.game import NO_CELL, PASS_ACTION, Move, State
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.reference.drops import DROP_ACTION, HandBook, compile_drops
from rulesdsl.interpreter.reference.endings import ConditionCompiler
from rulesdsl.interpreter.reference.groups import is_suicide
from rulesdsl.interpreter.reference.history import as_history
from rulesdsl.interpreter.reference.linking import linked
from rulesdsl.interpreter.reference.movegen import compile_player
from rulesdsl.interpreter.reference.passing import counts_passes, forbids, reads, recreates, remember
from rulesdsl.interpreter.reference.piece_legality import PieceRules
from rulesdsl.interpreter.reference.rows import run_length
from rulesdsl.interpreter.reference.walls import BUILD_ACTION, keep_filter, supply_filter

PASS_MOVE = Move(NO_CELL, NO_CELL, (), PASS_ACTION)


class Legality(NamedTuple):
    """The compiled move functions of one game."""

    raw: list[Callable[[str], list[Move]]]  # per player: what the move rules allow on a board
    threats: list[Callable[[str], set[int]]]  # per player: enemy cells its move rules could displace
    legal: Callable[[State], list[Move]]
    nobody_moves: Callable[[State], bool]
    apply: Callable[[State, Move], State]
    has_moves: Callable[[State], bool] | None = None  # bool(legal(state)), often without listing the moves
    pieces: PieceRules | None = None  # rules that ask about a piece's past and attacks (piece_legality.py)
    mobility: Callable[[State, int], int] | None = None  # the evaluation's count of a player's moves (below)


def board_after(board: str, move: Move) -> str:
    """The board with a move's changes written."""
    cells = list(board)
    for index, sym in move.changes:
        cells[index] = sym
    return "".join(cells)


def promotes(board: str, move: Move) -> bool:
    """True when the moving piece lands as another kind (``promote``): that ends the turn."""
    if move.origin == NO_CELL:
        return False
    piece = board[move.origin]
    return any(cell == move.target and sym != piece for cell, sym in move.changes)


def counts_quiet_plies(active) -> bool:
    """True when an end rule reads ``plies without capture`` (only then do states count them)."""
    def uses(expr) -> bool:
        if isinstance(expr, m.QuietPlies):
            return True
        children = [getattr(expr, name) for name in ("left", "right", "operand") if hasattr(expr, name)]
        return any(uses(e) for e in (*children, *getattr(expr, "items", ())))

    return any(uses(rule.condition) for end in active.all(m.End) for rule in end.rules)


def counts_turns_played(active) -> bool:
    """True when an end rule reads ``turns played`` (only then do states count turns)."""
    return any(isinstance(node, m.TurnsPlayed) for end in active.all(m.End) for rule in end.rules
               for node in m.walk(rule.condition))


class _Conditional(NamedTuple):
    """A move rule that holds only where its ``when`` condition does: the condition, moves per player."""

    holds: Callable
    moves: list[Callable[[str], list[Move]]]


def _no_moves_here(state: State) -> bool:
    """``nobody can move`` has no meaning inside a move rule's condition (the checker refuses it)."""
    raise RulesdslError("a move rule's condition cannot ask whether anybody can move")


def _none() -> list[Move]:
    """The moves thunk of a move rule's condition (``no moves`` is refused there by the checker)."""
    raise RulesdslError("a move rule's condition cannot ask about the moves themselves")


def _always(state: State, moves: Callable) -> bool:
    """The condition of a rule without ``when``."""
    return True


def compile_legality(active, tables: Tables, options: Mapping[str, Value],
                     start_board: Callable[[], str] | None = None) -> Legality:
    """Legal moves and ``apply`` for the active statements of a game."""
    nplayers = len(tables.player_names)
    next_player, opponent = tables.seats.next_player, tables.seats.opponent
    repetition = any(f.what == "repetition" for f in active.all(m.Forbid))
    keeps_history = repetition or reads(active, m.BoardRepeated)
    no_suicide, no_return = forbids(active, "suicide"), forbids(active, "immediate repetition")
    keeps_passes = counts_passes(active)
    corner_rule = any(f.what == "corner push-off" for f in active.all(m.Forbid))
    freeze = active.first(m.Freeze)
    again = active.first(m.Again)
    chains = again is not None and again.chain
    if chains:  # a whole chain is one move: no turn goes on after it
        again = None
    stuck_passes = bool(active.all(m.PassWhenStuck))
    must_capture = bool(active.all(m.MustCapture))
    most = any(s.most for s in active.all(m.MustCapture))
    landing = any(s.landing for s in active.all(m.MustCapture))
    counts_quiet = counts_quiet_plies(active)
    moves_stmt = active.first(m.Moves)
    every_rule = [r for r in (moves_stmt.rules if moves_stmt else ())
                  if r.guard is None or evaluate(r.guard, options)]
    pieces = PieceRules(active, tables, options, every_rule, start_board or (lambda: ""),
                        lambda rs, p: compile_player(rs, tables, p, corner_rule)[0])
    rules = [r for r in every_rule if r.when is None and not r.from_hand and not pieces.generates(r)]
    compiled = [compile_player(rules, tables, p, corner_rule, chains) for p in range(nplayers)]
    raw = [moves for moves, _ in compiled]
    threats = [found for _, found in compiled]
    then_stmt = active.first(m.Then)
    then_rules = [r for r in (then_stmt.rules if then_stmt else ())
                  if r.guard is None or evaluate(r.guard, options)]
    second = [compile_player([r for r in then_rules if r.when is None], tables, p, corner_rule)[0]
              for p in range(nplayers)] if then_stmt else []
    after = again.after if again else None
    # Rules that hold only in some positions ('when'), and placements from the hand (phase one).
    conditions = ConditionCompiler(tables, options, start_board or (lambda: ""), _no_moves_here)
    when_rules = [_Conditional(conditions.compile(r.when), [compile_player([r], tables, p, corner_rule)[0]
                                                            for p in range(nplayers)])
                  for r in every_rule if r.when is not None and not r.from_hand]
    when_second = [_Conditional(conditions.compile(r.when), [compile_player([r], tables, p, corner_rule)[0]
                                                             for p in range(nplayers)])
                   for r in then_rules if r.when is not None]
    hand_rules = [r for r in every_rule if r.from_hand and r.action != DROP_ACTION]
    drop_rules = [r for r in every_rule if r.action == DROP_ACTION]
    hands = HandBook(active, tables) if tables.hand_kinds and (drop_rules or active.all(m.CapturedToHand)) else None
    drops = compile_drops(drop_rules, tables, hands, conditions.compile) if hands is not None and drop_rules else None
    drop_mates = frozenset(sym for f in active.all(m.Forbid) if f.what == "drop mate"
                           for p in range(nplayers) for sym in tables.symbols_of(p, f.kind))
    from_hand = [compile_player(hand_rules, tables, p, corner_rule)[0] for p in range(nplayers)]
    hand_when = [(conditions.compile(r.when) if r.when is not None else None) for r in hand_rules]
    if any(c is not None for c in hand_when):
        from_hand_when = [_Conditional(c or _always, [compile_player([r], tables, p, corner_rule)[0]
                                                      for p in range(nplayers)])
                          for r, c in zip(hand_rules, hand_when)]
    else:
        from_hand_when = []
    has_hand = tables.hand_kind is not None and bool(hand_rules)
    after_row = int(evaluate(then_stmt.after_row, options)) if then_stmt and then_stmt.after_row else 0
    run = run_length(tables) if after_row else None
    counts_turns = counts_turns_played(active)
    nested = tables.nest is not None  # small boards: 'last' is the last placement's cell, kept across turns
    supply = supply_filter(active, tables)  # build from hand: by choice, while the hand lasts
    kept = keep_filter(active, conditions.compile, board_after)  # keep CONDITION after every move

    def in_hand_phase(state: State) -> bool:
        """The player to move still holds pieces: placing one is their only move."""
        return has_hand and state.last == NO_CELL and state.hand is not None and state.hand[state.turn] > 0

    def conditional(state: State, found: list[Move], extra: list[_Conditional]) -> list[Move]:
        """``found`` plus the moves of the rules whose ``when`` holds ('mover': the player to move)."""
        seen = state if state.last != NO_CELL else state._replace(last=0)
        more = [mv for rule in extra if rule.holds(seen, _none) for mv in rule.moves[state.turn](state.board)]
        return found + more if more else found

    def continues(move: Move) -> bool:
        return after is None or move.action == after or (after == "capture" and move.captures > 0)

    def frozen_cells(board: str, player: int) -> set[int]:
        return threats[opponent[player]](board)

    def gives_drop_mate(state: State, move: Move) -> bool:
        """``forbid dropping KIND giving mate``: a drop of KIND after which the other player cannot move, with
        a piece of a protected kind attacked where the game protects one."""
        if move.action != DROP_ACTION or move.changes[0][1] not in drop_mates:
            return False
        after = apply_rules(state, move)
        other = after.turn
        if pieces.protects:
            royal, attacked = pieces.royal[other], pieces.attacks.attacked
            if not any(attacked(after.board, c, state.turn) for c, s in enumerate(after.board) if s in royal):
                return False
        return not own_moves(after, judge=False)

    def own_moves(state: State, judge: bool = True, counting: bool = False) -> list[Move]:
        """The legal moves, before a forced pass (``judge=False``: without judging drops that give mate,
        when only whether the other player can answer is asked; ``counting``: without ``forbid repetition``
        and ``must capture``, the moves the evaluation's ``mobility`` counts)."""
        board, player = state.board, state.turn
        in_second_part = bool(second) and state.last != NO_CELL
        if in_hand_phase(state):
            moves = (conditional(state, [], from_hand_when) if from_hand_when else from_hand[player](board))
        elif in_second_part:
            moves = second[player](board, state.last)
            if when_second:
                moves = conditional(state, moves, when_second)
        else:
            moves = raw[player](board, state.last) if nested else raw[player](board)
            if pieces.active:
                moves = pieces.more_moves(state, moves)
            if when_rules:
                moves = conditional(state, moves, when_rules)
            if drops is not None:
                moves = drops(state, moves)
        continuing = again is not None and state.last != NO_CELL
        if continuing:
            moves = [mv for mv in moves if continues(mv) and (not again.same_piece or mv.origin == state.last)]
            if again.same_direction and state.heading >= 0:
                moves = [mv for mv in moves if mv.heading == state.heading]
            if again.new_cells:
                moves = [mv for mv in moves if not state.visited >> mv.target & 1]
        if supply is not None and moves:
            moves = supply(state, moves)
        if kept is not None and moves:
            moves = kept(state, moves)
        if freeze is not None and moves:
            frozen = frozen_cells(board, player)
            if frozen:
                if freeze.mode == "strict":
                    moves = [mv for mv in moves if frozen.isdisjoint(mv.moved)]
                else:
                    moves = [mv for mv in moves if mv.origin not in frozen]
        if repetition and moves and not counting:
            seen = state.history or frozenset()
            moves = [mv for mv in moves if mv.action == PASS_ACTION
                     or ((b := board_after(board, mv)) not in seen and b != board)]
        if no_suicide and moves:
            moves = [mv for mv in moves if not is_suicide(mv, tables.empty)]
        if no_return and moves and state.before is not None:
            moves = [mv for mv in moves if not recreates(board, mv, state.before)]
        if pieces.protects and moves:
            moves = pieces.keep_safe(board, player, moves)
        if drop_mates and moves and judge:
            moves = [mv for mv in moves if not gives_drop_mate(state, mv)]
        if must_capture and not counting:
            capturing = [mv for mv in moves if mv.captures and (not landing or board[mv.target] != tables.empty)]
            if most and capturing:
                best = max(mv.captures for mv in capturing)
                capturing = [mv for mv in capturing if mv.captures == best]
            moves = capturing or moves
        if continuing and again.may_pass:
            moves.append(PASS_MOVE)
        return moves

    # apply() finds the moves of a continuation (go-again, a turn's second part) to decide who
    # moves next; the caller's next question is usually for those very moves: keep them once.
    remembered: list = [None, None]

    # The last position whose moves legal() listed at the start of a turn, and those moves: where nothing that
    # mobility leaves out applies, they are what mobility counts for the player to move.
    listed: list = [None, None]
    same_count = not repetition and not must_capture

    def legal(state: State) -> list[Move]:
        if remembered[0] is state:
            moves = remembered[1]
            remembered[0] = remembered[1] = None
            return moves
        moves = own_moves(state)
        if same_count and state.last == NO_CELL:
            listed[0], listed[1] = state, len(moves)
        if not moves and stuck_passes:
            return [PASS_MOVE]
        return moves

    exists = [getattr(moves, "exists", None) for moves in raw]
    plain = (freeze is None and not repetition and not when_rules and not no_suicide and not no_return
             and not pieces.active and kept is None and supply is None and drops is None)

    def has_moves(state: State) -> bool:
        """Whether ``legal(state)`` is not empty; a plain position asks the move rules to stop at the first move."""
        if remembered[0] is state:
            return bool(remembered[1])
        if stuck_passes:
            return True
        if not plain or state.last != NO_CELL or in_hand_phase(state) or exists[state.turn] is None:
            return bool(own_moves(state))
        return exists[state.turn](state.board)

    def mobility(state: State, player: int) -> int:
        """How many moves ``player`` would have in ``state`` if it were to move at the start of a turn (the first
        part of a ``then`` turn, no go-again continuation): the legal moves as the kernel counts them, with
        ``freeze``, ``when``, hands, ``keep`` and the pieces' own rules, without ``forbid repetition``,
        ``must capture`` and a forced pass."""
        if player == state.turn and state.last == NO_CELL and listed[0] is state:
            return listed[1]
        if player != state.turn or state.last != NO_CELL or state.heading != -1 or state.visited:
            state = state._replace(turn=player, last=NO_CELL, heading=-1, visited=0)
        return len(own_moves(state, counting=True))

    def nobody_moves(state: State) -> bool:
        other = State(state.board, next_player[state.turn], NO_CELL, state.history, -1, 0, state.hand)
        return not own_moves(state) and not own_moves(other)

    def apply(state: State, move: Move) -> State:
        after = apply_rules(state, move)
        return pieces.after(state, move, after) if pieces.active else after

    def apply_rules(state: State, move: Move) -> State:
        board = board_after(state.board, move) if move.changes else state.board
        history = as_history(state.history).with_board(state.board) if keeps_history else None
        other = next_player[state.turn]
        quiet = (0 if move.captures else state.quiet + 1) if counts_quiet else 0
        hand, turns = state.hand, state.turns
        if hand is not None and (move.action == "place" and in_hand_phase(state)
                                 or move.action == BUILD_ACTION and supply is not None):
            hand = hand[:state.turn] + (hand[state.turn] - 1,) + hand[state.turn + 1:]
        elif hand is not None and hands is not None:
            hand = hands.after(state, move, hand)
        passed = turns + 1 if counts_turns else 0  # the turns played once the other player is to move
        if move.action == PASS_ACTION:
            return State(board, other, NO_CELL, history, -1, quiet, hand, passed)
        if move.bonus:  # the move earns the mover another turn (``again in``, ``enclosing ... again``)
            return State(board, state.turn, NO_CELL, history, -1, quiet, hand, turns)
        if second and state.last == NO_CELL and (run is None or run(board, move.target) >= after_row):
            cont = State(board, state.turn, move.target, history, -1, quiet, hand, turns)
            found = own_moves(cont)
            if found:
                remembered[0], remembered[1] = cont, found
                return cont
        if again is not None and continues(move) and not promotes(state.board, move):
            visited = visited_after(state, move) if again.new_cells else 0
            cont = State(board, state.turn, move.target, history, move.heading if again.same_direction else -1, quiet,
                         hand, turns, visited=visited)
            found = legal(cont)
            if any(mv.action != PASS_ACTION for mv in found):
                remembered[0], remembered[1] = cont, found
                return cont
        return State(board, other, move.target if nested else NO_CELL, history, -1, quiet, hand, passed)

    if keeps_passes or no_return:  # the pass count and the board before the ply, kept beside the rest
        plain_apply = apply

        def apply(state: State, move: Move) -> State:  # noqa: F811
            return remember(state, plain_apply(state, move), move, keeps_passes, no_return)

    if tables.linking is not None:  # the links between pieces, kept beside the board (interpreter/reference/linking.py)
        apply = linked(apply, tables.linking)

    return Legality(raw, threats, legal, nobody_moves, apply, has_moves, pieces, mobility)


def visited_after(state: State, move: Move) -> int:
    """The cells a ``to new cells`` turn has stood on once ``move`` is made (where it began, then each landing)."""
    before = state.visited if state.last != NO_CELL else 0
    return before | 1 << move.origin | 1 << move.target
