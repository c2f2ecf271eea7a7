"""Kiosks as processes against `zonkcam league serve` as a process: two `zonkcam play --league`
demo kiosks play a match's two first-round games at once; kiosks and the league server are
SIGKILLed mid-sync and restarted, and the league's copy of each game equals the kiosk's, event for
event (nothing lost, nothing doubled). All on 127.0.0.1."""
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from league_helpers import PASSWORD, call, league_log, login, start_postgres
from zonkcam.hardware.league.db import League
from zonkcam.hardware.league.throwaway import free_port
from zonkcam.models.registry import shipped_model

ZONKCAM = [sys.executable, "-m", "zonkcam.hardware.cli"]
TEAMS = {"Reds": ["Ann", "Bob", "Cat", "Dan"], "Blues": ["Eve", "Fay", "Gus", "Hal"],
         "Greens": ["Ida", "Jo", "Kim", "Lou"]}
PRESENT = {"Reds": ["Ann", "Bob"], "Blues": ["Eve", "Fay"], "Greens": ["Ida", "Jo"]}


@pytest.fixture
def league(tmp_path):
    """A PostgreSQL, `zonkcam league serve` on it, two tables, and a match drawn at T1 and T2."""
    pg = start_postgres()
    url = pg.url("league")
    env = {**os.environ, "ZONKCAM_LEAGUE_PASSWORD": PASSWORD}
    tokens = {}
    for table in ("T1", "T2"):
        done = subprocess.run([*ZONKCAM, "league", "add-table", "--db", url, table], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        tokens[table] = done.stdout.strip()
        assert tokens[table] not in done.stderr  # shown once, on stdout only
    port = free_port()
    serve = LeagueProcess(url, port, env, tmp_path / "league.out")
    base = serve.start()
    cookie = login(base)
    for team, players in TEAMS.items():
        assert call(base, "/api/teams", {"name": team, "players": players}, cookie=cookie)[0] == 200
    season = call(base, "/api/seasons", {"name": "2026", "options": {"target": 4000}}, cookie=cookie)[1]
    night = call(base, "/api/nights", {"season": season["season"], "name": "night 1"}, cookie=cookie)[1]
    status, match, _ = call(base, "/api/matches", {"night": night["night"], "present": PRESENT,
                                                   "tables": ["T1", "T2"]}, cookie=cookie)
    assert status == 200, match
    db = League(url)
    yield {"base": base, "tokens": tokens, "serve": serve, "db": db, "match": match}
    db.close()
    serve.stop()
    pg.close()


class LeagueProcess:
    def __init__(self, url: str, port: int, env: dict, out: Path) -> None:
        self.url, self.port, self.env, self.out = url, port, env, out
        self.process: subprocess.Popen | None = None

    def start(self) -> str:
        with open(self.out, "a") as out:
            self.process = subprocess.Popen([*ZONKCAM, "league", "serve", "--db", self.url, "--port",
                                             str(self.port)], env=self.env, stdout=out, stderr=out)
        base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if call(base, "/api/teams")[0] == 200:
                    return base
            except OSError:
                pass
            assert self.process.poll() is None, self.out.read_text()
            assert time.monotonic() < deadline, "the league server did not start"
            time.sleep(0.2)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def kiosk(argv: list[str], token: str, out: Path, home: Path) -> subprocess.Popen:
    env = {**os.environ, "ZONKCAM_LEAGUE_TOKEN": token, "ZONKCAM_HOME": str(home)}
    with open(out, "a") as log:
        return subprocess.Popen(argv, env=env, stdout=log, stderr=log, text=True)


def local_log(db: Path, league_game: int) -> list[tuple[int, str, str]]:
    """The kiosk's own log of a league game (its game db and the links file beside it)."""
    with sqlite3.connect(db.with_name(db.name + ".league")) as links:
        (local,) = links.execute("SELECT local_game FROM links WHERE league_game = ?",
                                 (league_game,)).fetchone()
    with sqlite3.connect(db) as game:
        rows = game.execute("SELECT seq, at, line FROM actions WHERE game_id = ? ORDER BY seq", (local,))
        return [tuple(r) for r in rows]


def wait_until(check, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out: {what}"
        time.sleep(0.25)


def stop(process: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    process.send_signal(sig)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.mark.skipif(not shipped_model().is_file(), reason="no shipped dice model")
def test_two_demo_kiosks_play_round_one_at_once_and_a_killed_one_loses_nothing(tmp_path, league):
    games = {g["table_name"]: g["id"] for g in league["match"]["games"]}
    dbs = {t: tmp_path / t / "z.db" for t in games}
    argv = {t: [*ZONKCAM, "play", "--camera", "demo", "--demo-seed", "0",
                "--port", str(free_port()), "--db", str(dbs[t]),
                "--league", league["base"], "--table-name", t] for t in games}
    kiosks = {t: kiosk(argv[t], league["tokens"][t], tmp_path / f"{t}.out", tmp_path / "home") for t in games}
    try:
        def both_playing(n: int) -> bool:
            return all(len(league_log(league["db"], games[t])) >= n for t in games)

        wait_until(lambda: both_playing(3), 150, "both kiosks' first events in the league")
        assert league["db"].all("SELECT DISTINCT status FROM games") == [{"status": "playing"}]
        stop(kiosks["T1"], signal.SIGKILL)  # mid-game, mid-sync: the sender runs all the time
        recorded = local_log(dbs["T1"], games["T1"])
        kiosks["T1"] = kiosk(argv["T1"], league["tokens"]["T1"], tmp_path / "T1.out", tmp_path / "home")
        wait_until(lambda: len(league_log(league["db"], games["T1"])) >= len(recorded), 60,
                   "the restarted kiosk's outbox drained")
        wait_until(lambda: "resuming its league game" in (tmp_path / "T1.out").read_text(), 60,
                   "the restarted kiosk back in its league game")
    finally:
        for process in kiosks.values():
            stop(process)
    for t in games:
        ours, theirs = local_log(dbs[t], games[t]), league_log(league["db"], games[t])
        assert theirs == ours[:len(theirs)]  # in order, none doubled, none changed
    assert league_log(league["db"], games["T1"])[:len(recorded)] == recorded  # none lost
    logs = "".join((tmp_path / name).read_text() for name in ("T1.out", "T2.out", "league.out"))
    assert "Traceback" not in logs
    assert not any(secret in logs for secret in (*league["tokens"].values(), PASSWORD))  # no secret logged
    t1 = (tmp_path / "T1.out").read_text()  # said as it is: the league's game, begun then resumed
    assert "table T1: starting its league game (local game 1)" in t1
    assert "table T1: resuming its league game (local game 1)" in t1
    assert "--new" not in logs  # --new has no say in which game a league table plays


def test_simulated_kiosks_and_the_league_killed_mid_sync_lose_and_double_nothing(tmp_path, league):
    games = {g["table_name"]: g["id"] for g in league["match"]["games"]}
    dbs = {t: tmp_path / t / "z.db" for t in games}
    for db in dbs.values():
        db.parent.mkdir()
    argv = {t: [sys.executable, "-m", "zonkcam.hardware.league.simkiosk", "--league", league["base"],
                "--table-name", t, "--db", str(dbs[t]), "--pace", "0.02", "--seed", str(i)]
            for i, t in enumerate(games)}
    kiosks = {t: kiosk(argv[t], league["tokens"][t], tmp_path / f"{t}.out", tmp_path / "home") for t in games}

    def held() -> int:
        return len(league_log(league["db"], games["T1"]))

    def restart_t1() -> None:
        stop(kiosks["T1"], signal.SIGKILL)
        kiosks["T1"] = kiosk(argv["T1"], league["tokens"]["T1"], tmp_path / "T1.out", tmp_path / "home")

    def in_step(t: str) -> bool:
        theirs = league_log(league["db"], games[t])
        return theirs == local_log(dbs[t], games[t]) and \
            call(league["base"], f"/api/games/{games[t]}")[1]["status"] == "over"

    try:
        wait_until(lambda: held() >= 10, 60, "T1's first events")
        league["serve"].kill()  # the league's server dies mid-game; the kiosks play on
        before = held()
        wait_until(lambda: len(local_log(dbs["T1"], games["T1"])) > before + 5, 60, "T1 playing offline")
        restart_t1()  # killed with events in its outbox; it resumes offline
        league["serve"].start()
        wait_until(lambda: held() > before, 60, "T1 syncing again")
        restart_t1()  # killed while its outbox drains
        wait_until(lambda: all(in_step(t) for t in games), 120, "both games over, the league's copy equal")
    finally:
        for process in kiosks.values():
            stop(process)
    for t in games:
        assert league_log(league["db"], games[t]) == local_log(dbs[t], games[t])  # event for event
        assert "Traceback" not in (tmp_path / f"{t}.out").read_text()
