"""Highlighting: the Pygments lexer and the TextMate grammar colour every word of the language."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pygments import lex
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Keyword, Name, String, Token

from rulesdsl import vocabulary
from rulesdsl.pygments_lexer import RulesLexer
from rulesdsl.textmate import TARGET, render
from rulesdsl.words import language_words

ROOT = Path(__file__).resolve().parent.parent
WORDS = sorted(language_words())
#: Every word of the vocabulary registry: actions, modifiers, features, functions, the words of end conditions.
REGISTRY = sorted({w for table in (vocabulary.ACTIONS, vocabulary.MODIFIERS, vocabulary.FEATURES, vocabulary.FUNCTIONS)
                   for name in table for w in name.split()}
                  | {w for c in vocabulary.CONDITIONS.values() for w in c.written.split() if w.islower()})
COLOURED = (Keyword, Name.Builtin)


def test_the_words_come_from_the_grammar_and_the_vocabularies():
    kinds = language_words()
    assert kinds["game"] == kinds["moves"] == kinds["end"] == "statement"
    assert kinds["jump"] == kinds["over"] == kinds["wins"] == "keyword"
    assert kinds["forward-left"] == kinds["push-off"] == "keyword"  # hyphenated keyword-set words
    assert kinds["true"] == "constant"
    assert kinds["orthogonal"] == kinds["mover"] == kinds["count"] == "builtin"
    grammar = re.sub(r"//[^\n]*", "", (ROOT / "rulesdsl" / "grammar.lark").read_text())
    quoted = set(re.findall(r'"([a-z]+)"', grammar))
    assert quoted <= set(kinds), quoted - set(kinds)


def test_the_committed_textmate_grammar_is_up_to_date():
    assert (ROOT / TARGET).read_text() == render(), "run 'python -m rulesdsl.textmate'"


def test_every_registry_word_is_a_word_of_the_language():
    assert REGISTRY and set(REGISTRY) <= set(WORDS), set(REGISTRY) - set(WORDS)


@pytest.mark.parametrize("word", WORDS)
def test_pygments_colours_every_word(word):
    tokens = [(kind, text) for kind, text in lex(f"name1 {word} name2", RulesLexer()) if text.strip()]
    assert tokens[1][1] == word and any(tokens[1][0] in kind for kind in COLOURED), tokens


def _textmate_scopes(line: str) -> list[tuple[str, str]]:
    """A small TextMate engine for the grammar's flat match patterns: earliest match, first pattern on a tie."""
    patterns = [(p["name"], re.compile(p["match"])) for p in json.loads((ROOT / TARGET).read_text())["patterns"]]
    found, pos = [], 0
    while pos < len(line):
        best = None
        for scope, pattern in patterns:
            match = pattern.search(line, pos)
            if match and match.end() > match.start() and (best is None or match.start() < best[1].start()):
                best = (scope, match)
        if best is None:
            break
        found.append((best[0], best[1].group()))
        pos = best[1].end()
    return found


@pytest.mark.parametrize("word", WORDS)
def test_textmate_colours_every_word(word):
    scopes = _textmate_scopes(f"name1 {word} name2")
    assert len(scopes) == 1 and scopes[0][1] == word, scopes
    assert scopes[0][0].split(".")[0] in ("keyword", "constant", "support")


def test_a_line_of_a_rule_file_in_both():
    line = 'man jump forward-left over enemy capture if rows > 2  # "no" string here'
    assert _textmate_scopes(line) == [
        ("keyword.other.rulesdsl", "jump"), ("keyword.other.rulesdsl", "forward-left"),
        ("keyword.other.rulesdsl", "over"), ("support.constant.rulesdsl", "enemy"),
        ("keyword.other.rulesdsl", "capture"), ("keyword.other.rulesdsl", "if"),
        ("keyword.other.rulesdsl", "rows"), ("keyword.operator.rulesdsl", ">"),
        ("constant.numeric.rulesdsl", "2"), ("comment.line.number-sign.rulesdsl", '# "no" string here')]
    tokens = [(kind, text) for kind, text in lex(line, RulesLexer()) if text.strip()]
    assert tokens[0] == (Name, "man") and tokens[2] == (Keyword, "forward-left")
    assert tokens[-1] == (Comment.Single, '# "no" string here')
    assert (String.Double, '"a"') in list(lex('players white "a"', RulesLexer()))


def test_pygments_finds_the_lexer_by_name_and_file_name():
    assert isinstance(get_lexer_by_name("rulesdsl"), RulesLexer)
    assert isinstance(get_lexer_by_name("rules"), RulesLexer)  # the docs' code fences say ```rules
    assert isinstance(get_lexer_for_filename("konane.rules"), RulesLexer)


def test_pygmentize_dash_l_rulesdsl():
    # python -m pygments is pygmentize, whether or not the environment put the script beside python
    done = subprocess.run([sys.executable, "-m", "pygments", "-l", "rulesdsl", "-f", "html"],
                          input="moves { stone jump n }\n", capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert '<span class="k">jump</span>' in done.stdout and '<span class="nb">n</span>' in done.stdout


def test_the_docs_rule_blocks_lex_cleanly():
    blocks = [b for page in sorted((ROOT / "docs").glob("*.md"))
              for b in re.findall(r"```rules\n(.*?)```", page.read_text(), re.S)]
    assert blocks
    for block in blocks:
        kinds = {kind for kind, _ in lex(block, RulesLexer())}
        assert Token.Error not in kinds
