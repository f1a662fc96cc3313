"""The strong solver: values, remoteness and position counts.

The Konane figures are those of an independent solver quoted in issue 10.
The whole-graph checks compare the counting retrograde solver with a plain
sweep written here from the definitions, position by position.
"""

from __future__ import annotations

import importlib
import json
import random
import sqlite3

import numpy as np
import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.solver import SolveError, solve, solve_all
from rulesdsl.interpreter.solver.encoding import PositionCodec
from rulesdsl.interpreter.solver.successors import Expander, reference_children
from rulesdsl.interpreter.solver.tiers import adds_pieces

explore_module = importlib.import_module("rulesdsl.interpreter.solver.explore")
retrograde_module = importlib.import_module("rulesdsl.interpreter.solver.retrograde")
NAMES = {1: "win", 2: "lose", 3: "draw"}


@pytest.mark.parametrize(("name", "options", "value", "remoteness", "positions"), [
    ("konane", {}, "win", 11, 48),
    ("konane", {"rows": "4", "cols": "4"}, "lose", 13, 3961),
    ("konane-misere", {"rows": "4", "cols": "4"}, "lose", 17, None),
    ("konane", {"rows": "4", "cols": "5"}, "lose", 12, 52050),
])
def test_konane_starts_agree_with_the_independent_solver(name, options, value, remoteness, positions):
    game = load_game(name, options)
    solution = solve(game, game.initial_state(), use_db=False, workers=2)
    assert (solution.value, solution.remoteness) == (value, remoteness)
    if positions is not None:
        assert solution.positions == positions


def sweep_by_definition(game, root):
    """Every reachable position's (value, remoteness), by the issue's definitions, one sweep per remoteness."""
    children, result, queue = {}, {}, [root]
    seen = {root}
    while queue:
        state = queue.pop()
        moves, outcome = game.status(state)
        if outcome is not None:
            result[state] = ("draw", None) if outcome.winner is None else (
                "win" if outcome.winner == state.turn else "lose", 0)
            continue
        children[state] = [game.apply(state, m) for m in moves]
        for child in children[state]:
            if child not in seen:
                seen.add(child)
                queue.append(child)
    level = 0
    while True:
        level += 1
        fresh = {}
        for state, kids in children.items():
            if state in result:
                continue
            seen_from_me = []
            for kid in kids:
                if kid in result:
                    value, rem = result[kid]
                    if value != "draw" and kid.turn != state.turn:
                        value = "lose" if value == "win" else "win"
                    seen_from_me.append((value, rem))
                else:
                    seen_from_me.append(None)
            if ("win", level - 1) in seen_from_me:
                fresh[state] = ("win", level)
            elif all(v is not None and v[0] == "lose" for v in seen_from_me):
                fresh[state] = ("lose", level)
        if not fresh:
            break
        result.update(fresh)
    for state in children:
        result.setdefault(state, ("draw", None))
    return result


@pytest.mark.parametrize(("name", "options"), [
    ("konane", {"rows": "3", "cols": "4"}),
    ("konane-misere", {"rows": "4", "cols": "3"}),
    ("abalone", {"rows": "3", "cols": "3", "captures": "2", "freeze": "off"}),  # positions repeat
    ("abalone", {"rows": "3", "cols": "3", "captures": "1", "misere": "true"}),
])
def test_every_position_agrees_with_a_sweep_by_the_definitions(name, options):
    game = load_game(name, options)
    root = game.initial_state()
    expected = sweep_by_definition(game, root)
    codec = PositionCodec(game)
    keys, value, remoteness = solve_all(game, root)
    assert len(keys) == len(expected)
    got = {}
    for key, v, r in zip(keys.tolist(), value.tolist(), remoteness.tolist()):
        got[codec.decode(key)] = (NAMES[v], None if v == 3 else r)
    assert got == expected


