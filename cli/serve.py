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
from http.server import BaseHTTPRequestHandler
from importlib import resources
from urllib.parse import urlsplit

import click

from rulesdsl.cli.common import EXIT_USAGE, Seconds, fail
from rulesdsl.cli.serve_limits import IDLE_SECONDS, MAX_WORKERS, BoundedServer, allowed_hosts, host_ok
from rulesdsl.cli.web_api import MAX_SECONDS, Api, ApiError, ValueSource, entries_for

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
    hosts: frozenset[str] | None = None
    server_version = "rulesdsl"
    quiet = True
    timeout = IDLE_SECONDS  # each read of the socket waits at most this long
    default_request_version = "HTTP/1.0"  # every answer has a status line, even to a request without a version

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a bad request line, headers too long...) as one line of JSON too."""
        self.close_connection = True
        try:
            text = message or HTTPStatus(code).phrase
        except ValueError:
            text = "error"
        self.error(code, text)

    def parse_request(self) -> bool:
        """The request line and headers; then the Host check (a wrong one is answered 421)."""
        if not super().parse_request():
            return False
        if not host_ok(self.headers.get("Host"), self.hosts):
            self.error(HTTPStatus.MISDIRECTED_REQUEST, "this server answers only to the host names it serves on")
            return False
        return True

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        """Requests are not logged unless the server was started with ``--verbose``."""
        if not self.quiet:
            super().log_message(format, *args)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        """A file of the page, or ``/api/games``."""
        self.server.watchdog.release(self.connection)  # the whole request is read
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
        kind = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            self.error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "a POST must have Content-Type: application/json")
            return
        length = _length(self.headers.get("Content-Length"))
        if length is None:
            self.error(HTTPStatus.BAD_REQUEST, "Content-Length is not a number of bytes (0 or more)")
            return
        if length > MAX_BODY:
            self.error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the request is larger than {MAX_BODY} bytes")
            return
        raw = self.rfile.read(length)
        self.server.watchdog.release(self.connection)  # the whole request is read
        if len(raw) < length:
            self.close_connection = True  # the client stopped sending (or was too slow): nobody to answer
            return
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError) as error:
            self.error(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {error}")
            return
        except RecursionError:
            self.error(HTTPStatus.BAD_REQUEST, "the body is not JSON this server reads: it is nested too deep")
            return
        if not isinstance(body, dict):
            self.error(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
            return
        self.answer(lambda: getattr(self.api, route)(body))

    def do_PUT(self) -> None:  # noqa: N802
        """Not served."""
        self.error(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and POST are served")

    do_DELETE = do_PUT
    do_OPTIONS = do_PUT
    do_PATCH = do_PUT

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


class WebServer(BoundedServer):
    """The web board's server: bounded workers, and a client's failure is never a traceback."""

    verbose = False

    def handle_error(self, request, client_address) -> None:
        """A connection that failed (the client went away, a bug): one line with ``--verbose``, else nothing."""
        if self.verbose:
            error = sys.exc_info()[1]
            print(f"rulesdsl serve: {client_address[0]}: {type(error).__name__}: {error}", file=sys.stderr)


def _length(header: str | None) -> int | None:
    """A Content-Length header's value; ``None`` when it is not a plain count of bytes."""
    text = (header or "0").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        return None
    return int(text)


def make_server(files: tuple[str, ...] = (), host: str = "127.0.0.1", port: int = 8000,
                values: ValueSource | None = None, verbose: bool = False, workers: int = MAX_WORKERS,
                max_seconds: float = MAX_SECONDS) -> WebServer:
    """A web-board server (not yet serving); port 0 picks a free port.

    ``workers`` caps the requests handled at once (the rest get 503), ``max_seconds``
    the engine time one request may ask for.
    """
    api = Api(entries_for(files), values, max_seconds=max_seconds)
    handler = type("BoundHandler", (Handler,), {"api": api, "quiet": not verbose, "hosts": allowed_hosts(host)})
    server = WebServer((host, port), handler, workers=workers)
    server.verbose = verbose
    return server


@click.command()
@click.argument("files", nargs=-1)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="The port (0: any free port).")
@click.option("--db", metavar="PATH", help="The solver database to show move values from (default: the solver's).")
@click.option("--workers", default=MAX_WORKERS, show_default=True, type=click.IntRange(1, 256),
              help="Requests handled at once; more get 503 (busy).")
@click.option("--max-seconds", default=MAX_SECONDS, show_default=True, type=Seconds(0.1, 300),
              help="The most engine time one request may ask for.")
@click.option("--verbose", is_flag=True, help="Log each request on stderr.")
def serve(files, host, port, db, workers, max_seconds, verbose) -> None:
    """A web board for FILES (default: every bundled game) at http://HOST:PORT/.

    Only the loopback host names (and HOST itself) are accepted in a request's
    Host header, unless HOST is 0.0.0.0 or ::, which serve every name.
    """
    from rulesdsl.cli.solver_values import database_values

    try:
        server = make_server(tuple(files), host, port, values=database_values(db), verbose=verbose,
                             workers=workers, max_seconds=max_seconds)
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
