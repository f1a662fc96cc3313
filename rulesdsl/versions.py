"""An installed distribution's version, read from its ``NAME-VERSION.dist-info`` folder on ``sys.path``.

``importlib.metadata`` answers the same but its import (email parsing and more) is about 15 ms, a fifth of
``rulesdsl --version`` and a part of every warm native start (numba's version keys the machine code's cache).
Where no such folder is found (an egg, a zip), ``importlib.metadata`` is asked after all.
"""

from __future__ import annotations

import os
import re
import sys

__all__ = ["installed_version"]


def installed_version(name: str) -> str | None:
    """The version of the installed distribution ``name`` (``None`` when it is not installed)."""
    wanted = _normal(name)
    for folder in sys.path:
        try:
            entries = os.listdir(folder or ".")
        except OSError:
            continue
        found = [stem.rsplit("-", 1) for stem in (e.removesuffix(".dist-info") for e in entries
                                                  if e.endswith(".dist-info") and "-" in e)]
        versions = [version for project, version in found if _normal(project) == wanted]
        if len(versions) == 1:
            return versions[0]
        if versions:
            break  # several versions side by side: let importlib.metadata choose
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _normal(project: str) -> str:
    """A project's name as the packaging standards compare them (PyYAML, pyyaml; open-spiel, open_spiel)."""
    return re.sub(r"[-_.]+", "_", project).lower()
