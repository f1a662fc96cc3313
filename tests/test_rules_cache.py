"""The checked rule files kept in the user's cache folder (interpreter/compile/rules_cache.py): a warm load
gives the same model and the same counts as a fresh one, and a changed, damaged or hostile file is a miss."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rulesdsl.parser
from rulesdsl import model_codec
from rulesdsl.errors import RulesError
from rulesdsl.interpreter.compile import rules_cache
from rulesdsl.interpreter.compile.load import load_game, load_rules
from rulesdsl.loader import bundled_games

ROOT = Path(__file__).resolve().parent.parent
TIC_TAC_TOE = (ROOT / "rules" / "tic-tac-toe.rules").read_text()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of its own (the user's is never touched) and the cache switched on."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULESDSL_RULES_CACHE", raising=False)
    return tmp_path / "cache"


def entries(cache: Path) -> list[Path]:
    return sorted(cache.rglob("checked_*.json"))


def no_parsing(monkeypatch) -> None:
    """Make any parse fail, so that a load that succeeds must have come from the cache."""
    def refuse(*_args, **_kwargs):
        raise AssertionError("parsed although the cache holds the file")

    monkeypatch.setattr(rulesdsl.parser, "parse_text", refuse)


def test_a_warm_load_gives_the_same_model_without_parsing(cache, tmp_path, monkeypatch):
    path = tmp_path / "ttt.rules"
    path.write_text(TIC_TAC_TOE)
    fresh = load_rules(str(path))
    assert len(entries(cache)) == 1
    no_parsing(monkeypatch)
    warm = load_rules(str(path))
    assert warm is not fresh
    assert (warm.path, warm.statements, warm.texts, warm.examples) == \
           (fresh.path, fresh.statements, fresh.texts, fresh.examples)
    # the examples keep the place of each setting's name (a tuple subclass with a span)
    assert [[s.span for s in e.settings] for e in warm.examples] == [[s.span for s in e.settings]
                                                                      for e in fresh.examples]


def test_a_warm_load_counts_and_plays_as_a_fresh_one(cache, monkeypatch):
    """Counts from the rule file's own comment (tic-tac-toe's known game counts), and options still apply."""
    cold = load_game("tic-tac-toe")
    assert [cold.perft(cold.initial_state(), d) for d in (1, 2, 3)] == [9, 72, 504]
    no_parsing(monkeypatch)
    warm = load_game("tic-tac-toe")
    assert [warm.perft(warm.initial_state(), d) for d in (1, 2, 3)] == [9, 72, 504]
    bigger = load_game("tic-tac-toe", {"size": "4"})
    assert bigger.perft(bigger.initial_state(), 2) == 16 * 15


def test_a_changed_file_is_a_new_entry(cache, tmp_path):
    path = tmp_path / "ttt.rules"
    path.write_text(TIC_TAC_TOE)
    load_rules(str(path))
    path.write_text(TIC_TAC_TOE.replace("option size = 3", "option size = 4"))
    game = load_game(str(path))
    assert game.perft(game.initial_state(), 1) == 16
    assert len(entries(cache)) == 2
    assert rules_cache.cache_file(str(path), "a") != rules_cache.cache_file(str(path), "b")
    assert rules_cache.cache_file("x.rules", "a") != rules_cache.cache_file("y.rules", "a")


def test_a_damaged_entry_is_ignored_and_written_again(cache, tmp_path):
    path = tmp_path / "ttt.rules"
    path.write_text(TIC_TAC_TOE)
    fresh = load_rules(str(path))
    (entry,) = entries(cache)
    good = entry.read_text()
    for damage in ("", "not json", good[:-20], '["a", "b"]', "42", '{"t": [1, 2]}', "\udcff",
                   good.replace('"model:', '"model:Nothing', 1), '{"c": "loader:Resolved", "d": []}',
                   good.replace('"links"', '"linked"'), good.replace('"texts"', '"text"')):
        entry.write_text(damage, errors="surrogateescape")
        assert load_rules(str(path)).statements == fresh.statements
        assert entry.read_text() == good  # written again with the real model


@pytest.mark.parametrize("name", ["loader:Path", "model:ExprVisitor", "model:walk", "model:m.__class__",
                                  "subprocess:Popen", "os:system", "builtins:eval", "model"])
def test_the_codec_makes_nothing_but_the_models_dataclasses(name):
    with pytest.raises(model_codec.CodecError):
        model_codec.from_json(json.dumps({"c": name, "d": []}))


def test_the_codec_writes_every_bundled_model_and_reads_it_back_equal():
    for name in bundled_games():
        resolved = load_rules(name)
        again = model_codec.from_json(model_codec.to_json(resolved))
        assert (again.path, again.statements, again.texts, again.examples) == \
               (resolved.path, resolved.statements, resolved.texts, resolved.examples), name
        assert [type(s) for s in again.statements] == [type(s) for s in resolved.statements]


def test_the_codec_refuses_what_it_does_not_write():
    with pytest.raises(model_codec.CodecError):
        model_codec.to_json({1, 2})
    with pytest.raises(model_codec.CodecError):
        model_codec.to_json(Path("x"))


def test_a_changed_parent_is_a_miss(cache, tmp_path, monkeypatch):
    (tmp_path / "base.rules").write_text(TIC_TAC_TOE)
    child = tmp_path / "child.rules"
    child.write_text('extends "base.rules"\ngame "child"\n')
    assert load_game(str(child)).perft(load_game(str(child)).initial_state(), 1) == 9
    (tmp_path / "base.rules").write_text(TIC_TAC_TOE.replace("option size = 3", "option size = 4"))
    game = load_game(str(child))
    assert game.perft(game.initial_state(), 1) == 16


def test_a_local_file_that_now_stands_in_for_a_bundled_game_is_a_miss(cache, tmp_path):
    child = tmp_path / "child.rules"
    child.write_text('extends "tic-tac-toe"\ngame "child"\n')
    game = load_game(str(child))
    assert game.perft(game.initial_state(), 1) == 9
    (tmp_path / "tic-tac-toe.rules").write_text(TIC_TAC_TOE.replace("option size = 3", "option size = 5"))
    game = load_game(str(child))
    assert game.perft(game.initial_state(), 1) == 25


def test_a_file_with_an_error_is_not_kept(cache, tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(TIC_TAC_TOE.replace("place mark", "place nothing"))
    for _ in range(2):
        with pytest.raises(RulesError):
            load_rules(str(path))
    assert entries(cache) == []


def test_the_cache_can_be_switched_off(cache, monkeypatch):
    monkeypatch.setenv("RULESDSL_RULES_CACHE", "0")
    load_rules("tic-tac-toe")
    assert entries(cache) == []


def test_a_warm_start_loads_neither_lark_nor_the_grammar(cache):
    """The command line's second start on a file reads the checked model: lark is never imported."""
    script = ("import sys\nfrom rulesdsl.interpreter.compile.load import load_game\n"
              "game = load_game('tic-tac-toe')\nprint(game.perft(game.initial_state(), 2), 'lark' in sys.modules)\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("RULESDSL_RULES_CACHE", None)
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120,
                           check=True).stdout.split() for _ in range(2)]
    assert runs == [["72", "True"], ["72", "False"]]


def test_the_oldest_entries_go_when_there_are_too_many(cache, tmp_path, monkeypatch):
    monkeypatch.setattr(rules_cache, "KEPT", 3)
    monkeypatch.setattr(rules_cache, "PRUNED", 1)
    path = tmp_path / "ttt.rules"
    for size in (3, 4, 5):
        path.write_text(TIC_TAC_TOE.replace("option size = 3", f"option size = {size}"))
        load_rules(str(path))
    assert len(entries(cache)) == 3
    path.write_text(TIC_TAC_TOE.replace("option size = 3", "option size = 6"))
    load_rules(str(path))  # the fourth: over the limit, down to KEPT - PRUNED, itself among them
    kept = entries(cache)
    assert len(kept) == 2
    assert rules_cache.cache_file(str(path), path.read_text()) in kept
