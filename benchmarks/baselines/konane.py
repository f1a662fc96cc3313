"""Konane written by hand (GAMES.md section 1): jumps, go-again with any stone or pass."""

from __future__ import annotations

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def start(settings: dict[str, str]) -> tuple:
    """State: (board, turn, last). board[r][c] with r = 0 the bottom row; last is (r, c) or None."""
    rows = int(settings.get("rows", 3))
    cols = int(settings.get("cols", 4))
    if rows == 3 and cols == 4:
        top_first = ["wbwb", "bwb-", "w-wb"]
        board = [list(line) for line in reversed(top_first)]
        return board, "w", None
    board = []
    for r in range(rows):
        row = []
        for c in range(cols):
            row.append("w" if (c + 1 + r + 1) % 2 == 0 else "b")
        board.append(row)
    mid_row = (rows + 1) // 2 - 1
    mid_col = (cols + 1) // 2 - 1
    board[mid_row][mid_col] = "-"
    if mid_col + 1 < cols:
        board[mid_row][mid_col + 1] = "-"
    return board, "w", None


def other(player: str) -> str:
    """The opponent's symbol."""
    return "b" if player == "w" else "w"


def jumps(board: list, player: str) -> list:
    """Every jump of player: ((r, c), (r2, c2)) from a stone over an enemy stone to an empty cell."""
    found = []
    rows, cols = len(board), len(board[0])
    for r in range(rows):
        for c in range(cols):
            if board[r][c] != player:
                continue
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                r1, c1, r2, c2 = r + dr, c + dc, r + 2 * dr, c + 2 * dc
                if not (0 <= r2 < rows and 0 <= c2 < cols):
                    continue
                if board[r1][c1] == other(player) and board[r2][c2] == "-":
                    found.append(((r, c), (r2, c2)))
    return found


def moves(state: tuple) -> list:
    """Legal moves: jumps, plus "pass" in a go-again turn; none when the player to move is stuck."""
    board, turn, last = state
    found = jumps(board, turn)
    if last is not None:
        found.append("pass")
    return found


def play(state: tuple, move) -> tuple:
    """The state after a move."""
    board, turn, last = state
    if move == "pass":
        return board, other(turn), None
    (r, c), (r2, c2) = move
    new = [row[:] for row in board]
    new[r][c] = "-"
    new[(r + r2) // 2][(c + c2) // 2] = "-"
    new[r2][c2] = turn
    if jumps(new, turn):
        return new, turn, (r2, c2)
    return new, other(turn), None


def cell_name(cell: tuple) -> str:
    """a1 is the bottom-left cell."""
    return f"{LETTERS[cell[1]]}{cell[0] + 1}"


def notation(move) -> str:
    """b2-d2 or pass."""
    if move == "pass":
        return "pass"
    return f"{cell_name(move[0])}-{cell_name(move[1])}"


def position(state: tuple) -> str:
    """(w "" wbwb bwb- w-wb): turn, last cell, rows top first."""
    board, turn, last = state
    rows = " ".join("".join(row) for row in reversed(board))
    return f"({turn} {cell_name(last) if last else chr(34) * 2} {rows})"


def perft(state: tuple, depth: int) -> int:
    """Move sequences of exactly depth plies."""
    if depth == 0:
        return 1
    found = moves(state)
    if depth == 1:
        return len(found)
    return sum(perft(play(state, move), depth - 1) for move in found)
