"""`zonkcam play` for real: the end-of-game summary with G.H.A. after the scorekeeper banks the
winning turn, the statistics page, and a new game chosen on the page (house rules, players
from the registry, a roll-off read from the demo camera's throws)."""
import json
import re
import time
import urllib.request

import cv2
import numpy as np
import pytest
from browser import free_port, server
from zonkcam.hardware.store import Store
from zonkcam.models.registry import shipped_model
from zonkcam.rules.game import GameSetup
from zonkcam.rules.ruleset import load_ruleset

pytestmark = pytest.mark.skipif(not shipped_model().is_file(), reason="no shipped dice model")


def get(url, path="/api/state"):
    with urllib.request.urlopen(url + path, timeout=20) as r:
        return json.loads(r.read())


def wait(url, test, what, timeout=150.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = get(url)
        if test(s):
            return s
        time.sleep(0.5)
    raise AssertionError(f"no {what} after {timeout} s: log {s['log']}, camera {s['camera']}")


QUICK = 'base = "wheaton"\ntitle = "Quick"\ntarget = 300\n'  # the first bank of 300 wins


def test_summary_with_gha_when_the_winning_turn_is_banked_and_statistics(browser, tmp_path):
    rules = tmp_path / "quick.toml"
    rules.write_text(QUICK)
    store = Store(tmp_path / "z.db")  # a game the kiosk resumes: Bob's three 1s are on the table
    game_id = store.new_game(GameSetup(load_ruleset(rules), ("Ann", "Bob")))
    for line in ("Ann throw 2 3 4 6 6", "Bob throw 1 1 1 2 3"):
        store.record(game_id, line)
    store.close()
    still = tmp_path / "still"  # a camera that shows one empty frame and ends: nothing moves
    still.mkdir()
    cv2.imwrite(str(still / "empty.png"), np.full((360, 640, 3), 60, np.uint8))
    port = free_port()
    argv = ["-m", "zonkcam.hardware.cli", "play", "--camera", str(still), "--port", str(port),
            "--db", str(tmp_path / "z.db")]
    with server(argv, port, env={"ZONKCAM_HOME": str(tmp_path / "home")}) as (url, _):
        page = browser.new_page(viewport={"width": 800, "height": 480})
        page.goto(url)
        page.wait_for_function("() => document.querySelector('#player').textContent === 'Bob to throw'")
        assert page.is_hidden("#summary")
        page.click("#bank")
        page.wait_for_selector("#summary:not([hidden])")
        summary = get(url)["summary"]
        assert not page.is_visible("#live")  # the summary takes the live view's place
        assert page.inner_text("#summary-winners") == "WINNER: Bob"
        hits = [p["hits"] for p in summary["players"]]
        assert summary["gha"] == round(sum(hits) / 2, 2) and hits[1] >= 1  # Bob's thousand hit (W11)
        assert page.inner_text("#summary-gha") == f"G.H.A. (group hit average): {summary['gha']:g}"
        rows = [r.split("\t") for r in page.inner_text("#summary-table tbody").splitlines()]
        # player, score, hits, turns, zonks, zonk rate, average turn, best turn
        assert rows == [["Ann", "0", str(hits[0]), "1", "1", "100.0%", "0", "0"],
                        ["Bob", "1000", str(hits[1]), "1", "0", "0.0%", "1000", "1000"]]

        stats_page = browser.new_page()
        stats_page.goto(url + "/stats")
        stats_page.wait_for_function("() => document.querySelectorAll('#players tbody tr').length === 2")
        players = [r.split("\t") for r in stats_page.inner_text("#players tbody").splitlines()]
        assert players == [["Ann", "1", "1", "1", "100.0%", "0", "0"],
                           ["Bob", "1", "1", "0", "0.0%", "1000", "1000"]]
        dice = [r.split("\t") for r in stats_page.inner_text("#dice tbody").splitlines()]
        # Ann threw 2 3 4 6 6: chi2 = sum(count^2) / (5/6) - 5 = 7 * 6/5 - 5 = 3.4
        assert dice[0][:9] == ["Ann", "any", "0", "1", "1", "1", "0", "2", "5"]
        assert dice[0][9] == "3.4" and dice[0][11] == "too few throws"


def test_new_game_from_the_page_with_a_rolloff_read_by_the_demo_camera(browser, tmp_path):
    rules = tmp_path / "quick.toml"
    rules.write_text(QUICK)
    port = free_port()
    argv = ["-m", "zonkcam.hardware.cli", "play", "--camera", "demo", "--demo-seed", "0",
            "--rules", str(rules),
            "--port", str(port), "--db", str(tmp_path / "z.db"), "--players", "Ann,Bob"]
    with server(argv, port, env={"ZONKCAM_HOME": str(tmp_path / "home")}) as (url, _):
        page = browser.new_page(viewport={"width": 800, "height": 480})
        page.goto(url)
        page.wait_for_selector("#sheet th")
        page.click("#new-game")
        page.wait_for_selector("#new-game-dialog[open]")
        labels = page.eval_on_selector_all("#ng-ruleset option", "os => os.map(o => o.textContent)")
        assert {"wheaton", "albany", "quick"} <= set(labels)
        page.select_option("#ng-ruleset", label="quick")
        page.fill("#ng-players", "")
        page.click("#ng-registry button:text('+ Bob')")
        page.click("#ng-registry button:text('+ Ann')")
        page.fill("#ng-players", page.input_value("#ng-players") + ", Cy")
        assert page.input_value("#ng-players") == "Bob, Ann, Cy"
        page.check("input[name=order][value=rolloff]")
        page.click("#ng-start")
        page.wait_for_selector("#rolloff:not([hidden])")
        assert page.inner_text("#rolloff-table thead").split() == ["Bob", "Ann", "Cy"]
        assert page.inner_text("#rolloff-up") == "Bob: throw one die"
        # The demo camera's throws are read for the roll-off: its progress shows on the page.
        page.wait_for_function("() => document.querySelectorAll('#rolloff-table tbody td').length > 0",
                               timeout=90_000)
        started = wait(url, lambda s: s["game"]["id"] == 2 and s["rolloff"] is None, "game 2", 150)
        order = started["sheet"]["players"]
        # Highest first, then round the table from the winner's seat.
        assert order in (["Bob", "Ann", "Cy"], ["Ann", "Cy", "Bob"], ["Cy", "Bob", "Ann"])
        first = re.search(r"(\w+) goes first", started["camera"]["message"])
        if first:  # the roll-off's last message, unless a throw's message replaced it already
            assert order[0] == first.group(1)
        assert started["game"]["title"] == "Quick"
        page.wait_for_selector("#rolloff", state="hidden")
        assert page.inner_text("#sheet thead").split() == order
