"""Each word of the language is declared once, in ``rulesdsl/vocabulary.py``, and everything agrees.

The grammar's keywords, the model's classes, the parser's methods, the
compiler's dispatch, the checker and the tables of ``docs/language.md`` are
compared with the registry: forgetting any of them when adding a word fails
here. A word that reaches the checker or compiler without a declaration is an
error, never a fall-through to another word.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import replace
from pathlib import Path

import pytest

from rulesdsl import model as m
from rulesdsl import vocabulary as v
from rulesdsl.checker import Checker, check
from rulesdsl.errors import RulesdslError
from rulesdsl.grammar import grammar_parser
from rulesdsl.interpreter.compile.load import load_rules
from rulesdsl.interpreter.reference import movegen
from rulesdsl.interpreter.reference.endings import ConditionCompiler
from rulesdsl.interpreter.search import evaluation
from rulesdsl.parser import _Builder as ModelBuilder
from rulesdsl.syntax_errors import END_CONDITIONS, TERMINAL_WORDS

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = (ROOT / "rulesdsl" / "grammar.lark").read_text(encoding="utf-8")
# Expression forms that are not end conditions (literals, names, operators, calls).
EXPRESSION_ALIASES = {"int_lit", "decimal_lit", "true_lit", "false_lit", "str_lit", "name_ref", "call", "neg", "not_"}


def terminal_words(name: str) -> set[str]:
    """The words a keyword-set terminal (``ACTION: /(step|jump)\\b/``) matches."""
    pattern = next(t.pattern.value for t in grammar_parser().terminals if t.name == name)
    inner = re.fullmatch(r"\(\??:?([^()]*)\)\\b", pattern)
    assert inner, f"{name}: not a keyword set: {pattern}"
    return set(inner.group(1).split("|"))


def rule_aliases(rule: str) -> set[str]:
    """The ``-> alias`` names of one rule of the grammar (its alternatives)."""
    body = re.search(rf"^\??{rule}:(.*?)(?=^\S)", GRAMMAR, re.M | re.S)
    assert body, rule
    return set(re.findall(r"->\s*(\w+)", body.group(1)))


def test_the_grammars_action_words_are_the_registrys():
    assert terminal_words("ACTION") == set(v.moving_actions())
    placing = [a.name for a in v.ACTIONS.values() if a.verb_first]
    for word in placing:  # 'place KIND ...'; a pass and a swap name no kind
        assert f'"{word}" NAME' in GRAMMAR or f'"{word}" [rule_when]' in GRAMMAR or f'"{word}" ["turning"' in GRAMMAR


def test_the_grammars_feature_words_are_the_registrys():
    assert terminal_words("FEATURE") == set(v.FEATURES)


def test_the_grammars_move_options_are_the_registrys_modifiers():
    assert rule_aliases("move_option") == {r for mod in v.MODIFIERS.values() for r in mod.rules}
    for mod in v.MODIFIERS.values():
        first = mod.name.split()[0]
        assert f'"{first}"' in GRAMMAR, f"modifier {mod.name!r} is not a word of the grammar"
    every = {name for action in v.ACTIONS.values() for name in action.modifiers}
    assert every == set(v.MODIFIERS), "a modifier no action takes, or an action naming an undeclared modifier"


def test_the_grammars_conditions_are_the_registrys_and_each_has_a_model_parser_and_compiler():
    assert rule_aliases("atom") - EXPRESSION_ALIASES == {c.rule for c in v.CONDITIONS.values()}
    for condition in v.CONDITIONS.values():
        node = getattr(m, condition.node, None)
        assert isinstance(node, type) and issubclass(node, m.Expr), condition.node
        assert hasattr(ModelBuilder, condition.rule), f"the parser builds no {condition.node}"
        assert hasattr(ConditionCompiler, "visit_" + condition.node), f"no compiled form of {condition.node}"


def test_the_compilers_dispatch_is_the_registrys():
    assert set(movegen.ACTIONS) == set(v.ACTIONS)
    assert set(evaluation.BUILDERS) == set(v.FEATURES)
    assert set(ConditionCompiler.FUNCTIONS) == set(v.FUNCTIONS)


def test_the_hints_read_the_registry():
    assert TERMINAL_WORDS["ACTION"] == v.or_list(v.moving_actions())
    assert TERMINAL_WORDS["FEATURE"] == v.or_list(list(v.FEATURES))
    for condition in v.CONDITIONS.values():
        assert condition.written in END_CONDITIONS


def test_the_docs_tables_are_generated_from_the_registry():
    spec = importlib.util.spec_from_file_location("vocabulary_docs", ROOT / "scripts" / "vocabulary_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert {block[1] for block in module.BLOCK.findall(text)} == set(module.tables())
    assert module.update(text) == text, "run: .venv/bin/python scripts/vocabulary_docs.py"


def test_the_misplaced_modifier_messages_name_their_owners():
    assert v.misplaced_message("over", "step") == "'over' belongs to jump and slide, not step"
    assert v.misplaced_message("to", "push") == "'to' belongs to step and slide, not push"
    assert v.misplaced_message("capture", "slide") == "'capture' belongs to jump; a slide captures with 'to enemy'"
    assert v.misplaced_message("line", "jump") == "'line' belongs to push, not jump"


def _with_moves(resolved, change):
    """``resolved`` with every move rule changed by ``change``."""
    statements = [replace(s, rules=tuple(change(r) for r in s.rules)) if isinstance(s, m.Moves) else s
                  for s in resolved.statements]
    return replace(resolved, statements=statements)


def test_an_undeclared_action_is_an_error_not_a_push():
    resolved = _with_moves(load_rules("konane"), lambda rule: replace(rule, action="hop"))
    codes = {(d.code, d.message) for d in check(resolved)}
    assert ("E066", "unknown move action 'hop'") in codes
    rule = next(r for s in resolved.of(m.Moves) for r in s.rules)
    from rulesdsl.interpreter.compile.compiler import compile_game
    from rulesdsl.options import option_values

    with pytest.raises(RulesdslError, match="no move generator for the action 'hop'"):
        compile_game(resolved, option_values(resolved))
    assert rule.action == "hop"


def test_an_undeclared_feature_is_an_error_not_dropped():
    resolved = load_rules("konane")
    feature = m.Feature(resolved.of(m.Moves)[0].span, "sparkle", None, 1.0)
    statements = [*resolved.statements, m.Evaluate(feature.span, (feature,))]
    bad = replace(resolved, statements=statements)
    assert any(d.code == "E081" for d in Checker(bad).run())
    with pytest.raises(RulesdslError, match="no evaluation for the feature 'sparkle'"):
        evaluation.compile_evaluation((feature,), None, lambda state, player: 0, [], lambda: "")
