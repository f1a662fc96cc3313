"""Run the inline examples of a rule file: the tests of its meaning."""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.errors import Diagnostic, RulesdslError
from rulesdsl.expr import ExprError, evaluate
from rulesdsl.interpreter.compiler import compile_game
from rulesdsl.interpreter.search import perft
from rulesdsl.loader import Resolved, load_position, option_values


def run_example(resolved: Resolved, example: m.Example) -> str | None:
    """``None`` when the example holds, else what went wrong (one line)."""
    try:
        settings = {name: str(evaluate(expr, {})).lower() for name, expr in example.settings}
        game = compile_game(resolved, option_values(resolved, settings))
        if example.position is None:
            state = game.initial_state()
        else:
            game, state = load_position(game, example.position)
        if example.expect == "perft":
            for depth, want in enumerate(example.values, start=1):
                got = perft(game, state, depth)
                if got != want:
                    return f"perft({depth}) is {got}, the example expects {want}"
            return None
        if example.expect == "moves":
            got = sorted(game.format_move(state, mv) for mv in game.legal_moves(state))
            want = sorted(str(v) for v in example.values)
            if got != want:
                return f"moves are {', '.join(got) or 'none'}; the example expects {', '.join(want) or 'none'}"
            return None
        outcome = game.outcome(state)
        if example.expect == "ongoing":
            return None if outcome is None else f"the game is over ({_result(game, outcome)}), expected not"
        if outcome is None:
            return "the game is not over; the example expects a result"
        if example.expect == "draw":
            return None if outcome.winner is None else f"{_result(game, outcome)}; the example expects a draw"
        name, verb = example.values
        player = game.player_named(str(name))
        if player is None:
            return f"{name!r} is not a player"
        wins = (outcome.winner == player.index) == (verb == "wins")
        return None if wins else f"{_result(game, outcome)}; the example expects {name} {verb}"
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
            found.append(resolved.attach(Diagnostic(example.span, f"example {example.name!r} fails: {problem}",
                                                    "E100")))
    return found
