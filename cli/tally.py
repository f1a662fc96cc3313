"""What the screens say beside a board: each player's score, pieces and captures, and a rule file's opening words.

Nothing here names a game. A player's pieces are the cells holding a symbol
the player owns (plus pieces in hand, for games with a hand). Captures are
counted only for games whose moves can take pieces (a rule with ``capture``,
a ``push``, a ``remove``, or a move onto an ``enemy``): the pieces a player
has lost since the start, which the other players captured. Placement games
(whose pieces come from nowhere) show their pieces only. Games with a
``score`` statement show each player's score first.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulesdsl import model as m
from rulesdsl.cli.results import ordinal
from rulesdsl.interpreter.compile.game import Game, State

TAKING_ACTIONS = ("push", "remove")


@dataclass(frozen=True)
class Tally:
    """One player's count of pieces: on the board, in hand, and captured from the others."""

    player: str
    symbol: str
    on_board: int | None  # None: the player owns no kind of piece (every piece is neutral, seeds say)
    in_hand: int | None
    captured: int | None  # None: the game's moves take no pieces
    score: int | None = None  # None: the game keeps no score (``score``)
    place: int | None = None  # the place the player has finished in or is out in (``finishes``, ``is out``)

    def as_dict(self) -> dict[str, object]:
        """For JSON."""
        return {"player": self.player, "symbol": self.symbol, "onBoard": self.on_board,
                "inHand": self.in_hand, "captured": self.captured, "score": self.score, "place": self.place}

    def text(self) -> str:
        """``white 7 on the board, captured 2`` (the parts the game has; ``placed 1st`` first once placed)."""
        parts = [f"placed {ordinal(self.place)}"] if self.place else []
        parts += [f"score {self.score}"] if self.score is not None else []
        if self.on_board is not None:
            parts.append(f"{self.on_board} on the board")
        if self.in_hand is not None:
            parts.append(f"{self.in_hand} in hand")
        if self.captured is not None:
            parts.append(f"captured {self.captured}")
        return f"{self.player} " + ", ".join(parts)


def takes_pieces(game: Game) -> bool:
    """Whether any move rule of the game can take a piece off the board."""
    resolved = game.resolved
    if resolved is None:
        return False
    rules: list[m.MoveRule] = []
    for block in (*resolved.of(m.Moves), *resolved.of(m.Then)):
        rules.extend(block.rules)
    return any(r.capture or r.action in TAKING_ACTIONS or "enemy" in r.targets for r in rules)


def hand_totals(hand: tuple[int, ...] | None, players: int) -> list[int] | None:
    """Each player's pieces in hand, whatever their kinds (a hand of K kinds holds K counts a player)."""
    if hand is None:
        return None
    size = len(hand) // players
    return [sum(hand[p * size:(p + 1) * size]) for p in range(players)]


def tallies(game: Game, state: State) -> list[Tally]:
    """Each player's pieces (and, in games that take pieces, captures) in ``state``."""
    owners = {symbol: owner for symbol, (_, owner) in game.piece_names.items()}
    players = len(game.players)

    def counts(s: State) -> list[int]:
        held = [0] * players
        for symbol in s.board:
            owner = owners.get(symbol, -1)
            if 0 <= owner < players:
                held[owner] += 1
        return held

    now = counts(state)
    hand = hand_totals(state.hand, players)
    captured: list[int | None] = [None] * players
    if takes_pieces(game):
        start = game.initial_state()
        had = [a + b for a, b in zip(counts(start), hand_totals(start.hand, players) or [0] * players)]
        has = [a + b for a, b in zip(now, hand or [0] * players)]
        lost = [max(0, a - b) for a, b in zip(had, has)]
        captured = [sum(lost) - lost[p] for p in range(players)]
    scores = game.scores(state)
    owning = {owner for owner in owners.values()}
    return [Tally(p.name, p.symbol, now[p.index] if p.index in owning else None,
                  hand[p.index] if hand is not None else None, captured[p.index],
                  scores[p.index] if scores is not None else None,
                  state.places[p.index] or None if state.places is not None else None)
            for p in game.players]


def tally_line(game: Game, state: State) -> str:
    """``white 7 on the board, captured 2; black 6 on the board, captured 3``."""
    return "; ".join(t.text() for t in tallies(game, state))


def opening_comment(path: Path | str) -> str:
    """The comment a rule file opens with, its lines joined (an empty comment line starts a new paragraph)."""
    paragraphs: list[list[str]] = [[]]
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        text = raw.strip()
        if not text.startswith("#"):
            break
        words = text.lstrip("#").strip()
        if words:
            paragraphs[-1].append(words)
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n".join(" ".join(lines) for lines in paragraphs if lines)
