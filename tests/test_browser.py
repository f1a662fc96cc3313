"""The web board in a real browser: Debian's headless Chromium, driven by Selenium.

`.ci/run` installs `chromium` and `chromium-driver` (as root, when CI=true);
where they are missing these tests skip, naming the package (they fail
instead under RULESDSL_REQUIRE_SYSTEM_TOOLS=1, as in CI). Selenium is pointed
at the chromedriver and chromium found on PATH, so it never looks for or
downloads a browser of its own; the network is closed.
Every position reached by clicks is checked against `rulesdsl moves`. A
screenshot of each bundled game's board is written to `screenshots/`
(git-ignored), and three pictures of the whole page (with their captions) to
docs/gallery/web-*.png, which `python scripts/gallery.py` puts in docs/gallery.md.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import system_program, web_server

from rulesdsl.cli.main import cli
from rulesdsl.loader import bundled_games

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,900")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
WAIT = 60


@pytest.fixture(scope="module")
def url():
    with web_server() as base:
        yield base + "/"


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = system_program("chromium", "chromium")
    chromedriver = system_program("chromedriver", "chromium-driver")
    profile = tempfile.mkdtemp(prefix="rulesdsl-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


# -- what a person sees and does ---------------------------------------------------

def open_game(driver, url: str, name: str, **options: object) -> None:
    from selenium.webdriver.common.by import By

    driver.get(f"{url}?game={name}")
    wait_for(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "yes")
    if options:
        for key, value in options.items():
            field = driver.find_element(By.ID, f"option-{key}")
            field.clear()
            field.send_keys(str(value))
        before = position(driver)
        driver.find_element(By.ID, "new").click()
        wait_for(driver, lambda d: position(d) != before)


def wait_for(driver, condition) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(condition)


def position(driver) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, "position").get_attribute("value")


def click_cell(driver, name: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'.cell[data-cell="{name}"]').click()


def shown_targets(driver) -> set[str]:
    return set(driver.execute_script(
        "return [...document.querySelectorAll('#board .mark')]"
        ".filter((m) => m.getAttribute('visibility') === 'visible').map((m) => m.dataset.mark);"))


def play_clicks(driver, move: dict) -> None:
    """Play a move as a person would: click its piece, then its target (or the Pass button)."""
    from selenium.webdriver.common.by import By

    before = position(driver)
    count = len(driver.find_elements(By.CSS_SELECTOR, "#log li"))
    if move["move"] == "pass":
        driver.find_element(By.ID, "pass").click()
    else:
        origin, target = move["from"], move["to"]
        click_cell(driver, origin)
        click_cell(driver, target)
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log li")) > count)
    assert position(driver) != before or move["move"] == "pass"


def cli_moves(game: str, settings: list[str], pos: str) -> dict:
    """``rulesdsl moves GAME --json`` for a position: the independent reference."""
    args = ["moves", game, "--json", "-p", pos]
    for setting in settings:
        args += ["--set", setting]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def with_cells(driver, rows: list[dict]) -> list[dict]:
    """The CLI's moves with the cells the page lists for the same notation."""
    page = {m["text"]: m for m in driver.execute_script("return page.data.moves;")}
    assert set(page) == {r["move"] for r in rows}, "the page's legal moves differ from rulesdsl moves"
    return [dict(r, **{"from": page[r["move"]]["from"], "to": page[r["move"]]["to"]}) for r in rows]


# -- the tests ---------------------------------------------------------------------

def test_konane_played_to_its_end_by_clicks(browser, url):
    from selenium.webdriver.common.by import By

    settings = ["rows=4", "cols=4"]
    open_game(browser, url, "konane", rows=4, cols=4)
    # GAMES.md §1 start for 4 x 4: the checkerboard (a1 white) without b2 and c2.
    assert position(browser) == '(w "" bwbw wbwb b--w wbwb)'
    # A click on a cell no move reaches asks the rule file why.
    click_cell(browser, "a1")
    click_cell(browser, "a3")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#why .reason"))
    reason = browser.find_element(By.CSS_SELECTOR, "#why .reason")
    assert reason.get_attribute("data-code") == "occupied"  # over black's a2 onto white's own a3
    assert "konane.rules:" in browser.find_element(By.CSS_SELECTOR, "#why .cite").text
    plies = 0
    saw_again = False
    while True:
        pos = position(browser)
        reference = cli_moves("konane", settings, pos)
        if reference["over"]:
            assert reference["moves"] == []
            status = browser.find_element(By.ID, "status").text
            assert status.startswith("Game over") and reference["winner"] in status
            break
        rows = with_cells(browser, reference["moves"])
        if '" "' not in pos and not pos.startswith('(w ""') and not pos.startswith('(b ""'):
            saw_again = True
            assert browser.find_element(By.ID, "again").is_displayed()
            assert browser.find_element(By.ID, "pass").is_displayed()
        choice = rows[plies % len(rows)]
        if choice["move"] != "pass":
            click_cell(browser, choice["from"])
            expected = {r["to"] for r in rows if r["from"] == choice["from"]}
            assert shown_targets(browser) == expected
            click_cell(browser, choice["from"])  # clicking the piece again keeps it selected
        play_clicks(browser, choice)
        assert position(browser) == choice["position"]
        plies += 1
        assert plies < 60
    assert plies >= 4 and saw_again


