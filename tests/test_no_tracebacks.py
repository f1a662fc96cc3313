"""No input ever ends in a traceback: property tests over rule files, positions, moves and the REPL.

Whatever a user types -- a rule file, a position string, a move, a line at the
REPL prompt -- the outcome is success or a clean error: a
:class:`~rulesdsl.errors.RulesdslError` (a ``RulesError`` carries diagnostics).
Any other exception is a bug these tests exist to find.
"""

from __future__ import annotations

import inspect
import io
import os
import re
import shutil
import tempfile
from functools import cache, lru_cache
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl import model as m
from rulesdsl.cli.repl import run_repl
from rulesdsl.errors import Diagnostic, RulesdslError, RulesError
from rulesdsl.interpreter.compile.compiler import compile_game
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.interpreter.search.minimax import perft
from rulesdsl.loader import bundled_dir, bundled_games, option_values, resolve
from rulesdsl.parser import parse_text
from rulesdsl.verify import check_file
from rulesdsl.verify import examples as examples_module

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True)
# FUZZ_EXAMPLES=2000 runs the per-game property tests longer than CI does.
FEW = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 60)), deadline=None,
               suppress_health_check=[HealthCheck.too_slow], derandomize=True)

GAMES = bundled_games()
SOURCES = {name: (bundled_dir() / f"{name}.rules").read_text() for name in GAMES}

# Tokens as a person would see them: strings, comments, words, numbers, punctuation.
TOKEN = re.compile(r'"[^"\n]*"|\'[^\'\n]*\'|#[^\n]*|[A-Za-z_][A-Za-z0-9_-]*|[0-9]+(?:\.[0-9]+)?'
                   r'|\.\.|[=!<>]=|\S')
KEYWORDS = sorted({t for text in SOURCES.values() for t in TOKEN.findall(text) if not t.startswith("#")})
PUNCTUATION = list("{}(),=<>+-*/%.:;\"'#\\\t\n ") + ["..", "==", "\u00d7", "\u201c", "\u00e9", "\x00"]


# ``check`` also plays random games from the start when it can: a few short ones are enough here.
CHECK_SETTINGS = {k: v for k, v in {"playouts": 2, "max_plies": 20}.items()
                  if k in inspect.signature(check_file).parameters}


# ---- helpers ----------------------------------------------------------------------------


@lru_cache(maxsize=1)
def workdir() -> Path:
    """A private folder for the generated rule files (removed at exit)."""
    path = Path(tempfile.mkdtemp(prefix="rulesdsl-fuzz-"))
    import atexit

    atexit.register(shutil.rmtree, path, True)
    return path


def capped_perft(game, state, depth):
    """Examples in mutated files may ask for deep counts: two plies show the same bugs."""
    return perft(game, state, min(depth, 2))


def assert_clean_diagnostics(found: list[Diagnostic]) -> None:
    for diagnostic in found:
        assert isinstance(diagnostic, Diagnostic)
        line = diagnostic.one_line()
        assert "\n" not in line, line
        assert "Traceback" not in line and "internal error" not in line, line


def check_text(text: str) -> list[Diagnostic]:
    """``rulesdsl check`` on a file holding ``text``: its diagnostics (never an exception)."""
    path = workdir() / "mutant.rules"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with mock.patch.object(examples_module, "perft", capped_perft):
        report = check_file(str(path), **CHECK_SETTINGS)
    found = list(getattr(report, "diagnostics", report))
    assert_clean_diagnostics(found)
    return found


def play_a_few_plies(game, choices: list[int]) -> None:
    """Start, then a few plies; every move formatted, parsed back and applied."""
    state = game.initial_state()
    game.format_position(state)
    for choice in choices:
        moves, outcome = game.status(state)
        if outcome is not None or not moves:
            break
        move = moves[choice % len(moves)]
        text = game.format_move(state, move)
        game.parse_move(state, text)
        state = game.apply(state, move)
        game.parse_position(game.format_position(state))
        game.evaluate(state, 0)


def compile_and_play(text: str, choices: list[int]) -> None:
    """For a file that checks clean: compile with default options and play a few plies."""
    path = workdir() / "mutant.rules"
    resolved = resolve(path)
    try:
        game = compile_game(resolved, option_values(resolved))
        play_a_few_plies(game, choices)
    except RulesdslError:
        pass


# ---- rule files -------------------------------------------------------------------------


@SETTINGS
@given(st.text(max_size=200))
def test_random_text_gets_a_clean_check(text):
    check_text(text)


@SETTINGS
@given(st.lists(st.sampled_from(KEYWORDS + PUNCTUATION), max_size=40).map(" ".join))
def test_random_words_of_the_language_get_a_clean_check(text):
    check_text(text)


@SETTINGS
@given(st.text(alphabet=st.sampled_from(list("ab \"'\\ntxuN{}07#")), max_size=12), st.sampled_from("\"'"))
def test_any_string_literal_reads_or_gets_a_syntax_error(body, quote):
    try:
        rule_file = parse_text(f"game {quote}{body}{quote}\n")
    except RulesError as error:
        assert error.diagnostics[0].code in ("E001", "E006"), error.diagnostics[0].one_line()
        assert error.diagnostics[0].span.line >= 1
    else:
        assert all(isinstance(s, m.Statement) for s in rule_file.statements)


