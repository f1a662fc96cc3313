"""Engine scores in words, with their unit: a forced result, or the rule file's evaluation from one side's view.

An alpha-beta score is the ``evaluate`` block's weighted sum of features,
each feature the player's own minus the opponent's, seen from the player to
move; a score past the search's win threshold is a forced win or loss. An
MCTS score is the mean playout result, from -1 (every playout lost) to +1.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.interpreter.compile.game import Game
from rulesdsl.interpreter.search.minimax import WIN

DEFAULT_FEATURES = "mobility 1"  # what interpreter/search/evaluation.py uses for a file without ``evaluate``
SCORED_FEATURES = "score 10, mobility 1"  # ... and for one without ``evaluate`` that keeps a ``score``


def forced(score: float) -> str | None:
    """``wins in 5 plies`` or ``loses in 3 plies`` for a forced result, else ``None``."""
    if score >= WIN / 2:
        return f"wins in {round(WIN - score)} plies"
    if score <= -WIN / 2:
        return f"loses in {round(WIN + score)} plies"
    return None


def features_of(game: Game) -> str:
    """The evaluation's weighted features as the rule file gives them: ``captures 10, mobility 0.1``."""
    blocks = game.resolved.of(m.Evaluate) if game.resolved is not None else []
    if not blocks:
        return SCORED_FEATURES if game.has_scores else DEFAULT_FEATURES
    return ", ".join(" ".join(filter(None, (f.name, f.kind, f"{f.weight:g}"))) for f in blocks[-1].features)


def opponents_of(game: Game, player: int) -> str:
    """``black``'s: the player the evaluation compares with (with more than two, the next to move)."""
    following = game.players[(player + 1) % len(game.players)].name
    return f"{following}'s" if len(game.players) == 2 else f"{following}'s (the next to move)"


def describe_score(game: Game, score: float, player: int, engine: str = "alphabeta") -> str:
    """An engine score for ``player`` (the player to move) in words, with its unit.

    ``white wins in 5 plies``; ``score +1.00 from white's view: mobility 1, each white's minus black's``;
    ``mcts +0.35 (white's mean playout result, -1 loss to +1 win)``.
    """
    name = game.players[player].name
    if engine == "mcts":
        return f"mcts {score + 0.0:+.2f} ({name}'s mean playout result, -1 loss to +1 win)"
    result = forced(score)
    if result is not None:
        return f"{name} {result}"
    return (f"score {score + 0.0:+.2f} from {name}'s view: "  # + 0.0: no "-0.00"
            f"{features_of(game)}, each {name}'s minus {opponents_of(game, player)}")
