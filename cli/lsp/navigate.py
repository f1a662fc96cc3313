"""Declarations, the outline and go to definition, read line by line so that a broken file works too.

Every statement starts with its keyword (``rulesdsl fmt`` puts each on a line
of its own), so a scan of the lines finds what a file declares even when a
syntax error elsewhere stops the parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types as lsp

from rulesdsl.loader import find_rules

STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Declaration:
    """A declared name: what it is (``option``, ``player``, ``piece``, ``directions``), where, and its line."""

    name: str
    kind: str
    line: int      # 0-based
    column: int    # 0-based
    text: str      # the declaring line, for hovers


def code_of(line: str) -> str:
    """A line with its strings blanked and its comment cut (same length up to the comment)."""
    masked = STRING.sub(lambda m: m.group()[0] + " " * (len(m.group()) - 2) + m.group()[0], line)
    cut = masked.find("#")
    return masked if cut < 0 else masked[:cut]


def declarations(text: str) -> list[Declaration]:
    """Every option, player, piece kind and direction set the text declares, in order."""
    found: list[Declaration] = []
    for number, raw in enumerate(text.split("\n")):
        code = code_of(raw)
        words = [(m.group(), m.start()) for m in NAME.finditer(code)]
        if not words:
            continue
        head = words[0][0]
        if head in ("option", "directions", "piece") and len(words) > 1:
            kind = {"option": "option", "directions": "direction set", "piece": "piece"}[head]
            found.append(Declaration(words[1][0], kind, number, words[1][1], raw.strip()))
            if head == "piece":  # the owners named after the kind are references, not declarations
                continue
        elif head == "players":
            for match in re.finditer(r"(?:players|,)\s*([A-Za-z_][A-Za-z0-9_]*)", code):
                found.append(Declaration(match.group(1), "player", number, match.start(1), raw.strip()))
    return found


def word_at(text: str, line: int, character: int) -> tuple[str, int, int] | None:
    """The word (letters, digits, ``_``, ``-``) under a 0-based position: ``(word, start, end)``."""
    lines = text.split("\n")
    if line >= len(lines):
        return None
    for match in NAME.finditer(lines[line]):
        if match.start() <= character <= match.end():
            return match.group(), match.start(), match.end()
    return None


def in_string_or_comment(text: str, line: int, character: int) -> bool:
    """Whether a position is inside a string or a comment."""
    lines = text.split("\n")
    if line >= len(lines):
        return False
    raw, code = lines[line], code_of(lines[line])
    return character > len(code) or any(m.start() < character < m.end() for m in STRING.finditer(raw))


def definition(text: str, path: str, line: int, character: int) -> tuple[str, lsp.Range] | None:
    """Where the name under the cursor is declared, or the file an ``extends`` line names: ``(path, range)``."""
    lines = text.split("\n")
    if line < len(lines):
        extends = re.match(r"\s*extends\s+(\"[^\"]*\"|'[^']*')", lines[line])
        if extends and extends.start(1) <= character <= extends.end(1):
            target = find_rules(extends.group(1)[1:-1], Path(path).parent)
            if target is None:
                return None
            return str(target.resolve()), lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    if in_string_or_comment(text, line, character):
        return None
    word = word_at(text, line, character)
    if word is None:
        return None
    for decl in declarations(text):
        if decl.name == word[0]:
            start = lsp.Position(decl.line, decl.column)
            return path, lsp.Range(start, lsp.Position(decl.line, decl.column + len(decl.name)))
    return None


SYMBOL_KINDS = {
    "game": lsp.SymbolKind.File, "extends": lsp.SymbolKind.Module, "option": lsp.SymbolKind.Variable,
    "players": lsp.SymbolKind.Enum, "piece": lsp.SymbolKind.Class, "directions": lsp.SymbolKind.Constant,
    "moves": lsp.SymbolKind.Function, "then": lsp.SymbolKind.Function, "start": lsp.SymbolKind.Constructor,
    "end": lsp.SymbolKind.Event, "evaluate": lsp.SymbolKind.Operator, "example": lsp.SymbolKind.Method,
}


def _block_end(lines: list[str], first: int) -> tuple[int, int]:
    """The line and column after the ``}`` that closes a block opened on line ``first`` (or the line's end)."""
    depth, opened = 0, False
    for number in range(first, len(lines)):
        code = code_of(lines[number])
        for column, ch in enumerate(code):
            if ch == "{":
                depth, opened = depth + 1, True
            elif ch == "}" and opened:
                depth -= 1
                if depth == 0:
                    return number, column + 1
        if not opened and number == first:
            return first, len(lines[first].rstrip())
    return len(lines) - 1, len(lines[-1])


def document_symbols(text: str) -> list[lsp.DocumentSymbol]:
    """The outline: game, options, players, pieces, direction sets, moves, start, end rules, examples."""
    lines = text.split("\n")
    symbols: list[lsp.DocumentSymbol] = []
    for number, raw in enumerate(lines):
        code = code_of(raw)
        head = NAME.match(code.lstrip())
        if head is None or head.group() not in SYMBOL_KINDS or raw[:1].isspace():
            continue
        keyword = head.group()
        column = len(raw) - len(raw.lstrip())
        end_line, end_column = _block_end(lines, number)
        rest = raw[column + len(keyword):].split("#")[0].strip().rstrip("{").strip()
        detail = keyword
        name = f"{keyword} {rest}".strip() if rest else keyword
        if keyword in ("option", "piece", "directions"):
            words = NAME.findall(code)
            name = words[1] if len(words) > 1 else keyword
        elif keyword in ("game", "example", "extends"):
            quoted = STRING.search(raw)
            name = f"{keyword} {quoted.group()}" if quoted else keyword
        full = lsp.Range(lsp.Position(number, column), lsp.Position(end_line, end_column))
        pick = lsp.Range(lsp.Position(number, column), lsp.Position(number, column + len(keyword)))
        children = None
        if keyword == "end":
            children = [lsp.DocumentSymbol(name=lines[n].strip(), kind=lsp.SymbolKind.Event,
                                           range=lsp.Range(lsp.Position(n, 0), lsp.Position(n, len(lines[n]))),
                                           selection_range=lsp.Range(lsp.Position(n, 0), lsp.Position(n, 0)))
                        for n in range(number + 1, end_line) if code_of(lines[n]).strip()]
        symbols.append(lsp.DocumentSymbol(name=name, kind=SYMBOL_KINDS[keyword], range=full, selection_range=pick,
                                          detail=detail, children=children))
    return symbols
