"""Move rules compiled to closures: ``gen(board, out)`` appends pseudo-legal moves.

Each building block (step, slide, jump, push) is resolved per player when the
game is compiled: direction names become neighbour tables, piece kinds become
symbol sets. The closures only index strings and tuples.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from rulesdsl import model as m
from rulesdsl.errors import RulesdslError
from rulesdsl.expr import evaluate
from rulesdsl.interpreter.compile.cells import cells_with
from rulesdsl.interpreter.compile.game import NO_CELL, Move
from rulesdsl.interpreter.compile.tables import Tables
from rulesdsl.interpreter.reference.boxes import compile_region_place
from rulesdsl.interpreter.reference.chains import compile_jumps
from rulesdsl.interpreter.reference.custodial import custodial
from rulesdsl.interpreter.reference.groups import enclosing_placement
from rulesdsl.interpreter.reference.nested import nested_placement
from rulesdsl.interpreter.reference.passing import gen_pass
from rulesdsl.interpreter.reference.rows import run_length
from rulesdsl.interpreter.reference.sowing import compile_sow
from rulesdsl.interpreter.reference.swapping import swapping
from rulesdsl.interpreter.reference.turning import compile_turn
from rulesdsl.interpreter.reference.walls import building, walking

Generator = Callable[[str, list[Move]], None]
# The actions compile_rule generates moves for: one per action of rulesdsl.vocabulary.ACTIONS
# (tests/test_vocabulary.py checks it). Anything else is an error, never a fall-through.
ACTIONS = ("step", "slide", "jump", "push", "place", "fly", "remove", "sow", "pass", "turn", "walk", "build", "drop",
           "swap")


def compile_rule(rule: m.MoveRule, tables: Tables, player: int, corner_rule: bool) -> Generator:
    """One move rule for one player, as a generator closure."""
    if rule.action not in ACTIONS:
        raise RulesdslError(f"no move generator for the action {rule.action!r}", rule.span)
    if rule.custodial:  # the rule's moves, each taking the enemy pieces it sandwiches
        return custodial(compile_rule(replace(rule, custodial=()), tables, player, corner_rule), rule, tables, player)
    if rule.action == "pass":
        return gen_pass
    if rule.action == "drop":  # drops depend on the hand, not the board alone (interpreter/reference/drops.py)
        return _nothing
    if rule.action == "sow":
        return compile_sow(rule, tables, player)
    if rule.action == "place" and (rule.region or rule.enclose) and not rule.reach:
        return compile_region_place(rule, tables, player)
    if rule.action == "walk":
        return walking(rule, tables, player)
    if rule.action == "build":
        return building(rule, tables, player)
    if rule.action == "swap":
        return swapping(rule, tables, player)
    if rule.action == "place" and rule.enclosing:
        return enclosing_placement(rule, tables, player)
    if rule.action == "place" and tables.nest is not None:  # small boards: only where one may go now
        symbols = [tables.symbols_of(p) for p in range(len(tables.player_names))]
        return nested_placement(_placement(rule, tables, player), tables.nest, tables.empty, symbols, rule.sent)
    if rule.action == "place":  # a placement puts down a new piece: its own or a neutral one
        return _placement_from_last(rule, tables, player) if rule.reach else _placement(rule, tables, player)
    if rule.action == "fly":
        return _fly(rule, tables, player)
    if rule.action == "remove":
        return _removal(rule, tables, player)
    if rule.action == "turn":
        return compile_turn(rule, tables.blocks, tables.geometry)
    movers = tables.symbols_of(player, rule.kind)
    if not movers:  # the player has no such piece: nothing to move (and no forward needed)
        return _nothing
    mine = tables.symbols_of(player)
    theirs = tables.enemy_symbols(player)
    empty = tables.empty
    vectors = tables.vectors(rule.directions, player)
    rays = [tables.neighbours(v) for v in vectors]
    cells = range(tables.cell_count)
    targets = set(rule.targets or ("empty",))
    may_capture_onto = "enemy" in targets
    may_enter_empty = "empty" in targets
    action = rule.action
    promoted = tables.promotions
    far = tables.far_cells(player) if promoted else frozenset()

    if action == "slide" and (rule.over or rule.by_line):
        return _slide_over(rule, tables, player, movers, mine, theirs, rays, vectors)

    located = _locator(movers, cells)

    if action in ("step", "slide"):
        sliding = action == "slide"

        def step_rays(sym: str, c: int) -> list[list[tuple[int, Move | None, Move | None]]]:
            """From ``c``, per direction, the cells in reach with the quiet and the capturing move to each."""
            found = []
            for ray in rays:
                steps = []
                t = ray[c]
                while t >= 0:
                    put = promoted.get(sym, sym) if t in far else sym
                    changes = ((c, empty), (t, put))
                    steps.append((t, Move(c, t, changes, action, (c,)) if may_enter_empty else None,
                                  Move(c, t, changes, action, (c,), (t,), 1) if may_capture_onto else None))
                    if not sliding:
                        break
                    t = ray[t]
                if steps:
                    found.append(steps)
            return found

        reach = _lazy_tables(movers, cells)

        def gen_step(board: str, out: list[Move]) -> None:
            for c in located(board):
                sym = board[c]
                per_cell = reach[sym]
                cell_rays = per_cell[c]
                if cell_rays is None:
                    cell_rays = per_cell[c] = step_rays(sym, c)
                for steps in cell_rays:
                    for t, quiet, capturing in steps:
                        there = board[t]
                        if there == empty:
                            if quiet is not None:
                                out.append(quiet)
                        else:
                            if capturing is not None and there in theirs:
                                out.append(capturing)
                            break

        return gen_step

    if action == "jump" and rule.flying:
        return compile_jumps([rule], tables, player, chains=False)

    if action == "jump":
        over = {"enemy": theirs, "friend": mine, "any": frozenset(tables.owner)}[rule.over or "enemy"]
        capture = rule.capture
        headed = [(ray, tables.heading(v)) for ray, v in zip(rays, vectors)]

        def jump_move(sym: str, c: int, mid: int, t: int, heading: int) -> Move:
            put = promoted.get(sym, sym) if t in far else sym
            if capture:
                return Move(c, t, ((c, empty), (mid, empty), (t, put)), action, (c,), (mid,), 1, (), heading)
            return Move(c, t, ((c, empty), (t, put)), action, (c,), heading=heading)

        def jump_targets(sym: str, c: int) -> list[tuple[int, int, Move]]:
            """From ``c``: (jumped cell, landing cell, the move) for each direction that stays on the board."""
            found = []
            for ray, heading in headed:
                mid = ray[c]
                t = ray[mid] if mid >= 0 else -1
                if t >= 0:
                    found.append((mid, t, jump_move(sym, c, mid, t, heading)))
            return found

        landing = _lazy_tables(movers, cells)
        # Seen from the landing cell: when the board has fewer empty cells than movers (early in
        # Konane, say), look from each empty cell back along every direction instead.
        single = next(iter(movers)) if len(movers) == 1 else None
        back = [[-1] * len(cells) for _ in rays]
        for di, ray in enumerate(rays):
            for c in cells:
                if ray[c] >= 0:
                    back[di][ray[c]] = c
        arriving: list = [None] * len(cells)

        def arrivals(t: int) -> list[tuple[int, int, int, Move]]:
            """Into ``t``: (generation rank, origin, jumped cell, the move) for each direction."""
            found = []
            for di in range(len(rays)):
                mid = back[di][t]
                c = back[di][mid] if mid >= 0 else -1
                if c >= 0:
                    found.append((c * len(rays) + di, c, mid, jump_move(single, c, mid, t, headed[di][1])))
            return found

        def gen_jump(board: str, out: list[Move]) -> None:
            if single is not None and board.count(empty) < board.count(single):
                found = []
                t = board.find(empty)
                while t >= 0:
                    into = arriving[t]
                    if into is None:
                        into = arriving[t] = arrivals(t)
                    for rank, c, mid, move in into:
                        if board[c] == single and board[mid] in over:
                            found.append((rank, move))
                    t = board.find(empty, t + 1)
                found.sort()  # the order the piece-by-piece scan below gives
                out.extend(move for _, move in found)
                return
            for c in located(board):
                sym = board[c]
                per_cell = landing[sym]
                targets = per_cell[c]
                if targets is None:
                    targets = per_cell[c] = jump_targets(sym, c)
                for mid, t, move in targets:
                    if board[t] == empty and board[mid] in over:
                        out.append(move)

        return gen_jump

    if action != "push":
        raise RulesdslError(f"no move generator for the action {action!r}", rule.span)
    # push: a line of own pieces moves one cell, shoving a shorter enemy line.
    low, high = rule.line or (1, None)
    corners = set(tables.geometry.corners()) if corner_rule else set()
    outward = {c: tables.geometry.outward(c) for c in corners}
    directed = list(enumerate(zip(rays, vectors)))
    # A push is decided by its cell, direction and the two line lengths (and, when a side has
    # several symbols, which ones): the move is built once and then reused.
    plain = len(mine) == 1 and len(theirs) <= 1
    made: dict[tuple, Move] = {}

    # per cell: (direction index, ray, vector, first cell) for each direction that stays on the board
    around = [[(di, ray, vector, ray[c]) for di, (ray, vector) in directed if ray[c] >= 0] for c in cells]
    widest = high if high is not None else tables.cell_count

    def build(board: str, c: int, ray: tuple[int, ...], k: int, pushed: list[int]) -> Move:
        line = [c]
        while len(line) < k:
            line.append(ray[line[-1]])
        seq = line + pushed
        end = ray[seq[-1]]
        if end >= 0:
            seq.append(end)
        changes = [(seq[0], empty)] + [(seq[i], board[seq[i - 1]]) for i in range(1, len(seq))]
        return Move(c, ray[c], tuple(changes), action, tuple(line), tuple(pushed), 1 if end < 0 else 0)

    def scan_push(board: str, out: list[Move] | None, threats: set[int] | None) -> None:
        for c in located(board):
            for di, ray, vector, t in around[c]:
                if board[t] == empty:  # the commonest case: one piece steps into an empty cell
                    if out is not None and low <= 1:
                        key = (c, di, 1, 0) if plain else (c, di, 1, 0, board[c])
                        move = made.get(key)
                        if move is None:
                            move = made[key] = build(board, c, ray, 1, [])
                        out.append(move)
                    continue
                k = 1
                while t >= 0 and board[t] in mine:
                    k += 1
                    if k > widest:
                        break
                    t = ray[t]
                if k < low or k > widest or t < 0:
                    continue
                pushed: list[int] = []
                if board[t] != empty:
                    u = t
                    while u >= 0 and board[u] in theirs:
                        pushed.append(u)
                        u = ray[u]
                    if len(pushed) >= k or (u >= 0 and board[u] != empty):
                        continue
                    if u < 0 and pushed[-1] in corners and outward[pushed[-1]] == vector:
                        continue
                elif out is None:
                    continue
                if out is None:
                    threats.update(pushed)
                    continue
                key = (c, di, k, len(pushed))
                if not plain:
                    key += (_line_symbols(board, ray, c, k), tuple(board[x] for x in pushed))
                move = made.get(key)
                if move is None:
                    move = made[key] = build(board, c, ray, k, pushed)
                out.append(move)

    def gen_push(board: str, out: list[Move]) -> None:
        scan_push(board, out, None)

    gen_push.threats = lambda board, acc: scan_push(board, None, acc)  # type: ignore[attr-defined]
    return gen_push


def _locator(movers: frozenset[str], cells: range) -> Callable[[str], list[int]]:
    """``board -> cells holding a mover``, in cell order (``str.find`` when there is one symbol)."""
    if len(movers) == 1:
        (sym,) = movers
        return partial(cells_with, sym=sym)
    return lambda board: [c for c in cells if board[c] in movers]


def _lazy_tables(movers: frozenset[str], cells: range) -> dict[str, list]:
    """Per mover symbol, one slot per cell (``None`` until the generator first needs it)."""
    return {sym: [None] * len(cells) for sym in movers}


def _line_symbols(board: str, ray: tuple[int, ...], c: int, k: int) -> tuple[str, ...]:
    """The symbols of the ``k`` cells from ``c`` along ``ray``."""
    out = []
    for _ in range(k):
        out.append(board[c])
        c = ray[c]
    return tuple(out)


def _nothing(board: str, out: list[Move]) -> None:
    """The generator of a rule whose piece kind the player does not have."""


def _slide_over(rule: m.MoveRule, tables: Tables, player: int, movers: frozenset[str], mine: frozenset[str],
                theirs: frozenset[str], rays: list[tuple[int, ...]], vectors: list) -> Generator:
    """A slide that passes over pieces (``over friend``...) or goes an exact distance (``by pieces in line``).

    With ``by pieces in line`` the piece moves exactly as many cells as there are
    pieces, of both players and itself included, on the whole line through it
    along that direction (both ways). The cells passed must be empty or, with
    ``over``, hold a piece of that class; the landing cell must be empty or, with
    ``to enemy``, an enemy piece, which is captured.
    """
    empty = tables.empty
    if rule.over == "one":
        return _slide_over_screen(rule, tables, movers, theirs, rays)
    passable = {None: frozenset(), "friend": mine, "enemy": theirs,
                "any": frozenset(tables.owner)}[rule.over] | {empty}
    targets = set(rule.targets or ("empty",))
    may_capture_onto = "enemy" in targets
    may_enter_empty = "empty" in targets
    backs = [tables.neighbours((-v[0], -v[1])) for v in vectors]
    by_line = rule.by_line
    cells = range(tables.cell_count)

    def gen_slide_over(board: str, out: list[Move]) -> None:
        for c in cells:
            piece = board[c]
            if piece not in movers:
                continue
            for ray, back in zip(rays, backs):
                if by_line:
                    distance = 1
                    for table in (ray, back):
                        t = table[c]
                        while t >= 0:
                            distance += board[t] != empty
                            t = table[t]
                else:
                    distance = 0  # any distance
                t, i = ray[c], 1
                while t >= 0:
                    there = board[t]
                    if not distance or i == distance:
                        if there == empty and may_enter_empty:
                            out.append(Move(c, t, ((c, empty), (t, piece)), "slide", (c,)))
                        elif there in theirs and may_capture_onto:
                            out.append(Move(c, t, ((c, empty), (t, piece)), "slide", (c,), (t,), 1))
                        if distance:
                            break
                    if there not in passable:
                        break
                    t, i = ray[t], i + 1

    return gen_slide_over


def _slide_over_screen(rule: m.MoveRule, tables: Tables, movers: frozenset[str], theirs: frozenset[str],
                       rays: list[tuple[int, ...]]) -> Generator:
    """``slide DIRS over one``: along each direction, over empty cells to exactly one piece of either side (the
    screen), past it, and on over empty cells; lands on those (``to empty``) or on the first piece beyond it, if an
    enemy's (``to enemy``, ``taking KIND``: only one of KIND), which is captured."""
    empty = tables.empty
    targets = set(rule.targets or ("empty",))
    may_enter_empty, may_capture_onto = "empty" in targets, "enemy" in targets
    victims = theirs if rule.taking is None else frozenset(x for x in theirs if tables.kind.get(x) == rule.taking)
    cells = range(tables.cell_count)

    def gen_slide_over_screen(board: str, out: list[Move]) -> None:
        for c in cells:
            piece = board[c]
            if piece not in movers:
                continue
            for ray in rays:
                t = ray[c]
                while t >= 0 and board[t] == empty:
                    t = ray[t]
                if t < 0:
                    continue
                t = ray[t]  # past the screen
                while t >= 0 and board[t] == empty:
                    if may_enter_empty:
                        out.append(Move(c, t, ((c, empty), (t, piece)), "slide", (c,)))
                    t = ray[t]
                if t >= 0 and may_capture_onto and board[t] in victims:
                    out.append(Move(c, t, ((c, empty), (t, piece)), "slide", (c,), (t,), 1))

    return gen_slide_over_screen


