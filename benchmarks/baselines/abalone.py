"""Abalone on an n x m grid written by hand (GAMES.md section 2): line pushes, freeze, captures."""

from __future__ import annotations

LETTERS = "abcdefghijklmnopqrstuvwxyz"
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def start(settings: dict[str, str]) -> dict:
    """State: a dict with the board (board[r][c], r = 0 the bottom row), the turn and the rules."""
    rows = int(settings.get("rows", 4))
    cols = int(settings.get("cols", 4))
    board = [["-"] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if (c == 0 and r == rows - 1) or (c == cols - 1 and r == 0):
                continue
            if r == 0 or c == 0:
                board[r][c] = "b"
            elif r == rows - 1 or c == cols - 1:
                board[r][c] = "w"
    return {
        "board": board,
        "turn": "b",
        "captures": int(settings.get("captures", 2)),
        "misere": settings.get("misere", "false") == "true",
        "freeze": settings.get("freeze", "strict"),
        "pieces": rows + cols - 3,
    }


def other(player: str) -> str:
    """The opponent's symbol."""
    return "w" if player == "b" else "b"


def on_board(board: list, r: int, c: int) -> bool:
    """Is (r, c) a cell?"""
    return 0 <= r < len(board) and 0 <= c < len(board[0])


def pushes(board: list, player: str) -> list:
    """Every push the line rule allows: (line cells, pushed enemy cells, direction)."""
    found = []
    for r in range(len(board)):
        for c in range(len(board[0])):
            if board[r][c] != player:
                continue
            for dr, dc in DIRECTIONS:
                line = [(r, c)]
                rr, cc = r + dr, c + dc
                while on_board(board, rr, cc) and board[rr][cc] == player:
                    line.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if not on_board(board, rr, cc):
                    continue  # never push your own marble off
                pushed = []
                while on_board(board, rr, cc) and board[rr][cc] == other(player):
                    pushed.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if pushed:
                    if len(pushed) >= len(line):
                        continue
                    if on_board(board, rr, cc) and board[rr][cc] != "-":
                        continue
                found.append((line, pushed, (dr, dc)))
    return found


def count(board: list, player: str) -> int:
    """Marbles of player on the board."""
    return sum(row.count(player) for row in board)


def winner(state: dict):
    """The winner's symbol if the captures decide the game, else None (no-move loss is separate)."""
    board, turn = state["board"], state["turn"]
    mover, opponent = other(turn), turn
    result = None
    if state["pieces"] - count(board, opponent) >= state["captures"]:
        result = mover
    elif state["pieces"] - count(board, mover) >= state["captures"]:
        result = opponent
    return result


def legal_pushes(state: dict) -> list:
    """The pushes the freeze rule leaves (before any end condition)."""
    board, turn = state["board"], state["turn"]
    found = pushes(board, turn)
    if state["freeze"] == "off":
        return found
    frozen = set()
    for _, pushed, _ in pushes(board, other(turn)):
        frozen.update(pushed)
    if state["freeze"] == "strict":
        return [p for p in found if not any(cell in frozen for cell in p[0])]
    return [p for p in found if p[0][0] not in frozen]


def moves(state: dict) -> list:
    """Legal moves; none once the game is over."""
    if winner(state) is not None:
        return []
    return legal_pushes(state)


def play(state: dict, move) -> dict:
    """The state after a push."""
    line, pushed, (dr, dc) = move
    board = [row[:] for row in state["board"]]
    for r, c in reversed(line + pushed):
        rr, cc = r + dr, c + dc
        if on_board(board, rr, cc):
            board[rr][cc] = board[r][c]
        board[r][c] = "-"
    new = dict(state)
    new["board"] = board
    new["turn"] = other(state["turn"])
    return new


def cell_name(r: int, c: int) -> str:
    """a1 is the bottom-left cell."""
    return f"{LETTERS[c]}{r + 1}"


def notation(move) -> str:
    """The picked marble and the cell it moves to: a1-b2."""
    line, _, (dr, dc) = move
    r, c = line[0]
    return f"{cell_name(r, c)}-{cell_name(r + dr, c + dc)}"


def position(state: dict) -> str:
    """(b bbb- b--w b--w -www): turn, then the rows from the bottom one."""
    return "(" + state["turn"] + " " + " ".join("".join(row) for row in state["board"]) + ")"


def perft(state: dict, depth: int) -> int:
    """Move sequences of exactly depth plies."""
    if depth == 0:
        return 1
    found = moves(state)
    if depth == 1:
        return len(found)
    return sum(perft(play(state, move), depth - 1) for move in found)
