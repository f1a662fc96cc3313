"""rulesdsl: board games as declarative rule files.

``rulesdsl.load(NAME, rows=6, cols=6)`` gives a :class:`~rulesdsl.api.Game`
(see ``docs/api.md``); ``rulesdsl.openspiel.game(NAME)`` the same game for
OpenSpiel's algorithms; ``rulesdsl.capture`` is the function one of the seed
rule sheets asks for. These names are imported on first use, so that importing the
language (``rulesdsl.parser``, ``rulesdsl.checker``) or starting the command
line does not load the engine.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Game", "Outcome", "Position", "Value", "capture", "load"]


def __getattr__(name: str) -> Any:
    """Import a public name from its module the first time it is asked for."""
    if name == "capture":
        from rulesdsl.interpreter.reference.capture import capture as value
    elif name in ("Game", "Outcome", "Position", "Value", "load"):
        from rulesdsl import api

        value = getattr(api, name)
    elif name == "openspiel":  # the OpenSpiel adapter (imports pyspiel only when a game is made)
        import rulesdsl.openspiel as value
    else:
        raise AttributeError(f"module 'rulesdsl' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