def _placement(rule: m.MoveRule, tables: Tables, player: int) -> Generator:
    """``place KIND [falling DIR] [flanking DIRS]``: a new piece on an empty cell.

    ``falling``: only where the piece comes to rest. ``flanking``: only where,
    along some of the directions, a run of enemy pieces ends at one of the
    mover's; every such run turns into the mover's pieces (of the same kind
    where the mover has that kind).
    """
    sym = tables.placed_symbol(player, rule.kind)
    empty = tables.empty
    cells = range(tables.cell_count)
    below = tables.neighbours(tables.vectors((rule.falling,), player)[0]) if rule.falling else None
    flank_rays = [tables.neighbours(v) for v in tables.vectors(rule.flanking, player)]
    mine = tables.symbols_of(player)
    theirs = tables.enemy_symbols(player)
    turned = {s: tables.symbol.get((player, tables.kind[s]), sym) for s in theirs}
    plain = [Move(NO_CELL, t, ((t, sym),), "place") for t in cells] if sym is not None else []

    def gen_place(board: str, out: list[Move]) -> None:
        if sym is None:
            return
        if below is None and not flank_rays:  # any empty cell, found with str.find
            t = board.find(empty)
            while t >= 0:
                out.append(plain[t])
                t = board.find(empty, t + 1)
            return
        for t in cells:
            if board[t] != empty:
                continue
            if below is not None and below[t] >= 0 and board[below[t]] == empty:
                continue  # it would fall further
            if not flank_rays:
                out.append(plain[t])
                continue
            flipped: list[int] = []
            for ray in flank_rays:
                run: list[int] = []
                u = ray[t]
                while u >= 0 and board[u] in theirs:
                    run.append(u)
                    u = ray[u]
                if run and u >= 0 and board[u] in mine:
                    flipped.extend(run)
            if flipped:
                changes = ((t, sym), *((c, turned[board[c]]) for c in flipped))
                out.append(Move(NO_CELL, t, changes, "place", (), tuple(flipped)))

    if sym is None:
        gen_place.exists = lambda board: False  # type: ignore[attr-defined]
    elif below is None and not flank_rays:
        gen_place.exists = lambda board: empty in board  # type: ignore[attr-defined]
    return gen_place


