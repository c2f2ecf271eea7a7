"""The kiosk page in headless Chromium, against a scripted table: rendering, pushed updates,
die correction, the evidence behind a sheet cell."""
import json
import urllib.request
from pathlib import Path

import pytest
from browser import free_port, server, until

FAKE = str(Path(__file__).with_name("fake_kiosk.py"))


@pytest.fixture
def kiosk():
    port = free_port()
    with server([FAKE, str(port)], port) as (url, _):
        yield url


def state(url):
    with urllib.request.urlopen(url + "/api/state", timeout=10) as r:
        return json.loads(r.read())


def post(url, action):
    request = urllib.request.Request(url + "/api/action", json.dumps(action).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())


def test_page_shows_sheet_turn_odds_and_dice(browser, kiosk):
    page = browser.new_page(viewport={"width": 800, "height": 480})
    refused = []  # what the page's Content-Security-Policy blocked: must be nothing of ours
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(kiosk)
    page.wait_for_selector("#sheet th")
    assert page.inner_text("#sheet thead").split() == ["Ann", "Bob", "Cy", "Dee"]
    assert page.inner_text("#player") == "Ann to throw"
    assert "44.4% to zonk" in page.inner_text("#odds")
    assert page.locator("#dice button.die").count() == 4  # this throw's; the two kept apart
    assert page.locator("#dice .kept-dice .die").count() == 2
    assert page.locator("#dice button.unread").count() == 1  # the cocked one
    assert page.inner_text("#pin") == "PIN 2468"  # local kiosk shows the PIN
    page.click("#pin")  # the pairing QR code, an SVG the server made, shown inline
    page.wait_for_selector("#pairing-qr svg")
    assert refused == []


def test_bank_is_pushed_to_every_open_page(browser, kiosk):
    post(kiosk, {"action": "correct", "throw": "12", "die": 3, "value": 2})  # Bank waits for the cocked die
    watcher = browser.new_page()
    watcher.goto(kiosk)
    watcher.wait_for_selector("#sheet th")
    page = browser.new_page()
    page.goto(kiosk)
    page.click("#bank")
    watcher.wait_for_function("() => document.querySelector('#player').textContent === 'Bob to throw'")
    assert watcher.locator("#sheet tfoot .score").all_inner_texts() == ["4700", "3600", "4000", "3150"]


def test_tapping_a_die_on_the_still_sends_a_correction(browser, kiosk):
    page = browser.new_page()
    page.goto(kiosk)
    page.click("#photo")
    page.wait_for_selector("#still[open] #boxes rect")
    page.click("#boxes rect >> nth=3", force=True)
    page.click("#values button:text('5')")
    assert until(lambda: state(kiosk)["corrections"], timeout=30, every=0.1) == \
        [{"action": "correct", "die": 3, "value": 5, "throw": "12"}]


def test_evidence_image_opens_from_the_sheet(browser, kiosk):
    page = browser.new_page()
    page.goto(kiosk)
    page.locator("#sheet td a").last.click()
    page.wait_for_selector("#evidence[open]")
    page.wait_for_function("() => document.querySelector('#evidence-img').naturalWidth === 640")
    assert page.inner_text("#evidence-title") == "Dee, round 9"
