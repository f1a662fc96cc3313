"""Abalone on a hexagon of side 4 written by hand (GAMES.md section 4): pair moves, corner rule."""

from __future__ import annotations

ROWS = "ABCDEFG"
# The diagonals each row spans: row A holds A4..A7, row D holds D1..D7, row G holds G1..G4.
SPAN = {"A": (4, 7), "B": (3, 7), "C": (2, 7), "D": (1, 7), "E": (1, 6), "F": (1, 5), "G": (1, 4)}
NEIGHBOURS = [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)]
CORNERS = {"A4": (-1, 0), "A7": (-1, 1), "D1": (0, -1), "D7": (0, 1), "G1": (1, -1), "G4": (1, 0)}
START = "(b bbbb bbbbb --bb-- ------- --rr-- rrrrr rrrr)"


def start(settings: dict[str, str]) -> tuple:
    """State: (board, turn, losses) with board a dict from cell names (A4...) to b, r or -."""
    words = START[1:-1].split()
    board = {}
    for letter, word in zip(ROWS, words[1:]):
        low, _ = SPAN[letter]
        for offset, symbol in enumerate(word):
            board[f"{letter}{low + offset}"] = symbol
    return board, words[0], int(settings.get("losses", 4))


def step(cell: str, direction: tuple) -> str | None:
    """The neighbouring cell's name, or None off the board."""
    r = ROWS.index(cell[0]) + direction[0]
    d = int(cell[1:]) + direction[1]
    if not 0 <= r < len(ROWS):
        return None
    low, high = SPAN[ROWS[r]]
    if not low <= d <= high:
        return None
    return f"{ROWS[r]}{d}"


def other(player: str) -> str:
    """The opponent's symbol."""
    return "r" if player == "b" else "b"


def candidate_moves(board: dict, player: str) -> list:
    """Every pair move: (first, second, direction)."""
    found = []
    for cell, symbol in board.items():
        if symbol != player:
            continue
        for direction in NEIGHBOURS:
            second = step(cell, direction)
            if second is None or board[second] != player:
                continue
            beyond = step(second, direction)
            if beyond is None or board[beyond] == player:
                continue
            if board[beyond] == "-":
                found.append((cell, second, direction))
                continue
            after = step(beyond, direction)
            if after is None:
                if CORNERS.get(beyond) == direction:
                    continue  # never straight out of a corner
                found.append((cell, second, direction))
            elif board[after] == "-":
                found.append((cell, second, direction))
    return found


def lost(board: dict, player: str) -> int:
    """Tokens player has lost (each starts with 11)."""
    return 11 - list(board.values()).count(player)


def moves(state: tuple) -> list:
    """Legal moves; none once a side has lost enough tokens."""
    board, turn, losses = state
    if lost(board, turn) >= losses or lost(board, other(turn)) >= losses:
        return []
    return candidate_moves(board, turn)


def play(state: tuple, move) -> tuple:
    """The state after a pair move (and its push)."""
    board, turn, losses = state
    first, second, direction = move
    new = dict(board)
    beyond = step(second, direction)
    if board[beyond] != "-":
        after = step(beyond, direction)
        if after is not None:
            new[after] = board[beyond]
    new[beyond] = turn
    new[second] = turn
    new[first] = "-"
    return new, other(turn), losses


def notation(move) -> str:
    """A4 B3: the first token moves to the second's cell."""
    return f"{move[0]} {move[1]}"


def position(state: tuple) -> str:
    """(b bbbb bbbbb --bb-- ------- --rr-- rrrrr rrrr): turn, rows A to G."""
    board, turn, _ = state
    words = []
    for letter in ROWS:
        low, high = SPAN[letter]
        words.append("".join(board[f"{letter}{d}"] for d in range(low, high + 1)))
    return f"({turn} {' '.join(words)})"


def perft(state: tuple, depth: int) -> int:
    """Move sequences of exactly depth plies."""
    if depth == 0:
        return 1
    found = moves(state)
    if depth == 1:
        return len(found)
    return sum(perft(play(state, move), depth - 1) for move in found)