def mutate(text: str, data) -> str:
    """Delete, duplicate, swap or replace tokens and lines, a few times."""
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        kind = data.draw(st.sampled_from(["delete token", "duplicate token", "swap tokens", "replace token",
                                          "delete line", "duplicate line", "swap lines", "insert text"]),
                         label="kind")
        if kind.endswith("line") or kind.endswith("lines"):
            lines = text.split("\n")
            i = data.draw(st.integers(0, len(lines) - 1), label="line")
            j = data.draw(st.integers(0, len(lines) - 1), label="other line")
            if kind == "delete line":
                del lines[i]
            elif kind == "duplicate line":
                lines.insert(i, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
            continue
        spans = [m.span() for m in TOKEN.finditer(text)]
        if not spans:
            continue
        i = data.draw(st.integers(0, len(spans) - 1), label="token")
        a, b = spans[i]
        if kind == "delete token":
            text = text[:a] + text[b:]
        elif kind == "duplicate token":
            text = text[:b] + " " + text[a:b] + text[b:]
        elif kind == "replace token":
            other = data.draw(st.sampled_from(KEYWORDS + PUNCTUATION), label="replacement")
            text = text[:a] + other + text[b:]
        elif kind == "insert text":
            other = data.draw(st.text(max_size=5), label="inserted")
            text = text[:a] + other + text[a:]
        else:
            j = data.draw(st.integers(0, len(spans) - 1), label="other token")
            (a, b), (c, d) = sorted([spans[i], spans[j]])
            if b <= c:
                text = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
    return text


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_mutated_bundled_files_get_a_clean_check(name, data):
    text = mutate(SOURCES[name], data)
    found = check_text(text)
    if not any(d.severity == "error" for d in found):
        compile_and_play(text, data.draw(st.lists(st.integers(0, 200), max_size=4), label="plies"))


# ---- positions, moves and the REPL ------------------------------------------------------


@cache
def game_named(name: str):
    return load_game(name)


def position_text(name: str) -> st.SearchStrategy[str]:
    """Random text, and edits of real position strings of the game."""
    game = game_named(name)
    start = game.format_position(game.initial_state())
    cells = [c.name for c in game.geometry.cells][:20]
    symbols = sorted({*game.piece_names, game.empty, *(p.symbol for p in game.players)})
    alphabet = st.sampled_from([*start, *symbols, "(", ")", '"', "'", " ", "x", "Z", "9", "\u00e9"])
    near_start = st.lists(st.tuples(st.integers(0, len(start)), alphabet, st.booleans()), max_size=4).map(
        lambda edits: _edit(start, edits))
    words = st.lists(st.sampled_from([*cells, *symbols, '""', "(", ")", start[1:-1]]), max_size=8).map(
        lambda ws: "(" + " ".join(ws) + ")")
    return st.one_of(st.text(max_size=40), near_start, words)


def _edit(text: str, edits) -> str:
    for place, char, insert in edits:
        place = min(place, len(text))
        text = text[:place] + char + text[place + (0 if insert else 1):]
    return text


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_random_positions_get_a_clean_error(name, data):
    game = game_named(name)
    text = data.draw(position_text(name), label="position")
    try:
        state = game.parse_position(text)
    except RulesdslError:
        state = None
    if state is not None:
        game.format_position(state)
        game.status(state)
    try:
        resized, state = load_position(game, text)
    except RulesdslError:
        return
    resized.format_position(state)
    moves, _ = resized.status(state)
    for move in moves[:3]:
        resized.apply(state, move)


def move_text(name: str) -> st.SearchStrategy[str]:
    game = game_named(name)
    cells = [c.name for c in game.geometry.cells]
    words = st.lists(st.sampled_from([*cells, "-", " ", "x", "pass", "PASS", "z0", "a", "1", ""]), max_size=4)
    return st.one_of(st.text(max_size=12), words.map("".join), words.map(" ".join))


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_random_moves_get_a_clean_error(name, data):
    game = game_named(name)
    state = game.initial_state()
    for choice in data.draw(st.lists(st.integers(0, 100), max_size=3), label="plies"):
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.apply(state, moves[choice % len(moves)])
    text = data.draw(move_text(name), label="move")
    try:
        move = game.parse_move(state, text)
    except RulesdslError:
        return
    assert move in game.legal_moves(state)


REPL_WORDS = ["moves", "hint", "undo", "depth", "depth 1", "depth 0", "depth x", "depth 99", "position",
              "load", "board", "help", "pass", "load (", "load ()", "exit", "", " ", "b2-d2", "d2-b2",
              "a1-b2", "A4 B3", "\u00e9", "\x00"]


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(data=st.data())
def test_random_repl_lines_get_a_clean_answer(name, data):
    game = game_named(name)
    start = game.format_position(game.initial_state())
    loads = st.just("load " + start) | position_text(name).map(lambda p: "load " + p)
    line = st.one_of(st.sampled_from(REPL_WORDS), move_text(name), loads, st.text(max_size=20))
    lines = data.draw(st.lists(line, max_size=8), label="lines")
    text = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines) + "\n"
    out = io.StringIO()
    code = run_repl(game, None, as_player="all", depth=1, stdin=io.StringIO(text), stdout=out,
                    interactive=False)
    assert code in (0, 2)
    shown = out.getvalue()
    assert "internal error" not in shown and "Traceback" not in shown, shown


# ---- the engine's own moves (sanity: the bundled games never fail) ------------------------


@pytest.mark.parametrize("name", GAMES)
def test_bundled_games_play_without_errors(name):
    play_a_few_plies(game_named(name), [0, 7, 3, 11, 5])

