"""The language's grammar, loaded once: ``grammar.lark`` as an LALR parser.

Building the LALR tables takes about half a second, on every start of every
command. So the built parser is kept in the user's cache folder
(``~/.cache/rulesdsl/grammar/``), as JSON named by a hash of the grammar's
text and lark's version, and later starts load it in about a tenth of that.
JSON, not pickle: a file someone else changed can at worst make a wrong
parser (and a file that does not load is rebuilt), never run code.
``RULESDSL_GRAMMAR_CACHE=0`` builds the parser afresh every time.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Lark

OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True, "maybe_placeholders": True}


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """The LALR parser: loaded from the cache, or built from ``grammar.lark`` (and then cached)."""
    from lark import Lark

    text = resources.files("rulesdsl").joinpath("grammar.lark").read_text()
    path = cache_path(text)
    if path is not None:
        loaded = _load(path)
        if loaded is not None:
            return loaded
    parser = Lark(text, **OPTIONS)
    if path is not None:
        _save(parser, path)
    return parser


def cache_path(text: str) -> Path | None:
    """Where the parser built from ``text`` is cached (``None``: caching is off)."""
    import lark

    if os.environ.get("RULESDSL_GRAMMAR_CACHE", "1") == "0":
        return None
    key = hashlib.sha256(f"{lark.__version__}\n{sorted(OPTIONS.items())}\n{text}".encode()).hexdigest()[:24]
    return cache_root() / "grammar" / f"parser_{key}.json"


def cache_root() -> Path:
    """The user's cache folder for rulesdsl (platformdirs where installed, else the XDG default)."""
    try:
        from platformdirs import user_cache_dir
    except ImportError:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return Path(base) / "rulesdsl"
    return Path(user_cache_dir("rulesdsl"))


def _int_keys(pairs: list[tuple[str, object]]) -> dict:
    """JSON writes the parse table's state numbers as strings: read them back as numbers."""
    return {int(k) if k.isdigit() else k: v for k, v in pairs}


def _load(path: Path) -> Lark | None:
    """The cached parser, or ``None`` where there is none or it does not load."""
    from lark import Lark

    try:
        data, memo = json.loads(path.read_text(), object_pairs_hook=_int_keys)
        return Lark._load_from_dict(data, memo)
    except Exception:  # noqa: BLE001 - any unreadable or foreign cache file means: build the parser again
        return None


def _save(parser: Lark, path: Path) -> None:
    """Write the parser to the cache (atomically); a cache that cannot be written is skipped."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps([data, memo]))
        os.replace(temporary, path)
    except (OSError, TypeError, ValueError):
        pass
