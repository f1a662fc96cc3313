"""Load a game: find the rule file, resolve it, check it, compile it.

This is the front door of the pipeline: parse -> resolve -> check -> compile.
Finding and resolving files is the language's (:mod:`rulesdsl.loader`); the
checks here include the trial compile, so a file that loads compiles.
"""

from __future__ import annotations

from pathlib import Path

from rulesdsl.errors import Diagnostic, OptionError, PositionError, RulesError, Span, suggest
from rulesdsl.interpreter.compile import rules_cache
from rulesdsl.interpreter.compile.compiler import compile_game
from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.loader import Resolved, bundled_games, find_rules, resolve
from rulesdsl.options import option_values

__all__ = ["load_game", "load_position", "load_rules", "start_from"]


def load_rules(spec: str) -> Resolved:
    """Resolve a rule file named by path or bundled name, and check it (or read the checked model from the
    cache: :mod:`rulesdsl.interpreter.compile.rules_cache`)."""
    path = find_rules(spec)
    if path is None:
        names = ", ".join(bundled_games())
        close = suggest(spec, bundled_games())
        raise RulesError([Diagnostic(Span(0, 0, file=spec), "no such rule file or bundled game", "E002",
                                     hint=f"did you mean {close!r}?" if close else f"bundled games: {names}")])
    return rules_cache.cached(path, _checked)


def _checked(path: Path) -> Resolved:
    """The file at ``path`` resolved, after the checks found no error (else :class:`RulesError`)."""
    from rulesdsl.interpreter.compile.trial import check_all  # the checks: not imported on a warm start

    resolved = resolve(path)
    errors = [d for d in check_all(resolved) if d.severity == "error"]
    if errors:
        raise RulesError([resolved.attach(d) for d in errors])
    return resolved


def load_game(spec: str, settings: dict[str, str] | None = None) -> Game:
    """Resolve, check and compile a rule file into a :class:`Game`."""
    resolved = load_rules(spec)
    return compile_game(resolved, option_values(resolved, settings))


def load_position(game: Game, text: str) -> tuple[Game, State]:
    """Parse a position for ``game``; recompile when it implies other board sizes.

    Returns ``(game, state)``. A position with four rows read by a game
    compiled for three rows recompiles the game with ``rows=4``.
    """
    try:
        return game, game.parse_position(text)
    except PositionError as error:
        implied = getattr(error, "implied_options", None)
        resolved = getattr(game, "resolved", None)
        if not implied or resolved is None:
            raise
        settings = {k: str(v) for k, v in game.options.items()}
        settings.update({k: str(v) for k, v in implied.items()})
        try:
            values = option_values(resolved, settings)
        except OptionError as option_error:
            raise PositionError(f"{error} ({option_error})") from None
        resized = compile_game(resolved, values)
        try:
            return resized, resized.parse_position(text)
        except PositionError:  # the size read off the position was a guess (a board cut by 'where')
            tried = " ".join(f"--set {k}={v}" for k, v in implied.items())
            raise PositionError(f"{error}; it does not fit {tried} either") from None


def start_from(game: Game, position: str | None = None, history: tuple[str, ...] | list[str] = ()
               ) -> tuple[Game, State]:
    """``(game, state)``: the start, or ``position`` (which may recompile the game for its size),
    with the earlier boards of ``history`` remembered. Raises :class:`RulesdslError` subclasses."""
    if position is None:
        state = game.initial_state()
    else:
        game, state = load_position(game, position)
    if history:
        state = game.with_history(state, list(history))
    return game, state
