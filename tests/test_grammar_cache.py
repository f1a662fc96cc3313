"""The built parser kept in the user's cache folder: the same trees as a fresh build, and a bad file rebuilt."""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark

from rulesdsl import grammar

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of its own, and ``grammar_parser`` forgotten before and after."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULESDSL_GRAMMAR_CACHE", raising=False)
    grammar.grammar_parser.cache_clear()
    yield tmp_path
    grammar.grammar_parser.cache_clear()


def built() -> Lark:
    text = (ROOT / "rulesdsl" / "grammar.lark").read_text()
    return Lark(text, **grammar.OPTIONS)


def test_the_cached_parser_reads_every_bundled_file_as_a_fresh_build_does(cache):
    grammar.grammar_parser()  # builds and writes the cache
    files = list(cache.rglob("parser_*.json"))
    assert len(files) == 1
    grammar.grammar_parser.cache_clear()
    loaded = grammar.grammar_parser()  # now read back from that file
    fresh = built()
    for path in sorted((ROOT / "rules").glob("*.rules")):
        text = path.read_text()
        ours, theirs = loaded.parse(text), fresh.parse(text)
        assert ours == theirs, path.name
        # positions too (the checker's messages name lines and columns)
        assert [(t.meta.line, t.meta.column) for t in ours.iter_subtrees() if not t.meta.empty] == \
               [(t.meta.line, t.meta.column) for t in theirs.iter_subtrees() if not t.meta.empty], path.name


def test_a_damaged_cache_file_is_built_again(cache):
    grammar.grammar_parser()
    (path,) = cache.rglob("parser_*.json")
    path.write_text('[{"not": "a parser"}, {}]')
    grammar.grammar_parser.cache_clear()
    parser = grammar.grammar_parser()
    assert parser.parse('game "x"\n') == built().parse('game "x"\n')
    assert path.read_text().startswith('[{"not"') is False  # rewritten with the real parser


def test_the_cache_can_be_switched_off(cache, monkeypatch):
    monkeypatch.setenv("RULESDSL_GRAMMAR_CACHE", "0")
    assert grammar.cache_path("text") is None
    grammar.grammar_parser()
    assert not list(cache.rglob("parser_*.json"))


def test_another_grammar_text_gets_another_file(cache):
    assert grammar.cache_path("a") != grammar.cache_path("b")
