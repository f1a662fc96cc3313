"""Syntax errors for people: what the parser expected, in words, with a hint.

lark reports a failure as a token it did not expect and the terminals it
would have taken. This module turns that into one diagnostic a newcomer
understands: readable names for terminals, a did-you-mean for misspelt
keywords, advice for characters the language does not use, and the place of
an unclosed brace. After the first error, each later statement is parsed on
its own so that one run reports one error per broken statement.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulesdsl.errors import Diagnostic, Span, line_of
from rulesdsl.grammar import grammar_parser
from rulesdsl.vocabulary import ACTIONS, FEATURES, conditions_hint, moving_actions, or_list

TERMINAL_WORDS = {
    "NAME": "a name", "STRING": "a quoted string", "INT": "a whole number",
    "SIGNED_NUMBER": "a number", "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('",
    "RPAR": "')'", "COMMA": "','", "EQUAL": "'='", "ACTION": or_list(moving_actions()),
    "FIELD": "turn, last, rows or board", "RESULT": "wins or loses", "PLACING": "finishes or is out",
    "FEATURE": or_list(list(FEATURES)),
    "AXIS": "column or row", "MOVE_PART": "from, to or a quoted string",
    "PIECE_CHOICE": "any or same", "FREEZE_MODE": "strict or loose",
    "FORBIDDEN": "repetition, immediate repetition, suicide or corner push-off", "COMPARE": "a comparison",
    "LISTING": "top first or bottom first", "FROM_END": "from top or from right", "OR_PASS": "or pass",
    "RELDIR": "a direction such as forward-left", "AGAIN_MODE": "in one move, in same direction or to new cells",
    "MOST": "most", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/' or '%'", "WS": "a space",
    "COMMENT": "a comment", "ANY_LENGTH": "of any length", "STYLE": "points", "DECIMAL": "a number",
    "LANDING": "by landing",
    "SENT": "in sent board", "TURN_WAY": "clockwise, anticlockwise, either way, half round or over",
    "BOARD_PARTS": "corners or edges", "FROM_HAND": "from hand", "ONE_PER_COLUMN": "one per column",
}


# End conditions people write that the language says another way: what to write instead.
CONDITION_INSTEAD = {
    "board full": "a full board leaves no empty cell to place on: write 'draw if no moves'",
    "board is full": "a full board leaves no empty cell to place on: write 'draw if no moves'",
    "stalemate": "write 'draw if no moves' (or 'mover loses if no moves')",
}

STATEMENT_WORDS = ("game", "extends", "option", "players", "forward", "board", "cells", "rectangle", "boards",
                   "position", "notation", "directions", "piece", "start", "moves", "again", "then", "freeze",
                   "forbid", "end", "misere", "pass", "promote", "must", "evaluate", "example", "style")
OPERATORS = {"ADD_OP", "MUL_OP", "COMPARE", "AND", "OR"}
# What a newcomer most likely meant by a character the language does not use.
CHAR_HINTS = {
    ";": "statements need no ';': just start the next one",
    ":": "blocks are written in braces, e.g. moves { ... }; line breaks and indentation mean nothing",
    "\u00d7": "write the letter x, as in board grid 8 x 8",
    "\u201c": "use straight quotes \" or '", "\u201d": "use straight quotes \" or '",
    "\u2018": "use straight quotes \" or '", "\u2019": "use straight quotes \" or '",
    "[": "lists are written with commas, without brackets",
    "]": "lists are written with commas, without brackets",
    "&": "write 'and'", "|": "write 'or'", "!": "write 'not', or '!=' for 'is not equal'",
}


@lru_cache(maxsize=1)
def _terminal_info() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """For each terminal: how to name it in a message, and the words it stands for."""
    shown: dict[str, str] = {"$END": "end of file"}
    words: dict[str, tuple[str, ...]] = {}
    for terminal in grammar_parser().terminals:
        pattern = terminal.pattern
        if pattern.type == "str":
            value = pattern.value
            is_word = value.replace(" ", "").isalpha()
            shown[terminal.name] = value if is_word else f"'{value}'"
            if is_word:
                words[terminal.name] = (value,)
        elif terminal.name in TERMINAL_WORDS:  # "step, jump, slide or push": the words themselves
            found = re.split(r", | or ", TERMINAL_WORDS[terminal.name])
            words[terminal.name] = tuple(w for w in found if not w.startswith(("a ", "an ")))
        shown.setdefault(terminal.name, TERMINAL_WORDS.get(terminal.name, terminal.name.lower()))
        if terminal.name in TERMINAL_WORDS:
            shown[terminal.name] = TERMINAL_WORDS[terminal.name]
    return shown, words


def _or_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def describe_expected(expected: set[str]) -> str:
    """A readable list of what the parser would have accepted."""
    shown, _ = _terminal_info()
    names = set(expected)
    statements = {n for n in names if shown.get(n) in STATEMENT_WORDS}
    starts_statement = len(statements) >= 10
    if starts_statement:
        names -= statements | {"$END"}
    operators = names & OPERATORS
    if len(operators) >= 2:
        names -= operators
    items = sorted({shown.get(n, n.lower()) for n in names - {"RESULT", "PLACING"}})
    if {"RESULT", "PLACING"} <= names:  # after a player: what becomes of it, in one list
        items.insert(0, "wins, loses, finishes or is out")
    elif names & {"RESULT", "PLACING"}:
        items.insert(0, shown.get(min(names & {"RESULT", "PLACING"}), ""))
    if len(items) > 6:
        items = items[:6] + ["..."]
    if len(operators) >= 2:
        items.append("an operator")
    if starts_statement:
        items.append("a statement (game, option, players, board, piece, start, moves, end, ...)")
    return _or_list(items) if items else "nothing more"


def _expected(error: UnexpectedInput) -> set[str]:
    """What could come next: exactly, from the parser's state when lark gives it."""
    parser = getattr(error, "interactive_parser", None)
    if parser is not None:
        try:
            return set(parser.accepts())
        except Exception:  # fall back on lark's own (looser) list
            pass
    return set(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())


