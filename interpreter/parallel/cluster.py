"""Connecting to a Dask cluster (dask.distributed), for ``solve --cluster`` and ``analyze --cluster``.

``ADDRESS`` is a running scheduler (``tcp://host:8786``, started with ``dask
scheduler``, its workers with ``dask worker tcp://host:8786``), or ``local:N``
for a cluster of N worker processes started here on 127.0.0.1 (one thread
each: the work is numpy and Python, which a second thread in the same process
would not speed up). dask is imported only here, and only when a cluster is
asked for: it is the optional ``cluster`` extra.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from rulesdsl.errors import RulesdslError

LOCAL = re.compile(r"local:(\d+)$")
CONNECT_TIMEOUT = "20s"


class ClusterError(RulesdslError):
    """The cluster cannot be used (dask missing, scheduler unreachable, workers lost); the message says why."""


def check_address(spec: str) -> None:
    """Refuse in one line a ``--cluster`` value that is neither ``local:N`` nor a scheduler address."""
    match = LOCAL.match(spec)
    if match:
        if not 1 <= int(match.group(1)) <= 256:
            raise ClusterError(f"--cluster {spec}: the number of local workers must be 1 to 256")
        return
    if not re.match(r"(tcp|tls|ucx|inproc)://[^\s/]+$", spec):
        raise ClusterError(f"--cluster {spec}: expected local:N or a scheduler address such as tcp://host:8786")


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs dask.distributed: pip install 'rulesdsl[cluster]'") from None
    return distributed


@contextmanager
def open_client(spec: str) -> Iterator[Any]:
    """A ``distributed.Client`` for ``spec`` (``local:N`` or a scheduler address), closed afterwards."""
    check_address(spec)
    distributed = _distributed()
    import logging

    logging.getLogger("distributed").setLevel(logging.ERROR)  # the progress line is the user's view
    match = LOCAL.match(spec)
    cluster = client = None
    try:
        if match:
            cluster = distributed.LocalCluster(n_workers=int(match.group(1)), threads_per_worker=1, processes=True,
                                               host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                               silence_logs=logging.ERROR)
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(spec, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"--cluster {spec}: cannot reach the Dask scheduler ({error})") from None
    try:
        yield client
    finally:
        for closing in (client, cluster):
            if closing is not None:
                with suppress(Exception):  # a scheduler already gone: nothing left to close
                    closing.close()


def recipe(game: Any) -> tuple[str, tuple[tuple[str, str], ...]]:
    """How a worker loads ``game``: its rule file (bundled, or a path every worker can read) and its options."""
    rules = getattr(game.resolved, "path", None)
    if not rules:
        raise ClusterError("a cluster needs the game's rule file (the workers load it)")
    settings = tuple(sorted((name, str(value).lower() if isinstance(value, bool) else str(value))
                            for name, value in game.options.items()))
    return str(rules), settings


_GAMES: dict[tuple, Any] = {}


def load_recipe(rules: str, settings: tuple[tuple[str, str], ...]) -> Any:
    """The game of a :func:`recipe`, compiled once per worker process."""
    key = (rules, settings)
    if key not in _GAMES:
        from rulesdsl.interpreter.compile.load import load_game

        _GAMES[key] = load_game(rules, dict(settings))
    return _GAMES[key]


def dashboard(client: Any) -> str | None:
    """The Dask dashboard's address, or None when the scheduler serves none (bokeh not installed)."""
    try:
        info = client.scheduler_info()
        if "dashboard" not in info.get("services", {}):
            return None
        return client.dashboard_link
    except Exception:
        return None


def workers_status(client: Any) -> tuple[int, list[float]]:
    """Workers alive and each one's resident memory in MB (from the scheduler's last heartbeats)."""
    try:
        workers = client.scheduler_info(n_workers=-1)["workers"]
    except TypeError:  # older distributed: no n_workers argument
        workers = client.scheduler_info()["workers"]
    except Exception:
        return 0, []
    memory = [w.get("metrics", {}).get("memory", 0) / 2**20 for w in workers.values()]
    return len(workers), memory


def lost_scheduler(error: BaseException) -> bool:
    """Whether ``error`` means the connection to the scheduler is gone."""
    names = {type(e).__name__ for e in _chain(error)}
    return bool(names & {"CommClosedError", "StreamClosedError", "CancelledError", "TimeoutError",
                         "ConnectionRefusedError", "ConnectionResetError"})


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen = 0
    while error is not None and seen < 10:
        yield error
        error = error.__cause__ or error.__context__
        seen += 1
