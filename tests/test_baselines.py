"""The hand-written baselines (benchmarks/baselines) agree with the rule files.

Two independent programs of each seed game: the rule file compiled by
rulesdsl and a plain Python program written for that one game. They must
count the same perft and, along random games, offer the same moves (notation
and resulting position) at every ply.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.search.minimax import perft

BASELINES = Path(__file__).resolve().parent.parent / "benchmarks" / "baselines"


def baseline(module: str):
    """Import a baseline module by path (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"baseline_{module}", BASELINES / f"{module}.py")
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


# (rule file, baseline module, settings, perft depth)
CASES = [
    ("konane", "konane", {}, 8),
    ("konane", "konane", {"rows": "4", "cols": "4"}, 6),
    ("konane", "konane", {"rows": "5", "cols": "6"}, 4),
    ("konane", "konane", {"rows": "6", "cols": "6"}, 5),
    ("konane", "konane", {"rows": "1", "cols": "5"}, 3),
    ("abalone", "abalone", {}, 3),
    ("abalone", "abalone", {"freeze": "loose"}, 3),
    ("abalone", "abalone", {"freeze": "off"}, 3),
    ("abalone", "abalone", {"rows": "5", "cols": "4", "captures": "3"}, 3),
    ("abalone", "abalone", {"rows": "3", "cols": "3", "captures": "1", "misere": "true"}, 4),
    ("capture-the-flag", "capture_the_flag", {}, 4),
    ("capture-the-flag", "capture_the_flag", {"size": "4"}, 5),
    ("capture-the-flag", "capture_the_flag", {"size": "6"}, 3),
    ("abalone-hex", "abalone_hex", {}, 3),
    ("abalone-hex", "abalone_hex", {"losses": "1"}, 3),
]


def describe(module, state, move) -> tuple[str, str]:
    """A baseline move as (notation, position after), as the rule file writes them."""
    if module.__name__.endswith("capture_the_flag"):
        text = module.notation(move, module.size(state[0]))
    else:
        text = module.notation(move)
    return text, module.position(module.play(state, move))


@pytest.mark.parametrize(("rules", "module", "settings", "depth"), CASES)
def test_the_start_and_perft_agree(rules, module, settings, depth):
    game, base = load_game(rules, settings), baseline(module)
    state, mine = game.initial_state(), base.start(settings)
    assert game.format_position(state) == base.position(mine)
    for d in range(1, depth + 1):
        assert perft(game, state, d) == base.perft(mine, d), (rules, settings, d)


@pytest.mark.parametrize(("rules", "module", "settings", "depth"), CASES)
def test_random_games_agree_ply_by_ply(rules, module, settings, depth):
    game, base = load_game(rules, settings), baseline(module)
    for seed in range(4):
        rng = random.Random(seed)
        state, mine = game.initial_state(), base.start(settings)
        for ply in range(120):
            theirs = sorted((game.format_move(state, mv), game.format_position(game.apply(state, mv)), mv)
                            for mv in game.legal_moves(state))
            ours = sorted((*describe(base, mine, mv), i) for i, mv in enumerate(base.moves(mine)))
            assert [t[:2] for t in theirs] == [o[:2] for o in ours], (rules, settings, seed, ply)
            if not ours:
                break
            pick = rng.randrange(len(ours))
            state = game.apply(state, theirs[pick][2])
            mine = base.play(mine, base.moves(mine)[ours[pick][2]])
            assert game.format_position(state) == base.position(mine)


def test_moves_come_in_board_order_however_they_are_found():
    # Jumps are found from the pieces or, when empty cells are fewer, from the empty cells;
    # either way the list is in the order of the piece that moves (what `moves` prints).
    for rows, cols in ((6, 6), (8, 8)):
        game = load_game("konane", {"rows": str(rows), "cols": str(cols)})
        for seed in range(3):
            rng = random.Random(seed)
            state = game.initial_state()
            while True:
                moves = [mv for mv in game.legal_moves(state) if mv.origin >= 0]
                origins = [mv.origin for mv in moves]
                assert origins == sorted(origins), game.format_position(state)
                if not moves:
                    break
                state = game.apply(state, rng.choice(moves))
