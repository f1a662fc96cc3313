"""Rule files can never run code.

The language is read by a grammar and interpreted over a closed set of model
nodes; nothing from a file reaches Python's evaluator or importer. These tests
check the source for the ways code could be run, and feed Python-looking text
to every reader to see it rejected (and not executed).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulesdsl.errors import RulesdslError, RulesError
from rulesdsl.interpreter.compile.load import load_game, load_position
from rulesdsl.parser import parse_text
from rulesdsl.verify import check_file

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(p for folder in ("rulesdsl", "interpreter") for p in (ROOT / folder).rglob("*.py"))

# Builtins that run, compile or import code named by a string.
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "breakpoint"}
# Attribute calls that do the same (module.function).
FORBIDDEN_ATTRIBUTES = {"literal_eval", "import_module", "system", "popen", "spawnl", "load_module",
                        "exec_module", "unsafe_load", "full_load", "loads"}
FORBIDDEN_MODULES = {"subprocess", "pickle", "marshal", "shelve", "ctypes", "runpy", "code", "codeop"}
# importlib may only read the package's own data (the grammar, the bundled rule files).
ALLOWED_FROM_IMPORTLIB = {"resources", "metadata"}
# The one audited exception (issue 9): the playout kernel compiles Python source that it writes itself from
# integers, in this function only, and only what kernel.check_source passed (tested below).
CHECKED_COMPILE = ("codegen.py", "run_checked")
# The second (issue 20): the native kernel imports, in this function only, the file it wrote from source that
# kernel.check_source passed in the same function (tested below).
CHECKED_IMPORT = ("native.py", "import_checked")


def allowed_calls(tree: ast.Module, path: Path) -> set[int]:
    """The ids of the compile() and exec() calls of the audited exception (compile must take check_source(...)),
    or of the exec_module() call of the second (in a function that calls check_source first)."""
    if path.name == CHECKED_IMPORT[0]:
        return checked_imports(tree)
    if path.name != CHECKED_COMPILE[0]:
        return set()
    allowed = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and function.name == CHECKED_COMPILE[1]:
            for node in ast.walk(function):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                checked = (node.func.id == "compile" and node.args and isinstance(node.args[0], ast.Call)
                           and _is_name(node.args[0].func, "check_source"))
                if checked or node.func.id == "exec":
                    allowed.add(id(node))
    return allowed


def checked_imports(tree: ast.Module) -> set[int]:
    """The exec_module() calls of ``import_checked`` that come after its ``check_source(source)`` call."""
    allowed = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and function.name == CHECKED_IMPORT[1]:
            checks = [n.lineno for n in ast.walk(function) if isinstance(n, ast.Call)
                      and _is_name(n.func, "check_source")]
            for node in ast.walk(function):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "exec_module" and checks and min(checks) < node.lineno):
                    allowed.add(id(node))
    return allowed


def errors_of(path: Path) -> list:
    """The errors ``rulesdsl check`` finds in a file."""
    report = check_file(str(path))
    return [d for d in getattr(report, "diagnostics", report) if d.severity == "error"]


def tree_of(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def test_the_sources_are_found():
    names = {p.name for p in SOURCES}
    assert {"parser.py", "checker.py", "loader.py", "expr.py", "compiler.py", "movegen.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_source_evaluates_or_imports_by_name(path):
    problems = []
    tree = tree_of(path)
    allowed = allowed_calls(tree, path)
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS and id(node) not in allowed:
                problems.append(f"{where}: calls {func.id}()")
            json_text = isinstance(func, ast.Attribute) and func.attr == "loads" and _is_name(func.value, "json")
            if (isinstance(func, ast.Attribute) and func.attr in FORBIDDEN_ATTRIBUTES and not json_text
                    and id(node) not in allowed):
                problems.append(f"{where}: calls .{func.attr}()")
            if (isinstance(func, ast.Attribute) and func.attr in ("load", "compose")
                    and _is_name(func.value, "yaml")
                    and not any(k.arg == "Loader" and "Safe" in ast.unparse(k.value) for k in node.keywords)):
                problems.append(f"{where}: yaml.{func.attr} without a safe loader")
            if (isinstance(func, ast.Attribute) and func.attr == "files" and _is_name(func.value, "resources")
                    and not all(isinstance(a, ast.Constant) for a in node.args)):
                problems.append(f"{where}: resources.files() with a computed package name")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in FORBIDDEN_MODULES or alias.name == "importlib":
                    problems.append(f"{where}: imports {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[0] in FORBIDDEN_MODULES:
                problems.append(f"{where}: imports from {module}")
            names = {a.name for a in node.names}
            if module == "importlib" and names - ALLOWED_FROM_IMPORTLIB:
                problems.append(f"{where}: imports {sorted(names)} from importlib")
            if module.startswith("importlib.") and module.split(".")[1] not in ALLOWED_FROM_IMPORTLIB:
                problems.append(f"{where}: imports from {module}")
    assert not problems, "\n".join(problems)


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def test_the_native_kernel_imports_in_one_place_only():
    native = ROOT / "interpreter" / "kernel" / "native.py"
    tree = tree_of(native)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr in FORBIDDEN_ATTRIBUTES]
    assert len(calls) == 1 and {id(n) for n in calls} == checked_imports(tree)


def test_the_native_kernel_refuses_to_import_unchecked_source():
    from rulesdsl.interpreter.kernel.codegen import KernelSourceError
    from rulesdsl.interpreter.kernel.native import import_checked

    with pytest.raises(KernelSourceError):
        import_checked("def playout(v0):\n    import os\n")


def test_the_kernel_compiles_in_one_place_only():
    kernel = ROOT / "interpreter" / "kernel" / "codegen.py"
    tree = tree_of(kernel)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id in ("compile", "exec")]
    assert len(calls) == 2 and {id(n) for n in calls} == allowed_calls(tree, kernel)


@pytest.mark.parametrize("source", [
    "def playout(v0):\n    return eval('1')\n",  # a builtin the kernel does not hand over
    "def playout(v0):\n    return 'text'\n",  # a string constant
    "def playout(v0):\n    return v0.__class__\n",  # an attribute
    "def playout(v0):\n    import os\n",
    "def playout(v0):\n    return [x for x in v0]\n",
    "def playout(v0):\n    return lambda: 1\n",
    "def playout(v0):\n    return [open]\n",
    "def playout(v0):\n    return __import__\n",
    "def playout(v0):\n    return 1.5\n",
])
def test_the_kernel_refuses_source_that_is_not_integer_code(source):
    from rulesdsl.interpreter.kernel.codegen import KernelSourceError, check_source

    with pytest.raises(KernelSourceError):
        check_source(source)


def test_the_kernel_source_of_the_bundled_games_passes_the_check():
    from rulesdsl.interpreter.kernel.codegen import check_source

    for name in ("konane", "capture-the-flag", "abalone", "abalone-hex", "breakthrough", "fox-and-geese"):
        compiled = load_game(name, {})._compiled.kernel()
        assert compiled is not None, name
        check_source(compiled.source)


def test_the_check_catches_what_it_should():
    """The scanner itself: a source that evaluates file text is reported."""
    bad = ast.parse("import importlib\nx = eval(text)\nimportlib.import_module(name)\n")
    calls = [n.func for n in ast.walk(bad) if isinstance(n, ast.Call)]
    assert any(isinstance(f, ast.Name) and f.id in FORBIDDEN_CALLS for f in calls)
    assert any(isinstance(f, ast.Attribute) and f.attr in FORBIDDEN_ATTRIBUTES for f in calls)


# ---- Python-looking text is just a mistake --------------------------------------------------

PYTHON = [
    "import os\nos.system('touch {marker}')\n",
    "__import__('os').system('touch {marker}')\n",
    "exec(\"open('{marker}', 'w')\")\n",
    "eval(\"open('{marker}', 'w')\")\n",
    "def f():\n    open('{marker}', 'w')\nf()\n",
    "game \"x\"; import os; os.system('touch {marker}')\n",
    "game \"x\"\noption o = __import__(\"os\").system(\"touch {marker}\")\n",
    "game \"x\"\nplayers white \"w\", black \"b\"\n"
    "end {{\n  mover wins if exec(\"open('{marker}', 'w')\")\n}}\n",
]


@pytest.mark.parametrize("text", PYTHON)
def test_python_in_a_rule_file_is_a_syntax_error_and_never_runs(tmp_path, text):
    marker = tmp_path / "ran"
    path = tmp_path / "python.rules"
    path.write_text(text.format(marker=marker))
    found = errors_of(path)
    assert found and found[0].code == "E001", [d.one_line() for d in found]
    assert found[0].message.startswith("syntax error")
    assert not marker.exists()


def test_call_syntax_names_only_the_languages_functions(tmp_path):
    """``NAME(NAME)`` parses, but only count(), lost(), area() and attacked() mean something: nothing is looked up
    in Python."""
    marker = tmp_path / "ran"
    path = tmp_path / "calls.rules"
    path.write_text('game "x"\nplayers white "w", black "b"\nboard grid 3 x 3\npiece p white "w", black "b"\n'
                    "moves {\n  p step orthogonal\n}\n"
                    "end {\n  mover wins if system(os) == 0\n  mover wins if __import__(os) == 0\n}\n"
                    "option o = eval(marker)\n")
    found = errors_of(path)
    codes = [d.code for d in found]
    assert codes.count("E070") == 2, [d.one_line() for d in found]  # unknown function, twice
    assert "E022" in codes  # the option's default is not a value
    assert any("known: area, attacked, count, lost" in d.hint for d in found)
    assert not marker.exists()


@pytest.mark.parametrize("title", ["{__import__('os').getcwd()}", "%(x)s", "${HOME}", "\\' + str(1) + \\'"])
def test_strings_are_taken_literally(title):
    rule_file = parse_text(f'game "{title}"\n')
    assert rule_file.statements[0].title == title.replace("\\'", "'")


@pytest.mark.parametrize("text", ['game "\\N{DIGIT ONE}"', 'game "\\x41"', 'game "\\u0041"', "game '\\101'"])
def test_python_string_escapes_are_syntax_errors(text):
    with pytest.raises(RulesError) as caught:
        parse_text(text)
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "E001" and "escape" in diagnostic.message
    assert diagnostic.span.line == 1 and diagnostic.span.column == 7


@pytest.mark.parametrize("text", ["__import__('os').system('true')", "(w eval('1'))", "exec", "{}.__class__"])
def test_python_in_a_position_or_move_is_a_clean_error(text):
    game = load_game("konane")
    with pytest.raises(RulesdslError):
        load_position(game, text)
    with pytest.raises(RulesdslError):
        game.parse_move(game.initial_state(), text)
