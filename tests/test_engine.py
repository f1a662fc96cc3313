"""The engines: iterative deepening with a table agrees with minimax; MCTS picks legal, winning moves."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from test_search import DepthProbe, konane_positions

from rulesdsl.cli.repl import run_repl
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.engine import Searcher, think
from rulesdsl.interpreter.search.mcts import mcts
from rulesdsl.interpreter.search.minimax import WIN, minimax

ROOT = Path(__file__).resolve().parent.parent


@cache
def game_of(name: str, **options: str):
    return load_game(name, options)


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(konane_positions())
def test_a_fixed_depth_gives_the_minimax_value_on_konane(position):
    # Konane has go-again turns and passes: the same player moves twice.
    game, state = position
    for depth in (1, 2, 3, 4):
        assert think(game, state, depth).score == minimax(game, state, depth), (
            game.format_position(state), depth)


@pytest.mark.parametrize(("name", "depths"), [("capture-the-flag", (1, 2, 3)), ("abalone", (1, 2)),
                                              ("abalone-hex", (1, 2)), ("breakthrough", (1, 2))])
def test_a_fixed_depth_gives_the_minimax_value_on_other_games(name, depths):
    game = game_of(name)
    state = game.initial_state()
    for depth in depths:
        assert think(game, state, depth).score == minimax(game, state, depth), (name, depth)


def test_a_small_table_still_gives_the_minimax_value():
    game = game_of("konane", rows="4", cols="4")
    state = game.initial_state()
    for depth in (3, 5, 6):
        assert think(game, state, depth, table_mb=0.001).score == minimax(game, state, depth)


def test_the_table_stays_within_its_bound():
    game = game_of("konane", rows="5", cols="5")
    searcher = Searcher(game, table_mb=0.001)
    state = game.initial_state()
    searcher.root(state, 6, None, [])
    assert 0 < len(searcher.table) <= searcher.table_limit


class HashedProbe(DepthProbe):
    """The depth probe of test_search, with the hash the engine's table needs."""

    def hash(self, node):
        return hash(node)


def test_the_engine_never_goes_deeper_than_asked():
    for name, options, depths in (("konane", {"rows": "4", "cols": "4"}, (1, 2, 3, 4, 5)),
                                  ("capture-the-flag", {}, (1, 2, 3))):
        game = load_game(name, options)
        for depth in depths:
            probe = HashedProbe(game)
            think(probe, (game.initial_state(), 0), depth)
            assert probe.deepest == depth, (name, depth)
            assert max(probe.evaluated) == depth


def test_the_engine_takes_the_quicker_win():
    # test_search's Capture the Flag position: a4-a2 wins at once.
    game, state = load_position(game_of("capture-the-flag"), "(w " "Ww---" "w----" "bww--" "-----" "----B" ")")
    for depth in (1, 3, 5):
        result = think(game, state, depth)
        assert game.format_move(state, result.move) == "a4-a2"
        assert result.score == WIN - 1


def test_a_time_limit_always_gives_a_legal_move():
    game = game_of("tic-tac-toe", size="15", line="5")
    state = game.initial_state()
    result = think(game, state, seconds=0.01)
    assert result.move in game.legal_moves(state)


def test_iterations_are_reported_in_order_with_a_principal_variation():
    game = game_of("konane", rows="6", cols="6")
    seen = []
    think(game, game.initial_state(), 4, on_iteration=seen.append)
    assert [it.depth for it in seen] == [1, 2, 3, 4]
    assert all(1 <= len(it.pv) <= it.depth for it in seen)
    assert seen[-1].nodes >= seen[0].nodes


class InterruptedGame:
    """A game whose evaluation is interrupted (as by Ctrl-C) after some calls."""

    def __init__(self, game, after: int):
        self.game, self.left = game, after

    def __getattr__(self, name):
        return getattr(self.game, name)

    def evaluate(self, state, player):
        self.left -= 1
        if self.left < 0:
            raise KeyboardInterrupt
        return self.game.evaluate(state, player)


def test_ctrl_c_gives_the_best_move_so_far_when_asked():
    game = game_of("konane", rows="6", cols="6")
    state = game.initial_state()
    result = think(InterruptedGame(game, 200), state, 8, catch_interrupt=True)
    assert result.interrupted and result.move in game.legal_moves(state)
    with pytest.raises(KeyboardInterrupt):
        think(InterruptedGame(game, 200), state, 8)