def _braces(text: str, end: int) -> tuple[list[tuple[int, int]], tuple[int, str] | None]:
    """Before offset ``end``: the ``{`` still open (line, column) and the last significant character."""
    open_at: list[tuple[int, int]] = []
    last: tuple[int, str] | None = None
    line, line_start, i = 1, 0, 0
    while i < min(end, len(text)):
        char = text[i]
        if char == "\n":
            line, line_start = line + 1, i + 1
        elif char == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif char in "\"'":
            close = i + 1
            while close < len(text) and text[close] not in (char, "\n"):
                close += 2 if text[close] == "\\" else 1
            last = (line, char)
            i = close + 1
            continue
        elif not char.isspace():
            if char == "{":
                open_at.append((line, i - line_start + 1))
            elif char == "}" and open_at:
                open_at.pop()
            last = (line, char)
        i += 1
    return open_at, last


def _token_hint(error: UnexpectedToken, expected: set[str], text: str) -> str:
    """The likeliest fix for an unexpected token, or ``""``."""
    shown, words = _terminal_info()
    token = error.token
    value = str(token)
    offset = token.start_pos if token.type != "$END" and token.start_pos is not None else len(text)
    open_at, last = _braces(text, offset)
    is_statement = value in STATEMENT_WORDS or token.type == "$END"
    after = text[offset + len(value):].lstrip(" \t")
    if (value in ("start", "moves", "end", "evaluate") and "NAME" in expected
            and not after.startswith(("{", "if", '"', "'"))):
        return f"{value!r} is a keyword: it cannot be used as a name"
    if "RBRACE" in expected and open_at and is_statement:
        where = f"line {open_at[-1][0]}"
        if token.type == "$END":
            return f"the '{{' on {where} is never closed: add '}}'"
        return (f"{value!r} starts a statement, but the block opened on {where} is still open: "
                "is a '}' missing?")
    statements = {n for n in expected if shown.get(n) in STATEMENT_WORDS}
    # A word of the language in the wrong place ('and' after a block) is no misspelling of another.
    if value.replace("_", "").isalnum() and not value.isdigit() and not _is_keyword(value):
        candidates = sorted({w for n in expected for w in words.get(n, ())})
        close = difflib.get_close_matches(value, candidates, n=1, cutoff=0.75)
        if close and close[0] != value:
            return f"did you mean {close[0]!r}?"
    if value == "}" and not open_at:
        return "this '}' has no '{' to close: remove it"
    if value == "=" and "COMPARE" in expected:
        return "compare with '=='"
    if "X" in expected and value[:1] in "xX" and value[1:].isdigit():
        return "put spaces around x, as in board grid 8 x 8"
    indented = token.type != "$END" and (token.column or 1) > 1
    if len(statements) >= 10 and last is not None and last[1] == "}" and indented and not is_statement:
        return (f"the '}}' on line {last[0]} closes its block before this indented line: "
                "is it one too early?")
    if "LBRACE" in expected and last is not None and token.type != "$END" and (token.line or 0) > last[0]:
        return ("a block is written in braces: '{' after its keyword, '}' at its end; "
                "indentation means nothing")
    if value == "{" and "LBRACE" not in expected:
        return "only start, moves, end and evaluate open a block"
    if token.type in ("INT", "SIGNED_NUMBER") and re.search(r"\bstart\s*\{[^{}]*$", text[:offset]):
        return ("a cell holds one piece, so a start gives no counts: name each cell of a kind, "
                "e.g. 'stone black at a1, b1, c1'")
    if "ACTION" in expected and value == ",":  # 'stone, gem step all'
        return (f"a move rule names one piece kind, then {describe_expected(expected)}: write one rule per kind "
                f"('KIND step all' on a line for each); {VERB_FIRST}")
    if "ACTION" in expected:
        return f"expected {describe_expected(expected)}; {VERB_FIRST}"
    return f"expected {describe_expected(expected)}" if expected else ""


