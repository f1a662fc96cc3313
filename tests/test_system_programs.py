"""The one helper every test that drives a system program goes through (tests/helpers.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import REQUIRE_SYSTEM_TOOLS, system_program

MISSING = "rulesdsl-no-such-program-3f9a"  # a name no machine has on its PATH


def test_a_missing_program_skips_naming_it_and_its_package(monkeypatch):
    monkeypatch.delenv(REQUIRE_SYSTEM_TOOLS, raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        system_program(MISSING, "some-debian-package")
    assert str(skipped.value) == f"{MISSING} is not installed: apt-get install some-debian-package"


def test_a_missing_program_fails_when_ci_requires_system_programs(monkeypatch):
    monkeypatch.setenv(REQUIRE_SYSTEM_TOOLS, "1")
    with pytest.raises(pytest.fail.Exception) as failed:
        system_program(MISSING, "some-debian-package")
    assert "apt-get install some-debian-package" in str(failed.value)
    assert REQUIRE_SYSTEM_TOOLS in str(failed.value)


def test_a_program_on_the_path_is_found_in_either_mode(monkeypatch):
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent))
    name = Path(sys.executable).name
    for required in ("0", "1"):
        monkeypatch.setenv(REQUIRE_SYSTEM_TOOLS, required)
        assert Path(system_program(name, "python3")).samefile(sys.executable)


def test_ci_sets_the_requirement_after_installing_the_packages():
    script = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text()
    assert "apt-get install" in script and "chromium chromium-driver neovim" in script
    assert f"export {REQUIRE_SYSTEM_TOOLS}=1" in script
