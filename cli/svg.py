"""SVG pictures of a position, drawn from the board's geometry alone.

Nothing here names a game or a board shape's rules: cell centres come from
the lattice (``geometry.display_column`` in half-cell units across, ``y``
upward), so any board the language can describe draws. A square lattice gets
square cells, a hexagonal one hexagons, any other shape round cells; a board
with declared ``lines`` is drawn as its lines with a small disc at each point. Rows and
columns (or diagonals) are labelled as :func:`rulesdsl.cli.render.axis_labels`
reads them off the cell names. Pieces are discs coloured by owner, with the
kind's initial when a game has more than one kind of piece. The last move is
marked when it is known: the cell a go-again turn continues from, and the
origin and target of a move passed in.

The output is deterministic (fixed rounding, sorted attributes) so that a
test can tell when a stored picture is out of date. With ``interactive`` each
cell carries ``data-cell`` and a hidden mark, for the web board to use.
"""

from __future__ import annotations

import math
from html import escape

from rulesdsl import model as m
from rulesdsl.cli.render import axis_labels, line_segments
from rulesdsl.interpreter.compile.game import NO_CELL, Game, Move, State
from rulesdsl.interpreter.compile.geometry import Geometry
from rulesdsl.interpreter.reference.counts import count_of, is_count

UNIT = 40.0  # distance between neighbouring cell centres along a row, in SVG units
MARGIN = 28.0
NAMED_COLOURS = {
    "white": ("#f7f3e8", "#333"), "black": ("#262626", "#000"), "red": ("#c8322d", "#6d1a17"),
    "blue": ("#2f5fb3", "#17305c"), "yellow": ("#f2c230", "#8a6b0c"), "green": ("#3a8f4a", "#1d4825"),
}
PALETTE = (("#f7f3e8", "#333"), ("#262626", "#000"), ("#c8322d", "#6d1a17"), ("#2f5fb3", "#17305c"),
           ("#f2c230", "#8a6b0c"), ("#3a8f4a", "#1d4825"))  # six: a seat each for up to six players
NEUTRAL = ("#9a9a9a", "#555")
BOARD_FILL = ("#e9d3a6", "#dcc08a")  # two tones: squares alternate on a square lattice
LINE = "#7a5c2e"
MARK = "#f0d000"
GROOVE = "#b89a66"  # a wall grid's grooves and posts
WALL = "#4a3418"  # a wall in a groove
LAST_RING = "#e06000"  # the web board's ring round the last move's cells


def _num(value: float) -> str:
    """A coordinate with at most one decimal, no trailing zero."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def player_colours(game: Game) -> list[tuple[str, str]]:
    """``(fill, stroke)`` per player: by the player's name when it is a colour, else a palette."""
    out = []
    for player in game.players:
        out.append(NAMED_COLOURS.get(player.name.lower(), PALETTE[player.index % len(PALETTE)]))
    return out


class Layout:
    """Where each cell of a board is drawn."""

    def __init__(self, game: Game, unit: float = UNIT) -> None:
        geometry = game.geometry
        self.geometry = geometry
        vectors = set(geometry.directions.values())
        hexagonal = len(vectors) == 6 and (1, -1) not in vectors  # the hexagonal lattice, whatever its outline
        self.shape = "hexagon" if hexagonal else "grid" if len(vectors) == 8 else geometry.shape
        if geometry.has_lines or game.style == "points" or game.drawn:  # a board of points joined by lines
            self.shape = "points"
        self.segments = (list(game.drawn) if game.drawn else line_segments(geometry) if geometry.has_lines
                         else side_segments(geometry))
        self.unit = unit
        self.row_height = unit * (math.sqrt(3) / 2 if hexagonal else 1.0)
        _, _, miny, maxy = geometry.bounds
        self.maxy = maxy
        columns = [geometry.display_column(c) for c in geometry.cells]
        self.left = min(columns)
        width = (max(columns) - self.left) / 2 * unit + unit
        height = (maxy - miny) * self.row_height + unit
        self.width = width + 2 * MARGIN
        self.height = height + 2 * MARGIN
        self.centres = [self.centre_of(c.x, c.y) for c in geometry.cells]

    def centre_of(self, x: int, y: int) -> tuple[float, float]:
        """The centre of lattice point ``(x, y)`` (which need not be a cell)."""
        from rulesdsl.interpreter.compile.geometry import Cell

        column = self.geometry.display_column(Cell(-1, x, y, ""))
        return (MARGIN + self.unit / 2 + (column - self.left) / 2 * self.unit,
                MARGIN + self.unit / 2 + (self.maxy - y) * self.row_height)

    def outline(self, index: int) -> str:
        """The SVG element drawing a cell's outline."""
        cx, cy = self.centres[index]
        half = self.unit / 2
        if self.shape == "points":  # a drawn board's points are marked; a goban's crossings barely
            size = 0.16 if self.geometry.has_lines else 0.07
            return f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(self.unit * size)}"'
        if self.shape == "grid":
            return f'<rect x="{_num(cx - half)}" y="{_num(cy - half)}" width="{_num(self.unit)}" ' \
                   f'height="{_num(self.unit)}"'
        if self.shape == "hexagon":
            radius = self.unit / math.sqrt(3)
            points = " ".join(f"{_num(cx + radius * math.cos(math.radians(a)))},"
                              f"{_num(cy + radius * math.sin(math.radians(a)))}"
                              for a in (30, 90, 150, 210, 270, 330))
            return f'<polygon points="{points}"'
        return f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(half * 0.95)}"'