ROLES = ("mover", "opponent")
VERB_FIRST = "place, fly and remove come before the kind ('place KIND', 'fly KIND', 'remove KIND')"
# Statements that people put inside 'moves { ... }' although they stand on their own after it.
OWN_STATEMENTS = ("promote", "again", "then", "freeze", "forbid", "must", "pass")
END_CONDITIONS = conditions_hint()


def declared_names(text: str) -> set[str]:
    """Piece kinds and players that the text declares, and the roles ``mover``/``opponent``."""
    names = set(ROLES)
    names.update(re.findall(r"^\s*piece\s+([A-Za-z_]\w*)", text, re.M))
    for line in re.findall(r"^\s*players\b(.*)$", text, re.M):
        names.update(re.findall(r"([A-Za-z_]\w*)\s*[\"']", line))
    return names


def _accepted_before(text: str, offset: int) -> tuple[set[str], list[Token]]:
    """What the parser would take at ``offset`` (which starts a token), and the tokens before it."""
    try:
        parser = grammar_parser().parse_interactive(text[:offset])
        tokens = list(parser.exhaust_lexer())
        return set(parser.accepts()), tokens
    except Exception:  # only a courtesy for the message: fall back on the plain report
        return set(), []


def _condition_written_otherwise(previous, text: str) -> tuple[Token, int, str, str] | None:
    """An end condition the language writes another way (``draw if board full``), whichever word fails."""
    if not isinstance(previous, Token) or previous.line is None:
        return None
    line = line_of(text, previous.line)
    found = re.search(r"\bif\s+([^#{}]*)", line)
    if not found:
        return None
    shown_text = found.group(1).strip()
    instead = CONDITION_INSTEAD.get(" ".join(shown_text.lower().split()))
    if instead is None:
        return None
    at = Token("NAME", shown_text, line=previous.line, column=found.start(1) + 1)
    return at, len(shown_text), f"unknown end condition {shown_text!r}", f"{instead}; conditions: {END_CONDITIONS}"


def _word_before(previous, expected: set[str], text: str, declared: set[str]) -> tuple[Token, int, str, str] | None:
    """When the real mistake is the name just before the unexpected token: ``(token, width, message, hint)``.

    A name after a complete move rule or end condition reads as the piece kind
    or player that starts the next one, so the parser only fails at the word
    after it: ``over enemy captur }`` (a misspelt option), ``step orthogonal
    onto enemy`` (a word the rule does not take), ``place arrow slide all``
    (an action where the rule is complete). When that name is a declared
    piece kind or player, the word after it is indeed the mistake.
    """
    if not isinstance(previous, Token) or previous.type != "NAME" or not expected & {"ACTION", "RESULT"}:
        return None
    word = str(previous)
    if word in declared or (re.search(r"^\s*extends\b", text, re.M) and word.isidentifier()
                                        and not _is_keyword(word)):
        return None
    before, tokens = _accepted_before(text, previous.start_pos)
    shown, words = _terminal_info()
    vocabulary = sorted({w for n in before for w in words.get(n, ()) if " " not in w})
    close = difflib.get_close_matches(word, vocabulary, n=1, cutoff=0.75)
    if close and close[0] != word:
        return previous, len(word), f"unexpected {word!r}", f"did you mean {close[0]!r}?"
    if "ACTION" in expected and before:
        # words that start the next rule
        starts = ("NAME", "RBRACE", "PLACE", "FLY", "REMOVE", "SOW", "PASS", "TURN", "WALK", "BUILD", "SWAP", "DROP")
        goes_on = _continuations({shown.get(n, n) for n in before} - {shown.get(n) for n in starts}, tokens)
        if word in OWN_STATEMENTS:
            return (previous, len(word), f"unexpected {word!r}",
                    f"'{word}' is a statement of its own, not a move rule: write it after the moves block's "
                    "closing '}'")
        why = f"{word!r} is not a piece kind, so it cannot start a move rule"
        if goes_on:  # after a complete rule (not at the start of a block)
            why += f"; the rule before it may go on with {_or_list(goes_on)}"
        return previous, len(word), f"unexpected {word!r}", why
    start = next((i + 1 for i in range(len(tokens) - 1, -1, -1) if str(tokens[i]) == "if"), None)
    if start is None or start >= len(tokens):
        return None
    first = tokens[start]
    line = line_of(text, first.line)
    shown_text = re.split(r"[#{}]", line[first.column - 1:])[0].strip()  # not the block's closing brace
    instead = CONDITION_INSTEAD.get(" ".join(shown_text.lower().split()))
    hint = f"{instead}; conditions: {END_CONDITIONS}" if instead else f"conditions: {END_CONDITIONS}"
    return first, len(shown_text), f"unknown end condition {shown_text!r}", hint


