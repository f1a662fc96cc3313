"""Charts for researchers: a histogram of game lengths, and win rates with intervals against an option.

Each chart is data first (:class:`Histogram`, :class:`Sweep`), then drawn one
of three ways: hand-written SVG (no dependency; deterministic, so a test can
read it), PNG through matplotlib (the ``plot`` extra, imported only when a
PNG is asked for), or text for a terminal. Nothing here knows a game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from pathlib import Path

from rulesdsl.errors import OptionError

WIDTH, HEIGHT = 640.0, 360.0
LEFT, RIGHT, TOP, BOTTOM = 64.0, 24.0, 52.0, 56.0
INK, GRID, BAR = "#333", "#ddd", "#4a78b5"
SERIES = ("#2f5fb3", "#c8322d", "#3a8f4a", "#8a6b0c", "#6a3d9a", "#555")
FORMATS = ("svg", "png")


@dataclass(frozen=True)
class Histogram:
    """How many games lasted each number of plies."""

    title: str
    lengths: tuple[int, ...]

    def bins(self, most: int = 40) -> list[tuple[int, int, int]]:
        """``(low, high, count)`` per bar: one length a bar, or equal ranges when lengths spread wider than ``most``."""
        if not self.lengths:
            return []
        low, high = min(self.lengths), max(self.lengths)
        size = max(1, math.ceil((high - low + 1) / most))
        counts = [0] * ((high - low) // size + 1)
        for length in self.lengths:
            counts[(length - low) // size] += 1
        return [(low + i * size, low + (i + 1) * size - 1, n) for i, n in enumerate(counts)]


@dataclass(frozen=True)
class Point:
    """A rate and its 95% interval."""

    rate: float
    low: float
    high: float


@dataclass(frozen=True)
class Sweep:
    """Rates (with intervals) of several series, one point per value of a swept option."""

    title: str
    option: str
    values: tuple[str, ...]
    series: dict[str, tuple[Point, ...]]


def _num(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _ticks(top: float, most: int = 6) -> list[float]:
    """Round tick values from 0 to at least ``top``."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / most
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return [i * step for i in range(int(math.ceil(top / step)) + 1)]


def _frame(title: str, x_label: str, y_label: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(WIDTH)} {_num(HEIGHT)}" '
            f'width="{_num(WIDTH)}" height="{_num(HEIGHT)}" font-family="sans-serif" font-size="12">',
            f"<title>{escape(title)}</title>",
            f'<rect width="{_num(WIDTH)}" height="{_num(HEIGHT)}" fill="#fff"/>',
            f'<text x="{_num(WIDTH / 2)}" y="22" text-anchor="middle" font-size="15" '
            f'fill="{INK}">{escape(title)}</text>',
            f'<text x="{_num(LEFT + (WIDTH - LEFT - RIGHT) / 2)}" y="{_num(HEIGHT - 12)}" text-anchor="middle" '
            f'fill="{INK}">{escape(x_label)}</text>',
            f'<text x="16" y="{_num(TOP + (HEIGHT - TOP - BOTTOM) / 2)}" text-anchor="middle" fill="{INK}" '
            f'transform="rotate(-90 16 {_num(TOP + (HEIGHT - TOP - BOTTOM) / 2)})">{escape(y_label)}</text>']


def _y_axis(ticks: list[float], percent: bool) -> list[str]:
    top, bottom = TOP, HEIGHT - BOTTOM
    out = []
    for tick in ticks:
        y = bottom - (bottom - top) * tick / ticks[-1]
        label = f"{tick:.0%}" if percent else f"{tick:g}"
        out.append(f'<line x1="{_num(LEFT)}" y1="{_num(y)}" x2="{_num(WIDTH - RIGHT)}" y2="{_num(y)}" '
                   f'stroke="{GRID}"/>')
        out.append(f'<text x="{_num(LEFT - 6)}" y="{_num(y + 4)}" text-anchor="end" fill="{INK}">{label}</text>')
    out.append(f'<line x1="{_num(LEFT)}" y1="{_num(bottom)}" x2="{_num(WIDTH - RIGHT)}" y2="{_num(bottom)}" '
               f'stroke="{INK}"/>')
    return out


