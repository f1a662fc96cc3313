"""Checked rule files kept in the user's cache folder, so that a warm start neither parses nor checks.

Loading a rule file (:func:`rulesdsl.interpreter.compile.load.load_rules`) imports lark, loads
the grammar's parser tables, parses, resolves ``extends`` and runs the checks and the trial
compile: most of a short command's start. A file that loads clean is the same model every time
its text is the same, so that model (the :class:`~rulesdsl.loader.Resolved`) is written to
``~/.cache/rulesdsl/rules/checked_HASH.json`` and read back on later starts.

- The name's hash covers the path as given, the file's text, the Python version and a
  fingerprint of the package's own source files (each ``.py`` and ``.lark`` file's name, size
  and modification time, as Python's bytecode cache judges a module): a change to the grammar,
  the parser or a check is a new entry, never a stale model.
- Every file the model was read from (the ``extends`` chain) is read again and compared with the
  text the entry holds, and each ``extends`` is looked up again (a local file may now stand in for
  a bundled game); any difference is a miss.
- Only clean files are kept (a file with an error is loaded afresh every time, so its messages are
  always the checker's own). Options are not part of it: the game is compiled for them after.
- Written as JSON by :mod:`rulesdsl.model_codec`, whose reader makes only the model's own
  dataclasses: a file someone changed can at worst give a wrong model, never run code
  (``docs/security.md``). A file that does not load is ignored and written again.

``RULESDSL_RULES_CACHE=0`` turns it off. Nothing here counts or plays: the game is compiled and
every perft, playout and search runs as before.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path

from rulesdsl import model_codec
from rulesdsl.loader import Resolved, bundled_dir
from rulesdsl.sources import SourceError, extends_target, what_it_is

__all__ = ["cache_file", "cached", "code_fingerprint", "enabled"]

VERSION = "2"  # bump when what an entry holds changes
KEPT = 200  # entries kept at most (a few kilobytes each); the oldest go first
PRUNED = 20  # this many more at once, so that a full cache is pruned once in so many misses


def enabled() -> bool:
    """False when ``RULESDSL_RULES_CACHE=0``."""
    return os.environ.get("RULESDSL_RULES_CACHE", "1") != "0"


def cached(path: Path, load: Callable[[Path], Resolved]) -> Resolved:
    """``load(path)``, or the same model from the cache when ``path``'s files have not changed since.

    ``load`` must raise for a file that does not load clean (then nothing is written). A file that cannot
    be read here is left to ``load``, which reports it.
    """
    if not enabled() or what_it_is(path):
        return load(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return load(path)
    entry = cache_file(str(path), text)
    found = _read(entry)
    if found is not None and _current(found):
        return found
    resolved = load(path)
    _write(entry, resolved)
    return resolved


def cache_file(path: str, text: str) -> Path:
    """Where the checked model of the file at ``path`` (as given) with ``text`` is kept."""
    from rulesdsl.grammar import cache_root

    key = hashlib.sha256("\0".join((VERSION, sys.version, code_fingerprint(), path, text)).encode()).hexdigest()
    return cache_root() / "rules" / f"checked_{key[:32]}.json"


def code_fingerprint() -> str:
    """A hash of the name, size and modification time of every source file of the language and the
    interpreter (the parser, the grammar, the checks, the trial compile), worked out once a process."""
    global _fingerprint
    if _fingerprint is None:
        import rulesdsl
        import rulesdsl.interpreter

        found: list[str] = []
        for package in (rulesdsl, rulesdsl.interpreter):
            _stat_files(os.path.dirname(os.path.abspath(package.__file__)), found)
        _fingerprint = hashlib.sha256("\n".join(sorted(found)).encode()).hexdigest()
    return _fingerprint


_fingerprint: str | None = None


def _stat_files(folder: str, found: list[str]) -> None:
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    _stat_files(entry.path, found)
            elif entry.name.endswith((".py", ".lark")):
                stat = entry.stat()
                found.append(f"{entry.path}\0{stat.st_size}\0{stat.st_mtime_ns}")


def _current(resolved: Resolved) -> bool:
    """True when every file the model was read from still holds the text it was read from, and each
    ``extends`` still names the same file (a local file may now stand in for a bundled game)."""
    for name, text in resolved.texts.items():
        try:
            if Path(name).read_text(encoding="utf-8").removeprefix("\ufeff") != text:
                return False
        except (OSError, UnicodeDecodeError):
            return False
    try:
        return all(str(extends_target(target, Path(child), bundled_dir())) == found
                   for child, target, found in resolved.links)
    except (SourceError, OSError):
        return False


def _read(entry: Path) -> Resolved | None:
    """The model kept in ``entry``, or ``None`` where there is none or it does not load."""
    try:
        found = model_codec.from_json(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError, RecursionError):  # damaged or foreign: load the rule file again
        return None
    return found if _well_formed(found) else None


def _well_formed(found: object) -> bool:
    """True for a :class:`Resolved` with every attribute of the kind the loader makes (a file someone changed
    may hold anything)."""
    kinds = {"path": str, "statements": list, "texts": dict, "examples": list, "_lines": dict, "links": list}
    return (isinstance(found, Resolved) and all(isinstance(getattr(found, name, None), kind)
                                                for name, kind in kinds.items())
            and all(isinstance(k, str) and isinstance(v, str) for k, v in found.texts.items())
            and all(isinstance(link, tuple) and len(link) == 3 and all(isinstance(p, str) for p in link)
                    for link in found.links))


def _write(entry: Path, resolved: Resolved) -> None:
    """Keep ``resolved`` in ``entry`` (atomically); a cache that cannot be written is skipped."""
    try:
        data = model_codec.to_json(resolved)
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = entry.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(data, encoding="utf-8")
        os.replace(temporary, entry)
        _prune(entry)
    except (OSError, ValueError, RecursionError):  # a model the codec does not write, an unwritable cache
        pass


def _prune(written: Path) -> None:
    """Once there are more than :data:`KEPT` entries, remove the oldest down to ``KEPT - PRUNED`` (each saved
    edit of a rule file is a new entry; ``written`` always stays)."""
    with os.scandir(written.parent) as found:
        others = [e for e in found if e.name.startswith("checked_") and e.name.endswith(".json")
                  and e.name != written.name]
    if len(others) < KEPT:
        return
    others.sort(key=lambda e: e.stat().st_mtime_ns)
    for old in others[:len(others) - KEPT + PRUNED + 1]:
        Path(old.path).unlink(missing_ok=True)
