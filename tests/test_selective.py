"""The move played is the move reported, and a narrowed (selective) search never flatters a move.

Issue 20, item 5: on connect6 19x19 under a clock the engine reported depth 2
with j10 first and played b19, a corner: the move of an unfinished third
iteration, whose selective rule (placements near pieces only, under a clock)
had confined the opponent's replies to the corner. Now the rule narrows only
the searching side's own moves, so a narrowed score is never above the
full-width score of the same move, and ``--verbose`` says when the move comes
from an unfinished iteration.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.search.engine import INFINITY, Iteration, Result, Searcher, _adopt_partial, think
from rulesdsl.interpreter.search.engines import describe_choice
from rulesdsl.interpreter.search.minimax import alphabeta

# Connect6 as in the issue: one stone on the first turn, then two a turn; six in a row wins.
CONNECT6 = """game "Connect6"
players black "x", white "o"
board grid 19 x 19
position (turn last rows) top first
notation to
piece stone black "x", white "o"
start {}
moves { place stone }
then { place stone when count(opponent) > 0 }
evaluate { centrality 1 }
end {
  mover wins if mover has 6 in a row
  draw if no moves
}
"""


@pytest.fixture(scope="module")
def connect6(tmp_path_factory):
    path = tmp_path_factory.mktemp("connect6") / "connect6.rules"
    path.write_text(CONNECT6, encoding="utf-8")
    return str(path)


def narrowed_value(game, state, move, depth: int) -> float:
    """A root move's score by the engine's searcher under a clock (selective rule on), ``depth`` plies deep."""
    searcher = Searcher(game, exact=False)
    searcher.root_player = game.to_move(state)
    child = game.apply(state, move)
    value = searcher.alphabeta(child, depth - 1, -INFINITY, INFINITY, 1)
    return -value if game.to_move(child) != game.to_move(state) else value


@pytest.mark.parametrize("cell", ["b19", "j10", "a1"])
def test_a_narrowed_search_never_rates_a_move_above_the_full_search(connect6, cell):
    game = load_game(connect6)
    start = game.initial_state()
    move = game.parse_move(start, cell)
    child = game.apply(start, move)
    full = alphabeta(game, child, 1, ply=1)  # white's every reply (360 of them)
    full = -full if game.to_move(child) != game.to_move(start) else full
    # before the fix b19 and a1 scored above this: white's replies were confined to the corner
    assert narrowed_value(game, start, move, 2) <= full + 1e-9


def test_depth_2_under_a_clock_plays_the_centre_with_the_full_score(connect6):
    game = load_game(connect6)
    start = game.initial_state()
    result = think(game, start, depth=2, seconds=3600)
    assert game.format_move(start, result.move) == "j10"
    child = game.apply(start, result.move)
    assert result.score == pytest.approx(-alphabeta(game, child, 1, ply=1))  # white to move after j10
    assert result.partial == 0 and result.depth == 2


def test_an_unfinished_iterations_move_is_said_to_be_one():
    game = load_game("tic-tac-toe")
    state = game.initial_state()
    first, other = game.legal_moves(state)[:2]
    result = Result(first, 1.0, 2, 100, 0.5, [Iteration(2, 1.0, 100, 0.5, (first,))])
    _adopt_partial(result, [other, 3.0])
    assert (result.move, result.score, result.partial) == (other, 3.0, 3)
    text = describe_choice(game, state, result)
    assert text.startswith(f"plays {game.format_move(state, other)} from the unfinished depth 3 iteration")
    assert f"depth 2 chose {game.format_move(state, first)}" in text
    same = Result(first, 1.0, 2, 100, 0.5, [Iteration(2, 1.0, 100, 0.5, (first,))])
    _adopt_partial(same, [first, 1.5])
    assert same.partial == 0 and "unfinished" not in describe_choice(game, state, same)
    assert same.score == 1.0  # the score said beside "depth 2" is depth 2's, as its iteration line says
    assert "(depth 2, score +1.00)" in describe_choice(game, state, same)


def test_verbose_names_the_move_played_and_where_it_comes_from(connect6):
    result = CliRunner().invoke(cli, ["move", connect6, "--time", "0.5", "--verbose"])
    assert result.exit_code == 0, result.output
    game = load_game(connect6)
    start = game.initial_state()
    lines = result.stderr.strip().splitlines()
    played = lines[-1].split()[1]
    assert result.stdout.strip() == game.format_position(game.apply(start, game.parse_move(start, played)))
    iterations = [line for line in lines if line.startswith("depth ")]
    last_pv = iterations[-1].split(" pv ")[1].split()[0] if iterations else None
    assert ("unfinished" in lines[-1]) == (played != last_pv)
