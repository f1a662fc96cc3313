"""The verify stage: what needs a compiled game to test a rule file's meaning.

It sits between the interpreter and the command line: inline examples
(:mod:`.examples`), YAML suites (:mod:`.suites`), random self-checks
(:mod:`.selfcheck`) and all of them for one file (:func:`check_file`).
Tests and tools import it from here, never from ``rulesdsl.cli``.
"""

from rulesdsl.verify.files import FileReport, check_file, safe_check

__all__ = ["FileReport", "check_file", "safe_check"]