def _placement_from_last(rule: m.MoveRule, tables: Tables, player: int) -> Generator:
    """``place KIND from last step|slide DIRS``: a new piece on a cell that a step or slide
    from the cell the turn continues from would reach (an arrow shot from a queen that just moved).

    The generator takes that cell as a third argument (``needs_last``); the move's
    origin is that cell, so ``from`` in the notation names it.
    """
    sym = tables.placed_symbol(player, rule.kind)
    empty = tables.empty
    rays = [tables.neighbours(v) for v in tables.vectors(rule.directions, player)]
    sliding = rule.reach == "slide"

    def gen_shot(board: str, out: list[Move], last: int = NO_CELL) -> None:
        if sym is None or last == NO_CELL:
            return
        for ray in rays:
            t = ray[last]
            while t >= 0 and board[t] == empty:
                out.append(Move(last, t, ((t, sym),), "place"))
                if not sliding:
                    break
                t = ray[t]

    gen_shot.needs_last = True  # type: ignore[attr-defined]
    return gen_shot


def _fly(rule: m.MoveRule, tables: Tables, player: int) -> Generator:
    """``fly KIND``: a piece of KIND moves to any empty cell of the board."""
    movers = tables.symbols_of(player, rule.kind)
    empty = tables.empty
    located = _locator(movers, range(tables.cell_count)) if movers else None

    def gen_fly(board: str, out: list[Move]) -> None:
        if located is None:
            return
        for c in located(board):
            sym = board[c]
            t = board.find(empty)
            while t >= 0:
                out.append(Move(c, t, ((c, empty), (t, sym)), "fly", (c,)))
                t = board.find(empty, t + 1)

    return gen_fly