def histogram_svg(chart: Histogram) -> str:
    """The histogram as an SVG document: one bar per length (or range of lengths), counts up the side."""
    bins = chart.bins()
    ticks = _ticks(max((n for _, _, n in bins), default=1))
    out = _frame(chart.title, "plies", "games") + _y_axis(ticks, percent=False)
    span = WIDTH - LEFT - RIGHT
    bottom = HEIGHT - BOTTOM
    width = span / max(1, len(bins))
    label_every = max(1, math.ceil(len(bins) / 10))
    for i, (low, high, count) in enumerate(bins):
        x = LEFT + i * width
        height = (bottom - TOP) * count / ticks[-1]
        what = f"{low}" if low == high else f"{low}-{high}"
        out.append(f'<rect x="{_num(x + 1)}" y="{_num(bottom - height)}" width="{_num(max(1.0, width - 2))}" '
                   f'height="{_num(height)}" fill="{BAR}" data-plies="{what}" data-games="{count}">'
                   f"<title>{what} plies: {count} games</title></rect>")
        if i % label_every == 0:
            out.append(f'<text x="{_num(x + width / 2)}" y="{_num(bottom + 16)}" text-anchor="middle" '
                       f'fill="{INK}">{what}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def sweep_svg(chart: Sweep) -> str:
    """The sweep as an SVG document: per series, points joined by a line, each with its interval as a bar."""
    out = _frame(chart.title, chart.option, "share of games (95% interval)") + _y_axis(_ticks(1.0, 5), percent=True)
    span = WIDTH - LEFT - RIGHT
    bottom = HEIGHT - BOTTOM
    step = span / max(1, len(chart.values))

    def x_of(i: int) -> float:
        return LEFT + step * (i + 0.5)

    def y_of(rate: float) -> float:
        return bottom - (bottom - TOP) * rate

    for i, value in enumerate(chart.values):
        out.append(f'<text x="{_num(x_of(i))}" y="{_num(bottom + 16)}" text-anchor="middle" '
                   f'fill="{INK}">{escape(value)}</text>')
    for k, (name, points) in enumerate(chart.series.items()):
        colour = SERIES[k % len(SERIES)]
        shift = (k - (len(chart.series) - 1) / 2) * 6  # series side by side, so their intervals do not overlap
        path = " ".join(f"{_num(x_of(i) + shift)},{_num(y_of(p.rate))}" for i, p in enumerate(points))
        out.append(f'<g stroke="{colour}" fill="{colour}" data-series="{escape(name)}">')
        out.append(f'<polyline points="{path}" fill="none" stroke-width="1.5" opacity="0.7"/>')
        for i, p in enumerate(points):
            x = x_of(i) + shift
            out.append(f'<line x1="{_num(x)}" y1="{_num(y_of(p.low))}" x2="{_num(x)}" y2="{_num(y_of(p.high))}" '
                       f'stroke-width="2"/>')
            out.append(f'<circle cx="{_num(x)}" cy="{_num(y_of(p.rate))}" r="3.5" '
                       f'data-value="{escape(chart.values[i])}" data-rate="{p.rate:.4f}" '
                       f'data-low="{p.low:.4f}" data-high="{p.high:.4f}">'
                       f"<title>{escape(name)} at {escape(chart.option)}={escape(chart.values[i])}: "
                       f"{p.rate:.1%} ({p.low:.1%}-{p.high:.1%})</title></circle>")
        out.append("</g>")
        legend_x = LEFT + 8 + k * 120
        out.append(f'<rect x="{_num(legend_x)}" y="{_num(TOP - 20)}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{_num(legend_x + 14)}" y="{_num(TOP - 11)}" fill="{INK}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _pyplot():
    """matplotlib's pyplot on the Agg backend, or a one-line error naming the extra to install."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError:
        raise OptionError("PNG plots need matplotlib: pip install 'rulesdsl[plot]' (or leave out --png)") from None
    return pyplot


def histogram_png(chart: Histogram, path: Path) -> None:
    """The histogram as a PNG file, drawn by matplotlib."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(6.4, 3.6), dpi=100)
    bins = chart.bins()
    axes.bar([(low + high) / 2 for low, high, _ in bins], [n for _, _, n in bins],
             width=[high - low + 0.8 for low, high, _ in bins], color=BAR)
    axes.set(title=chart.title, xlabel="plies", ylabel="games")
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def sweep_png(chart: Sweep, path: Path) -> None:
    """The sweep as a PNG file, drawn by matplotlib (error bars are the 95% intervals)."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(6.4, 3.6), dpi=100)
    for k, (name, points) in enumerate(chart.series.items()):
        xs = [i + (k - (len(chart.series) - 1) / 2) * 0.06 for i in range(len(points))]
        rates = [p.rate for p in points]
        errors = [[p.rate - p.low for p in points], [p.high - p.rate for p in points]]
        axes.errorbar(xs, rates, yerr=errors, marker="o", capsize=3, label=name, color=SERIES[k % len(SERIES)])
    axes.set_xticks(range(len(chart.values)), list(chart.values))
    axes.set(title=chart.title, xlabel=chart.option, ylabel="share of games (95% interval)", ylim=(0, 1))
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def write_chart(chart: Histogram | Sweep, folder: Path, name: str, form: str = "svg") -> Path:
    """Write ``chart`` as ``folder/name.svg`` (or ``.png``) and return the path."""
    path = folder / f"{name}.{form}"
    if form == "png":
        (histogram_png if isinstance(chart, Histogram) else sweep_png)(chart, path)
    else:
        path.write_text(histogram_svg(chart) if isinstance(chart, Histogram) else sweep_svg(chart), encoding="utf-8")
    return path


def histogram_text(chart: Histogram, width: int = 40) -> str:
    """The histogram as text: one line per bar, ``#`` marks scaled to the largest count."""
    bins = chart.bins(most=20)
    most = max((n for _, _, n in bins), default=0) or 1
    labels = [f"{low}" if low == high else f"{low}-{high}" for low, high, _ in bins]
    pad = max((len(t) for t in labels), default=0)
    lines = [f"{chart.title} (plies: games)"]
    for label, (_, _, count) in zip(labels, bins):
        lines.append(f"  {label.rjust(pad)} {'#' * round(width * count / most):<{width}} {count}")
    return "\n".join(lines)


def sweep_text(chart: Sweep, width: int = 40) -> str:
    """The sweep as text: per value and series a bar from 0 to 100%, ``[ ]`` the interval, ``*`` the rate."""
    lines = [f"{chart.title} ({chart.option}: share of games, [95% interval], * the rate)"]
    pad = max(len(v) for v in chart.values) if chart.values else 0
    names = max(len(n) for n in chart.series) if chart.series else 0
    for i, value in enumerate(chart.values):
        for name, points in chart.series.items():
            p = points[i]
            cells = [" "] * (width + 1)
            low, high, at = (round(width * r) for r in (p.low, p.high, p.rate))
            for j in range(low, high + 1):
                cells[j] = "-"
            cells[low], cells[high], cells[at] = "[", "]", "*"
            lines.append(f"  {value.rjust(pad)} {name.ljust(names)} |{''.join(cells)}| "
                         f"{p.rate:.1%} ({p.low:.1%}-{p.high:.1%})")
    return "\n".join(lines)