def _grooves(game: Game) -> frozenset[int]:
    """On a wall grid (a game with ``walk`` or ``build`` rules): the cells that are no squares; else none."""
    resolved = game.resolved
    rules = [r for block in (resolved.of(m.Moves) if resolved is not None else ()) for r in block.rules]
    if not any(r.action in ("walk", "build") for r in rules):
        return frozenset()
    left, _, bottom, _ = game.geometry.bounds
    return frozenset(c.index for c in game.geometry.cells if (c.x - left) % 2 or (c.y - bottom) % 2)


def side_segments(geometry: Geometry) -> list[tuple[int, int]]:
    """Each pair of cells that share a side (orthogonal on a grid, the six on a hexagon), once: the lines of a
    board drawn as points (``style points``, a goban)."""
    name = "orthogonal" if "orthogonal" in geometry.direction_sets else "all"
    vectors = [geometry.directions[d] for d in geometry.direction_sets[name]]
    out = []
    for cell in geometry.cells:
        for vector in vectors:
            if vector > (0, 0):
                other = geometry.step(cell.index, vector)
                if other >= 0:
                    out.append((cell.index, other))
    return sorted(out)


def draw(game: Game, state: State, *, move: Move | None = None, before: State | None = None,
         interactive: bool = False, title: str | None = None) -> str:
    """An SVG document of ``state``; ``move`` (played from ``before``) is marked when given."""
    layout = Layout(game)
    geometry = game.geometry
    colours = player_colours(game)
    kinds = sorted({kind for kind, _ in game.piece_names.values()})
    letters = kind_letters(game)
    marked: set[int] = set()
    if move is not None:
        marked.update(c for c in (move.origin, move.target) if c != NO_CELL)
    if state.last != NO_CELL:
        marked.add(state.last)
    hands, extra = _hands(game, state, layout, colours, letters)
    height = layout.height + extra
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(layout.width)} {_num(height)}" '
           f'width="{_num(layout.width)}" height="{_num(height)}" font-family="sans-serif">']
    label = title if title is not None else f"{game.title}: {game.format_position(state)}"
    out.append(f"<title>{escape(label)}</title>")
    out.append(f'<rect width="{_num(layout.width)}" height="{_num(height)}" fill="#fbf8f0"/>')
    out.extend(hands)
    if layout.shape == "points" and not geometry.has_lines:  # a goban: a wooden board under the lines
        xs, ys = [x for x, _ in layout.centres], [y for _, y in layout.centres]
        pad = layout.unit / 2
        width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
        out.append(f'<rect x="{_num(min(xs) - pad)}" y="{_num(min(ys) - pad)}" width="{_num(width)}" '
                   f'height="{_num(height)}" fill="{BOARD_FILL[0]}"/>')
    if layout.shape == "points":  # the board's lines under its points
        out.append(f'<g stroke="{LINE}" stroke-width="3" stroke-linecap="round">')
        for a, b in layout.segments:
            (x1, y1), (x2, y2) = layout.centres[a], layout.centres[b]
            out.append(f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}"/>')
        out.append("</g>")
    grooves = _grooves(game)
    out.append(f'<g stroke="{LINE}" stroke-width="1">')
    for cell in geometry.cells:
        tone = BOARD_FILL[(cell.x + cell.y) % 2] if layout.shape == "grid" else LINE if layout.shape == "points" \
            else BOARD_FILL[0]
        if grooves:  # a wall grid: light squares, dark grooves and posts
            tone = GROOVE if cell.index in grooves else BOARD_FILL[0]
        fill = MARK if cell.index in marked else tone
        attrs = f' data-cell="{escape(cell.name)}" class="cell"' if interactive else ""
        out.append(f'{layout.outline(cell.index)} fill="{fill}"{attrs}/>')
    out.append("</g>")
    out.extend(_outlines(game, layout))
    if move is not None and move.origin != NO_CELL and move.target != NO_CELL:
        (x1, y1), (x2, y2) = layout.centres[move.origin], layout.centres[move.target]
        out.append(f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" stroke="#b08a00" '
                   f'stroke-width="4" stroke-linecap="round" opacity="0.6" pointer-events="none"/>')
    out.extend(_links(game, state, layout, colours))
    radius = layout.unit * 0.36
    out.append('<g stroke-width="2">')
    for cell in geometry.cells:
        symbol = state.board[cell.index]
        if is_count(symbol):  # a cell holding counted pieces (seeds): one disc with the number on it
            out.extend(_count_disc(layout, cell, radius, count_of(symbol), interactive))
            continue
        if symbol == game.empty or symbol not in game.piece_names:
            continue
        kind, owner = game.piece_names[symbol]
        fill, stroke = colours[owner] if 0 <= owner < len(colours) else NEUTRAL
        cx, cy = layout.centres[cell.index]
        attrs = f' data-cell="{escape(cell.name)}" class="piece" pointer-events="none"' if interactive else ""
        if cell.index in grooves:  # a wall fills its groove or post
            half = layout.unit / 2
            out.append(f'<rect x="{_num(cx - half)}" y="{_num(cy - half)}" width="{_num(2 * half)}" '
                       f'height="{_num(2 * half)}" fill="{WALL}" stroke="{WALL}"{attrs}/>')
            continue
        out.append(f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(radius)}" fill="{fill}" '
                   f'stroke="{stroke}"{attrs}/>')
        if len(kinds) > 1:
            ink = "#fff" if fill in ("#262626", "#2f5fb3", "#c8322d", "#3a8f4a") else "#222"
            letter = escape(letters[kind])
            out.append(f'<text x="{_num(cx)}" y="{_num(cy + 5)}" font-size="15" text-anchor="middle" fill="{ink}" '
                       f'pointer-events="none">{letter}</text>')
    out.append("</g>")
    if interactive:
        out.append('<g class="arrows" pointer-events="none"></g>')  # the page draws move values here
        for cell in geometry.cells:
            cx, cy = layout.centres[cell.index]
            out.append(f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(layout.unit * 0.16)}" class="mark" '
                       f'data-mark="{escape(cell.name)}" visibility="hidden" pointer-events="none"/>')
            out.append(f'<text x="{_num(cx)}" y="{_num(cy - layout.unit * 0.22)}" font-size="10" '
                       f'text-anchor="middle" class="value" data-value="{escape(cell.name)}" '
                       f'pointer-events="none"></text>')
        out.extend(_last_move_rings(layout, marked))
    out.extend(_labels(game, layout))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _hands(game: Game, state: State, layout: Layout, colours: list[tuple[str, str]],
           letters: dict[str, str]) -> tuple[list[str], float]:
    """Below the board, one line per player: each kind in hand as a small disc with its letter and count
    (a game whose hand holds several kinds: drops); the height the lines take."""
    if len(game.hand_kinds) < 2 or state.hand is None:
        return [], 0.0
    size, step = len(game.hand_kinds), layout.unit * 0.7
    out = []
    for player in game.players:
        y = layout.height + step * (player.index + 0.5)
        fill, stroke = colours[player.index] if player.index < len(colours) else NEUTRAL
        ink = "#fff" if fill in ("#262626", "#2f5fb3", "#c8322d", "#3a8f4a") else "#222"
        out.append(f'<text x="{_num(MARGIN)}" y="{_num(y + 4.5)}" font-size="13" fill="#5a4520" '
                   f'class="hand">{escape(player.name)}</text>')
        x = MARGIN + layout.unit * 1.6
        for k, kind in enumerate(game.hand_kinds):
            count = state.hand[player.index * size + k]
            if not count:
                continue
            out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(step * 0.4)}" fill="{fill}" '
                       f'stroke="{stroke}" stroke-width="2"/>')
            out.append(f'<text x="{_num(x)}" y="{_num(y + 4.5)}" font-size="12" text-anchor="middle" '
                       f'fill="{ink}">{escape(letters.get(kind, kind[:1].upper()))}</text>')
            out.append(f'<text x="{_num(x + step * 0.5)}" y="{_num(y + 4.5)}" font-size="12" '
                       f'fill="#5a4520">{count}</text>')
            x += step * 1.4
    return out, step * len(game.players)