def _removal(rule: m.MoveRule, tables: Tables, player: int) -> Generator:
    """``remove KIND [except N in a row]``: an enemy piece of KIND leaves the board.

    With ``except``, pieces standing in N in a row (of their owner's pieces)
    are spared, unless every enemy piece of KIND is: then any may go.
    """
    victims = frozenset(s for s in tables.enemy_symbols(player) if tables.kind[s] == rule.kind)
    empty = tables.empty
    cells = range(tables.cell_count)
    made = [Move(NO_CELL, t, ((t, empty),), "remove", (), (t,), 1) for t in cells]
    spared_at = int(evaluate(rule.spared, tables.options)) if rule.spared is not None else 0
    run = run_length(tables) if spared_at else None

    def gen_remove(board: str, out: list[Move]) -> None:
        found = [c for c in cells if board[c] in victims]
        if run is not None:
            free = [c for c in found if run(board, c) < spared_at]
            found = free or found
        out.extend(made[c] for c in found)

    return gen_remove


def compile_player(rules: list[m.MoveRule], tables: Tables, player: int, corner_rule: bool,
                   chains: bool = False) -> tuple[Callable[[str], list[Move]], Callable[[str], set[int]]]:
    """A player's move rules, compiled once, as ``(moves, threats)``.

    ``moves(board, last)`` lists every move the rules allow (``last``: the cell a
    turn continues from, for placements ``from last``); ``moves.exists(board)``
    says whether there is one, without listing them all. ``threats(board)`` is
    the set of enemy cells those moves could displace: pushes have a fast path
    that builds no moves; other rules are generated and their displaced cells
    collected. With ``chains``, the capturing jumps are whole capture chains,
    each one move (:mod:`rulesdsl.interpreter.reference.chains`).
    """
    chained = [r for r in rules if chains and r.action == "jump" and r.capture]
    generators = [compile_rule(rule, tables, player, corner_rule) for rule in rules if rule not in chained]
    if chained:
        generators.append(compile_jumps(chained, tables, player, chains=True))
    fast = [getattr(gen, "threats", None) for gen in generators]
    with_last = [getattr(gen, "needs_last", False) for gen in generators]

    # The same board is often asked twice in a row (the legal moves, then the evaluation's
    # mobility; the freeze rule, then the evaluation's threats): remember the last answer.
    last_moves: list = [None, NO_CELL, []]
    last_threats: list = [None, set()]

    def moves(board: str, last: int = NO_CELL) -> list[Move]:
        if last_moves[0] is board and last_moves[1] == last:
            return list(last_moves[2])
        out: list[Move] = []
        for gen, needs in zip(generators, with_last):
            if needs:
                gen(board, out, last)  # type: ignore[call-arg]
            else:
                gen(board, out)
        last_moves[:] = board, last, out
        return list(out)

    quick_exists = [getattr(gen, "exists", None) for gen in generators]

    def exists(board: str) -> bool:
        """True when the rules allow at least one move on ``board`` (stops at the first rule that has one)."""
        if last_moves[0] is board and last_moves[1] == NO_CELL:
            return bool(last_moves[2])
        for gen, needs, quick in zip(generators, with_last, quick_exists):
            if quick is not None:
                if quick(board):
                    return True
                continue
            out: list[Move] = []
            if needs:
                gen(board, out, NO_CELL)  # type: ignore[call-arg]
            else:
                gen(board, out)
            if out:
                return True
        return False

    moves.exists = exists  # type: ignore[attr-defined]

    def threats(board: str) -> set[int]:
        """The enemy cells this player's moves could displace (a shared set: do not change it)."""
        if last_threats[0] is board:
            return last_threats[1]
        found = threats_of(board)
        last_threats[:] = board, found
        return found

    generic_only = all(quick is None for quick in fast) and not any(with_last)

    def threats_of(board: str) -> set[int]:
        found: set[int] = set()
        if generic_only:  # the moves themselves say what they displace (and are often remembered)
            for move in moves(board):
                if move.displaced:
                    found.update(move.displaced)
            return found
        for gen, quick in zip(generators, fast):
            if quick is not None:
                quick(board, found)
                continue
            out: list[Move] = []
            gen(board, out)
            for move in out:
                found.update(move.displaced)
        return found

    return moves, threats