@pytest.mark.parametrize(("name", "options"), [
    ("konane-misere", {"rows": "4", "cols": "3"}),
    ("abalone", {"rows": "3", "cols": "3", "captures": "2", "freeze": "off"}),
])
def test_small_blocks_and_rewritten_move_files_change_nothing(monkeypatch, name, options):
    # Blocks of 7 positions: many blocks, and the moves file is rewritten as positions are decided.
    monkeypatch.setattr(retrograde_module, "BLOCK", 7)
    monkeypatch.setattr(retrograde_module, "INDEX_BLOCK", 100)
    compactions = []
    real = retrograde_module._compact
    monkeypatch.setattr(retrograde_module, "_compact", lambda *a: compactions.append(1) or real(*a))
    game = load_game(name, options)
    root = game.initial_state()
    expected = sweep_by_definition(game, root)
    codec = PositionCodec(game)
    keys, value, remoteness = solve_all(game, root)
    got = {codec.decode(k): (NAMES[v], None if v == 3 else r)
           for k, v, r in zip(keys.tolist(), value.tolist(), remoteness.tolist())}
    assert got == expected
    assert compactions


def test_parallel_workers_give_the_same_graph(monkeypatch):
    monkeypatch.setattr(explore_module, "PARALLEL_FROM", 1)
    monkeypatch.setattr(explore_module, "CHUNK", 50)
    game = load_game("konane", {"rows": "4", "cols": "4"})
    one, two = solve_all(game, game.initial_state(), workers=1), solve_all(game, game.initial_state(), workers=2)
    assert [part.tolist() for part in one] == [part.tolist() for part in two]


def test_tiers_with_as_many_pieces_are_solved_side_by_side_with_the_same_result(monkeypatch):
    schedule = importlib.import_module("rulesdsl.interpreter.solver.schedule")
    monkeypatch.setattr(schedule, "SIDE_BY_SIDE_FROM", 0)  # this game's tiers are small
    groups = []
    real = schedule._side_by_side
    monkeypatch.setattr(schedule, "_side_by_side", lambda group, *rest: groups.append(len(group)) or real(group, *rest))
    game = load_game("abalone", {"rows": "3", "cols": "3", "captures": "2", "freeze": "off"})
    root = game.initial_state()
    expected = sweep_by_definition(game, root)
    codec = PositionCodec(game)
    keys, value, remoteness = solve_all(game, root, workers=2)
    assert groups and max(groups) >= 2  # two tiers with as many pieces in all: neither reaches the other
    got = {codec.decode(k): (NAMES[v], None if v == 3 else r)
           for k, v, r in zip(keys.tolist(), value.tolist(), remoteness.tolist())}
    assert got == expected


def test_tic_tac_toe_places_pieces_so_it_is_one_tier_and_a_draw():
    # 5,478: the well-known count of tic-tac-toe positions reachable from the empty board.
    game = load_game("tic-tac-toe", {})
    assert adds_pieces(game)
    solution = solve(game, game.initial_state(), use_db=False, workers=1)
    assert (solution.value, solution.remoteness, solution.positions) == ("draw", None, 5478)


@pytest.mark.parametrize("name", ["konane", "abalone", "abalone-hex"])
def test_games_whose_moves_only_remove_pieces_split_into_tiers(name):
    assert not adds_pieces(load_game(name, {}))


@pytest.mark.parametrize("options", [
    {"rows": "3", "cols": "4", "captures": "1"},
    {"rows": "3", "cols": "4", "captures": "2", "freeze": "off", "misere": "true"},
    {"rows": "4", "cols": "3", "captures": "2", "freeze": "loose"},
])
def test_child_keys_computed_from_the_parent_key_agree_with_apply(options):
    game = load_game("abalone", options)
    codec = PositionCodec(game)
    expander = Expander(game, codec)
    assert expander.plain
    expander.bitboards = None  # this test is about the key arithmetic of the string path
    layer, seen = [game.initial_state()], set()
    while len(seen) < 3000 and layer:  # breadth-first: pushes, captures and finished positions all come up
        keys = np.array([codec.encode(s) for s in layer], dtype=np.int64)
        _, degrees, kids, flips = expander.expand(keys)
        kids = np.frombuffer(kids, dtype=np.int64).tolist()
        assert kids == [key for s in layer for key in reference_children(game, codec, s)]
        assert set(np.frombuffer(flips, dtype=np.uint8).tolist()) <= {1}
        seen.update(keys.tolist())
        layer = [codec.decode(k) for k in sorted(set(kids) - seen)]


