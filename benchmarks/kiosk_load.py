"""The kiosk's server on a long game: how long a page state and an action take at N actions.

    python benchmarks/kiosk_load.py [--actions 600] [--variant wheaton] [--requests 400]

A game of N logged actions is played into a fresh database (random dice, the best keep, a bank
from 300 up), then the real table app is served by uvicorn on 127.0.0.1 and asked for
`/api/state` by 4 pages at once, while a fifth client undoes and redoes (each a recorded
action). Prints the median and 95th percentile in ms. Issue 35's target: state p95 < 50 ms.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import uvicorn
from zonkcam.hardware.kiosk.app import TableApp
from zonkcam.hardware.kiosk.web import Hub, create_app
from zonkcam.hardware.store import Store
from zonkcam.rules import load_variant
from zonkcam.rules.actions import Bank, Keep, Throw
from zonkcam.rules.dice import make_dice
from zonkcam.rules.game import GameSetup


def play(store: Store, variant: str, actions: int, seed: int = 1) -> int:
    """A game of at least `actions` logged actions (new games are chained if one ends)."""
    rng = random.Random(seed)
    ruleset = load_variant(variant)
    game_id = store.new_game(GameSetup(ruleset, ("Ann", "Bob", "Cy")))
    while len(store.game(game_id).log) < actions:
        game = store.game(game_id)
        if game.over:
            game_id = store.new_game(GameSetup(ruleset, ("Ann", "Bob", "Cy")))
            continue
        turn = game.live.turn if game.live is not None else None
        player = game.current
        if turn is None or turn.over or turn.last is None:
            store.record(game_id, Throw(player, make_dice([rng.randint(1, 6) for _ in range(ruleset.dice)])))
            continue
        best = turn.last.best
        left = len(turn.last.dice) - len(best.keep) or ruleset.dice
        store.record(game_id, Keep(player, positions=tuple(best.keep)))
        turn = store.game(game_id).live.turn
        if turn.total >= 300 and turn.bank_blocker() is None:
            store.record(game_id, Bank(player))
        else:
            store.record(game_id, Throw(player, make_dice([rng.randint(1, 6) for _ in range(left)])))
    return game_id


def percentiles(ms: list[float]) -> str:
    ms = sorted(ms)
    return f"median {statistics.median(ms):6.1f} ms   p95 {ms[int(0.95 * (len(ms) - 1))]:6.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--variant", default="wheaton")
    parser.add_argument("--requests", type=int, default=400, help="state requests in all")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="kiosk-load-"))
    store = Store(root / "z.db")
    t0 = time.perf_counter()
    game_id = play(store, args.variant, args.actions)
    built = time.perf_counter() - t0
    app = TableApp(store, game_id, Hub(), root / "evidence", on_message=lambda m: None)
    print(f"game {game_id}: {len(app.game.log)} actions, played into the store in {built:.1f} s")

    server = uvicorn.Server(uvicorn.Config(create_app(app, app.hub, pin=None), host="127.0.0.1",
                                           port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    url = f"http://127.0.0.1:{port}"

    def page(n: int) -> list[float]:
        ms = []
        for _ in range(n):
            t = time.perf_counter()
            with urllib.request.urlopen(f"{url}/api/state") as r:
                r.read()
            ms.append((time.perf_counter() - t) * 1000)
        return ms

    def scorekeeper(done: threading.Event, ms: list[float]) -> None:
        while not done.is_set():
            for action in ("undo", "redo"):
                t = time.perf_counter()
                request = urllib.request.Request(
                    f"{url}/api/action", data=f'{{"action": "{action}"}}'.encode(),
                    headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request) as r:
                    r.read()
                ms.append((time.perf_counter() - t) * 1000)

    for acting in (False, True):
        act_ms: list[float] = []
        done = threading.Event()
        keeper = threading.Thread(target=scorekeeper, args=(done, act_ms))
        if acting:
            keeper.start()
        with ThreadPoolExecutor(4) as pool:
            state_ms = [ms for part in pool.map(page, [args.requests // 4] * 4) for ms in part]
        done.set()
        if acting:
            keeper.join()
        print(f"/api/state, 4 pages at once{', undo/redo meanwhile' if acting else ''}, "
              f"{len(state_ms)} requests: {percentiles(state_ms)}")
        if acting:
            print(f"undo/redo, {len(act_ms)} actions: {percentiles(act_ms)}")
    with urllib.request.urlopen(f"{url}/api/state") as r:
        size = len(r.read())
    server.should_exit = True
    thread.join(timeout=5)
    print(f"a state is {size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
