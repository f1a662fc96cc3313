"""The vocabulary of directions: absolute names, built-in sets and player-relative names.

This is part of the language: the checker needs it to resolve names, the
interpreter to build neighbour tables. Grids use the square lattice (``x``
grows to the right, ``y`` upward); hexagons and rhombi use axial coordinates in which the
six neighbours of ``(x, y)`` are ``(x±1, y)``, ``(x, y±1)``, ``(x+1, y+1)`` and
``(x-1, y-1)``.
"""

from __future__ import annotations

Vector = tuple[int, int]

GRID_DIRECTIONS: dict[str, Vector] = {
    "n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1),
    "s": (0, -1), "sw": (-1, -1), "w": (-1, 0), "nw": (-1, 1),
}
HEX_DIRECTIONS: dict[str, Vector] = {
    "ne": (1, 1), "e": (1, 0), "se": (0, -1),
    "sw": (-1, -1), "w": (-1, 0), "nw": (0, 1),
}
GRID_SETS: dict[str, tuple[str, ...]] = {
    "orthogonal": ("n", "e", "s", "w"),
    "diagonal": ("ne", "se", "sw", "nw"),
    "all": ("n", "ne", "e", "se", "s", "sw", "w", "nw"),
}
HEX_SETS: dict[str, tuple[str, ...]] = {"all": ("ne", "e", "se", "sw", "w", "nw")}

# The sides of a board, for ``connects``: the highest or lowest cell of each column, the first or
# last cell of each row.
SIDES = ("top", "bottom", "left", "right")

RELATIVE = ("forward", "backward", "left", "right",
            "forward-left", "forward-right", "backward-left", "backward-right")


def absolute_directions(shape: str) -> dict[str, Vector]:
    """The absolute direction names of a board shape (``grid``, or the hexagonal lattice's ``hexagon``
    and ``rhombus``) and their vectors."""
    return GRID_DIRECTIONS if shape == "grid" else HEX_DIRECTIONS


def builtin_sets(shape: str) -> dict[str, tuple[str, ...]]:
    """The built-in direction sets of a board shape."""
    return GRID_SETS if shape == "grid" else HEX_SETS


def rotate_left(vector: Vector) -> Vector:
    """A quarter turn counter-clockwise on the square lattice."""
    return (-vector[1], vector[0])


def relative_vector(name: str, forward: Vector) -> Vector:
    """The lattice vector of a relative direction (``forward-left``...) for a player facing ``forward``.

    The result may not be a direction of the board (a diagonal forward on a
    hexagon has no left); callers check it against the board's directions.
    """
    fx, fy = forward
    lx, ly = rotate_left(forward)
    parts = {"forward": (fx, fy), "backward": (-fx, -fy), "left": (lx, ly), "right": (-lx, -ly)}
    x = y = 0
    for part in name.split("-"):
        x, y = x + parts[part][0], y + parts[part][1]
    return (x, y)
