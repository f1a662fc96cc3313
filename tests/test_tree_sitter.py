"""The tree-sitter grammar (editors/tree-sitter-rulesdsl): it parses every bundled rule file, its corpus, its queries.

The generated parser (``src/parser.c``, committed as tree-sitter grammars
do) is compiled here with the C compiler against the tree-sitter header of
Debian's ``libtree-sitter-dev`` and loaded with the ``tree-sitter`` Python
package. The corpus (``test/corpus/*.txt``, the format of ``tree-sitter
test``) runs through the same parser; where the ``tree-sitter`` program is on
the PATH, ``tree-sitter test`` runs as well. Tests that need a system program
skip naming it (and the package that has it) when it is missing, and fail
instead under ``RULESDSL_REQUIRE_SYSTEM_TOOLS=1``.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "editors" / "tree-sitter-rulesdsl"
HEADER = Path("/usr/include/tree_sitter/parser.h")
RULES = sorted((ROOT / "rules").glob("*.rules"))


def require(found: bool, what: str, package: str) -> None:
    """Skip (or, under RULESDSL_REQUIRE_SYSTEM_TOOLS=1, fail) when a system program or file is missing."""
    if found:
        return
    message = f"{what} not found (Debian: apt-get install {package})"
    if os.environ.get("RULESDSL_REQUIRE_SYSTEM_TOOLS") == "1":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """The grammar's parser compiled to a shared library."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    require(compiler is not None, "the C compiler cc", "gcc")
    require(HEADER.exists(), f"the tree-sitter header {HEADER}", "libtree-sitter-dev")
    library = tmp_path_factory.mktemp("tree-sitter") / "rulesdsl.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(GRAMMAR / "src" / "parser.c")],
                   check=True, capture_output=True)
    return library


@pytest.fixture(scope="module")
def language(library):
    """The grammar's parser, loaded with the tree-sitter Python package."""
    tree_sitter = pytest.importorskip("tree_sitter", reason="the tree-sitter Python package (test extra) is missing")
    lib = ctypes.cdll.LoadLibrary(str(library))
    lib.tree_sitter_rulesdsl.restype = ctypes.c_void_p
    with warnings.catch_warnings():  # newer bindings prefer a capsule to the pointer as an int
        warnings.simplefilter("ignore", DeprecationWarning)
        return tree_sitter.Language(lib.tree_sitter_rulesdsl())


@pytest.fixture(scope="module")
def parser(language):
    import tree_sitter

    return tree_sitter.Parser(language)


def errors(node) -> list[str]:
    """Every ERROR or MISSING node under ``node``, as ``line:column: kind``."""
    found = []
    if node.type == "ERROR" or node.is_missing:
        found.append(f"{node.start_point[0] + 1}:{node.start_point[1] + 1}: {node.type}")
    for child in node.children:
        found.extend(errors(child))
    return found


@pytest.mark.parametrize("path", RULES, ids=[p.stem for p in RULES])
def test_every_bundled_rule_file_parses_without_an_error_node(parser, path):
    tree = parser.parse(path.read_bytes())
    assert errors(tree.root_node) == [] and not tree.root_node.has_error
    assert tree.root_node.type == "source_file" and tree.root_node.named_child_count > 3


# Rule snippets of the docs, less those marked to show an error (<!-- check: KIND expect CODE -->)
DOC_BLOCKS = [(path.name, number, block) for path in sorted((ROOT / "docs").glob("*.md"))
              for number, (mark, block) in enumerate(re.findall(r"(<!--[^>]*-->\s*)?```rules\n(.*?)```",
                                                                path.read_text(encoding="utf-8"), flags=re.S), 1)
              if "expect" not in mark]


def test_every_rule_snippet_of_the_docs_parses_without_an_error_node(parser):
    assert len(DOC_BLOCKS) > 40
    broken = [f"{name} block {number}: {errors(parser.parse(block.encode()).root_node)}"
              for name, number, block in DOC_BLOCKS if parser.parse(block.encode()).root_node.has_error]
    assert broken == []


def test_a_broken_file_has_an_error_node(parser):
    tree = parser.parse(b'game "Broken"\nmoves { stone jump }\nend { mover wins if }\n')
    assert errors(tree.root_node)


def corpus_cases() -> list[tuple[str, str, str]]:
    """``(title, input, expected tree)`` of every case in ``test/corpus`` (tree-sitter test's format)."""
    cases = []
    for path in sorted((GRAMMAR / "test" / "corpus").glob("*.txt")):
        parts = re.split(r"^={3,}\n(.+)\n={3,}\n", path.read_text(encoding="utf-8"), flags=re.M)
        for title, body in zip(parts[1::2], parts[2::2]):
            source, expected = re.split(r"^-{3,}\n", body, maxsplit=1, flags=re.M)
            cases.append((f"{path.stem}: {title.strip()}", source.strip("\n") + "\n", expected))
    return cases


def squeeze(tree: str) -> str:
    """An S-expression with its spacing normalised."""
    return re.sub(r"\s+", " ", tree).replace("( ", "(").replace(" )", ")").strip()


@pytest.mark.parametrize("title, source, expected", corpus_cases(), ids=[c[0] for c in corpus_cases()])
def test_the_corpus(parser, title, source, expected):
    assert squeeze(str(parser.parse(source.encode()).root_node)) == squeeze(expected)


