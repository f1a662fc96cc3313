"""Pictures for researchers: boards beside the moves, the length histogram, the sweep chart, progress lines.

Expected values are derived by hand (the tic-tac-toe values below, the
histogram's bins) or come from the literature (the Wilson interval of 5 in
10 is 0.2366-0.7634); the Konane perft counts are those of tests/test_konane.py.
"""

from __future__ import annotations

import io
import json
import re
import sys

import pytest
from click.testing import CliRunner

from rulesdsl.cli import plots, progress
from rulesdsl.cli.analyze_pictures import parse_sweep, sweep_chart
from rulesdsl.cli.boards import side_by_side
from rulesdsl.cli.main import cli
from rulesdsl.errors import OptionError
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.measure.analyze import Record

# Cross to move; a3 b3 are crosses, a2 b2 noughts: c3 wins at once, c2 blocks and leaves a draw
# (nought must then take c3... see test below), any other move lets nought win with c2.
TTT = "(x xx- oo- ---)"


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result.exit_code, result.stdout, result.stderr


def test_histogram_bins_one_length_a_bar_and_ranges_when_spread():
    chart = plots.Histogram("t", (3, 3, 4, 7))
    assert chart.bins() == [(3, 3, 2), (4, 4, 1), (5, 5, 0), (6, 6, 0), (7, 7, 1)]
    wide = plots.Histogram("t", tuple(range(100)))
    bins = wide.bins(most=40)  # 100 lengths in ranges of 3: 34 bars, the last holding 99 alone
    assert len(bins) == 34 and bins[0] == (0, 2, 3) and bins[-1] == (99, 101, 1)
    assert sum(n for *_, n in bins) == 100


def test_histogram_svg_has_a_bar_per_length_with_its_count():
    svg = plots.histogram_svg(plots.Histogram("lengths", (3, 3, 4, 7)))
    bars = re.findall(r'data-plies="([^"]+)" data-games="(\d+)"', svg)
    assert bars == [("3", "2"), ("4", "1"), ("5", "0"), ("6", "0"), ("7", "1")]
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")


def test_histogram_text_scales_to_the_largest_count():
    text = plots.histogram_text(plots.Histogram("lengths", (3, 3, 4)), width=10)
    assert text.splitlines()[1:] == ["  3 ########## 2", "  4 #####      1"]


def test_sweep_chart_rates_and_wilson_intervals():
    konane = load_game("konane")
    # 10 games at each value: white wins 5 then 10; no draws
    runs = [("rows=4", konane, konane.initial_state(), [Record(0 if i < 5 else 1, 8, 0, 0, "x") for i in range(10)]),
            ("rows=5", konane, konane.initial_state(), [Record(0, 8, 0, 0, "x") for _ in range(10)])]
    chart = sweep_chart("rows", runs)
    assert chart.values == ("4", "5") and list(chart.series) == ["white wins", "black wins"]
    half = chart.series["white wins"][0]
    assert half.rate == 0.5 and half.low == pytest.approx(0.2366, abs=1e-4)
    assert half.high == pytest.approx(0.7634, abs=1e-4)
    assert chart.series["black wins"][1].rate == 0.0
    svg = plots.sweep_svg(chart)
    assert len(re.findall(r"<circle ", svg)) == 4
    assert 'data-rate="0.5000" data-low="0.2366" data-high="0.7634"' in svg
    text = plots.sweep_text(chart, width=10)
    assert "4 white wins |  [--*--]  | 50.0% (23.7%-76.3%)" in text


def test_a_sweep_with_draws_shows_them():
    ttt = load_game("tic-tac-toe")
    runs = [("size=3", ttt, ttt.initial_state(), [Record(None, 9, 0, 0, "x"), Record(0, 5, 0, 0, "x")])]
    assert list(sweep_chart("size", runs).series) == ["cross wins", "nought wins", "draws"]