def random_positions(game, count, seed=1):
    """Distinct positions met in random games from the start (finished ones included)."""
    rng, found = random.Random(seed), {}
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(60)):
            found.setdefault(state, None)
            moves, outcome = game.status(state)
            if outcome is not None:
                break
            state = game.apply(state, rng.choice(moves))
    return list(found)[:count]


def expansion_by_position(expansion):
    """Per position: (outcome code, the multiset of (child key, flip))."""
    outcomes, degrees, kids, flips = expansion
    kids, flips = np.frombuffer(kids, dtype=np.int64).tolist(), bytes(flips)
    out, at = [], 0
    for outcome, degree in zip(outcomes, np.frombuffer(degrees, dtype=np.uint32).tolist()):
        out.append((outcome, sorted(zip(kids[at:at + degree], flips[at:at + degree]))))
        at += degree
    return out


@pytest.mark.parametrize(("name", "options"), [
    ("abalone", {"rows": "4", "cols": "4", "captures": "2"}),
    ("abalone", {"rows": "3", "cols": "4", "captures": "1", "freeze": "off"}),
    ("abalone", {"rows": "4", "cols": "3", "captures": "2", "freeze": "loose", "misere": "true"}),
    ("konane", {"rows": "4", "cols": "4"}),  # go-again: the child's turn and cell come from the kernel
    ("konane-misere", {"rows": "4", "cols": "4"}),
    ("konane-same-stone", {"rows": "4", "cols": "5"}),
])
def test_the_compiled_kernel_expands_positions_as_the_rules_do(name, options):
    game = load_game(name, options)
    codec = PositionCodec(game)
    expander = Expander(game, codec)
    assert expander.bitboards is not None
    states = random_positions(game, 1500)
    keys = np.array([codec.encode(s) for s in states], dtype=np.int64)
    got = expansion_by_position(expander.expand(keys))
    for state, (outcome, children) in zip(states, got):
        moves, result = game.status(state)
        if result is not None:
            expected = 3 if result.winner is None else 1 if result.winner == state.turn else 2
            assert (outcome, children) == (expected, [])
        else:
            kids = [game.apply(state, move) for move in moves]
            assert outcome == 0
            assert children == sorted((codec.encode(k), int(k.turn != state.turn)) for k in kids)
    assert any(outcome in (1, 2) for outcome, _ in got) and any(outcome == 0 for outcome, _ in got)


def test_a_go_again_cell_the_kernel_does_not_take_falls_back_to_the_rules():
    game = load_game("abalone", {"rows": "3", "cols": "4", "captures": "1"})  # no go-again in these rules
    codec = PositionCodec(game)
    expander = Expander(game, codec)
    start = game.initial_state()
    odd = start._replace(last=5)
    keys = np.array([codec.encode(odd)], dtype=np.int64)
    assert expander.bitboards.expand(keys) is None
    (outcome, children), = expansion_by_position(expander.expand(keys))
    assert children == sorted((codec.encode(game.apply(odd, m)), 1) for m in game.legal_moves(odd))


def test_keys_read_back_to_the_same_position():
    game = load_game("konane", {"rows": "4", "cols": "4"})
    codec = PositionCodec(game)
    state = game.initial_state()
    states = []
    for _ in range(5):
        assert codec.decode(codec.encode(state)) == state
        states.append(state)
        state = game.apply(state, game.legal_moves(state)[-1])
    assert codec.decode_many(np.array([codec.encode(s) for s in states])) == states


