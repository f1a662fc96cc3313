"""A real editor: headless Neovim's built-in LSP client on a broken rule file (Debian's neovim, see .ci/run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from helpers import system_program
from test_lsp import BROKEN

SCRIPT = Path(__file__).resolve().parent / "nvim" / "diagnostics.lua"


def test_neovim_receives_the_diagnostics(tmp_path):
    nvim = system_program("nvim", "neovim")
    path, out = tmp_path / "broken.rules", tmp_path / "found.json"
    path.write_text(BROKEN)
    env = dict(os.environ, RULESDSL_FILE=str(path), RULESDSL_OUT=str(out), RULESDSL_PYTHON=sys.executable,
               HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    done = subprocess.run([nvim, "--headless", "--clean", "-u", "NONE", "-c", f"luafile {SCRIPT}"], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180)
    assert out.is_file(), done.stderr
    result = json.loads(out.read_text())
    assert result["arrived"], result
    # line 7, column 14 of the file (0-based 6, 13): 'orthogonl' is an unknown direction, E050 in docs/language.md
    assert [(d["lnum"], d["col"], d["code"]) for d in result["diagnostics"]] == [(6, 13, "E050")]
    assert result["diagnostics"][0]["end_col"] == 22 and result["diagnostics"][0]["severity"] == 1
    assert result["hover"].startswith("**jump**")
