"""The web board in a real browser: Debian's headless Chromium, driven by Selenium.

`.ci/run` installs `chromium` and `chromium-driver` (as root, when CI=true);
where they are missing these tests skip, naming the package (they fail
instead under RULESDSL_REQUIRE_SYSTEM_TOOLS=1, as in CI). Selenium is pointed
at the chromedriver and chromium found on PATH, so it never looks for or
downloads a browser of its own; the network is closed.
Every position reached by clicks is checked against `rulesdsl moves`. A
screenshot of each bundled game's board is written to `screenshots/`
(git-ignored).
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