@pytest.mark.parametrize("text, expected", [
    ("rows=4..8", ("rows", ["4", "5", "6", "7", "8"])),
    (" rows = 6..6 ", ("rows", ["6"])),
    ("misere=false,true", ("misere", ["false", "true"])),
])
def test_parse_sweep(text, expected):
    assert parse_sweep(text) == expected


@pytest.mark.parametrize("text, message", [
    ("rows=8..4", "empty"), ("rows", "NAME=A..B"), ("rows=1..100", "at most 64"), ("=1..3", "NAME=A..B"),
])
def test_parse_sweep_errors(text, message):
    with pytest.raises(OptionError, match=message):
        parse_sweep(text)


def test_side_by_side_wraps_at_the_width():
    assert side_by_side(["ab\ncd", "e", "fgh"], width=8, gap=2) == "ab  e\ncd\n\nfgh"


def test_solve_draws_boards_beside_the_moves(tmp_path):
    db = str(tmp_path / "db.sqlite")
    code, out, err = run("solve", "tic-tac-toe", "--position", TTT, "--moves", "--draw", "--db", db,
                         "--svg", str(tmp_path / "boards"))
    assert code == 0, err
    boards = out.split("\n\n", 1)[1]
    first = boards.splitlines()[0].split()
    # the start, then the moves best first: c3 wins at once; c2 draws; a1, b1, c1 lose (nought plays c2)
    assert first[:6] == ["cross", "to", "move:", "win", "in", "1"]
    assert "c3: win in 1" in boards and "c2: draw" in boards and "a1: lose in 2" in boards
    assert "3 x x x" in boards  # the board after c3
    written = sorted(p.name for p in (tmp_path / "boards").iterdir())
    assert written == ["000.svg", "001.svg", "002.svg", "003.svg", "004.svg", "005.svg", "index.html"]
    page = (tmp_path / "boards" / "index.html").read_text()
    assert page.index("c3: win in 1") < page.index("c2: draw") < page.index("c1: lose in 2")
    assert 'fill="#f0d000"' in (tmp_path / "boards" / "001.svg").read_text()  # the move's cell is marked


def test_analyze_draws_a_histogram_and_the_first_game(tmp_path):
    code, out, err = run("analyze", "tic-tac-toe", "--games", "20", "--workers", "1", "--draw",
                         "--svg", str(tmp_path / "pics"))
    assert code == 0, err
    assert "tic-tac-toe: lengths of 20 games (plies: games)".lower() in out.lower()
    histogram = out.split("(plies: games)\n", 1)[1].split("\n\n", 1)[0]
    counts = [int(line.split()[-1]) for line in histogram.splitlines()]
    assert sum(counts) == 20  # every game in one bar
    lengths = [int(line.split()[0]) for line in histogram.splitlines()]
    assert min(lengths) >= 5 and max(lengths) <= 9  # tic-tac-toe ends after 5 to 9 plies
    svg = (tmp_path / "pics" / "lengths.svg").read_text()
    assert sum(int(n) for n in re.findall(r'data-games="(\d+)"', svg)) == 20
    page = (tmp_path / "pics" / "game" / "index.html").read_text()
    plies = len(re.findall(r"<tr>", page)) - 1  # the start, then one board a ply
    assert 5 <= plies <= 9


def test_analyze_sweeps_an_option(tmp_path):
    code, out, err = run("analyze", "tic-tac-toe", "--games", "10", "--workers", "1", "--sweep", "size=3..4",
                         "--json", "--svg", str(tmp_path / "pics"))
    assert code == 0, err
    sweep = json.loads(out)["sweep"]
    assert sweep["option"] == "size" and [r["value"] for r in sweep["reports"]] == ["3", "4"]
    for report in sweep["reports"]:
        cross = report["results"]["cross"]
        assert report["games"] == 10 and cross["wins"] + cross["losses"] + cross["draws"] == 10
    # three in a row takes at least 5 plies (cross's third stone); a board of n x n cells ends by ply n * n
    for report, cells in zip(sweep["reports"], (9, 16)):
        assert report["plies"]["mean"] >= 5 and report["plies"]["max"] <= cells
    svg = (tmp_path / "pics" / "sweep.svg").read_text()
    assert re.findall(r'data-series="([^"]+)"', svg)[:2] == ["cross wins", "nought wins"]
    assert (tmp_path / "pics" / "lengths-size=4.svg").exists()


