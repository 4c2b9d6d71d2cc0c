"""The board in a real browser: headless Chromium (Debian's chromium and chromedriver, driven by
Selenium) loads it, sees a move written at a table appear, and takes the screenshot kept in docs/.

Set CLUB_BOARD_SCREENSHOT=docs/club-board.png to write the README's picture.
Elsewhere than CI it skips where Chromium is not installed; in CI (CI=true) it fails instead."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from club_helpers import log_text
from test_serve import serving

from sqlalchemy import update

from scorer.club import LiveTable, import_log, open_database
from scorer.club.schema import matches
from scorer.rules.simulate import simulate_match
from scorer.sessions import Session

HOW = ("install it: apt-get install chromium chromium-driver (Debian/Ubuntu, as root), "
       "and .venv/bin/python -m pip install -e '.[dev]' for Selenium")


def _browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None, f"Selenium is not installed: {HOW}"
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        return None, f"headless Chromium and its driver are not installed: {HOW}"
    profile = tempfile.mkdtemp(prefix="scorer-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
                 "--window-size=1600,1000", f"--user-data-dir={profile}", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    return (webdriver.Chrome(service=Service(executable_path=driver), options=options), profile), None


@pytest.fixture
def browser():
    found, why = _browser()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser test: {why}")
        pytest.skip(why)
    driver, profile = found
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(check, timeout: float = 15.0, what: str = "the page"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_the_board_in_chromium_shows_a_move_written_at_a_table(browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    db = str(tmp_path / "club.db")
    engine = open_database(db)
    names = ("Aino", "Eero", "Helmi", "Onni", "Siiri", "Väinö", "Kerttu", "Lauri")
    for seed in range(4):  # tonight's finished matches
        n = 2 + seed % 3
        import_log(engine, log_text(simulate_match("horse-race", n, seed=100 + seed, names=names[seed:seed + n])),
                   table_name=f"Table {1 + seed % 3}")
    tables = [("Table 1", "horse-race", 2, False, names[0:2], 120), ("Table 2", "horse-race", 3, False, names[2:5], 90),
              ("Table 3", "horse-race", 4, True, names[4:8], 150), ("Table 4", "seven-rocks", 4, True, names[:4], 140)]
    sessions, lives, sims = [], [], []
    for i, (name, game, n, partnership, players, upto) in enumerate(tables):
        sim = simulate_match(game, n, partnership, seed=200 + i, names=players)
        session = Session.create(sim.header, tmp_path / "sessions")
        live = LiveTable(db, name)
        session.listeners.append(live)
        for step in sim.events[:upto]:
            session.apply(step.event)
        sessions.append(session), lives.append(live), sims.append(sim)
    assert all(live.flush(30) for live in lives)
    # Table 4's app was closed 40 minutes ago, its match unfinished: shown as quiet, not as playing.
    with engine.begin() as c:
        c.execute(update(matches).where(matches.c.table_name == "Table 4")
                  .values(updated_at=dt.datetime.now() - dt.timedelta(minutes=40)))
    with serving(db) as base:
        browser.get(base + "/")
        wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "article.table")) == 4, what="four tables")
        assert browser.find_element(By.ID, "live").text == "live"
        cards = browser.find_elements(By.CSS_SELECTOR, "article.table")
        assert [c.find_element(By.TAG_NAME, "h2").text for c in cards] == [t[0] for t in tables]
        badges = [c.find_element(By.CSS_SELECTOR, ".badge") for c in cards]
        assert [b.get_attribute("class") for b in badges] == ["badge playing"] * 3 + ["badge quiet"]
        assert re.search(r"no move for 4[01] min$", badges[3].text) and badges[3].text.startswith("round ")
        two = cards[1]
        session, sim = sessions[1], sims[1]
        before = int(two.get_attribute("data-lines"))
        assert before == len(session.steps) + 1
        # The next scoring play at table 2, written by the table's session: the page must show it.
        index = next(i for i in range(len(session.steps), len(sim.events))
                     if getattr(sim.events[i].event, "tile", None) is not None
                     and sim.events[i].after.scores() != sim.events[i - 1].after.scores())
        for step in sim.events[len(session.steps):index + 1]:
            session.apply(step.event)
        written = time.monotonic()
        lines = len(session.steps) + 1
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, f'article.table[data-lines="{lines}"]'), what="the move")
        shown_after = time.monotonic() - written
        card = browser.find_elements(By.CSS_SELECTOR, "article.table")[1]
        scores = [int(s.text) for s in card.find_elements(By.CSS_SELECTOR, ".score")]
        assert scores == [session.match.scores()[p] for p in session.header.players]
        last = card.find_element(By.CSS_SELECTOR, ".last").text
        mover = sim.events[index].event.player
        assert mover in last and "plays" in last
        assert shown_after < 5
        # The standings: tonight's finished matches only; the ones being played are said to be.
        tonight = browser.find_element(By.ID, "tonight").text
        assert "3 matches still playing" in tonight and "Horse Race" in tonight
        assert "1 match left unfinished" in tonight  # (the table quiet for 40 minutes)
        out = tmp_path / "board.png"
        browser.set_window_size(1600, 1120)  # the whole board in the picture
        time.sleep(0.3)
        assert browser.save_screenshot(str(out)) and out.stat().st_size > 10_000
        target = os.environ.get("CLUB_BOARD_SCREENSHOT")
        if target:
            shutil.copy(out, target)
        browser.set_window_size(390, 844)  # a phone: one column, still every table
        time.sleep(0.3)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 400
        # The same board in Finnish (?lang=fi, or a Finnish browser): its own words and the moves told.
        browser.set_window_size(1600, 1120)
        browser.get(base + "/?lang=fi")
        wait_for(lambda: browser.find_element(By.ID, "live").text == "suorana", what="the Finnish board")
        assert browser.find_element(By.TAG_NAME, "h1").text == "Kerhoilta" and browser.title == "Kerhoilta"
        card = browser.find_elements(By.CSS_SELECTOR, "article.table")[1]
        assert "pelaa" in card.find_element(By.CSS_SELECTOR, ".last").text
        assert "Horse Race: ensin 61 pisteeseen" in card.text and "vuorossa" in card.text and "Viimeisin siirto:" in card.text
        quiet = browser.find_elements(By.CSS_SELECTOR, "article.table")[3].find_element(By.CSS_SELECTOR, ".badge").text
        assert re.search(r"ei siirtoa 4[01] minuuttiin$", quiet)
        tonight = browser.find_element(By.ID, "tonight").text
        assert "3 ottelua vielä käynnissä" in tonight and "1 ottelu jäi kesken" in tonight and "pelattu" in tonight
        finnish = os.environ.get("CLUB_BOARD_SCREENSHOT_FI")
        if finnish:
            browser.save_screenshot(finnish)
    for live, session in zip(lives, sessions):
        live.close()
        session.close()