def test_a_second_call_answers_from_the_database(tmp_path):
    game = load_game("konane", {"rows": "4", "cols": "4"})
    db = tmp_path / "solved.sqlite"
    first = solve(game, game.initial_state(), db=db, workers=1)
    second = solve(game, game.initial_state(), db=db, workers=1, with_moves=True)
    assert not first.stored and second.stored
    assert (second.value, second.remoteness, second.positions) == ("lose", 13, 3961)
    assert len(second.moves) == len(game.legal_moves(game.initial_state()))


def test_an_interrupted_solve_leaves_the_database_as_it_was(tmp_path):
    game = load_game("konane", {"rows": "4", "cols": "4"})
    db = tmp_path / "solved.sqlite"
    solve(game, game.initial_state(), db=db, workers=1)
    other = load_game("konane-misere", {"rows": "4", "cols": "4"})

    def interrupt(phase, total, done):
        if phase == "store":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve(other, other.initial_state(), db=db, workers=1, progress=interrupt)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM roots").fetchone() == (1,)
        tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()
        assert tables == (2,)  # roots and the first game's table, nothing half-written
    again = solve(other, other.initial_state(), db=db, workers=1)
    assert (again.value, again.remoteness, again.stored) == ("lose", 17, False)


@pytest.mark.parametrize(("name", "said"), [
    ("checkers", "plies played since the last capture"),
    ("konane-straight", "direction of the jump"),
])
def test_games_that_remember_more_than_the_key_holds_are_refused(name, said):
    game = load_game(name, {})
    with pytest.raises(SolveError, match=said):
        solve(game, game.initial_state(), use_db=False)


def test_history_games_are_refused():
    game = load_game("capture-the-flag", {})
    with pytest.raises(SolveError, match="history"):
        solve(game, game.initial_state(), use_db=False)


def invoke(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_cli_json_with_moves(tmp_path):
    result = invoke("solve", "konane", "--moves", "--json", "--db", str(tmp_path / "s.sqlite"))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["value"], data["remoteness"], data["positions"]) == ("win", 11, 48)
    assert data["moves"] == [{"move": "b2-d2", "position": '(b "" wbwb b--w w-wb)', "value": "lose",
                              "remoteness": 10}]


def test_cli_text_and_draw_remoteness(tmp_path):
    db = str(tmp_path / "s.sqlite")
    result = invoke("solve", "konane", "--set", "rows=4", "--set", "cols=4", "--db", db)
    assert result.stdout.startswith("white to move: lose in 13 (3,961 positions)")


def test_cli_refuses_capture_the_flag_in_one_line():
    result = invoke("solve", "capture-the-flag")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "history" in result.stderr


def test_repl_value_lists_the_slowest_loss_first(monkeypatch, tmp_path):
    import io

    from rulesdsl.cli.repl import run_repl

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    game = load_game("konane", {"rows": "4", "cols": "4"})
    out = io.StringIO()
    run_repl(game, as_player="all", stdin=io.StringIO("b4-b2\nvalue\nquit\n"), stdout=out)
    text = out.getvalue()
    # b4-b2 is the start's only move and white goes again: still lose, one ply nearer (13 - 1).
    assert "value: white to move: lose in 12" in text
    lines = [line.split() for line in text.split("value:", 1)[1].splitlines() if line.startswith("  ")]
    assert [(line[1], int(line[3])) for line in lines] == sorted(((line[1], int(line[3])) for line in lines),
                                                                  key=lambda v: -v[1])
    assert lines[0][1:] == ["lose", "in", "12"]


def test_repl_value_says_when_a_game_is_too_big(monkeypatch, tmp_path):
    import io

    from rulesdsl.cli.repl import run_repl

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    out = io.StringIO()
    run_repl(load_game("capture-the-flag", {}), as_player="all", stdin=io.StringIO("value\nquit\n"), stdout=out)
    assert "value: not solved here: this game forbids repeating" in out.getvalue()


def test_cli_a_file_that_is_not_a_database_is_one_line(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database\n")
    result = invoke("solve", "konane", "--db", str(bad))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"rulesdsl: {bad}: the solution database is damaged or is not one (file is not a database); "
        "delete that file (or pass --db another file) to start over"]