def _continuations(words: set[str], tokens: list[Token]) -> list[str]:
    """The words that may go on the move rule just read: its own action's modifiers, and those of no action
    in particular (``if``, ``when``)."""
    action = next((str(t) for t in reversed(tokens) if str(t) in ACTIONS), None)
    owned = {m.split()[0] for a in ACTIONS.values() for m in a.modifiers}
    own = {m.split()[0] for m in ACTIONS[action].modifiers} if action else owned
    return sorted(w for w in words if w not in owned or w in own)


def _is_keyword(word: str) -> bool:
    _, words = _terminal_info()
    return any(word in found for found in words.values())


def _end_of_text(lines: list[str]) -> tuple[int, int]:
    """Line and column just after the last non-blank line: where an unfinished file stops."""
    for number in range(len(lines), 0, -1):
        if lines[number - 1].strip():
            return number, len(lines[number - 1].rstrip()) + 1
    return 1, 1


def syntax_diagnostic(error: UnexpectedInput, path: str, text: str, declared: set[str] | None = None) -> Diagnostic:
    """One clear diagnostic for a lark parse failure.

    ``declared``: the piece kinds and players of the whole file, when ``text`` is a part of it.
    """
    lines = text.split("\n")
    line = getattr(error, "line", 0) or 0
    column = getattr(error, "column", 0) or 0
    expected = _expected(error)
    if isinstance(error, UnexpectedEOF) or line < 1:
        line, column = _end_of_text(lines)
        message = "unexpected end of file"
        open_at, _ = _braces(text, len(text))
        if open_at:
            hint = f"the '{{' on line {open_at[-1][0]} is never closed: add '}}'"
        else:
            hint = f"expected {describe_expected(expected)}" if expected else "a statement may be unfinished"
        width = 1
    elif isinstance(error, UnexpectedToken):
        token = error.token
        message = f"unexpected {str(token)!r}"
        width = max(1, len(str(token)))
        if token.type == "$END":
            message, width = "unexpected end of file", 1
            line, column = _end_of_text(lines)
        hint = _token_hint(error, expected, text)
        previous = (getattr(error, "token_history", None) or [None])[-1]
        blamed = _condition_written_otherwise(previous, text) or _word_before(
            previous, expected, text, declared_names(text) if declared is None else declared)
        if blamed is not None and not (hint.startswith("did you mean") and blamed[2].startswith("unexpected")):
            # ``over enemy captur }``: the word before reads as the next rule's piece kind; point at it.
            at, width, message, hint = blamed
            line, column = at.line, at.column
        elif "RESULT" in expected and token.type != "$END":
            hint += "; a draw is written: draw if CONDITION"
    elif isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        if char and char in "\"'":
            message = "unterminated string"
            hint = "close the quote on the same line"
        else:
            message = f"unexpected character {char!r}"
            if char in CHAR_HINTS:
                hint = CHAR_HINTS[char]
            elif expected and len(expected) <= 8:
                hint = f"expected {describe_expected(expected)}"
            else:
                hint = "this character has no meaning in a rule file"
        width = 1
    else:  # pragma: no cover - lark has no other kinds today
        message, hint, width = str(error).splitlines()[0], "", 1
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    span = Span(line, column, line, column + width, path)
    return Diagnostic(span, f"syntax error: {message}", "E001", hint=hint, source_line=source)


MAX_SYNTAX_ERRORS = 20


def later_syntax_errors(text: str, path: str, after_line: int) -> list[Diagnostic]:
    """The first syntax error of each statement that starts after ``after_line``.

    The parser stops at the first error. To report the others in the same run
    without a cascade of follow-on errors, each statement that starts a line
    (a statement word at column 1) after the first error is parsed on its own.
    """
    lines = text.split("\n")
    word = re.compile("(" + "|".join(STATEMENT_WORDS) + r")\b")
    starts = [i for i, line in enumerate(lines) if word.match(line) and i + 1 > after_line]
    found: list[Diagnostic] = []
    declared = declared_names(text)
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunk = "\n" * start + "\n".join(lines[start:end])  # the same line numbers as the file
        try:
            grammar_parser().parse(chunk)
        except UnexpectedInput as error:
            found.append(syntax_diagnostic(error, path, chunk, declared))
            if len(found) >= MAX_SYNTAX_ERRORS:
                break
    return found
