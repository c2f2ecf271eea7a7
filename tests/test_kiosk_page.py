"""The kiosk page in headless Chromium, against a scripted table: rendering, pushed updates,
die correction, the PIN for LAN actions."""
from pathlib import Path

import pytest
from browser import free_port, server

FAKE = str(Path(__file__).with_name("fake_kiosk.py"))


@pytest.fixture
def kiosk():
    port = free_port()
    with server([FAKE, str(port)], port) as (url, _):
        yield url


def test_page_shows_sheet_turn_odds_and_dice(browser, kiosk):
    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(kiosk)
    page.wait_for_selector("#sheet th")
    assert page.inner_text("#sheet thead").split() == ["Baldrick", "Biggles"]
    assert page.inner_text("#player") == "Biggles to throw"
    assert "44.4% to zonk" in page.inner_text("#odds")
    assert page.locator("#boxes rect").count() == 1
    assert page.inner_text("#pin") == "PIN 2468"  # local kiosk shows the PIN


def test_bank_is_pushed_to_every_open_page(browser, kiosk):
    watcher = browser.new_page()
    watcher.goto(kiosk)
    watcher.wait_for_selector("#sheet th")
    page = browser.new_page()
    page.goto(kiosk)
    page.click("#bank")
    watcher.wait_for_function("document.querySelector('#player').textContent === 'Baldrick to throw'")
    assert watcher.inner_text("#sheet tfoot").split() == ["0", "400"]


def test_tapping_a_die_sends_a_correction(browser, kiosk):
    page = browser.new_page()
    page.goto(kiosk)
    page.wait_for_selector("#boxes rect")
    page.click("#boxes rect", force=True)
    page.click("#values button:text('5')")
    page.wait_for_function("fetch('/api/state').then(r => r.json()).then(s => s.corrections.length)")
    import json
    import urllib.request

    state = json.loads(urllib.request.urlopen(kiosk + "/api/state").read())
    assert state["corrections"] == [{"action": "correct", "die": 0, "value": 5}]


def test_evidence_image_opens_from_the_sheet(browser, kiosk):
    page = browser.new_page()
    page.goto(kiosk)
    page.click("#sheet td a")
    page.wait_for_selector("#evidence[open]")
    assert page.evaluate("document.querySelector('#evidence-img').naturalWidth") == 320
