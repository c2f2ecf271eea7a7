"""`zonkcam play` killed at random moments while the demo plays and a page sends actions.

    python benchmarks/kill_restart.py [--kills 100] [--seed 1]

Each cycle starts the kiosk on the same port and database, waits for it to answer, lets a
page call penalties while the demo camera's player throws, then SIGKILLs it 0.5-3 s later. After
every kill the database must pass SQLite's integrity check, the game must still replay, and
every penalty the server answered OK must be stored (one more may be, sent as the kill came).
Then the server is stopped with SIGTERM while an event stream is open. Prints the restart
time after SIGKILL (issue 35: under 3 s) and the SIGTERM exit time (under 2 s).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from zonkcam.hardware.options import seed as seed_number
from zonkcam.vision.progress import Progress


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(root: Path, port: int) -> subprocess.Popen:
    argv = [sys.executable, "-m", "zonkcam.hardware.cli", "play", "--camera", "demo",
            "--port", str(port), "--db", str(root / "z.db"), "--players", "Ann,Bob"]
    env = os.environ | {"ZONKCAM_HOME": str(root / "home")}
    return subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_up(url: str, process: subprocess.Popen, timeout: float = 60) -> float:
    """Seconds until /api/state answers."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"the kiosk exited: {process.stderr.read().decode()[-500:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/state", timeout=2) as r:
                r.read()
            return time.monotonic() - t0
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.02)
    raise RuntimeError("the kiosk did not answer")


class Page(threading.Thread):
    """Calls SPACE on the player up, again and again (a penalty: one stored line each, always
    allowed while someone is up); counts the calls answered OK."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.ok, self.stop = url, 0, threading.Event()

    def run(self) -> None:
        body = json.dumps({"action": "penalty", "penalty": "space"}).encode()
        while not self.stop.is_set():
            request = urllib.request.Request(f"{self.url}/api/action", data=body,
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=5) as r:
                    if json.loads(r.read()).get("ok"):
                        self.ok += 1
            except urllib.error.HTTPError:
                pass  # refused (nobody up just then): nothing stored
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                return  # killed
            time.sleep(0.05)


def check(db: Path) -> tuple[int, str]:
    """Penalty lines stored, and SQLite's integrity check."""
    with sqlite3.connect(db) as conn:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        calls = conn.execute("SELECT count(*) FROM actions WHERE line LIKE '% penalty space'").fetchone()[0]
    return calls, integrity


def sigterm_exit_s(root: Path, port: int) -> float:
    """Seconds from SIGTERM to exit with an event stream open."""
    url = f"http://127.0.0.1:{port}"
    process = start(root, port)
    wait_up(url, process)
    stream = urllib.request.urlopen(f"{url}/api/events", timeout=30)
    stream.readline()
    t0 = time.monotonic()
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    stream.close()
    return time.monotonic() - t0


def kill_cycles(root: Path, kills: int, seed: int = 1) -> tuple[int, int, list[float], list[str]]:
    """`kills` start/kill cycles on one database: penalties answered OK, those cut off by a
    kill and stored, seconds until each restart answered, and what went wrong (nothing, when
    all is well). After each kill the store holds every call answered OK, and at most one
    more: the one the kill cut off."""
    rng = random.Random(seed)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    answered = in_flight = 0
    restarts: list[float] = []
    problems: list[str] = []
    progress = Progress(kills, "kill_restart", unit="kill", every=1)
    for n in range(kills):
        process = start(root, port)
        up = wait_up(url, process)
        if n:
            restarts.append(up)
        page = Page(url)
        page.start()
        time.sleep(rng.uniform(0.5, 3.0))
        process.send_signal(signal.SIGKILL)
        process.wait()
        page.join(timeout=10)
        answered += page.ok
        stored, integrity = check(root / "z.db")
        if integrity != "ok":
            problems.append(f"kill {n + 1}: integrity {integrity}")
        if not answered <= stored <= answered + 1:
            problems.append(f"kill {n + 1}: {answered} penalties answered OK, {stored} stored")
        in_flight += stored - answered
        answered = stored  # the call the kill cut off may have been stored: count on from there
        progress.step(f"up in {up:.2f} s, {stored} penalties stored ({in_flight} cut off by a kill)")
    progress.close()
    replay = subprocess.run([sys.executable, "-m", "zonkcam.hardware.cli", "game", "log", "--db",
                             str(root / "z.db")], capture_output=True, text=True)
    if replay.returncode != 0:
        problems.append(f"the game no longer replays: {replay.stderr.strip()}")
    return answered - in_flight, in_flight, restarts, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=seed_number, default=1)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="kill-restart-"))
    answered, cut_off, restarts, problems = kill_cycles(root, args.kills, args.seed)
    term = [sigterm_exit_s(root, free_port()) for _ in range(3)]
    print(f"{args.kills} SIGKILLs: {answered} penalties answered OK, all stored; {cut_off} more "
          f"cut off by a kill and stored; problems (lost, doubled, damaged): {len(problems)}")
    for problem in problems:
        print(f"  {problem}")
    print(f"restart after SIGKILL until /api/state answers: median {statistics.median(restarts):.2f} s, "
          f"max {max(restarts):.2f} s")
    print(f"exit after SIGTERM with an event stream open: {', '.join(f'{t:.2f}' for t in term)} s")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
