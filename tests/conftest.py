"""Fixtures every test module may ask for by name."""

from __future__ import annotations

import pytest


@pytest.fixture
def no_source_limit(monkeypatch):
    """Native sources of any length are compiled (``RULESDSL_NATIVE_MAX``): for tests of games over the limit."""
    monkeypatch.setenv("RULESDSL_NATIVE_MAX", "100000000")
