"""The kiosk's sender: every action of its league games, from the game log to the league.

It reads the game database through a read-only connection of its own (WAL: readers never block
the kiosk's writes) and sends what lies past the league's last acknowledgement, in order. See
`kiosk` for why nothing is lost or doubled."""
from __future__ import annotations

import logging
import random
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from zonkcam.hardware.league.kiosk import (
    BACKOFF_S,
    BATCH,
    IDLE_S,
    Client,
    Link,
    Links,
    Offline,
    Refused,
    check_url,
    links_path,
    read_token,
)
from zonkcam.hardware.options import CliError
from zonkcam.rules.game import GameSetup
from zonkcam.rules.ruleset import RulesetError, ruleset_from_dict
from zonkcam.rules.turn import IllegalAction

log = logging.getLogger("zonkcam.league")
ASSIGNMENT_EVERY_S = 2.0  # a table whose game is over asks this often for its next one


class Sender:
    def __init__(self, game_db: Path, links: Links, client: Client,
                 on_status: Callable[[str], None] = log.info) -> None:
        self.reader = sqlite3.connect(f"file:{quote(str(game_db.resolve()))}?mode=ro", uri=True,
                                      check_same_thread=False)
        self.links, self.client, self.on_status = links, client, on_status
        self.stopping = threading.Event()
        self.wake = threading.Event()
        self.stuck: dict[int, str] = {}  # local game -> why the league will not take its events
        self.online: bool | None = None
        self.on_idle: Callable[[], None] | None = None  # every event acknowledged: look for more work
        self.sent = 0  # events the league acknowledged past what it held (for benchmarks)
        self.requests = 0  # batches sent (for benchmarks)
        self.batch = BATCH  # halved while the league finds a batch too large (long lines)

    def waiting(self) -> dict[int, int]:
        """Local game -> events not yet acknowledged by the league."""
        out = {}
        for link in self.links.all(self.client.url):
            row = self.reader.execute("SELECT coalesce(max(seq), 0) FROM actions WHERE game_id = ?",
                                      (link.local_game,)).fetchone()
            if row[0] > link.acked:
                out[link.local_game] = row[0] - link.acked
        return out

    def step(self) -> bool:
        """Send one batch of each game with events waiting; True when nothing is left to send."""
        done = True
        for link in self.links.all(self.client.url):
            if link.local_game in self.stuck:
                continue
            rows = self.reader.execute(
                "SELECT seq, at, line FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                (link.local_game, link.acked, self.batch)).fetchall()
            if not rows:
                continue
            done = False
            events = [{"seq": s, "at": at, "line": line} for s, at, line in rows]
            self.requests += 1
            try:
                acked = self.client.send(link.league_game, events)
            except Refused as exc:
                self._refused(link, exc)
                continue
            self.sent += max(0, acked - link.acked)
            self.links.ack(link.local_game, acked)
        return done

    def _refused(self, link: Link, exc: Refused) -> None:
        expected = re.match(r"expected event (\d+) next", str(exc))
        if exc.status == 409 and expected:  # the league holds fewer than we thought: rewind
            self.links.ack(link.local_game, int(expected.group(1)) - 1)
            return
        if exc.status == 413 and self.batch > 1:  # the league's size limit: fewer at a time
            self.batch //= 2
            return
        if exc.status in (401, 403) and "token" in str(exc):
            raise exc  # the whole table is refused: the loop backs off
        self.stuck[link.local_game] = str(exc)
        self.on_status(f"league: game {link.league_game} not sent: {exc}")

    def run(self) -> None:
        wait = BACKOFF_S[0]
        while not self.stopping.is_set():
            try:
                idle = self.step()
            except (Offline, Refused) as exc:
                self._say_online(False, str(exc))
                self.wake.wait(wait * random.uniform(0.8, 1.2))  # jitter: tables do not retry in step
                self.wake.clear()
                wait = min(wait * 2, BACKOFF_S[1])
                continue
            except sqlite3.Error as exc:  # the game db is the kiosk's: a busy moment, try again
                log.warning("league sender: %s", exc)
                idle = True
            wait = BACKOFF_S[0]
            self._say_online(True)
            if idle:
                if self.on_idle is not None:
                    self.on_idle()
                self.wake.wait(IDLE_S)
                self.wake.clear()

    def _say_online(self, online: bool, why: str = "") -> None:
        if online == self.online:
            return
        self.online = online
        if online:
            self.on_status("league: connected, every event sent as it is recorded")
        else:
            waiting = sum(self.waiting().values())
            self.on_status(f"league: offline ({why}); play goes on, {waiting} event(s) kept to send")

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.run, name="league-sender", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self.stopping.set()
        self.wake.set()


def setup_of(assigned: dict[str, Any]) -> GameSetup:
    try:
        ruleset = ruleset_from_dict(assigned["ruleset"], "the league's game")
        return GameSetup(ruleset, tuple(assigned["players"]))
    except (KeyError, TypeError, RulesetError, IllegalAction) as exc:
        raise CliError(f"--league: the league's game does not read ({exc})") from None


class LeagueLink:
    """A kiosk joined to a league: its game now, the sender, and the switch to its next game."""

    def __init__(self, store: Any, game_db: Path, url: str, table: str | None) -> None:
        if not table:
            raise CliError("--league needs --table-name T (the name `zonkcam league add-table` gave)")
        self.store, self.url, self.table = store, check_url(url), table
        self.client = Client(self.url, table, read_token(game_db, table))
        self.links = Links(links_path(game_db))
        self.game_id = self._join()
        self.sender = Sender(game_db, self.links, self.client)
        self.app: Any = None
        self._next_ask = 0.0

    def _join(self) -> int:
        announced = False
        while True:
            try:
                assigned = self.client.assignment()
            except Refused as exc:
                raise CliError(f"--league: the league refused table {self.table}: {exc}") from None
            except Offline as exc:
                latest = self.links.latest(self.url, self.table)
                if latest is not None:
                    log.warning("league: %s; resuming league game %s offline", exc, latest.league_game)
                    return latest.local_game
                if not announced:  # a kiosk may start before the network or the league is up
                    log.warning("league: %s at %s; trying again every %g s", exc, self.url,
                                ASSIGNMENT_EVERY_S)
                    announced = True
                time.sleep(ASSIGNMENT_EVERY_S)
                continue
            if assigned is not None:
                return self.link(assigned)
            if not announced:
                log.info("league: waiting for the league to give table %s a game", self.table)
                announced = True
            time.sleep(ASSIGNMENT_EVERY_S)

    def link(self, assigned: dict[str, Any]) -> int:
        """The local game of a league game: found, or made and linked."""
        found = self.links.find(self.url, int(assigned["game"]))
        if found is not None:
            return found.local_game
        local = self.store.new_game(setup_of(assigned))
        self.links.add(local, self.url, self.table, int(assigned["game"]))
        log.info("league: game %s (round %s) is local game %s: %s", assigned["game"], assigned.get("round"),
                 local, ", ".join(assigned["players"]))
        return local

    def unloadable(self, local_game: int, exc: Exception) -> str:
        """Why the kiosk stops when its league game's log does not load: a new game in its place
        would not be the league's (its events would be refused), nor the league's rules."""
        league_game = next((lk.league_game for lk in self.links.all(self.url) if lk.local_game == local_game),
                           "?")
        return (f"--league: table {self.table}'s league game {league_game} (local game {local_game}) "
                f"does not load: {exc}; not starting another game in its place (it would not be the "
                f"league's). Its log stays in the game database, and the league keeps what was sent "
                f"({self.url}/games/{league_game}): update zonkcam if a newer one wrote it")

    def start(self, app: Any) -> None:
        """Send from now on; say the league's state on the kiosk's display; take the next game."""
        self.app = app

        def status(message: str) -> None:
            app.say(message)  # the display's message bar, and the log
            app.publish_state()

        self.sender.on_status = status
        self.sender.on_idle = self._maybe_next
        self.sender.start()

    def _maybe_next(self) -> None:
        """Once this table's game is over and sent, the league's next game for it, if any."""
        now = time.monotonic()
        if self.app is None or now < self._next_ask:
            return
        with self.app.lock:  # the store is the table app's: its threads take turns
            if not self.store.game(self.app.game_id).over:
                return
        self._next_ask = now + ASSIGNMENT_EVERY_S
        try:
            assigned = self.client.assignment()
        except (Offline, Refused):
            return
        if assigned is None or self.links.find(self.url, int(assigned["game"])) is not None:
            return
        with self.app.lock:
            local = self.link(assigned)
            self.app.switch_to(local)
            players = ", ".join(assigned["players"])
            self.app.say(f"league: next game, round {assigned.get('round')}: {players}")
        self.app.publish_state()

    def stop(self) -> None:
        self.sender.stop()