def _links(game: Game, state: State, layout: Layout, colours: list[tuple[str, str]]) -> list[str]:
    """The links between pieces (``link KIND DIRS``): a line between the two cells, in the owner's colour."""
    out = []
    for a, b in game.links(state):
        owner = game.piece_names.get(state.board[a], ("", -1))[1]
        colour = colours[owner][1] if 0 <= owner < len(colours) else NEUTRAL[1]
        (x1, y1), (x2, y2) = layout.centres[a], layout.centres[b]
        out.append(f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" stroke="{colour}" '
                   f'stroke-width="5" stroke-linecap="round" class="link" pointer-events="none"/>')
    return out


def _count_disc(layout: Layout, cell, radius: float, count: int, interactive: bool) -> list[str]:
    """A neutral disc with the number of pieces the cell holds."""
    fill, stroke = NEUTRAL
    cx, cy = layout.centres[cell.index]
    attrs = f' data-cell="{escape(cell.name)}" data-count="{count}" class="piece" pointer-events="none"' \
        if interactive else f' data-count="{count}"'
    return [f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(radius)}" fill="{fill}" stroke="{stroke}"{attrs}/>',
            f'<text x="{_num(cx)}" y="{_num(cy + 5)}" font-size="15" text-anchor="middle" fill="#222" '
            f'pointer-events="none">{count}</text>']


