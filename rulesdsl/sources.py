"""Which files a rule file and a command line may name, and what may be read from them.

A rule file comes from a stranger as often as not (a pull request, a
download), so ``extends`` may name only:

- a **bundled game** by its plain name (``extends "NAME"``), unless a file
  ``NAME.rules`` lies beside the extending file (then that file: a local
  ``NAME.rules`` that extends ``NAME`` gets the bundled game, since a
  file cannot extend itself);
- a **path relative to the extending file's folder**, to a ``.rules`` file
  at or below that folder (``extends "variants/base.rules"``). Absolute
  paths, ``..`` out of the folder and symbolic links that lead out of it
  are refused.

A name that looks like a path (it has a ``/``, starts with ``.`` or ends in
``.rules``) is always a path, on the command line too: it never silently
falls back to the bundled game of the same name. Only regular files are read
(never a directory, FIFO or device), and at most ``MAX_RULES_BYTES``.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

SUFFIX = ".rules"
MAX_RULES_BYTES = 1_000_000  # a rule file; the bundled ones are about 2 KB


class SourceError(ValueError):
    """A name ``extends`` or a command line may not use; the message says why, the hint what to do."""

    def __init__(self, message: str, hint: str = "", code: str = "E003"):
        super().__init__(message)
        self.message, self.hint, self.code = message, hint, code


def is_path_like(spec: str) -> bool:
    """True when ``spec`` names a file, not a bundled game: it has a folder, starts with '.' or has a suffix."""
    return "/" in spec or os.sep in spec or spec.startswith(".") or spec.endswith((SUFFIX, ".yaml", ".yml"))


def what_it_is(path: Path, max_bytes: int = MAX_RULES_BYTES) -> str:
    """Why ``path`` cannot be read as a rule file or suite (empty when it is a regular file that can be)."""
    try:
        info = path.stat()
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "is a loop of symbolic links"
        if not path.exists() and path.is_symlink():
            return "is a symbolic link to nothing"
        return error.strerror or "cannot be read"
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        return "is a directory, not a rule file"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (named pipe), not a rule file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a rule file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a rule file"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    if path.is_symlink() and Path(os.path.realpath(path)).suffix != path.suffix:
        return f"is a symbolic link to a file that is not a {path.suffix or SUFFIX} file"
    if info.st_size > max_bytes:
        return f"is {info.st_size} bytes; at most {max_bytes} are read"
    return ""


def command_line_file(spec: str, bundled: Path) -> Path | None:
    """The file a command line names: a path if it looks like one, else a file here or a bundled game.

    A path is returned when anything exists there (a directory or a FIFO
    too), so that reading it can say what it is.
    """
    if is_path_like(spec):
        for path in (Path(spec), Path(spec + SUFFIX)):
            if os.path.lexists(path):
                return path
        return None
    here = (Path(spec), Path(spec + SUFFIX))
    for path in here:
        if path.is_file():
            return path
    path = bundled / (spec + SUFFIX)
    if path.is_file():
        return path
    return next((p for p in here if os.path.lexists(p)), None)  # a directory, FIFO, ...: say what it is


def extends_target(target: str, child: Path, bundled: Path) -> Path | None:
    """The file ``extends "target"`` in ``child`` names, ``None`` when there is none.

    Raises :class:`SourceError` for a name that may not be used.
    """
    folder = child.parent
    if not is_path_like(target):
        sibling = folder / (target + SUFFIX)
        if sibling.is_file() and not _same(sibling, child):
            return sibling
        path = bundled / (target + SUFFIX)
        if path.is_file():
            return path
        return sibling if sibling.is_file() else None  # the file itself: reported as a cycle
    if os.path.isabs(target):
        raise SourceError(f"extends {target!r}: an absolute path is not allowed",
                          "name a bundled game, or a .rules file beside this one or in a folder below it")
    path = folder / target
    if path.suffix != SUFFIX:
        path = path.with_name(path.name + SUFFIX)
    inside = Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    if not inside:
        raise SourceError(f"extends {target!r} leads out of this file's folder",
                          "name a bundled game, or a .rules file beside this one or in a folder below it")
    return path if os.path.lexists(path) else None


def _same(a: Path, b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)
