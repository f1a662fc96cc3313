"""Test suites beside rule files: ``NAME.tests.yaml`` next to ``NAME.rules``.

A suite is a YAML list of cases. Each case may set ``options``, start from a
``position`` (default: the start) with a ``history`` of earlier boards, and
expects ``moves`` (compared as sets), ``perft`` counts for depths 1..n, or a
``result``. The format is described in ``docs/suites.md``.

Every problem is a :class:`Diagnostic` at ``file.tests.yaml:LINE:COL`` (from
the YAML node marks), never a traceback: malformed YAML is one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from rulesdsl import model as m
from rulesdsl.errors import Diagnostic, OptionError, PositionError, RulesdslError, Span, line_of, suggest
from rulesdsl.expr import ExprError
from rulesdsl.interpreter.compile.compiler import compile_game
from rulesdsl.interpreter.compile.game import position_hint
from rulesdsl.interpreter.compile.load import load_position
from rulesdsl.limits import MAX_DIGITS, MAX_SUITE_BYTES, MAX_SUITE_CASES, shown
from rulesdsl.options import fold_options, option_hint, option_values
from rulesdsl.sources import what_it_is
from rulesdsl.verify.examples import check_expectation

SUITE_SUFFIX = ".tests.yaml"
RULES_SUFFIX = ".rules"
KEYS = ("name", "options", "position", "history", "moves", "perft", "result")
EXPECTATIONS = ("moves", "perft", "result")
VERBS = ("wins", "loses")


# ---- the model ---------------------------------------------------------------------


@dataclass(frozen=True)
class Expectation:
    """What must hold in a case's position: ``kind`` as in rule-file examples.

    ``kind`` is ``moves`` (values: move strings), ``perft`` (counts), ``win``
    (player, ``wins``/``loses``), ``draw`` or ``ongoing`` (the ``result: none``).
    """

    kind: str
    values: tuple
    span: Span


@dataclass(frozen=True)
class Setting:
    """One ``name: value`` of a case's options, as written (YAML's text)."""

    name: str
    value: str
    span: Span
    value_span: Span


@dataclass(frozen=True)
class Case:
    """One test case of a suite."""

    name: str
    span: Span
    label: str = ""  # how messages name the case: ``case 'its name'`` or ``case 3``
    settings: tuple[Setting, ...] = ()
    options_span: Span | None = None
    position: str | None = None
    position_span: Span | None = None
    history: tuple[str, ...] = ()
    history_span: Span | None = None
    expectations: tuple[Expectation, ...] = ()


@dataclass
class Suite:
    """A loaded suite: its cases that are well formed, and the text for carets."""

    path: str
    text: str = ""
    cases: list[Case] = field(default_factory=list)

    def attach(self, diagnostic: Diagnostic) -> Diagnostic:
        """The diagnostic with its source line filled in."""
        source = line_of(self.text, diagnostic.span.line)
        if diagnostic.source_line or not source:
            return diagnostic
        return replace(diagnostic, source_line=source)


@dataclass(frozen=True)
class SuiteResult:
    """The findings of one suite and how many of its cases ran."""

    path: str
    diagnostics: list[Diagnostic]
    cases: int
    passed: int


def suite_for(rules_path: Path) -> Path:
    """Where the suite of a rule file lives: ``NAME.rules`` -> ``NAME.tests.yaml``."""
    name = rules_path.name
    stem = name[: -len(RULES_SUFFIX)] if name.endswith(RULES_SUFFIX) else name
    return rules_path.with_name(stem + SUITE_SUFFIX)


def rules_for(suite_path: Path) -> Path:
    """The rule file a suite belongs to: ``NAME.tests.yaml`` -> ``NAME.rules``."""
    return suite_path.with_name(suite_path.name[: -len(SUITE_SUFFIX)] + RULES_SUFFIX)


# ---- loading -------------------------------------------------------------------------


class _Invalid(Exception):
    """A malformed part of a case: where, what, and a hint."""

    def __init__(self, span: Span, message: str, hint: str = ""):
        super().__init__(message)
        self.span = span
        self.message = message
        self.hint = hint


def _span(node: yaml.Node, path: str) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(start.line + 1, start.column + 1, end.line + 1, end.column + 1, path)


def _describe(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if node.tag.endswith(":null"):
        return "nothing"
    return repr(node.value)


class _Reader:
    """Turns the composed YAML nodes of one suite into cases, collecting every problem."""

    def __init__(self, path: str):
        self.path = path
        self.found: list[Diagnostic] = []

    def span(self, node: yaml.Node) -> Span:
        return _span(node, self.path)

    def text(self, node: yaml.Node, what: str) -> str:
        """A scalar as written (so ``off`` stays ``off``, not false)."""
        if not isinstance(node, yaml.ScalarNode) or node.tag.endswith(":null"):
            raise _Invalid(self.span(node), f"{what} must be a string, not {_describe(node)}",
                           "quote it, e.g. '(w \"\" wbwb bwb- w-wb)'" if what == "position" else "")
        return node.value

    def strings(self, node: yaml.Node, what: str, example: str, label: str) -> tuple[str, ...]:
        if not isinstance(node, yaml.SequenceNode):
            raise _Invalid(self.span(node), f"{label}: {what} must be a list, not {_describe(node)}",
                           f"write e.g. {example}")
        return tuple(self.text(item, f"each of {what}") for item in node.value)

    def cases(self, root: yaml.Node | None) -> list[Case]:
        if root is None:
            return []
        if not isinstance(root, yaml.SequenceNode):
            message = f"a suite is a list of cases, not {_describe(root)}"
            self.found.append(Diagnostic(self.span(root), message, "E301",
                                         hint="start each case with '- ', e.g. - name: the start"))
            return []
        if len(root.value) > MAX_SUITE_CASES:
            self.found.append(Diagnostic(self.span(root), f"a suite has at most {MAX_SUITE_CASES} cases, "
                                         f"this one {len(root.value)}", "E301", hint="split it"))
            return []
        out = []
        for number, node in enumerate(root.value, start=1):
            try:
                out.append(self.case(node, number))
            except _Invalid as problem:
                self.found.append(Diagnostic(problem.span, problem.message, "E301", hint=problem.hint))
        return out

    def case(self, node: yaml.Node, number: int) -> Case:
        if not isinstance(node, yaml.MappingNode):
            raise _Invalid(self.span(node), f"case {number} must be a mapping of keys, not {_describe(node)}",
                           f"keys: {', '.join(KEYS)}")
        fields: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key not in KEYS:
                close = suggest(str(key), KEYS)
                raise _Invalid(self.span(key_node), f"case {number}: unknown key {key!r}",
                               f"did you mean {close!r}?" if close else f"keys: {', '.join(KEYS)}")
            if key in fields:
                raise _Invalid(self.span(key_node), f"case {number}: {key!r} is given twice")
            fields[key] = (key_node, value_node)
        name = self.text(fields["name"][1], "name") if "name" in fields else f"case {number}"
        label = f"case {name!r}" if "name" in fields else f"case {number}"
        case = Case(name, self.span(node), label)
        if not any(key in fields for key in EXPECTATIONS):
            raise _Invalid(self.span(node), f"{label} expects nothing",
                           "give moves, perft or result (or several)")
        if "options" in fields:
            case = self.options(case, fields["options"][1], label)
        if "position" in fields:
            value = fields["position"][1]
            case = replace(case, position=self.text(value, "position"), position_span=self.span(value))
        if "history" in fields:
            value = fields["history"][1]
            case = replace(case, history=self.strings(value, "history", "[board, board]", label),
                           history_span=self.span(value))
        expectations = []
        for key in EXPECTATIONS:
            if key in fields:
                expectations.append(self.expectation(key, fields[key][1], label))
        return replace(case, expectations=tuple(expectations))

    def options(self, case: Case, node: yaml.Node, label: str) -> Case:
        if not isinstance(node, yaml.MappingNode):
            raise _Invalid(self.span(node), f"{label}: options must be a mapping, not {_describe(node)}",
                           "write e.g. options: {rows: 4, cols: 4}")
        settings = []
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise _Invalid(self.span(key_node), f"{label}: an option's name must be a word")
            if any(s.name == key_node.value for s in settings):
                raise _Invalid(self.span(key_node), f"{label}: option {key_node.value!r} is set twice")
            value = self.text(value_node, f"option {key_node.value}")
            if len(value.strip().lstrip("+-")) > MAX_DIGITS and value.strip().lstrip("+-").isdigit():
                raise _Invalid(self.span(value_node), f"{label}: option {shown(key_node.value, 40)}: a number has "
                               f"at most {MAX_DIGITS} digits, this one {len(value.strip().lstrip('+-')):,}")
            settings.append(Setting(key_node.value, value, self.span(key_node), self.span(value_node)))
        return replace(case, settings=tuple(settings), options_span=self.span(node))

    def expectation(self, key: str, node: yaml.Node, label: str) -> Expectation:
        span = self.span(node)
        if key == "moves":
            return Expectation("moves", self.strings(node, "moves", "[b2-d2, pass]", label), span)
        if key == "perft":
            if not isinstance(node, yaml.SequenceNode) or not node.value:
                raise _Invalid(span, f"{label}: perft must be a list of counts for depths 1, 2, ...",
                               "write e.g. perft: [1, 1, 2]")
            counts = []
            for item in node.value:
                digits = item.value.replace("_", "") if isinstance(item, yaml.ScalarNode) else ""
                # Plain decimal digits only: YAML 1.1 also reads 1:00 (sexagesimal), 0x1F and 0o17 as ints.
                if not (item.tag.endswith(":int") and digits.isascii() and digits.isdigit()):
                    raise _Invalid(self.span(item), f"{label}: a perft count is a whole number >= 0, "
                                   f"not {_describe(item)}")
                if len(digits) > MAX_DIGITS:
                    raise _Invalid(self.span(item), f"{label}: a perft count has at most {MAX_DIGITS} digits")
                counts.append(int(digits))
            return Expectation("perft", tuple(counts), span)
        text = self.text(node, "result")
        words = text.lower().split()
        if words == ["draw"]:
            return Expectation("draw", (), span)
        if words == ["none"]:
            return Expectation("ongoing", (), span)
        if len(words) == 2 and words[1] in VERBS:
            return Expectation("win", (text.split()[0], words[1]), span)
        raise _Invalid(span, f"{label}: result {text!r} is not a result",
                       "write 'PLAYER wins', 'PLAYER loses', 'draw', or 'none' for a game that is not over")


class _SafeSuiteLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing aliases and nesting deeper than a suite needs.

    Aliases make a small file stand for a huge tree (billion laughs); deep
    nesting would exhaust Python's stack. Neither has a use in a suite.
    """

    MAX_NESTING = 20

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in a suite",
                                              self.peek_event().start_mark)
        self._depth = getattr(self, "_depth", 0) + 1
        try:
            if self._depth > self.MAX_NESTING:
                raise yaml.composer.ComposerError(None, None, f"nested more than {self.MAX_NESTING} levels deep",
                                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_suite(path: Path) -> tuple[Suite, list[Diagnostic]]:
    """Read and validate the shape of a suite; problems found come back as diagnostics."""
    name = str(path)
    suite = Suite(name)
    problem = what_it_is(path, MAX_SUITE_BYTES)
    if problem:
        return suite, [Diagnostic(Span(0, 0, file=name), f"cannot read the suite: it {problem}", "E300")]
    try:
        suite.text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return suite, [Diagnostic(Span(0, 0, file=name), f"cannot read the suite: {error}", "E300")]
    try:
        root = yaml.compose(suite.text, Loader=_SafeSuiteLoader)
    except yaml.YAMLError as error:
        return suite, [suite.attach(_yaml_diagnostic(error, name))]
    reader = _Reader(name)
    suite.cases = reader.cases(root)
    return suite, [suite.attach(d) for d in reader.found]


def _yaml_diagnostic(error: yaml.YAMLError, path: str) -> Diagnostic:
    """One line for a YAML syntax error, at its place."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    context = getattr(error, "context", None)
    message = f"invalid YAML: {problem}" + (f" ({context})" if context else "")
    if mark is None:
        return Diagnostic(Span(0, 0, file=path), message, "E300")
    span = Span(mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2, path)
    return Diagnostic(span, message, "E300", hint="a suite is a YAML list of cases; see docs/suites.md")


# ---- checking against the rule file, and running ---------------------------------------------


def _option_place(case: Case, message: str) -> tuple[Span, str]:
    """The setting an option error is about (else the options mapping), and its name."""
    found = re.search(r"option '?(\w+)'?", message)
    for setting in case.settings:
        if found and setting.name == found.group(1):
            return setting.value_span, setting.name
    return case.options_span or case.span, found.group(1) if found else ""


def _validate(case: Case, resolved) -> list[Diagnostic]:
    """Option names and values, and the player a result names, against the rule file."""
    decls = {d.name: d for d in resolved.of(m.OptionDecl)}
    out = []
    for setting in case.settings:
        if setting.name not in decls:
            close = suggest(setting.name, decls)
            hint = f"did you mean {close!r}?" if close else f"options: {', '.join(decls) or 'none'}"
            message = f"{case.label}: unknown option {setting.name!r}"
            out.append(Diagnostic(setting.span, message, "E302", hint=hint))
    known = {s.name: s.value for s in case.settings if s.name in decls}
    if known:
        try:
            option_values(resolved, known)
        except OptionError as error:
            span, name = _option_place(case, str(error))
            values = _values(resolved, case)
            hint = option_hint(decls[name], values) if name in decls and values is not None else ""
            out.append(Diagnostic(span, f"{case.label}: {error}", "E302", hint=hint))
    players = [p for s in resolved.of(m.Players)[:1] for p in s.players]
    for expectation in case.expectations:
        if expectation.kind == "win":
            who = expectation.values[0].lower()
            if not any(who in (p.name.lower(), p.symbol.lower()) for p in players):
                names = [p.name for p in players]
                close = suggest(who, names)
                message = f"{case.label}: {expectation.values[0]!r} is not a player"
                hint = f"did you mean {close!r}?" if close else f"players: {', '.join(names)}"
                out.append(Diagnostic(expectation.span, message, "E304", hint=hint))
    return out


def _values(resolved, case: Case) -> dict[str, object] | None:
    """Option values with the case's settings (as far as they read), for range hints."""
    def lenient(decl: m.OptionDecl, default: object, raw: str) -> object:
        whole = isinstance(default, int) and not isinstance(default, bool)
        if whole and re.fullmatch(rf"-?\d{{1,{MAX_DIGITS}}}", raw.strip()):
            return int(raw)
        return default

    try:
        return fold_options(resolved.of(m.OptionDecl), settings={s.name: s.value for s in case.settings},
                            convert=lenient)
    except ExprError:
        return None


def _run_case(case: Case, resolved) -> list[Diagnostic]:
    """Set the case up and test each expectation."""
    label = case.label
    try:
        game = compile_game(resolved, option_values(resolved, {s.name: s.value for s in case.settings}))
    except RulesdslError as error:
        place = case.options_span or case.span
        return [Diagnostic(place, f"{label}: cannot set up the game: {error}", "E302")]
    if case.position is not None:
        try:
            game, state = load_position(game, case.position)
        except PositionError as error:
            place = case.position_span or case.span
            return [Diagnostic(place, f"{label}: {error}", "E303", hint=position_hint(game))]
    else:
        try:
            state = game.initial_state()
        except PositionError as error:
            return [Diagnostic(case.span, f"{label}: {error}", "E303", hint="give the case a position")]
    if case.history:
        try:
            state = game.with_history(state, list(case.history))
        except PositionError as error:
            return [Diagnostic(case.history_span or case.span, f"{label}: history: {error}", "E303")]
    out = []
    for expectation in case.expectations:
        try:
            problem = check_expectation(game, state, expectation.kind, expectation.values)
        except RulesdslError as error:
            problem = str(error)
        if problem is not None:
            out.append(Diagnostic(expectation.span, f"{label}: {problem}", "E310"))
    return out


def run_suite(suite: Suite, resolved) -> SuiteResult:
    """Check every case against the rule file and run it; one diagnostic per problem."""
    found: list[Diagnostic] = []
    passed = 0
    for case in suite.cases:
        problems = _validate(case, resolved)
        if not any(d.code == "E302" for d in problems):  # the options are fine: set the case up
            unknown_player = {d.span for d in problems if d.code == "E304"}
            runnable = replace(case, expectations=tuple(e for e in case.expectations
                                                        if e.span not in unknown_player))
            try:
                problems += _run_case(runnable, resolved)
            except Exception as error:  # a bug below the suite: one line, never a traceback
                problems.append(Diagnostic(case.span, f"{case.label}: internal error: "
                                           f"{type(error).__name__}: {error}", "E399"))
        passed += not problems
        found += problems
    return SuiteResult(suite.path, [suite.attach(d) for d in found], len(suite.cases), passed)


def check_suite(path: Path, resolved=None) -> SuiteResult:
    """Load a suite and, when the rule file is given (it checked clean), run it."""
    suite, found = load_suite(path)
    if resolved is None:
        return SuiteResult(suite.path, found, len(suite.cases), 0)
    result = run_suite(suite, resolved)
    return SuiteResult(suite.path, found + result.diagnostics, result.cases, result.passed)
