"""Which install extra brings which optional dependency (pyproject.toml says why each one is there).

The core install is what checking rule files needs; a command that needs more
imports it when it runs, and a missing module becomes one line naming the
extra to install (:func:`missing_extra`).
"""

from __future__ import annotations

# module imported -> the extra of pyproject.toml that installs it
EXTRA_OF = {
    "numpy": "solve",
    "platformdirs": "solve",
    "prompt_toolkit": "repl",
    "pygls": "editors",
    "lsprotocol": "editors",
    "pygments": "editors",
}


def missing_extra(error: ModuleNotFoundError) -> str | None:
    """One line saying which extra installs the module that ``error`` is about, or ``None`` when no extra does."""
    top = (error.name or "").split(".")[0]
    extra = EXTRA_OF.get(top)
    if extra is None:
        return None
    return f"this needs {top}, which is not installed: pip install 'rulesdsl[{extra}]' (or 'rulesdsl[all]')"