def _outlines(game: Game, layout: Layout) -> list[str]:
    """Thick borders around the rectangles the rules name (blocks that turn, small boards), on a grid."""
    if layout.shape != "grid" or not game.outlined:
        return []
    half = layout.unit / 2
    out = [f'<g stroke="{LINE}" stroke-width="4" fill="none" pointer-events="none">']
    for x0, y0, x1, y1 in game.outlined:
        (left, top), (right, bottom) = layout.centre_of(x0, y1), layout.centre_of(x1, y0)
        out.append(f'<rect x="{_num(left - half)}" y="{_num(top - half)}" width="{_num(right - left + 2 * half)}" '
                   f'height="{_num(bottom - top + 2 * half)}"/>')
    out.append("</g>")
    return out


def _last_move_rings(layout: Layout, marked: set[int]) -> list[str]:
    """A ring inside each cell of the last move, over everything the page draws, so no value hides it."""
    radius = layout.unit * 0.45
    names = [layout.geometry.cells[c].name for c in sorted(marked)]
    return [f'<circle cx="{_num(layout.centres[c][0])}" cy="{_num(layout.centres[c][1])}" r="{_num(radius)}" '
            f'fill="none" stroke="{LAST_RING}" stroke-width="3" class="last" data-last="{escape(name)}" '
            f'pointer-events="none"/>' for c, name in zip(sorted(marked), names)]


def _labels(game: Game, layout: Layout) -> list[str]:
    """Row labels left of each row, column (or diagonal) labels below each column's lowest cell."""
    geometry = game.geometry
    rows, cols = axis_labels(geometry)
    out = []
    style = 'font-size="13" fill="#5a4520" text-anchor="middle"'
    edges = layout.shape == "points"  # a board of points is labelled along its outer edges
    minx, _, miny, _ = geometry.bounds
    for y, text in sorted(rows.items()):
        first = min((c for c in geometry.cells if c.y == y), key=lambda c: c.x)
        cx, cy = layout.centre_of(minx, y) if edges else layout.centres[first.index]
        out.append(f'<text x="{_num(cx - layout.unit * 0.8)}" y="{_num(cy + 4.5)}" {style}>{escape(text)}</text>')
    lowest: dict[int, int] = {}
    for cell in geometry.cells:
        lowest[cell.x] = miny if edges else min(lowest.get(cell.x, cell.y), cell.y)
    for x, y in sorted(lowest.items()):
        cx, cy = layout.centre_of(x, y - 1)
        below = cy - layout.row_height * 0.35
        out.append(f'<text x="{_num(cx)}" y="{_num(below + 4.5)}" {style}>{escape(cols[x])}</text>')
    return out


def kind_letters(game: Game) -> dict[str, str]:
    """The letter drawn on each kind's pieces: its initial, or where initials clash, its symbol in capitals
    (two kinds with one initial are told apart by their symbols, N beside K), else their first two letters."""
    symbols: dict[str, str] = {}
    for symbol, (kind, _) in game.piece_names.items():
        symbols.setdefault(kind, symbol)
    initials = [kind[:1].upper() for kind in symbols]
    letters = {}
    for kind, symbol in symbols.items():
        letter = kind[:1].upper()
        if initials.count(letter) > 1 and kind[:1] != symbol[:1].lower():
            letter = symbol[:1].upper()
        letters[kind] = letter
    for kind, letter in letters.items():
        if list(letters.values()).count(letter) > 1:
            letters[kind] = kind[:2].title()
    return letters