def test_grid_abalone_with_a_push_and_a_capture(browser, url):
    from selenium.webdriver.common.by import By

    open_game(browser, url, "abalone")
    assert position(browser) == "(b bbb- b--w b--w -www)"  # GAMES.md §2 default start
    # By hand: black a3-b3; white b4-a3; black a1-a2 pushes white's a3 up to a4 (two against one);
    # white d3-d2; black a2-b3 pushes white's c4 off the board past d5: a capture.
    script = ["a3-b3", "b4-a3", "a1-a2", "d3-d2", "a2-b3"]
    for ply, text in enumerate(script):
        reference = cli_moves("abalone", [], position(browser))
        rows = {r["move"]: r for r in with_cells(browser, reference["moves"])}
        assert text in rows
        play_clicks(browser, rows[text])
        assert position(browser) == rows[text]["position"]
        if ply == 2:  # the push: white's marble went from a3 to a4 (rows listed bottom first)
            assert position(browser) == "(w -bb- b--w bb-w w-ww)"
    board = browser.execute_script("return page.data.board;")
    assert board.count("w") == 4 and board.count("b") == 5  # white lost one of its five
    assert "white" in browser.find_element(By.ID, "status").text  # the game goes on: captures = 2


def test_undo_paste_and_hint(browser, url):
    from selenium.webdriver.common.by import By

    open_game(browser, url, "konane")
    start = position(browser)
    play_clicks(browser, {"move": "b2-d2", "from": "b2", "to": "d2"})
    assert position(browser) != start
    browser.find_element(By.ID, "undo").click()
    wait_for(browser, lambda d: position(d) == start)
    paste = browser.find_element(By.ID, "paste")
    paste.send_keys("(b d1 wbw- b--- --wb)")
    browser.find_element(By.ID, "load").click()
    wait_for(browser, lambda d: position(d) == "(b d1 wbw- b--- --wb)")
    assert "moves again" in browser.find_element(By.ID, "again").text
    assert browser.find_element(By.ID, "pass").is_displayed()
    browser.find_element(By.ID, "hint").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "hint-text").text.startswith("hint: "))
    hint = browser.find_element(By.ID, "hint-text").text.split()[1]
    assert hint in {"d1-b1", "b3-d3", "pass"}  # the rule file's example for this position


def test_against_the_engine(browser, url):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_game(browser, url, "konane")
    Select(browser.find_element(By.ID, "mode")).select_by_value("engine:white")
    seconds = browser.find_element(By.ID, "seconds")
    seconds.clear()
    seconds.send_keys("0.2")
    play_clicks(browser, {"move": "b2-d2", "from": "b2", "to": "d2"})
    # The engine (black) answers by itself until it is white's turn again.
    wait_for(browser, lambda d: d.execute_script("return page.data.turn === 'white' || !!page.data.over;"))
    log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    assert log[0] == "white: b2-d2" and log[1].startswith("black: ")


