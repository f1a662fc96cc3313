"""rulesdsl: board games as declarative rule files.

The public names below are imported on first use, so that importing the
language (``rulesdsl.parser``, ``rulesdsl.checker``) or starting the command
line does not load the engine.
"""

from __future__ import annotations

from typing import Any

__all__ = ["capture"]


def __getattr__(name: str) -> Any:
    """Import a public name from its module the first time it is asked for."""
    if name == "capture":
        from rulesdsl.interpreter.capture import capture

        globals()[name] = capture
        return capture
    raise AttributeError(f"module 'rulesdsl' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
