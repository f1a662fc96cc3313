"""Run the inline examples of a rule file: the tests of its meaning."""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.errors import Diagnostic, RulesdslError
from rulesdsl.expr import ExprError, evaluate
from rulesdsl.interpreter.compile.compiler import compile_game
from rulesdsl.interpreter.compile.game import Game, State
from rulesdsl.interpreter.compile.load import start_from
from rulesdsl.interpreter.search.minimax import perft
from rulesdsl.loader import Resolved
from rulesdsl.options import option_values


def prepare(resolved: Resolved, settings: dict[str, str], position: str | None = None,
            history: tuple[str, ...] = ()) -> tuple[Game, State]:
    """The game for these option settings and the position to test (the start by default).

    Raises :class:`RulesdslError` (an option, position or board that does not fit).
    """
    return start_from(compile_game(resolved, option_values(resolved, settings)), position, history)


def check_expectation(game: Game, state: State, expect: str, values: tuple) -> str | None:
    """``None`` when ``state`` meets one expectation, else what went wrong (one line).

    ``expect`` is ``moves`` (values: move strings, compared as sets), ``perft``
    (values: counts for depths 1..n), ``win`` (values: player and ``wins``/``loses``),
    ``draw``, ``ongoing`` or ``places`` (values: player, place, player, place...).
    """
    if expect == "perft":
        for depth, want in enumerate(values, start=1):
            got = perft(game, state, depth)
            if got != want:
                return f"perft({depth}) is {got}, expected {want}"
        return None
    if expect == "moves":
        got = sorted(game.format_move(state, mv) for mv in game.legal_moves(state))
        want = sorted(str(v) for v in values)
        if sorted(_normal(v) for v in got) != sorted(_normal(v) for v in want):
            missing = sorted(set(map(_normal, want)) - set(map(_normal, got)))
            extra = sorted(set(map(_normal, got)) - set(map(_normal, want)))
            twice = sorted({v for v in map(_normal, want) if list(map(_normal, want)).count(v) > 1})
            outcome = None if got else game.outcome(state)
            detail = "; ".join(part for part in (
                f"missing {', '.join(missing)}" if missing else "",
                f"unexpected {', '.join(extra)}" if extra else "",
                f"the example lists {', '.join(twice)} more than once, but a move is legal only once" if twice else "",
                f"the game is over: {_result(game, outcome)}" if outcome is not None else "") if part)
            return (f"moves are {', '.join(got) or 'none'}; expected {', '.join(want) or 'none'}"
                    + (f" ({detail})" if detail else ""))
        return None
    outcome = game.outcome(state)
    if expect == "ongoing":
        return None if outcome is None else f"the game is over ({_result(game, outcome)}), expected not"
    if outcome is None:
        return "the game is not over; expected a result"
    if expect == "draw":
        return None if outcome.winner is None else f"{_result(game, outcome)}; expected a draw"
    if expect == "places":
        return places_problem(game, outcome, values)
    name, verb = values
    player = game.player_named(str(name))
    if player is None:
        return f"{name!r} is not a player"
    held = outcome.winner is not None and (outcome.winner == player.index) == (verb == "wins")
    return None if held else f"{_result(game, outcome)}; expected {name} {verb}"


def places_problem(game: Game, outcome, values: tuple) -> str | None:
    """``None`` when each named player has the place given (``values``: player, place, player, place...)."""
    ranking = outcome.ranking(len(game.players))
    wanted = []
    for name, place in zip(values[::2], values[1::2]):
        player = game.player_named(str(name))
        if player is None:
            return f"{name!r} is not a player"
        wanted.append((player, place))
    wrong = [f"{p.name} {ranking[p.index]}, expected {place}" for p, place in wanted if ranking[p.index] != place]
    if not wrong:
        return None
    shown = ", ".join(f"{p.name} {at}" for p, at in zip(game.players, ranking))
    return f"places are {shown} ({'; '.join(wrong)})"


def _normal(move: str) -> str:
    return " ".join(move.lower().split())


def run_example(resolved: Resolved, example: m.Example) -> str | None:
    """``None`` when the example holds, else what went wrong (one line)."""
    try:
        settings = {name: str(evaluate(expr, {})).lower() for name, expr in example.settings}
        game, state = prepare(resolved, settings, example.position)
        return check_expectation(game, state, example.expect, example.values)
    except ExprError as error:
        return error.message
    except RulesdslError as error:
        return str(error)


def _result(game, outcome) -> str:
    if outcome.winner is None:
        return f"draw ({outcome.reason})"
    return f"{game.players[outcome.winner].name} wins ({outcome.reason})"


def run_examples(resolved: Resolved) -> list[Diagnostic]:
    """A diagnostic for every example of the file that fails."""
    found = []
    for example in resolved.examples:
        problem = run_example(resolved, example)
        if problem is not None:
            message = f"example {example.name!r} fails: {problem}"
            found.append(resolved.attach(Diagnostic(example.span, message, "E100")))
    return found
