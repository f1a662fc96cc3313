"""``rulesdsl serve``: the web board, on the standard library's HTTP server.

Why the standard library: the board is a handful of JSON requests from one
person's browser to their own machine, so ``http.server`` (threaded) is
enough; it adds no dependency to install, audit or keep in step, and the page
is one plain HTML file, one CSS file and one JavaScript file with no build
step. The server listens on 127.0.0.1 unless told otherwise, serves only the
rule files it was started with (or the bundled games), reads no path from a
request, and answers a bad request with a 4xx status and one line of JSON
(``{"error": "..."}``), never a traceback.
"""

from __future__ import annotations

import json
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import urlsplit

import click

from rulesdsl.cli.common import EXIT_USAGE, fail
from rulesdsl.cli.web_api import Api, ApiError, ValueSource, entries_for

MAX_BODY = 1 << 20
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/board.js": ("board.js", "text/javascript; charset=utf-8"),
          "/board.css": ("board.css", "text/css; charset=utf-8")}
ROUTES = {"/api/games": "games", "/api/state": "state", "/api/move": "move", "/api/engine": "engine",
          "/api/hint": "hint", "/api/why": "why"}


def static_file(name: str) -> bytes:
    """A file of the page, shipped with the package."""
    return resources.files("rulesdsl.cli").joinpath("web", name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    """One request: a file of the page, or a JSON call to the :class:`Api`."""

    api: Api
    server_version = "rulesdsl"
    quiet = True

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        """Requests are not logged unless the server was started with ``--verbose``."""
        if not self.quiet:
            super().log_message(format, *args)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        """A file of the page, or ``/api/games``."""
        path = urlsplit(self.path).path
        if path in STATIC:
            name, kind = STATIC[path]
            self.reply(HTTPStatus.OK, static_file(name), kind)
        elif path == "/api/games":
            self.answer(lambda: self.api.games())
        elif path in ROUTES:
            self.error(HTTPStatus.METHOD_NOT_ALLOWED, f"{path} takes a POST with a JSON body")
        else:
            self.error(HTTPStatus.NOT_FOUND, f"no such page: {path}")

    def do_POST(self) -> None:  # noqa: N802
        """A JSON call."""
        path = urlsplit(self.path).path
        route = ROUTES.get(path)
        if route is None or route == "games":
            self.error(HTTPStatus.NOT_FOUND, f"no such call: {path}")
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            self.error(HTTPStatus.BAD_REQUEST, "Content-Length is not a number")
            return
        if length > MAX_BODY:
            self.error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the request is larger than {MAX_BODY} bytes")
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except (ValueError, UnicodeDecodeError) as error:
            self.error(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {error}")
            return
        if not isinstance(body, dict):
            self.error(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
            return
        self.answer(lambda: getattr(self.api, route)(body))

    def do_PUT(self) -> None:  # noqa: N802
        """Not served."""
        self.error(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and POST are served")

    do_DELETE = do_PUT

    def answer(self, call) -> None:
        """Run an API call; its errors become a 4xx with one line, anything else a 500 with one line."""
        try:
            data = call()
        except ApiError as error:
            self.error(error.status, error.message)
            return
        except RecursionError:
            self.error(HTTPStatus.UNPROCESSABLE_ENTITY, "the search went too deep; give it less time")
            return
        except Exception as error:  # a bug: still one line, and the server goes on
            self.error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {type(error).__name__}: {error}")
            return
        self.reply(HTTPStatus.OK, json.dumps(data).encode(), "application/json")

    def error(self, status: int, message: str) -> None:
        """``{"error": message}`` with a status."""
        self.reply(status, json.dumps({"error": message.splitlines()[0] if message else "error"}).encode(),
                   "application/json")

    def reply(self, status: int, data: bytes, kind: str) -> None:
        """Send a whole answer."""
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(data)


def make_server(files: tuple[str, ...] = (), host: str = "127.0.0.1", port: int = 8000,
                values: ValueSource | None = None, verbose: bool = False) -> ThreadingHTTPServer:
    """A web-board server (not yet serving); port 0 picks a free port."""
    api = Api(entries_for(files), values)
    handler = type("BoundHandler", (Handler,), {"api": api, "quiet": not verbose})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


@click.command()
@click.argument("files", nargs=-1)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="The port (0: any free port).")
@click.option("--db", metavar="PATH", help="The solver database to show move values from (default: the solver's).")
@click.option("--verbose", is_flag=True, help="Log each request on stderr.")
def serve(files, host, port, db, verbose) -> None:
    """A web board for FILES (default: every bundled game) at http://HOST:PORT/."""
    from rulesdsl.cli.solver_values import database_values

    try:
        server = make_server(tuple(files), host, port, values=database_values(db), verbose=verbose)
    except ApiError as error:
        fail(error.message, EXIT_USAGE)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    bound_host, bound_port = server.server_address[:2]
    click.echo(f"serving the web board on http://{bound_host}:{bound_port}/ (Ctrl-C stops)", err=False)
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    finally:
        server.server_close()
