"""The language server over stdio (pygls): each request answered from :mod:`rulesdsl.cli.lsp`'s modules.

Every handler runs under :func:`guarded`: a crash in one request is logged
(to the client's log and stderr) and answered with nothing, and the server
goes on with the next request.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from rulesdsl.errors import Diagnostic, RulesdslError, Span
from rulesdsl.fmt import format_text
from rulesdsl.sources import MAX_RULES_BYTES

from .analysis import placed_here, saved_diagnostics, static_diagnostics
from .complete import completions
from .convert import path_to_uri, to_lsp, uri_to_path
from .guard import BoundedReader, GuardedProtocol, one_line_logs
from .hover import hover
from .navigate import definition, document_symbols

log = logging.getLogger("rulesdsl.lsp")


def guarded(server: LanguageServer, default=None) -> Callable:
    """Run a handler; on an exception, log it and answer ``default`` instead of stopping the server."""

    def wrap(handler: Callable) -> Callable:
        def report(error: Exception) -> None:
            message = f"rulesdsl lsp: {handler.__name__} failed: {type(error).__name__}: {error}"
            log.exception(message)
            with contextlib.suppress(Exception):  # no client to tell (a handler called directly)
                server.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=message))

        if asyncio.iscoroutinefunction(handler):
            @functools.wraps(handler)
            async def run_async(*args, **kwargs):
                try:
                    return await handler(*args, **kwargs)
                except Exception as error:
                    report(error)
                    return default
            return run_async

        @functools.wraps(handler)
        def run(*args, **kwargs):
            try:
                return handler(*args, **kwargs)
            except Exception as error:
                report(error)
                return default
        return run

    return wrap


def _publish(server: LanguageServer, uri: str, text: str, found) -> None:
    lines = text.split("\n")
    diagnostics = [to_lsp(d, lines) for d in found]
    for diagnostic in diagnostics:
        diagnostic.range = _to_client(server, lines, diagnostic.range)
    server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))


# The modules count columns in characters; the client counts in its negotiated units (UTF-16 by default),
# which differ after a character outside the Basic Multilingual Plane. Positions are converted here only.
def _to_client(server: LanguageServer, lines: list[str], where: lsp.Range) -> lsp.Range:
    return server.workspace.position_codec.range_to_client_units(lines, where)


def _from_client(server: LanguageServer, text: str, position: lsp.Position) -> tuple[int, int]:
    here = server.workspace.position_codec.position_from_client_units(text.split("\n"), position)
    return here.line, here.character


def _symbols_to_client(server: LanguageServer, lines: list[str], symbols: list[lsp.DocumentSymbol]) -> None:
    for symbol in symbols:
        symbol.range = _to_client(server, lines, symbol.range)
        symbol.selection_range = _to_client(server, lines, symbol.selection_range)
        _symbols_to_client(server, lines, symbol.children or [])


def make_server() -> LanguageServer:
    """A server with every feature registered (not started)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = version("rulesdsl")
    except PackageNotFoundError:  # pragma: no cover - run from a checkout without installing
        release = "0"
    server = LanguageServer("rulesdsl", release, protocol_cls=GuardedProtocol)

    def source_of(uri: str) -> str | None:
        """The document's text: the open buffer, else the file on disk; ``None`` when neither exists."""
        if uri in server.workspace.text_documents:
            return server.workspace.get_text_document(uri).source
        path = Path(uri_to_path(uri)) if uri.startswith("file:") else None
        try:
            if path is None or not path.is_file() or path.stat().st_size > MAX_RULES_BYTES:
                return None
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError):
            return None

    def text_of(uri: str) -> str | None:
        """The document's text for a request, ``None`` when there is none or it is over the rule file cap."""
        text = source_of(uri)
        return None if text is None or len(text) > MAX_RULES_BYTES else text

    checking: dict[str, int] = {}  # uri -> the number of the latest check asked for

    async def check_now(uri: str) -> None:
        """Publish the static findings of the document, worked out off the message loop; a check that a
        newer edit has overtaken is skipped (rapid typing costs one check, not one per keystroke)."""
        text = source_of(uri)
        if text is None:
            return
        ticket = checking[uri] = checking.get(uri, 0) + 1
        path = uri_to_path(uri)
        if len(text) > MAX_RULES_BYTES:
            too_big = Diagnostic(Span(1, 1, file=path), f"the document is larger than {MAX_RULES_BYTES:,} "
                                 "characters, the most a rule file may hold: it is not checked", "E002")
            _publish(server, uri, text, [too_big])
            return

        def check_if_latest() -> list[Diagnostic] | None:
            return static_diagnostics(text, path) if checking.get(uri) == ticket else None

        found = await asyncio.to_thread(check_if_latest)
        if found is not None and checking.get(uri) == ticket:
            _publish(server, uri, text, found)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @guarded(server)
    async def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        await check_now(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    @guarded(server)
    async def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        await check_now(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    @guarded(server)
    async def did_save(params: lsp.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if not uri.startswith("file:"):  # an unsaved buffer has no file for check to run on
            return
        text = text_of(uri)
        if text is None:
            return
        found = await asyncio.to_thread(saved_diagnostics, uri_to_path(uri))
        if text_of(uri) == text:  # not edited meanwhile
            _publish(server, uri, text, placed_here(found, uri_to_path(uri), text))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @guarded(server)
    def on_hover(params: lsp.HoverParams) -> lsp.Hover | None:
        text = text_of(params.text_document.uri)
        if text is None:
            return None
        markdown = hover(text, *_from_client(server, text, params.position))
        if markdown is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=markdown))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" "]))
    @guarded(server, default=[])
    def on_completion(params: lsp.CompletionParams) -> list[lsp.CompletionItem]:
        text = text_of(params.text_document.uri)
        if text is None:
            return []
        return completions(text, *_from_client(server, text, params.position))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @guarded(server)
    def on_definition(params: lsp.DefinitionParams) -> lsp.Location | None:
        uri = params.text_document.uri
        text = text_of(uri)
        if text is None:
            return None
        found = definition(text, uri_to_path(uri), *_from_client(server, text, params.position))
        if found is None:
            return None
        path, where = found
        if path == uri_to_path(uri):
            return lsp.Location(uri=uri, range=_to_client(server, text.split("\n"), where))
        return lsp.Location(uri=path_to_uri(path), range=where)  # the start of another file

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded(server, default=[])
    def on_symbols(params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        text = text_of(params.text_document.uri)
        if text is None:
            return []
        symbols = document_symbols(text)
        _symbols_to_client(server, text.split("\n"), symbols)
        return symbols

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    @guarded(server, default=[])
    def on_format(params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        text = text_of(params.text_document.uri)
        if text is None:
            return []
        try:
            tidy = format_text(text, uri_to_path(params.text_document.uri))
        except RulesdslError:  # a syntax error: the diagnostics already say where
            return []
        if tidy == text:
            return []
        lines = text.split("\n")
        whole = lsp.Range(lsp.Position(0, 0), lsp.Position(len(lines) - 1, len(lines[-1])))
        return [lsp.TextEdit(range=_to_client(server, lines, whole), new_text=tidy)]

    return server


def serve() -> None:
    """Answer an editor on stdin and stdout until it says goodbye."""
    one_line_logs()
    # pygls closes its output at exit: give it a file of its own, so that sys.stdout stays usable.
    output = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    make_server().start_io(stdin=BoundedReader(sys.stdin.buffer), stdout=output)
