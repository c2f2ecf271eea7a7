"""`zonkcam play --camera demo` for real: a subprocess serving the kiosk, watched in Chromium;
killed and restarted, the game resumes from its database."""
import json
import signal
import sqlite3
import time
import urllib.request

import pytest
from browser import free_port, server
from zonkcam.models.registry import shipped_model

pytestmark = pytest.mark.skipif(not shipped_model().is_file(), reason="no shipped dice model")


def play(tmp_path, port):
    argv = ["-m", "zonkcam.hardware.cli", "play", "--camera", "demo", "--port", str(port),
            "--db", str(tmp_path / "z.db"), "--players", "Ann,Bob"]
    return server(argv, port, env={"ZONKCAM_HOME": str(tmp_path / "home")})


def state(url):
    with urllib.request.urlopen(url + "/api/state", timeout=10) as r:
        return json.loads(r.read())


def wait_for_actions(url, n, timeout=150):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = state(url)
        if len(s["game_json"]["players"]) and len(s["log"]) >= n:
            return s
        time.sleep(1)
    raise AssertionError(f"fewer than {n} actions after {timeout} s: {s['camera']}")


def test_demo_throws_are_scored_on_the_page_and_in_the_database(browser, tmp_path):
    port = free_port()
    with play(tmp_path, port) as (url, _):
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(url)
        s = wait_for_actions(url, 1)
        page.wait_for_function("document.querySelectorAll('#sheet thead th').length === 2")
        assert page.inner_text("#sheet thead").split() == ["Ann", "Bob"]
        assert page.evaluate("document.querySelector('#frame').naturalWidth") > 0  # live picture
        page.click("#undo")
        page.wait_for_timeout(500)
        after = state(url)
        assert len(after["log"]) >= 1  # undo is itself a line in the log
        with sqlite3.connect(tmp_path / "z.db") as db:
            lines = [r[0] for r in db.execute("SELECT line FROM actions ORDER BY seq")]
        assert "undo" in lines and all(line in lines for line in s["log"])
        evidence = list((tmp_path / "evidence" / "1").glob("*.jpg"))
        assert evidence, "every scored throw keeps the frame it was read from"


def test_killed_kiosk_resumes_its_game(tmp_path):
    port = free_port()
    with play(tmp_path, port) as (url, process):
        before = wait_for_actions(url, 2)["log"]
        process.send_signal(signal.SIGKILL)
        process.wait()
    port = free_port()
    with play(tmp_path, port) as (url, process):
        resumed = state(url)
        assert resumed["game"]["id"] == 1
        assert resumed["log"][: len(before)] == before
