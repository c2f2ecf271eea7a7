"""A simulated league kiosk: the real join, game log and sender of `zonkcam play --league`, with
the camera and the page replaced by `bot` (for tests and benchmarks; no OpenCV, no model).

    python -m zonkcam.hardware.league.simkiosk --league URL --table-name T --db FILE \
        [--pace 0.01] [--seed N] [--games N]

Token: $ZONKCAM_LEAGUE_TOKEN. It plays its table's game to the end at one action per `--pace`
seconds, waits until the league holds every event, takes the table's next game (up to
`--games`, waiting for it), and prints one line per game: `done LOCAL LEAGUE ACTIONS`."""
from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

from zonkcam.hardware.league.bot import next_action
from zonkcam.hardware.league.outbox import LeagueLink
from zonkcam.hardware.options import CliError
from zonkcam.hardware.store import Store


class SimApp:
    """What `LeagueLink` needs of the table app: its game, a lock, a message bar."""

    def __init__(self, store: Store, game_id: int) -> None:
        self.store, self.game_id = store, game_id
        self.lock = threading.RLock()
        self.messages: list[str] = []

    @property
    def game(self) -> Any:
        return self.store.game(self.game_id)

    def switch_to(self, game_id: int) -> None:
        self.game_id = game_id

    def say(self, message: str) -> None:
        self.messages.append(message)

    def publish_state(self) -> None:
        pass


def play(link: LeagueLink, app: SimApp, rng: random.Random, pace: float, games: int) -> None:
    for n in range(games):
        while True:
            with app.lock:
                action = next_action(app.game, rng)
                if action is None:
                    break
                app.store.record(app.game_id, action)
            time.sleep(pace)
        played = app.game_id
        while link.sender.waiting():
            time.sleep(0.05)
        league_game = next(lk.league_game for lk in link.links.all(link.url) if lk.local_game == played)
        print(f"done {played} {league_game} {len(app.store.game(played).log)}", flush=True)
        while n + 1 < games and app.game_id == played:  # the sender takes the table's next game
            time.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="simkiosk")
    p.add_argument("--league", required=True)
    p.add_argument("--table-name", required=True)
    p.add_argument("--db", required=True)
    p.add_argument("--pace", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", type=int, default=1)
    args = p.parse_args(argv)
    store = Store(Path(args.db))
    try:
        link = LeagueLink(store, Path(args.db), args.league, args.table_name)
    except CliError as exc:
        print(f"simkiosk: {exc}", file=sys.stderr)
        return 2
    app = SimApp(store, link.game_id)
    link.start(app)
    play(link, app, random.Random(args.seed * 7919 + link.game_id), args.pace, args.games)
    link.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