def test_a_screenshot_of_every_bundled_game(browser, url):
    from selenium.webdriver.common.by import By

    SCREENSHOTS.mkdir(exist_ok=True)
    for name in bundled_games():
        open_game(browser, url, name)
        board = browser.find_element(By.ID, "board")
        if not board.find_elements(By.TAG_NAME, "svg"):
            error = browser.find_element(By.ID, "error").text
            assert error, f"{name}: no board and no message"
            continue
        out = SCREENSHOTS / f"{name}.png"
        board.screenshot(str(out))
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_solver_values_show_as_colours_and_numbers(browser):
    from selenium.webdriver.common.by import By

    def values(game, state):  # a stand-in database: two moves of the position (b d1 wbw- b--- --wb)
        return {"d1-b1": ("win", 3), "b3-d3": ("lose", 2)}

    with web_server(("konane",), values=values) as base:
        open_game(browser, base + "/", "konane")
        browser.find_element(By.ID, "paste").send_keys("(b d1 wbw- b--- --wb)")
        browser.find_element(By.ID, "load").click()
        wait_for(browser, lambda d: position(d) == "(b d1 wbw- b--- --wb)")
        assert browser.find_element(By.ID, "legend").is_displayed()
        click_cell(browser, "d1")
        mark = browser.find_element(By.CSS_SELECTOR, '[data-mark="b1"]')
        assert mark.get_attribute("fill") == "#1a9c1a"  # green: a winning move
        assert browser.find_element(By.CSS_SELECTOR, '[data-value="b1"]').get_attribute("textContent") == "3"
        click_cell(browser, "b3")
        assert browser.find_element(By.CSS_SELECTOR, '[data-mark="d3"]').get_attribute("fill") == "#c62020"


# -- the layout, the solver's view and the gallery's pictures ------------------------------

GALLERY = Path(__file__).resolve().parent.parent / "docs" / "gallery"
WIDE, NARROW = 1200, 800  # the panel goes beside the board from 1000 px (cli/web/board.css)


def box(driver, element_id: str) -> dict:
    """An element's place on the page: left, top, right, bottom in CSS pixels."""
    return driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};", element_id)


def at_width(driver, width: int) -> None:
    """Resize the window and wait until the page's own width says so."""
    driver.set_window_size(width, 900)
    wait_for(driver, lambda d: abs(d.execute_script("return window.innerWidth;") - width) < 40)


