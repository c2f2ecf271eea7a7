"""The real table app behind the real page, in Chromium at 800x480, played with taps only:
settled throws are handed to the app as the camera would, everything else is a tap."""
import sqlite3
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest
import uvicorn
from browser import free_port
from zonkcam.hardware.kiosk.app import TableApp
from zonkcam.hardware.kiosk.web import Hub, create_app
from zonkcam.hardware.store import Store
from zonkcam.rules import load_variant
from zonkcam.rules.game import GameSetup
from zonkcam.vision.dice import Die

IMAGE = np.full((240, 320, 3), 60, np.uint8)


def event(thrown, kept=(), cocked=()):
    def die(value, x, status="ok"):
        return Die(value, "white", 0.99, 0.9, (x, 100, x + 30, 130), (x + 15, 115), 0.0, status)

    dice = [die(None, 20 + 50 * i, "cocked") if i in cocked else die(v, 20 + 50 * i)
            for i, v in enumerate(thrown)]
    return SimpleNamespace(thrown=dice, kept=[die(v, 20 + 50 * i) for i, v in enumerate(kept)],
                           flags=["cocked"] if cocked else [], quorum=True)


@pytest.fixture
def kiosk(tmp_path):
    store = Store(tmp_path / "z.db")
    game_id = store.new_game(GameSetup(load_variant("wheaton"), ("Dee", "Ann")))
    hub = Hub()
    app = TableApp(store, game_id, hub, tmp_path / "evidence", on_message=lambda m: None)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(app, hub), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{port}", tmp_path / "z.db"
    server.should_exit = True
    thread.join(10)


def lines(db):
    with sqlite3.connect(db) as c:
        return [r[0] for r in c.execute("SELECT line FROM actions ORDER BY seq")]


def test_a_cocked_die_is_entered_by_taps_and_only_that_throw_is_scored(browser, kiosk):
    app, url, db = kiosk
    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(url + "/?kiosk=1")
    page.wait_for_selector("#player-name")
    app.on_throw(event([1, 1, 1, 2, 3]), IMAGE)  # Dee: three 1s
    page.wait_for_function("() => document.querySelector('#bank-label').textContent.includes('1000')")
    page.click("#bank")
    page.wait_for_function("() => document.querySelector('#player-name').textContent === 'Ann'")
    app.on_throw(event([5, 2, 3, 4, 6], cocked=[1]), IMAGE)  # Ann: one die leans on the rim
    page.wait_for_selector("#throw-note.pending")
    assert "waiting to be scored" in page.inner_text("#throw-note")
    assert lines(db) == ["Dee throw 1 1 1 2 3", "Dee bank"]
    page.click("#dice .die.unread")
    page.wait_for_selector("#correct[open]")
    page.click("#values button:text-is('2')")
    page.wait_for_function("() => !document.querySelector('#throw-note').classList.contains('pending')")
    assert lines(db) == ["Dee throw 1 1 1 2 3", "Dee bank", "Ann throw 5 2 3 4 6"]
    assert app.game.players["Dee"].score == 1000
    # The 7-inch screen: nothing wider than the screen, and Bank, Undo and the dice in view.
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    for control in ("#bank", "#undo", "#dice .die"):
        box = page.locator(control).first.bounding_box()
        assert box and box["y"] + box["height"] <= 480 and box["height"] >= 44, control
    page.close()


def test_undo_names_what_it_takes_back_and_redo_restores_it(browser, kiosk):
    app, url, db = kiosk
    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(url)
    page.wait_for_selector("#player-name")
    app.on_throw(event([1, 1, 1, 2, 3]), IMAGE)
    page.wait_for_function("() => document.querySelector('#bank-label').textContent.includes('1000')")
    page.click("#bank")
    page.wait_for_function("() => document.querySelector('#undo').textContent.includes(\"Dee's bank\")")
    page.click("#undo")
    page.wait_for_function("() => document.querySelector('#redo')?.disabled === false")
    assert lines(db)[-1] == "undo" and app.game.current == "Dee"
    page.click("#redo")
    page.wait_for_function("() => document.querySelector('#player-name').textContent === 'Ann'")
    assert lines(db)[-1] == "Dee bank" and app.game.players["Dee"].score == 1000
    page.close()


def test_the_table_region_is_dragged_into_place_and_saved(browser, kiosk, tmp_path):
    app, url, _ = kiosk
    app.table_path = tmp_path / "table.json"
    app._send_frame(IMAGE)  # the camera's first picture: 320x240
    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(url)
    page.wait_for_selector("#player-name")
    page.click("#region")
    page.wait_for_selector("#region-dialog[open]")
    page.wait_for_function("() => document.querySelector('#region-img').naturalWidth > 0")
    corner = page.locator("#region-svg circle").first  # the default region's top-left, at (32, 24)
    box = corner.bounding_box()
    svg = page.locator("#region-svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(svg["x"] + 2, svg["y"] + 2, steps=5)  # dragged to the picture's corner
    page.mouse.up()
    page.click("#region-save")
    page.wait_for_selector("#region-dialog", state="hidden")
    (x, y), *others = app.table.polygon
    assert app.table.frame_size == (320, 240) and x <= 8 and y <= 8
    assert others == [(288, 24), (288, 216), (32, 216)]
    saved = (tmp_path / "table.json").read_text()
    assert '"polygon"' in saved and app.restart_stream
    page.close()