def test_analyze_sweep_of_an_unknown_option_is_one_line():
    code, _, err = run("analyze", "tic-tac-toe", "--games", "2", "--sweep", "nosuch=1..2")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "nosuch" in err


def test_png_without_matplotlib_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    code, _, err = run("analyze", "tic-tac-toe", "--games", "3", "--workers", "1", "--svg", str(tmp_path), "--png")
    assert code == 2
    assert err.strip() == "rulesdsl: PNG plots need matplotlib: pip install 'rulesdsl[plot]' (or leave out --png)"


def test_png_with_matplotlib(tmp_path):
    pytest.importorskip("matplotlib", reason="the 'plot' extra (matplotlib) is not installed")
    code, _, err = run("analyze", "tic-tac-toe", "--games", "3", "--workers", "1", "--svg", str(tmp_path), "--png")
    assert code == 0, err
    assert (tmp_path / "lengths.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_progress_shows_percentage_rate_and_eta(monkeypatch):
    clock = iter([0.0, 10.0])  # the job starts at 0; 20 of 100 games are done at 10 s
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    out = io.StringIO()
    line = progress.ProgressLine(out, noun="games", every=0.0)
    line("games", 100, 20)
    text = out.getvalue()
    # 20 games in 10 s: 2 games/s, so the other 80 take 40 s more (the rate counts from the start of the job)
    assert "20%" in text and "20/100" in text and re.search(r"\[00:10<00:40, +2.00 games/s]", text)
    assert "-/s" not in text


def test_progress_without_a_known_total_shows_no_percentage(monkeypatch):
    clock = iter([0.0, 4.0])
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    out = io.StringIO()
    progress.ProgressLine(out, every=0.0)("explore", 1000, 200)
    assert "%" not in out.getvalue() and "200 positions [00:04, 50.0 positions/s]" in out.getvalue()


def test_perft_with_progress_counts_what_perft_counts():
    konane = load_game("konane", {"rows": "6", "cols": "6"})
    out = io.StringIO()
    line = progress.ProgressLine(out, noun="first moves", every=0.0)
    counts = [progress.perft_with_progress(konane, konane.initial_state(), d, line) for d in (1, 2, 3, 4)]
    assert counts == [3, 9, 31, 173]
    assert "perft 4: 100%" in out.getvalue() and "3/3" in out.getvalue()


@pytest.mark.parametrize("args, message", [
    (["--png"], "rulesdsl: --png needs --svg DIR (the folder for the pictures)"),
    (["--sweep", "size=3..4", "--position", "(x --- --- ---)"],
     "rulesdsl: --sweep cannot be used with --position: each value of the option has its own start"),
    (["--sweep", "size=9..3"],
     "rulesdsl: --sweep 'size=9..3': the range 9..3 is empty (write the smaller value first)"),
])
def test_analyze_picture_options_misused_are_one_line(args, message):
    code, _, err = run("analyze", "tic-tac-toe", "--games", "2", *args)
    assert code != 0 and err.strip() == message


def test_pictures_to_a_folder_that_cannot_be_written_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run("solve", "tic-tac-toe", "--position", TTT, "--db", str(tmp_path / "db"), "--svg",
                       str(blocker / "boards"))
    assert code == 1 and len(err.strip().splitlines()) == 1 and "cannot write" in err
    code, _, err = run("analyze", "tic-tac-toe", "--games", "2", "--workers", "1", "--svg", str(blocker / "pics"))
    assert code == 1 and len(err.strip().splitlines()) == 1 and "cannot write" in err