def test_the_corpus_has_cases():
    assert len(corpus_cases()) >= 10


def test_tree_sitter_test_passes(tmp_path):
    """``tree-sitter test`` itself, where the CLI is installed (it is not in the npm registry: see docs/editors.md)."""
    program = shutil.which("tree-sitter")
    if program is None:
        pytest.skip("tree-sitter (the CLI) not found: its npm package downloads the binary from outside the registry")
    folder = tmp_path / "grammar"
    shutil.copytree(GRAMMAR, folder)
    subprocess.run([program, "generate"], cwd=folder, check=True, capture_output=True)
    result = subprocess.run([program, "test"], cwd=folder, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def highlights(language, parser, path: Path) -> dict[str, list]:
    """The highlight query's captures in a file: capture name -> nodes."""
    import tree_sitter

    query = tree_sitter.Query(language, (GRAMMAR / "queries" / "highlights.scm").read_text(encoding="utf-8"))
    tree = parser.parse(path.read_bytes())
    if hasattr(tree_sitter, "QueryCursor"):
        return tree_sitter.QueryCursor(query).captures(tree.root_node)
    return query.captures(tree.root_node)


def test_the_highlight_queries_compile_and_colour_a_rule_file(language, parser):
    captures = highlights(language, parser, ROOT / "rules" / "konane.rules")
    words = {name: {node.text.decode() for node in nodes} for name, nodes in captures.items()}
    assert {"game", "moves", "end", "if"} <= words["keyword"]
    assert "stone" in words["type"] and "jump" in words["function.builtin"]
    assert '"Konane"' in words["label"] and "misere" in words["variable.parameter"]


@pytest.mark.parametrize("game", ["konane", "checkers", "nine-mens-morris"])
def test_neovim_colours_a_rule_file_as_the_python_binding_does(library, language, parser, tmp_path, game):
    """Neovim's own tree-sitter runtime loads the parser and runs the queries (tests/nvim/tree_sitter.lua)."""
    nvim = shutil.which("nvim")
    require(nvim is not None, "nvim", "neovim")
    output = tmp_path / "captures.txt"
    env = dict(os.environ, TS_PARSER=str(library), TS_QUERY=str(GRAMMAR / "queries" / "highlights.scm"),
               TS_RULES=str(ROOT / "rules" / f"{game}.rules"), TS_OUTPUT=str(output))
    script = Path(__file__).resolve().parent / "nvim" / "tree_sitter.lua"
    subprocess.run([nvim, "--headless", "--clean", "-n", "-u", "NONE", "-c", f"luafile {script}"], env=env,
                   timeout=60, check=True, capture_output=True)
    seen = dict(line.rsplit(" ", 1) for line in output.read_text().splitlines())
    assert seen.pop("errors") == "0"
    captures = highlights(language, parser, ROOT / "rules" / f"{game}.rules")
    expected = {name: len(nodes) for name, nodes in captures.items()}
    assert {name: int(count) for name, count in seen.items()} == expected
    assert expected["keyword"] > 20


def keywords_script():
    """scripts/tree_sitter_keywords.py, which lists what grammar.js lacks of grammar.lark."""
    spec = importlib.util.spec_from_file_location("tree_sitter_keywords", ROOT / "scripts" / "tree_sitter_keywords.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KEYWORDS = keywords_script()


def test_every_keyword_of_the_language_is_a_keyword_of_the_tree_sitter_grammar():
    assert len(KEYWORDS.lark_words()) > 80
    assert sorted(KEYWORDS.lark_words() - KEYWORDS.js_literals()) == [], "run: python scripts/tree_sitter_keywords.py"


def test_the_generated_parser_is_up_to_date_with_grammar_js():
    """src/grammar.json (written by ``tree-sitter generate``) has exactly the keywords grammar.js has."""
    assert KEYWORDS.generated_literals() == KEYWORDS.js_literals()


def test_every_keyword_is_coloured():
    assert sorted(KEYWORDS.uncoloured()) == []


def test_the_keywords_script_names_a_missing_keyword_and_the_lark_lines_using_it(monkeypatch, capsys):
    assert KEYWORDS.main() == 0
    monkeypatch.setattr(KEYWORDS, "js_literals", lambda: {"game", "style"})
    assert KEYWORDS.main() == 1
    out = capsys.readouterr().out
    assert "missing from grammar.js: 'points'" in out and "missing from grammar.js: 'game'" not in out
    assert re.search(r"grammar\.lark:\d+: STYLE: /points\\b/", out)
    assert "src/grammar.json is stale" in out


def test_a_missing_system_tool_skips_or_under_ci_fails(monkeypatch):
    monkeypatch.delenv("RULESDSL_REQUIRE_SYSTEM_TOOLS", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"nvim not found \(Debian: apt-get install neovim\)"):
        require(False, "nvim", "neovim")
    monkeypatch.setenv("RULESDSL_REQUIRE_SYSTEM_TOOLS", "1")
    with pytest.raises(pytest.fail.Exception, match="nvim not found"):
        require(False, "nvim", "neovim")
    require(True, "nvim", "neovim")  # found: nothing happens
