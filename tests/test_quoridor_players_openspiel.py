"""rules/quoridor.rules with three and four players against OpenSpiel's ``quoridor(players=N)``: perft from the
start, and seeded random games in which every position's board, player to move, legal moves and result agree.

OpenSpiel's order of play is its player 0 (bottom), 2 (left), 1 (top), 3 (right); ours lists the seats in that
order (white, red, black, blue), so its player 2 is our seat 1 and its player 1 our seat 2. OpenSpiel draws red's
pawn as ``#`` (ours is ``X``: ``#`` is a wall). A player with no move passes: there by "moving" to its own square,
here by ``pass``.

Where we disagree with OpenSpiel (its quoridor is marked as having known issues): its ``returns()`` are indexed by
the seat in the order of play, not by player number, so when red (its player 2) reaches the east edge it pays
its player 1 (black, at the top), and the other way round. We credit the player whose pawn reached its goal; the
random games read OpenSpiel's winner as the player who made the last ply (a game ending in a win ends on the
winner's ply), and ``test_openspiel_pays_the_wrong_player`` shows the position.
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pyspiel")

from openspiel_side_by_side import Side, load, play  # noqa: E402
from test_quoridor_openspiel import spiel_board, spiel_key, spiel_perft  # noqa: E402

from rulesdsl.interpreter.compile.load import load_game  # noqa: E402

GAMES = int(os.environ.get("RULESDSL_QUORIDOR_GAMES", "100"))
ORDER = {3: (0, 2, 1), 4: (0, 2, 1, 3)}  # OpenSpiel's order of play, by its player numbers
PAWNS = {"0": "0", "#": "X", "@": "@", "%": "%"}  # OpenSpiel's pawn symbols -> ours


def last_mover(state) -> int:
    """OpenSpiel's player who made the last ply."""
    order = ORDER[state.get_game().num_players()]
    return order[(len(state.history()) - 1) % len(order)]


def broken_pass(state) -> bool:
    """OpenSpiel's pass when a player has no move at all: one action, named by a square off the board (``k5`` or
    ``e-1`` on 5 x 5), which it then refuses to apply (SpielError ``board_[move.xy] == kPlayerNone``). Ours is
    ``pass``."""
    actions = state.legal_actions()
    if len(actions) != 1:
        return False
    text = state.action_to_string(state.current_player(), actions[0])
    size = state.get_game().get_parameters()["board_size"]
    return text[-1].isdigit() and not (0 <= ord(text[0]) - ord("a") < size and 1 <= int(text[1:]) <= size)


def side(players: int, size: int = 5, walls: int = 3) -> Side:
    order = ORDER[players]
    width = 2 * size - 1
    board = spiel_board(size, PAWNS)
    key = spiel_key(size)

    def action_key(state, action: int) -> str:
        """OpenSpiel's action as our move's key: ``pass`` when its pawn "moves" to its own square."""
        text = state.action_to_string(state.current_player(), action)
        if broken_pass(state):
            return "pass"
        if text[-1].isdigit():  # a square, counted from the top left
            x, y = 2 * (ord(text[0]) - ord("a")), 2 * (int(text[1:]) - 1)
            if board(str(state))[f"{chr(ord('a') + x)}{width - y}"] == PAWNS["0@#%"[state.current_player()]]:
                return "pass"  # its players 0 to 3 draw their pawns 0, @, # and %
        return text

    def winner(state) -> int | None:
        return None if all(v == 0 for v in state.returns()) else order.index(last_mover(state))

    return Side(load_game("quoridor", {"size": str(size), "walls": str(walls), "players": str(players)}),
                load("quoridor", {"board_size": size, "wall_count": walls, "players": players}), lambda a: a,
                board, lambda text: text if text == "pass" else key(text),
                name=f"quoridor {size}x{size}, {walls} walls, {players} players",
                seat_of=order.index, winner=winner, action_key=action_key, stop=broken_pass)


@pytest.mark.parametrize("players", [3, 4])
def test_perft_from_the_start(players):
    game = load_game("quoridor", {"size": "5", "walls": "3", "players": str(players)})
    spiel = load("quoridor", {"board_size": 5, "wall_count": 3, "players": players}).new_initial_state()
    assert [game.perft(game.initial_state(), d) for d in (1, 2, 3)] == [spiel_perft(spiel, d) for d in (1, 2, 3)]


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_agree(players):
    results = [play(side(players), seed) for seed in range(GAMES)]
    assert {outcome.winner for _, outcome in results if outcome} >= set(range(players))  # every seat wins some
    assert sum(outcome is None for _, outcome in results) < GAMES // 4  # few games stop at OpenSpiel's pass


@pytest.mark.parametrize("size, walls", [(3, 1), (4, 2), (6, 4)])
def test_random_games_agree_at_other_sizes(size, walls):
    for seed in range(max(2, GAMES // 10)):
        play(side(4, size, walls), seed)


@pytest.mark.deep
@pytest.mark.parametrize("players", [3, 4])
def test_a_thousand_random_games_agree(players):
    game = side(players)
    for seed in range(1000):
        play(game, 10_000 + seed)


def test_openspiel_pays_the_wrong_player():
    """3 x 3 squares, four players, no walls. Red (OpenSpiel's player 2, drawn '#') leaps blue to the east edge:

    ```
       a   b   c          OpenSpiel after c3 a3 a1 b3 c2 c3; ours after
     1 @   .   .  1       c1-e1 a3-a1 c5-a5 e3-c1 e1-e3 a1-e1:
     2 .   .   0  2       (0 0/0/0/0 @---- ----- ----0 ----- --%-X)
     3 .   %   #  3
    ```

    Red's pawn stands on its goal, the east column, so red wins: we say red (seat 1). OpenSpiel pays +1 to its
    player 1, black, whose pawn is in the top-left corner, far from its goal (the bottom row).
    """
    game = load_game("quoridor", {"size": "3", "walls": "0", "players": "4"})
    state = game.initial_state()
    for text in ("c1-e1", "a3-a1", "c5-a5", "e3-c1", "e1-e3", "a1-e1"):
        state = game.apply(state, game.parse_move(state, text))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == game.player_named("red").index == 1
    spiel = load("quoridor", {"board_size": 3, "wall_count": 0, "players": 4}).new_initial_state()
    for text in ("c3", "a3", "a1", "b3", "c2", "c3"):
        player = spiel.current_player()
        spiel.apply_action(next(a for a in spiel.legal_actions() if spiel.action_to_string(player, a) == text))
    assert " # " in str(spiel).splitlines()[6] and spiel.is_terminal()  # its '#' pawn on c3, its east edge
    assert spiel.returns()[1] == 1.0 and spiel.returns()[2] < 0  # paid to black (1), not to red (2)


def test_a_player_shut_in_passes():
    """Blue (right edge, facing west) is walled in above and below, and red and white stand in a row to its left:
    no straight leap over two pawns, no side leap when a pawn stands behind. Blue's one move is ``pass``; then
    white moves. (OpenSpiel names this pass ``k5``-like, off the board, and cannot apply it.)"""
    game = load_game("quoridor", {"size": "3", "walls": "0", "players": "4"})
    state = game.parse_position("(% 0/0/0/0 @---- --### 0-X-% --### -----)")
    moves = game.legal_moves(state)
    assert [game.format_move(state, mv) for mv in moves] == ["pass"]
    after = game.apply(state, moves[0])
    assert game.to_move(after) == 0 and after.board == state.board
