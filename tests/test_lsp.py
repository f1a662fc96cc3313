"""The language server, through the protocol: diagnostics, hover, completion, definition, outline, format."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsp_client import Client

from rulesdsl import vocabulary
from rulesdsl.cli.lsp.analysis import static_diagnostics
from rulesdsl.cli.lsp.complete import completions
from rulesdsl.cli.lsp.hover import hover
from rulesdsl.cli.lsp.navigate import definition, document_symbols

RULES = Path(__file__).resolve().parent.parent / "rules"

BROKEN = """\
game "Broken"
players white "w", black "b"
board grid 3 x 3
piece stone white "w", black "b"
start "(w www --- bbb)"
moves {
  stone jump orthogonl over enemy capture
}
end {
  mover wins if no moves
}
"""


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """One server for the module's tests (each opens its own documents), as an editor keeps one."""
    client = Client(tmp_path_factory.mktemp("workspace"))
    yield client
    client.close()


def open_doc(client: Client, path: Path, text: str) -> str:
    path.write_text(text)
    uri = path.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rulesdsl", "version": 1,
                                                            "text": text}})
    return uri


def change(client: Client, uri: str, text: str, version: int) -> None:
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})


def at(uri: str, line: int, character: int) -> dict:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def test_diagnostics_on_open_and_on_change(client, tmp_path):
    uri = open_doc(client, tmp_path / "broken.rules", BROKEN)
    [found] = client.diagnostics(uri)
    # line 7, column 14 (1-based) of the file: 'orthogonl' is not a direction (docs/language.md: E050)
    assert found["code"] == "E050" and found["severity"] == 1
    assert found["range"] == {"start": {"line": 6, "character": 13}, "end": {"line": 6, "character": 22}}
    assert "orthogonl" in found["message"] and "hint: did you mean 'orthogonal'?" in found["message"]
    change(client, uri, BROKEN.replace("orthogonl", "orthogonal"), 2)
    assert client.diagnostics(uri) == []
    change(client, uri, BROKEN.replace("capture\n}", "capture\n"), 3)
    [syntax, *_] = client.diagnostics(uri)
    assert syntax["code"] == "E001"
    change(client, uri, "\x00 }{ \"unterminated\n'\n#", 4)  # nonsense: findings, and the server goes on
    assert client.diagnostics(uri)
    assert client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) == []


def test_examples_run_on_save(client, tmp_path):
    wrong = "perft 1, 1, 2, 3, 4, 7, 11, 20"  # the file's hand-derived count at depth 8 is 19
    text = (RULES / "konane.rules").read_text().replace("perft 1, 1, 2, 3, 4, 7, 11, 19", wrong)
    uri = open_doc(client, tmp_path / "konane.rules", text)
    assert client.diagnostics(uri) == []  # as you type: the static checks only
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    codes = [d["code"] for d in client.diagnostics(uri)]
    assert codes == ["E100"]


def test_hover_completion_definition_symbols_formatting(client, tmp_path):
    text = (RULES / "checkers.rules").read_text()
    lines = text.split("\n")
    uri = open_doc(client, tmp_path / "checkers.rules", text)
    client.diagnostics(uri)
    rule = next(i for i, line in enumerate(lines) if line.startswith("  man jump"))
    piece = next(i for i, line in enumerate(lines) if line.startswith("piece man"))

    jump = client.request("textDocument/hover", at(uri, rule, 7))["contents"]["value"]
    assert jump.startswith("**jump**") and "language.md#15-moves" in jump
    assert vocabulary.ACTIONS["jump"].summary in jump  # the registry's one line
    man = client.request("textDocument/hover", at(uri, rule, 3))["contents"]["value"]
    assert f"declared on line {piece + 1}" in man and 'piece man black "b", white "w"' in man

    where = client.request("textDocument/definition", at(uri, rule, 3))
    assert where == {"uri": uri, "range": {"start": {"line": piece, "character": 6},
                                           "end": {"line": piece, "character": 9}}}

    change(client, uri, text.replace("  man jump forward-left", "  man jump "), 2)
    client.diagnostics(uri)
    labels = {item["label"] for item in client.request("textDocument/completion", at(uri, rule, 11))}
    assert {"diagonal", "orthogonal", "forward-left", "n"} <= labels and "man" not in labels

    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    names = [s["name"] for s in symbols]
    assert names[:4] == ['game "Checkers"', "size", "chains", "quiet"]
    assert {"man", "king", "moves", "end", 'example "start"'} <= set(names)

    change(client, uri, text.replace("must capture", "must    capture"), 3)
    client.diagnostics(uri)
    [edit] = client.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                        "options": {"tabSize": 2, "insertSpaces": True}})
    assert edit["newText"] == text


def test_go_to_the_extends_target(client, tmp_path):
    uri = open_doc(client, tmp_path / "variant.rules", 'extends "konane"\noption rows = 4 in 1..26\n')
    client.diagnostics(uri)
    where = client.request("textDocument/definition", at(uri, 0, 10))
    assert where["uri"].endswith("/konane.rules") and where["range"]["start"] == {"line": 0, "character": 0}


def test_a_crash_in_one_request_is_logged_and_the_server_goes_on(client, tmp_path, caplog):
    from rulesdsl.cli.lsp.server import guarded, make_server

    @guarded(make_server(), default="fallback")
    def broken(params):
        raise ZeroDivisionError("a bug")

    assert broken(None) == "fallback"
    assert "broken failed: ZeroDivisionError: a bug" in caplog.text
    uri = open_doc(client, tmp_path / "fine.rules", BROKEN)
    assert client.diagnostics(uri)[0]["code"] == "E050"


# ---- the same functions on any text: never an exception -------------------------------------------

SOURCES = [BROKEN] + [p.read_text() for p in sorted(RULES.glob("*.rules"))[:4]]


@settings(max_examples=60, deadline=None)
@given(source=st.sampled_from(SOURCES), cut=st.integers(0, 2000), length=st.integers(0, 40),
       junk=st.text(alphabet='{}()",#\n x=-.1aZ_', max_size=8), line=st.integers(0, 40), col=st.integers(0, 60))
def test_a_mangled_file_never_raises(tmp_path_factory, source, cut, length, junk, line, col):
    text = source[:cut] + junk + source[cut + length:]
    path = str(tmp_path_factory.mktemp("m") / "m.rules")
    static_diagnostics(text, path)
    hover(text, line, col)
    completions(text, line, col)
    definition(text, path, line, col)
    document_symbols(text)


def test_columns_are_counted_in_utf16_units_as_the_protocol_says(client, tmp_path):
    # A die (U+1F3B2) is one character but two UTF-16 units: after four of them in the game's
    # name, the stray word starts at character 12 of the line but at unit 16 for the editor.
    text = BROKEN.replace('game "Broken"', 'game "\U0001F3B2\U0001F3B2\U0001F3B2\U0001F3B2" bogus')
    uri = open_doc(client, tmp_path / "dice.rules", text)
    [found, *_] = client.diagnostics(uri)
    assert found["code"] == "E001" and found["range"]["start"] == {"line": 0, "character": 16}
    fixed = text.replace(" bogus", "")
    change(client, uri, fixed, 2)
    client.diagnostics(uri)
    [game, *_] = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert game["selectionRange"]["start"] == {"line": 0, "character": 0}
    assert game["range"]["end"] == {"line": 0, "character": 15}  # 'game "' 6, the dice 8, '"' 1
