"""`zonkcam play` with a camera source that disappears mid-game and comes back (real processes):
the display says the camera is lost and retrying, nothing is scored from the gap, and throws
are scored again once the source is back."""
import json
import subprocess
import sys
import time
import urllib.request

import pytest
from browser import free_port, server
from zonkcam.models.registry import shipped_model
from zonkcam.rules import load_variant
from zonkcam.rules.dice import make_dice
from zonkcam.rules.scoring import Scorer

pytestmark = pytest.mark.skipif(not shipped_model().is_file(), reason="no shipped dice model")


def state(url):
    with urllib.request.urlopen(url + "/api/state", timeout=10) as r:
        return json.loads(r.read())


def wait(url, test, what, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = state(url)
        if test(s):
            return s
        time.sleep(0.2)
    raise AssertionError(f"no {what} after {timeout} s: log {s['log']}, camera {s['camera']}")


def zonk_footage(folder):
    """Simulated footage whose first throw is a clean five-dice zonk under wheaton's rules, so
    the game is between turns when the source vanishes after it; returns the zonk's faces."""
    from zonkcam.vision.sim.simulator import SimConfig, Simulation

    scorer = Scorer(load_variant("wheaton"))
    for seed in range(200):
        sim = Simulation(SimConfig(seed=seed, throws=3, dice=5, fps=10))
        first = sim.truth["throws"][0]
        faces = [d["value"] for d in first["thrown"]]
        if not first["flags"] and len(faces) == 5 and scorer.score(make_dice(faces)).best is None:
            break
    else:
        pytest.skip("no simulated footage starting with a zonk")
    subprocess.run([sys.executable, "-m", "zonkcam.hardware.cli", "simulate", str(folder), "--throws", "3",
                    "--dice", "5", "--fps", "10", "--seed", str(seed)], check=True, capture_output=True)
    return sorted(faces)


def test_lost_camera_is_shown_nothing_is_scored_from_the_gap_and_it_recovers(browser, tmp_path):
    frames, away = tmp_path / "camera", tmp_path / "unplugged"
    faces = zonk_footage(frames)
    table = tmp_path / "table.json"
    table.write_text((frames / "throws.table.json").read_text())
    port = free_port()
    argv = ["-m", "zonkcam.hardware.cli", "play", "--camera", str(frames), "--fps", "10",
            "--table", str(table), "--variant", "wheaton", "--players", "Ann,Bob",
            "--db", str(tmp_path / "z.db"), "--port", str(port)]
    with server(argv, port, env={"ZONKCAM_HOME": str(tmp_path / "home")}) as (url, _):
        page = browser.new_page()
        page.goto(url)
        s = wait(url, lambda s: s["log"], "first throw")
        frames.rename(away)  # the camera goes away right after the first throw
        player, verb, *dice = s["log"][0].split()
        assert (player, verb, sorted(map(int, dice))) == ("Ann", "throw", faces)
        lost = wait(url, lambda s: s["camera"]["status"] == "lost", "camera lost", 20)
        assert "retrying" in lost["camera"]["message"]
        page.wait_for_function("() => document.querySelector('#camera-status').className === 'lost'")
        assert "retrying" in page.inner_text("#camera-status")
        time.sleep(3)  # while it is away nothing is scored
        during = state(url)
        assert during["log"] == s["log"] and during["camera"]["status"] == "lost"

        away.rename(frames)  # plugged in again: the footage plays from its start
        wait(url, lambda s: s["camera"]["status"] == "ok", "camera back", 30)
        page.wait_for_function("() => document.querySelector('#camera-status').className !== 'lost'")
        after = wait(url, lambda s: len(s["log"]) >= 2, "throw after the camera came back", 60)
        # The first throw after the gap is read whole from the new frames (the same zonk, now
        # Bob's), not stitched from dice seen before the gap.
        player, verb, *dice = after["log"][1].split()
        assert (player, verb, sorted(map(int, dice))) == ("Bob", "throw", faces)
