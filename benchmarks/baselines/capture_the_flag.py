"""Capture the Flag written by hand (GAMES.md section 3): pawns, flags, no repeated board."""

from __future__ import annotations

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def start(settings: dict[str, str]) -> tuple:
    """State: (board, turn, history). board is N*N characters, top row first; history a set of boards."""
    n = int(settings.get("size", 5))
    rows = []
    for r in range(n):
        row = ""
        for c in range(n):
            if c == 0 or c == n - 1:
                row += "-"
            elif r == 0:
                row += "W" if c == n // 2 else "w"
            elif r == 1:
                row += "w"
            elif r == n - 2:
                row += "b"
            elif r == n - 1:
                row += "B" if c == n // 2 else "b"
            else:
                row += "-"
        rows.append(row)
    return "".join(rows), "w", frozenset()


def other(player: str) -> str:
    """The opponent's symbol."""
    return "b" if player == "w" else "w"


def size(board: str) -> int:
    """N, the board's side."""
    n = 1
    while n * n < len(board):
        n += 1
    return n


def candidate_moves(board: str, player: str) -> list:
    """Every step and jump the piece rules allow: (from, to, captured or None), as indices."""
    n = size(board)
    forward = 1 if player == "w" else -1  # white moves down the string's rows
    pawn, flag = player, player.upper()
    enemies = (other(player), other(player).upper())
    found = []
    for i, piece in enumerate(board):
        if piece not in (pawn, flag):
            continue
        r, c = divmod(i, n)
        if piece == pawn:
            directions = [(forward, 0), (0, -1), (0, 1)]
        else:
            directions = [(forward, 0), (-forward, 0), (0, -1), (0, 1)]
        for dr, dc in directions:
            r1, c1 = r + dr, c + dc
            if not (0 <= r1 < n and 0 <= c1 < n):
                continue
            if board[r1 * n + c1] == "-":
                found.append((i, r1 * n + c1, None))
            elif piece == pawn and board[r1 * n + c1] in enemies:
                r2, c2 = r1 + dr, c1 + dc
                if 0 <= r2 < n and 0 <= c2 < n and board[r2 * n + c2] == "-":
                    found.append((i, r2 * n + c2, r1 * n + c1))
    return found


def after(board: str, move) -> str:
    """The board after a move."""
    cells = list(board)
    origin, target, captured = move
    cells[target] = cells[origin]
    cells[origin] = "-"
    if captured is not None:
        cells[captured] = "-"
    return "".join(cells)


def legal(board: str, player: str, history) -> list:
    """The moves that repeat no board of the game."""
    return [m for m in candidate_moves(board, player)
            if after(board, m) not in history and after(board, m) != board]


def over(state: tuple) -> bool:
    """Do the end conditions hold (for the player who just moved)?"""
    board, turn, history = state
    n = size(board)
    mover, opponent = other(turn), turn
    if opponent not in board:
        return True
    if opponent.upper() not in board:
        return True
    flag_rows = [i // n for i, s in enumerate(board) if s == mover.upper()]
    pawn_rows = [i // n for i, s in enumerate(board) if s == opponent]
    if flag_rows:
        if mover == "w" and all(max(flag_rows) > r for r in pawn_rows):
            return True
        if mover == "b" and all(min(flag_rows) < r for r in pawn_rows):
            return True
    return not legal(board, turn, history)


def moves(state: tuple) -> list:
    """Legal moves; none once the game is over."""
    if over(state):
        return []
    board, turn, history = state
    return legal(board, turn, history)


def play(state: tuple, move) -> tuple:
    """The state after a move; the board left behind joins the history."""
    board, turn, history = state
    return after(board, move), other(turn), history | {board}


def notation(move, n: int = 5) -> str:
    """b4-b3 (a1 is the bottom-left cell)."""
    def name(i: int) -> str:
        r, c = divmod(i, n)
        return f"{LETTERS[c]}{n - r}"

    return f"{name(move[0])}-{name(move[1])}"


def position(state: tuple) -> str:
    """(w -wWw--www-------bbb--bBb-): turn and board."""
    return f"({state[1]} {state[0]})"


def perft(state: tuple, depth: int) -> int:
    """Move sequences of exactly depth plies."""
    if depth == 0:
        return 1
    found = moves(state)
    if depth == 1:
        return len(found)
    return sum(perft(play(state, move), depth - 1) for move in found)
