"""League night from the league's own pages, in Chromium: the admin logs in, adds a team, a
season and a night, draws round 1 at two tables; kiosks play; the admin draws round 2; the league
page shows the tables, the games and the standings."""
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from league_helpers import (
    PASSWORD,
    LeagueServer,
    SimKiosk,
    league_night,
    new_league,
    start_postgres,
)
from playwright.sync_api import Page
from zonkcam.hardware.league.db import League


@pytest.fixture
def night():
    pg = start_postgres()
    url = new_league(pg, "page")
    league = League(url)
    setup = league_night(league)
    server = LeagueServer(url).start()
    yield {**setup, "league": league, "base": server.base}
    server.stop()
    league.close()
    pg.close()


@contextmanager
def spectator(browser, url: str) -> Iterator[Page]:
    """A spectator's look at one league page."""
    view = browser.new_page()
    view.goto(url)
    try:
        yield view
    finally:
        view.close()


def submit(page, button: str, **fields) -> str:
    """Fill the form's fields, press its button; the API's answer as the page shows it."""
    page.evaluate("document.getElementById('out').textContent = ''")
    for field, value in fields.items():
        page.fill(f"#{field}", value)
    page.click(f"button:has-text('{button}')")
    for _ in range(200):
        if text := page.evaluate("document.getElementById('out').textContent"):
            return text
        page.wait_for_timeout(100)
    raise AssertionError(f"{button}: no answer on the page")


def test_a_league_night_runs_from_the_league_page(browser, tmp_path, night):
    base = night["base"]
    page = browser.new_page()
    refused = []  # what the page's Content-Security-Policy blocked (inline script would be)
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(base + "/admin")
    assert submit(page, "Save team", team="Golds", roster="Mo, Ned").startswith("401")  # not logged in
    assert submit(page, "Log in", pw="wrong password").startswith("403")
    assert submit(page, "Log in", pw=PASSWORD).startswith("200")
    assert refused == []
    assert submit(page, "Save team", team="Golds", roster="Mo, Ned").startswith("400")  # L1: 4-7 players
    assert submit(page, "Save team", team="Golds", roster="Mo, Ned, Oz, Pip").startswith("200")
    answer = submit(page, "Add season", season="Spring")
    season = answer.split('"season":')[1].strip(" }\n")
    answer = submit(page, "Add night", nseason=season, night="Thursday")
    night_id = answer.split('"night":')[1].strip(" }\n")
    present = "Reds: Ann, Bob\nBlues: Eve, Fay\nGolds: Mo, Ned"
    answer = submit(page, "Draw round 1", mnight=night_id, present=present, mtables="T1, T2")
    assert answer.startswith("200"), answer
    match = answer.split('"match":')[1].split(",")[0].strip()
    # Spectators' pages reload themselves every 5 s: each look is a fresh page, closed before the
    # kiosks play, so that no pending reload races the admin's next navigation.
    with spectator(browser, base + "/") as view:
        tables = view.inner_text("table")  # the first table: the tables and their games
        assert "T1" in tables and "T2" in tables and "drawn" in tables
        assert "Ann" in view.inner_text("body") and "Mo" in view.inner_text("body")
    kiosks = [SimKiosk(tmp_path, base, t, night["tokens"][t], seed=i) for i, t in enumerate(("T1", "T2"))]
    for k in kiosks:
        k.sender.start()
        k.play()
        k.drain()
        k.sender.stop()
    answer = submit(page, "Draw round 2", r2match=match, r2table="T3")
    assert answer.startswith("200"), answer
    with spectator(browser, f"{base}/matches/{match}") as view:
        draw = view.inner_text("body")
        assert draw.count("over") == 2 and "T3" in draw
    with spectator(browser, base + "/") as view:
        standings = view.inner_text("body")
        assert "Standings" in standings and "Golds" in standings
    page.close()
