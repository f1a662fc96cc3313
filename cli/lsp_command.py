"""``rulesdsl lsp``: the language server on stdin/stdout, for editors."""

from __future__ import annotations

import click

from rulesdsl.cli.common import fail


@click.command()
def lsp() -> None:
    """Run the language server on stdin and stdout (for an editor; see docs/editors.md)."""
    try:
        from rulesdsl.cli.lsp.server import serve
    except ImportError as error:
        fail(f"the language server needs pygls ({error}): pip install 'rulesdsl[editors]'")
    serve()
