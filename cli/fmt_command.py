"""``rulesdsl fmt``: put rule files in the canonical layout, or check that they are.

Exit 0 when every file is (now) formatted; 1 when ``--check`` found a file
to reformat, or a file could not be read or does not parse (one line each,
``file:line:col: ...``, and the file is left as it is).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from rulesdsl.errors import RulesdslError, RulesError
from rulesdsl.fmt import format_text


def _expand(files: tuple[str, ...]) -> list[Path]:
    """The files to format: each path given, and the ``*.rules`` files under each folder given."""
    paths: list[Path] = []
    for name in files:
        path = Path(name)
        paths.extend(sorted(path.rglob("*.rules")) if path.is_dir() else [path])
    return paths


def _diff(before: str, after: str, name: str) -> str:
    """A unified diff from the file as it is to the file formatted."""
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                        f"{name} (as it is)", f"{name} (formatted)"))


def _format_one(before: str, name: str) -> str | None:
    """The formatted text, or None after reporting why the file cannot be formatted."""
    try:
        return format_text(before, name)
    except RulesError as error:
        for diagnostic in error.diagnostics:
            click.echo(diagnostic.one_line(), err=True)
    except RulesdslError as error:
        click.echo(f"rulesdsl: {error}", err=True)
    return None


@click.command()
@click.argument("files", nargs=-1)
@click.option("--check", "check_only", is_flag=True,
              help="Change nothing: show a diff and exit 1 if a file is not formatted.")
def fmt(files: tuple[str, ...], check_only: bool) -> None:
    """Lay out rule files in the one canonical way (FILE may be a folder; none: stdin to stdout)."""
    if not files:
        before = sys.stdin.read()
        after = _format_one(before, "<stdin>")
        if after is None:
            sys.exit(1)
        if check_only:
            click.echo(_diff(before, after, "<stdin>"), nl=False)
            sys.exit(1 if after != before else 0)
        click.echo(after, nl=False)
        return
    failed = changed = 0
    for path in _expand(files):
        try:
            before = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            click.echo(f"{path}: cannot read the file: {getattr(error, 'strerror', None) or error}", err=True)
            failed += 1
            continue
        after = _format_one(before, str(path))
        if after is None:
            failed += 1
        elif after != before:
            changed += 1
            if check_only:
                click.echo(_diff(before, after, str(path)), nl=False)
            else:
                path.write_text(after, encoding="utf-8")
                click.echo(f"formatted {path}", err=True)
    if check_only and changed:
        click.echo(f"{changed} file{'s' if changed != 1 else ''} not formatted (run 'rulesdsl fmt' on them)",
                   err=True)
    sys.exit(1 if failed or (check_only and changed) else 0)