def test_ctrl_c_at_the_command_line_exits_130_with_one_line():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    busy = subprocess.Popen(
        [sys.executable, "-m", "rulesdsl.cli.main", "move", "tic-tac-toe", "--set", "size=15", "--set", "line=5",
         "--depth", "6", "--verbose"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
        # a test run started as a background job inherits an ignored SIGINT; the child gets Ctrl-C back
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        first = busy.stderr.readline()  # the first finished depth: the engine is searching now
        assert first.startswith("depth 1"), first
        busy.send_signal(signal.SIGINT)
        out, err = busy.communicate(timeout=60)
    finally:
        busy.kill()
        busy.wait()
    assert busy.returncode == 130
    after_depths = [line for line in err.strip().splitlines() if not line.startswith("depth ")]
    assert after_depths == ["rulesdsl: interrupted"]
    assert out == ""


# ---- MCTS ------------------------------------------------------------------------------

def test_mcts_plays_a_legal_move_and_repeats_with_a_seed():
    game = game_of("konane", rows="6", cols="6")
    state = game.initial_state()
    first = mcts(game, state, iterations=300, seed=7)
    again = mcts(game, state, iterations=300, seed=7)
    assert first.move in game.legal_moves(state)
    assert first.move == again.move and first.nodes == 300


def test_mcts_finds_the_winning_placement():
    # Cross to move completes the top row with c3; anything else lets nought win on the middle row.
    game, state = load_position(game_of("tic-tac-toe"), "(x xx- oo- ---)")
    result = mcts(game, state, iterations=2000, seed=1)
    assert game.format_move(state, result.move) == "c3"


def test_mcts_has_no_move_when_the_game_is_over():
    game, state = load_position(game_of("tic-tac-toe"), "(o xxx oo- ---)")
    assert mcts(game, state, iterations=10) is None


# ---- the command line and the REPL --------------------------------------------------------

def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def test_verbose_prints_each_iteration_on_stderr():
    done = run_cli("move", "konane", "--set", "rows=6", "--set", "cols=6", "--depth", "3", "--verbose")
    assert done.returncode == 0, done.stderr
    *lines, played = done.stderr.splitlines()
    assert [line.split()[:2] for line in lines] == [["depth", "1"], ["depth", "2"], ["depth", "3"]]
    assert all(" nodes/s " in line and " pv " in line for line in lines)
    assert played.startswith("plays ") and "(depth 3, score " in played  # the move played, from depth 3
    assert done.stdout.startswith("(w c3 ")  # a go-again turn: white jumps on


def test_move_with_mcts_and_a_time():
    done = run_cli("move", "konane", "--engine", "mcts", "--time", "0.2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == '(b "" wbwb b--w w-wb)'  # the only move: b2-d2
    refused = run_cli("move", "konane", "--engine", "mcts", "--depth", "2")
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1


def test_the_repl_switches_engine_and_time():
    game = game_of("konane", rows="4", cols="4")
    out = io.StringIO()
    lines = "engine\nengine mcts\ntime 0.1\nhint\nengine alphabeta\ndepth 2\ntime\nengine chess\ntime x\nquit\n"
    code = run_repl(game, game.initial_state(), as_player="all", stdin=io.StringIO(lines), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "engine alphabeta (1 s a move)" in text
    assert "engine mcts (mcts, 1 s a move)" in text
    assert "time 0.1 s" in text
    assert "hint: " in text and "(mcts " in text
    assert "time: no limit (depth 2)" in text
    assert "error: unknown engine 'chess'" in text
    assert "error: time must be" in text


def test_a_fixed_depth_looks_at_every_placement_of_a_crowded_board():
    # 81 placements: more than the selective rule's threshold, which must not apply without a clock.
    game = game_of("tic-tac-toe", size="9", line="5")
    state = game.initial_state()
    for text in ("e5", "d4"):
        state = game.apply(state, game.parse_move(state, text))
    for depth in (1, 2):
        result = think(game, state, depth)
        assert result.score == minimax(game, state, depth) and not result.selective


def test_under_a_clock_a_crowded_board_is_searched_near_the_pieces_and_says_so():
    # the generic engine's rule (kernel=False): the native search, where it runs, searches every placement
    # (tests/test_kernel_search_lanes.py)
    game = game_of("tic-tac-toe", size="15", line="5")
    state = game.initial_state()
    # one stone on the board (h8): every candidate reply is on a line through it, two steps at most
    after = game.apply(state, game.parse_move(state, "h8"))
    result = think(game, after, 2, seconds=600, kernel=False)  # the depth ends it, not the clock
    assert result.depth == 2 and result.selective and result.move in game.legal_moves(after)
    # only the engine's own side is narrowed: the first move of an empty board is not, nor the replies
    assert not think(game, state, 2, seconds=600, kernel=False).selective
    reply = think(game, after, 1, seconds=600, kernel=False)
    assert reply.selective
    name = game.format_move(after, reply.move)
    dx, dy = ord(name[0]) - ord("h"), int(name[1:]) - 8
    assert max(abs(dx), abs(dy)) <= 2 and (dx == 0 or dy == 0 or abs(dx) == abs(dy))


def test_one_call_chooses_for_every_engine_and_self_play_varies_among_equal_moves():
    import random

    from rulesdsl.interpreter.search.engines import choose

    game = game_of("konane", rows="6", cols="6")
    state = game.initial_state()
    legal = game.legal_moves(state)
    first = choose(game, state, "random", rng=random.Random(3)).move
    assert first in legal and choose(game, state, "random", rng=random.Random(3)).move == first
    # a shuffled root changes which of equal moves is played, never the value: after x takes the
    # centre, the eight replies are all one step from it (centrality), so all score alike at depth 1
    game = game_of("tic-tac-toe")
    state = game.initial_state()
    state = game.apply(state, game.parse_move(state, "b2"))
    picks = set()
    for seed in range(8):
        result = choose(game, state, "alphabeta", depth=1, rng=random.Random(seed))
        assert result.score == minimax(game, state, 1)
        picks.add(result.move)
    assert len(picks) > 1