def small_screenshot(driver, name: str, caption: str, scale: float = 0.6) -> None:
    """docs/gallery/web-NAME.png: the window's top, drawn at ``scale`` by the browser itself (no image library
    needed), and web-NAME.txt, its caption for docs/gallery.md (``python scripts/gallery.py`` puts it there)."""
    import base64

    width, height = driver.execute_script(
        "return [document.documentElement.clientWidth, Math.min(document.documentElement.scrollHeight, 1000)];")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": scale}})
    GALLERY.mkdir(exist_ok=True)
    out = GALLERY / f"web-{name}.png"
    out.write_bytes(base64.b64decode(shot["data"]))
    out.with_suffix(".txt").write_text(caption + "\n", encoding="utf-8")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def chart_points(driver) -> list[dict]:
    """The value chart's points, in order: ply, remoteness, winner, fill."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#chart-plot .point')].map((p) => ({ply: Number(p.dataset.ply),"
        " remoteness: Number(p.dataset.remoteness), winner: p.dataset.winner, fill: p.getAttribute('fill')}));")


@pytest.mark.parametrize("name", ["konane", "abalone-hex", "nine-mens-morris"])
def test_the_panel_is_beside_the_board_when_wide_and_under_it_when_narrow(browser, url, name):
    from selenium.webdriver.common.by import By

    try:
        at_width(browser, WIDE)
        open_game(browser, url, name)
        assert browser.find_element(By.ID, "title").text == browser.execute_script("return page.game.title;")
        board, panel = box(browser, "left"), box(browser, "panel")
        assert panel["left"] >= board["right"] - 1 and panel["top"] < board["bottom"], (board, panel)
        at_width(browser, NARROW)
        board, panel = box(browser, "left"), box(browser, "panel")
        assert panel["top"] >= board["bottom"] - 1 and panel["left"] < board["right"], (board, panel)
    finally:
        at_width(browser, 1280)


def test_title_rules_text_scores_and_the_last_move(browser, url):
    from selenium.webdriver.common.by import By

    open_game(browser, url, "konane")
    assert browser.find_element(By.ID, "title").text == "Konane"  # rules/konane.rules: game "Konane"
    about = browser.find_element(By.ID, "about").text
    assert about.startswith("Konane, as GAMES.md §1 reads the rule sheet. Jump an enemy stone orthogonally")
    assert about.endswith("Who cannot move loses.")  # the third and last line of the opening comment
    play_clicks(browser, {"move": "b2-d2", "from": "b2", "to": "d2"})
    rings = {e.get_attribute("data-last") for e in browser.find_elements(By.CSS_SELECTOR, "#board .last")}
    assert rings == {"b2", "d2"}
    # b2-d2 jumps black's c2: black has 4 of its 5 stones left, white has captured 1 (GAMES.md §1 start).
    facts = {li.get_attribute("data-player"): li.find_element(By.CSS_SELECTOR, ".facts").text
             for li in browser.find_elements(By.CSS_SELECTOR, "#players li")}
    assert facts == {"white": "5 on the board, captured 1", "black": "4 on the board, captured 0"}
    family = browser.execute_script("return getComputedStyle(document.getElementById('log')).fontFamily;")
    assert "mono" not in family.lower()


def test_grid_abalone_shows_what_each_player_captured(browser, url):
    from selenium.webdriver.common.by import By

    open_game(browser, url, "abalone")
    for text in ["a3-b3", "b4-a3", "a1-a2", "d3-d2", "a2-b3"]:  # as above: black pushes a white marble off
        rows = {r["move"]: r for r in with_cells(browser, cli_moves("abalone", [], position(browser))["moves"])}
        play_clicks(browser, rows[text])
    captured = {li.get_attribute("data-player"): li.find_element(By.CSS_SELECTOR, ".facts").get_attribute(
        "data-captured") for li in browser.find_elements(By.CSS_SELECTOR, "#players li")}
    assert captured == {"black": "1", "white": "0"}
    small_screenshot(browser, "abalone", "Grid Abalone after black pushed a white marble off the board: the "
                     "captured counts stand beside the players, the last move is ringed.")


def test_every_move_is_coloured_at_once_with_the_position_and_pass_values(browser):
    from selenium.webdriver.common.by import By

    def values(game, state):  # a stand-in database for the position (b d1 wbw- b--- --wb): its three moves
        return {"d1-b1": ("win", 3), "b3-d3": ("lose", 2), "pass": ("draw", None)}

    with web_server(("konane",), values=values) as base:
        open_game(browser, base + "/", "konane")
        browser.find_element(By.ID, "paste").send_keys("(b d1 wbw- b--- --wb)")
        browser.find_element(By.ID, "load").click()
        wait_for(browser, lambda d: position(d) == "(b d1 wbw- b--- --wb)")
        # Nothing clicked: both moves are drawn, each in its colour, with its remoteness.
        arrows = {a.get_attribute("data-move"): a.get_attribute("stroke")
                  for a in browser.find_elements(By.CSS_SELECTOR, "#board .arrow")}
        assert arrows == {"d1-b1": "#1a9c1a", "b3-d3": "#c62020"}
        assert shown_targets(browser) == {"b1", "d3"}
        assert browser.find_element(By.CSS_SELECTOR, '[data-mark="b1"]').get_attribute("fill") == "#1a9c1a"
        assert browser.find_element(By.CSS_SELECTOR, '[data-mark="d3"]').get_attribute("fill") == "#c62020"
        assert browser.find_element(By.CSS_SELECTOR, '[data-value="d3"]').get_attribute("textContent") == "2"
        # The position is worth its best move: black wins in 3. Pass is a draw.
        assert browser.find_element(By.ID, "value").text == "Value: black to move: win in 3"
        button = browser.find_element(By.ID, "pass")
        assert button.text == "Pass (draw)" and button.get_attribute("class") == "draw"
        points = chart_points(browser)
        black = browser.execute_script("return page.data.colours[page.data.players.indexOf('black')];")
        assert points == [{"ply": 0, "remoteness": 3, "winner": "black", "fill": black}]


def test_the_value_chart_follows_a_game_played_by_the_solver(browser, tmp_path):
    """Konane 4 x 5 solved for real: best play lowers the remoteness by one a ply, and the winner stays."""
    from selenium.webdriver.common.by import By

    from rulesdsl.cli.solver_values import database_values
    from rulesdsl.interpreter.compile.load import load_game
    from rulesdsl.interpreter.solver import solve

    db = tmp_path / "konane.sqlite"
    game = load_game("konane", {"rows": "4", "cols": "5"})
    solve(game, game.initial_state(), db=db, workers=1)
    plies = 3
    with web_server(("konane",), values=database_values(db)) as base:
        try:
            at_width(browser, WIDE)
            open_game(browser, base + "/", "konane", rows=4, cols=5)
            for _ in range(plies):
                best = browser.execute_script(
                    "return page.data.moves.reduce((a, b) => better(b, a), null);")
                count = len(browser.find_elements(By.CSS_SELECTOR, "#log li"))
                browser.execute_script("play(arguments[0]);", best["text"])
                wait_for(browser, lambda d, count=count: len(d.find_elements(By.CSS_SELECTOR, "#log li")) > count)
            points = chart_points(browser)
            assert [p["ply"] for p in points] == list(range(plies + 1))
            first = points[0]["remoteness"]
            assert first > plies and [p["remoteness"] for p in points] == [first - k for k in range(plies + 1)]
            assert len({(p["winner"], p["fill"]) for p in points}) == 1
            small_screenshot(browser, "konane", "Konane 4 x 5 with the solver's values: every move coloured win "
                             "or lose with its remoteness, the position's value, the value of Pass, and the "
                             "value-history chart of the game so far.")
        finally:
            at_width(browser, 1280)


def test_a_narrow_window_screenshot_for_the_gallery(browser, url):
    try:
        at_width(browser, NARROW)
        open_game(browser, url, "abalone-hex")
        small_screenshot(browser, "abalone-hex", "Abalone on a hexagon in a window 800 px wide: the panel "
                         "goes under the board.")
    finally:
        at_width(browser, 1280)


def test_a_drawn_position_goes_on_the_charts_draw_band(browser):
    from selenium.webdriver.common.by import By

    def values(game, state):  # a stand-in database: every move of every position draws
        return {game.format_move(state, m): ("draw", None) for m in game.legal_moves(state)}

    with web_server(("konane",), values=values) as base:
        open_game(browser, base + "/", "konane")
        assert browser.find_element(By.ID, "value").text == "Value: white to move: draw"
        dot = browser.find_element(By.CSS_SELECTOR, "#chart-plot .point")
        assert dot.get_attribute("fill") == "#d8a400" and dot.get_attribute("data-remoteness") is None
        ends = {t.get_attribute("textContent")
                for t in browser.find_elements(By.CSS_SELECTOR, '#chart-plot text[text-anchor="end"]')}
        assert ends == {"move", "draw"}  # the y axis has the draw band only: no remoteness scale, nothing decided


def test_mancala_sows_by_one_click_and_shows_counts_and_scores(browser, url):
    from selenium.webdriver.common.by import By

    open_game(browser, url, "mancala")
    # d1's 4 seeds go to e1 f1 g1 and the store h1: south moves again (rules/mancala.rules).
    click_cell(browser, "d1")
    wait_for(browser, lambda d: position(d) == "(S -,4,4,4,4,4,4 4,4,-,5,5,5,1)")
    # g1's 5 seeds: h1, then g2 f2 e2 d2 on north's side: south keeps 20, north has 28.
    click_cell(browser, "g1")
    wait_for(browser, lambda d: position(d) == "(N -,4,4,5,5,5,5 4,4,-,5,5,-,2)")
    facts = {li.get_attribute("data-player"): li.find_element(By.CSS_SELECTOR, ".facts").text
             for li in browser.find_elements(By.CSS_SELECTOR, "#players li")}
    assert facts == {"south": "score 20", "north": "score 28"}
    counts = {e.get_attribute("data-cell"): e.get_attribute("data-count")
              for e in browser.find_elements(By.CSS_SELECTOR, "#board circle.piece[data-count]")}
    assert counts["h1"] == "2" and counts["d2"] == "5" and "d1" not in counts


def test_chinese_checkers_for_three_shows_each_place(browser, url):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_game(browser, url, "chinese-checkers-places")
    Select(browser.find_element(By.ID, "option-players")).select_by_value("3")  # a choice: a list, not a field
    before = position(browser)
    browser.find_element(By.ID, "new").click()
    wait_for(browser, lambda d: position(d) != before)
    rows = ('"" n nn nnn nnnn ------------- ------------ ----------- ---------- --------- w--------d ww-------dd '
            'www------ddd wwww-----dddd ---- --- -- -')
    for places in ("-/1/-", "-/1/2"):  # southeast has finished first; then southwest second, and north is left
        paste = browser.find_element(By.ID, "paste")
        paste.clear()
        paste.send_keys(f"(1 {places} {rows})")
        browser.find_element(By.ID, "load").click()
        wait_for(browser, lambda d, p=places: p in position(d))
    status = browser.find_element(By.ID, "status").text
    assert "southeast wins" in status and "places: 1 southeast, 2 southwest, 3 north" in status
    players = browser.find_element(By.ID, "players").text
    assert "placed 1st" in players and "placed 2nd" in players
