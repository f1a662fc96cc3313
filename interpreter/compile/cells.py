"""Scanning a board string for the cells that hold given symbols (move generation, end rules, evaluation)."""

from __future__ import annotations


def cells_with(board: str, sym: str) -> list[int]:
    """The cells holding ``sym``, in order (``str.find``, which beats a scan of every cell)."""
    found = []
    i = board.find(sym)
    while i >= 0:
        found.append(i)
        i = board.find(sym, i + 1)
    return found


def cells_holding(board: str, syms: frozenset[str]) -> list[int]:
    """The cells whose symbol is one of ``syms``, in order."""
    if len(syms) == 1:
        (sym,) = syms
        return cells_with(board, sym)
    return [i for i, s in enumerate(board) if s in syms]
