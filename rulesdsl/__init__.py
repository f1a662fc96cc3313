"""rulesdsl: board games as declarative rule files."""

from rulesdsl.capture import capture

__all__ = ["capture"]
