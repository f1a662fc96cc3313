"""`why`: the reason an expected move is not legal, with the rule-file line it comes from.

Each row of the table is an illegal move in a position set up by hand, the
reason GAMES.md (or the rule file) gives for it, and a fragment of the line
that states that rule. The test reads the cited line from the rule file
itself, so a wrong line number fails even when the words are right.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.explain.reasons import explain_move, trace_ply
from rulesdsl.loader import bundled_dir, bundled_games

KONANE_START = None  # the default start: (w "" wbwb bwb- w-wb)
# Abalone, 4 x 4, rows listed bottom first: black a1 b1 c1 a2 a3; white d1 b2 c2 d4.
ABALONE = "(b bbbw bww- b--- ---w)"
# Black's four marbles fill row 1, so pushing along it would push its own marble off.
ABALONE_EDGE = "(b bbbb ---- ---- wwww)"
# Black a1 b1 push c1 (white) towards d1, which holds a black marble: the sandwich.
ABALONE_SANDWICH = "(b bbwb b--- ---- www-)"
# Hexagon: blue C4 and B4 in line behind red A4, the corner, pointing out of it.
HEX_CORNER = "(b r--- -b--- --b--- bbbbbbb ------ rrrrr rrrr)"
# Capture the Flag, 5 x 5: the start is -wWw- / -www- / ----- / -bbb- / -bBb-, white moves down.
CTF_START = None
CTF_AFTER_B4_B3 = "-wWw---ww--w----bbb--bBb-"  # the board after white's b4-b3
CTF_BLACK_HAS_NO_PAWN = "(b -wWw--www-------------B--)"
# Checkers: black (moving down) on h8 and d6, white on c5 and a1: d6 must jump c5.
CHECKERS_CAPTURE = '(b "" -------b -------- ---b---- --w----- -------- -------- -------- w-------)'
# A go-again turn: black just jumped to b4 and may jump c3 again; f6 could jump e5.
CHECKERS_AGAIN = '(b b4 -------- -------- -----b-- ----w--- -b------ --w----- -------- ------w-)'
BREAKTHROUGH = "(w -------b -------- -------- ---b---- ---w---- -------- -------- --------)"
KONANE_OVER = '(w "" ---- ---- w--b)'  # white cannot jump: the player to move has no moves

# (game, position, move, expected code, fragment of the cited line or None when nothing is cited)
TABLE = [
    ("konane", KONANE_START, "a1-a2", "no-rule", None),
    ("konane", KONANE_START, "d3-b3", "not-your-piece", "stone jump orthogonal"),
    ("konane", KONANE_START, "c3-a3", "occupied", "stone jump orthogonal"),
    ("konane", KONANE_START, "a3-a1", "occupied", "stone jump orthogonal"),
    ("konane", KONANE_START, "b1-d1", "no-piece", "stone jump orthogonal"),
    ("konane", KONANE_START, "c1-a1", "no-enemy-to-jump", "stone jump orthogonal"),
    ("konane", KONANE_START, "pass", "no-pass", "again after jump"),
    ("konane", KONANE_START, "c9-a1", "bad-move", None),
    ("konane", KONANE_OVER, "a1-c1", "game-over", "mover wins if no moves"),
    ("konane-same-stone", "(b d3 w--b b--- --wb)", "d1-b1", "must-continue", "with same piece"),
    ("abalone", ABALONE, "a2-b2", "line-not-longer", "marble push lines"),
    ("abalone", ABALONE, "c1-d1", "line-not-longer", "marble push lines"),
    ("abalone", ABALONE, "b1-b2", "line-not-longer", "marble push lines"),
    ("abalone", ABALONE, "a1-a2", "frozen", "freeze strict"),
    ("abalone", ABALONE, "d4-c4", "not-your-piece", "marble push lines"),
    ("abalone", ABALONE, "b3-b4", "no-piece", "marble push lines"),
    ("abalone", ABALONE, "a1-c3", "no-rule", None),
    ("abalone", ABALONE_EDGE, "a1-b1", "off-board", "marble push lines"),
    ("abalone", ABALONE_SANDWICH, "a1-b1", "blocked-beyond", "marble push lines"),
    ("abalone-hex", None, "C4 D4", "line-length", "token push all line 2"),
    ("abalone-hex", None, "A4 B4", "line-length", "token push all line 2"),
    ("abalone-hex", None, "G1 F1", "not-your-piece", "token push all line 2"),
    ("abalone-hex", HEX_CORNER, "C4 B4", "corner", "forbid corner push-off"),
    ("capture-the-flag", CTF_START, "c5-c4", "occupied", "flag step"),
    ("capture-the-flag", CTF_START, "b4-c4", "occupied", "pawn step forward, left, right"),
    ("capture-the-flag", CTF_START, "c4-c2", "no-enemy-to-jump", "pawn jump"),
    ("capture-the-flag", CTF_START, "b4-b5", "wrong-kind", "flag step"),
    ("capture-the-flag", CTF_START, "c5-c3", "wrong-kind", "pawn jump"),  # flags never jump
    ("capture-the-flag", CTF_BLACK_HAS_NO_PAWN, "c1-c2", "game-over", "opponent has no pawn"),
    ("checkers", CHECKERS_CAPTURE, "h8-g7", "capture-compulsory", "must capture"),
    ("checkers", CHECKERS_CAPTURE, "d6-c7", "wrong-kind", "king step diagonal"),
    ("checkers", CHECKERS_AGAIN, "f6-d4", "must-continue", "with same piece"),
    ("checkers", CHECKERS_AGAIN, "b4-a3", "not-a-continuation", "again after capture"),
    ("breakthrough", BREAKTHROUGH, "d4-d5", "occupied", "pawn step forward"),
    ("breakthrough", BREAKTHROUGH, "d4-d3", "no-rule", None),
    ("othello", None, "a1", "no-flank", "place disc flanking all"),
    ("connect-four", None, "a2", "falls-further", "place disc falling s"),
    ("tic-tac-toe", "(o xxx oo- ---)", "c1", "game-over", "in a row"),
    ("tic-tac-toe", "(x x-- --- ---)", "a3", "occupied", "place mark"),
]


def _state(name: str, position: str | None):
    game = load_game(name)
    if position is None:
        return game, game.initial_state()
    return load_position(game, position)


@pytest.mark.parametrize(("name", "position", "move", "code", "fragment"), TABLE,
                         ids=[f"{row[0]}:{row[2]}:{row[3]}" for row in TABLE])
def test_why_gives_the_reason_and_the_rule_line(name, position, move, code, fragment):
    game, state = _state(name, position)
    assert move.lower() not in {game.format_move(state, mv).lower() for mv in game.legal_moves(state)}
    answer = explain_move(game, state, move)
    assert not answer.legal
    assert answer.first.code == code, answer.text()
    if fragment is None:
        assert answer.first.line == 0 or code != "no-rule"
        return
    span = answer.first.span
    assert span is not None, answer.text()
    cited = Path(span.file).read_text(encoding="utf-8").split("\n")[span.line - 1]
    assert fragment in cited, (cited, answer.text())


def test_the_table_covers_enough_moves_and_every_seed_game():
    assert len(TABLE) >= 30
    assert {"konane", "abalone", "capture-the-flag", "abalone-hex"} <= {row[0] for row in TABLE}


def test_a_repeated_board_is_the_reason():
    game = load_game("capture-the-flag")
    state = game.with_history(game.initial_state(), [CTF_AFTER_B4_B3])
    answer = explain_move(game, state, "b4-b3")
    assert answer.first.code == "repeats"
    assert "forbid repetition" in (bundled_dir() / "capture-the-flag.rules").read_text().split("\n")[
        answer.first.line - 1]


def test_the_frozen_answer_names_the_enemy_line():
    game, state = _state("abalone", ABALONE)
    answer = explain_move(game, state, "a1-a2")
    # a2 is frozen because white's c2 and b2 outnumber it along row 2 and would push it off.
    assert "a2 is frozen" in answer.first.message
    assert "c2-b2" in answer.first.message


def test_a_legal_move_names_its_rule():
    game, state = _state("konane", None)
    answer = explain_move(game, state, "b2-d2")
    assert answer.legal and answer.first.code == "legal"
    assert "stone jump" in answer.first.source


def test_moves_why_on_the_command_line():
    result = CliRunner().invoke(cli, ["moves", "konane", "--why", "d3-b3"])
    assert result.exit_code == 0
    assert "not your piece" in result.output and "konane.rules:" in result.output
    result = CliRunner().invoke(cli, ["moves", "abalone", "-p", ABALONE, "--why", "a2-b2", "--json"])
    data = json.loads(result.output)
    assert data["legal"] is False and data["reasons"][0]["code"] == "line-not-longer"


def test_trace_of_a_push_that_captures_and_ends_the_game():
    # Black's a1 b1 c1 push white's d1 off the board: the second capture wins (captures = 2).
    game, state = _state("abalone", "(b bbbw bw-- b--- --ww)")
    move = game.parse_move(state, "a1-b1")
    after = game.apply(state, move)
    codes = [r.code for r in trace_ply(game, state, move, after)]
    assert codes[0] == "rule" and "pushed" in codes and codes[-1] == "end"
    end = trace_ply(game, state, move, after)[-1]
    assert "black wins" in end.message and "lost(opponent) >= captures" in end.source


def test_trace_says_why_the_same_player_moves_again():
    game, state = _state("konane", None)
    first = game.apply(state, game.parse_move(state, "b2-d2"))
    move = game.parse_move(first, "d1-b1")
    reasons = trace_ply(game, first, move, game.apply(first, move))
    assert [r.code for r in reasons] == ["rule", "captured", "again"]
    assert "again after jump" in reasons[-1].source


def test_why_and_trace_in_the_repl():
    import io

    from rulesdsl.cli.repl import run_repl

    game = load_game("konane")
    out = io.StringIO()
    run_repl(game, as_player="all", stdin=io.StringIO("why d3-b3\nb2-d2\ntrace\nquit\n"), stdout=out)
    text = out.getvalue()
    assert "not your piece: d3 holds black's stone" in text
    assert "white played b2-d2" in text and "captured black's stone on c2" in text
    assert "konane.rules:26" in text


@pytest.mark.parametrize("name", bundled_games())
def test_why_agrees_with_the_legal_moves_on_every_bundled_game(name):
    """On random positions, `why` calls a move legal exactly when the move generator lists it."""
    import random

    rng = random.Random(name)
    game = load_game(name)
    state = game.initial_state()
    cells = [c.name for c in game.geometry.cells]
    for _ in range(6):
        moves, outcome = game.status(state)
        legal = {game.format_move(state, mv).lower() for mv in moves}
        texts = sorted(legal)[:3] + [f"{rng.choice(cells)}-{rng.choice(cells)}" for _ in range(4)]
        if moves and moves[0].target >= 0:
            shown = game.format_move(state, moves[0])
            texts.append(shown.replace(cells[moves[0].target], rng.choice(cells)))
        for text in texts:
            answer = explain_move(game, state, text)
            assert answer.legal == (text.lower() in legal), (text, answer.text())
            assert answer.reasons
        if outcome is not None:
            break
        move = rng.choice(moves)
        after = game.apply(state, move)
        assert trace_ply(game, state, move, after)[0].code == "rule"
        state = after
