"""The league under load (issue 39): events per second into the league from N simulated kiosks,
and the sync lag after a network drop.

    python benchmarks/league_load.py [--kiosks 4,16,64] [--drop 60] [--drop-kiosks 16] [--workers 2]

A throw-away PostgreSQL (127.0.0.1), `zonkcam league serve` as its own process, N tables each
with a first-round game (albany, league rules, to 10,000). Each simulated kiosk is the real
sender (`hardware/league/outbox.py`) over its own SQLite game log; a bot's whole game is
appended to the log (one commit per action) while the sender copies it to the league through a
TCP relay on 127.0.0.1 (`hardware/relay.py`). The kiosks run as threads in `--workers` processes.

Throughput: every kiosk appends its game as fast as it can; events/s = events the league holds /
seconds from the first append until the league holds the last one.

Drop: `--drop-kiosks` kiosks append one action a second each (a busy table); after 10 s the relay
refuses every connection for `--drop` seconds (the network is down, the kiosks play on), then lets
them through again. Lag of an event = when the league stored it (PostgreSQL's clock, same machine)
minus when the kiosk recorded it; for the events recorded during the drop also from the moment the
network came back; and per kiosk, how long after that its outbox was empty.
"""
from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from zonkcam.hardware.league import matches, migrate, outbox
from zonkcam.hardware.league.bot import play_out
from zonkcam.hardware.league.db import League
from zonkcam.hardware.league.kiosk import Client, Links, links_path
from zonkcam.hardware.league.outbox import Sender, setup_of
from zonkcam.hardware.league.throwaway import Throwaway, free_port
from zonkcam.hardware.relay import Relay
from zonkcam.hardware.store import Store
from zonkcam.rules.game import Game


def setup_league(url: str, n: int) -> list[dict]:
    """n tables with a first-round game each (a match of three teams fills two tables)."""
    league = League(url)
    season = league.add_season("bench")
    night = league.add_night(season, "night")
    games = []
    for m in range((n + 1) // 2):
        present = {}
        for team in ("A", "B", "C"):
            players = [f"{team}{m}p{i}" for i in range(4)]
            league.save_team(f"{team}{m}", players)
            present[f"{team}{m}"] = players[:2]
        tables = [f"t{2 * m}", f"t{2 * m + 1}"]
        tokens = [league.add_table(t) for t in tables]
        drawn = matches.new_match(league, night, present, tables)
        for game, table, token in zip(drawn["games"], tables, tokens, strict=True):
            games.append({"table": table, "token": token, "game": game["id"]})
    league.close()
    return games[:n]


def kiosk_worker(specs: list[dict], base: str, folder: str, pace: float, duration: float, batch: int,
                 queue: multiprocessing.Queue) -> None:
    """Kiosks in this process: append each one's game (one commit per action, `pace` s apart,
    0: flat out; for at most `duration` s) while its sender sends at most `batch` events a request;
    report once every outbox is empty."""
    outbox.BATCH = batch
    kiosks = []
    for spec in specs:
        db = Path(folder) / f"{spec['table']}.db"
        client = Client(base, spec["table"], spec["token"], timeout=30)
        setup = setup_of(client.assignment())
        store = Store(db)
        local = store.new_game(setup)
        links = Links(links_path(db))
        links.add(local, client.url, spec["table"], spec["game"])
        lines = [str(a) for a in play_out(Game(setup), seed=spec["game"])]
        writer = sqlite3.connect(db, isolation_level=None)
        writer.execute("PRAGMA synchronous=NORMAL")
        kiosks.append((Sender(db, links, client, on_status=lambda m: None), writer, local, lines))
    for sender, *_ in kiosks:
        sender.start()
    start = time.time()
    events = 0
    for i in range(max(len(k[3]) for k in kiosks)):
        if time.time() - start > duration:
            break
        for _sender, writer, local, lines in kiosks:
            if i < len(lines):
                writer.execute("INSERT INTO actions (game_id, seq, at, line) VALUES (?, ?, ?, ?)",
                               (local, i + 1, datetime.now(UTC).isoformat(), lines[i]))
                events += 1  # the sender finds it on its own (as on a kiosk): no wake-up call
        if pace:
            time.sleep(max(0.0, start + (i + 1) * pace - time.time()))
    while any(s.waiting() for s, *_ in kiosks):
        time.sleep(0.05)
    queue.put({"events": events, "start": start, "end": time.time(),
               "requests": sum(s.requests for s, *_ in kiosks)})
    for sender, *_ in kiosks:
        sender.stop()


def run_kiosks(games: list[dict], base: str, folder: str, workers: int, pace: float,
               duration: float = 3600.0, batch: int = outbox.BATCH) -> list[dict]:
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    chunks = [games[i::workers] for i in range(workers)]
    procs = [ctx.Process(target=kiosk_worker, args=(c, base, folder, pace, duration, batch, queue))
             for c in chunks if c]
    for p in procs:
        p.start()
    results = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    return results


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def start_server(url: str, port: int, log: Path) -> subprocess.Popen:
    out = open(log, "w")  # noqa: SIM115 (the server writes here until it is stopped)
    process = subprocess.Popen([sys.executable, "-m", "zonkcam.hardware.cli", "league", "serve", "--db", url,
                                "--port", str(port)], stdout=out, stderr=out,
                               env={**os.environ, "ZONKCAM_LEAGUE_PASSWORD": "bench-password"})
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return process
        if time.monotonic() > deadline or process.poll() is not None:
            raise SystemExit(f"the league server did not start: {log.read_text()[-500:]}")
        time.sleep(0.2)


def throughput(pg: Throwaway, n: int, workers: int, folder: Path, batch: int, direct: bool) -> None:
    url = pg.url(f"load{n}b{batch}")
    migrate.create_database(url)
    migrate.upgrade(url)
    games = setup_league(url, n)
    port = free_port()
    server = start_server(url, port, folder / f"serve{n}b{batch}.log")
    relay = Relay(port)
    try:
        (folder / f"k{n}b{batch}").mkdir()
        results = run_kiosks(games, f"http://127.0.0.1:{port if direct else relay.port}",
                             str(folder / f"k{n}b{batch}"), workers, 0.0, batch=batch)
    finally:
        server.terminate()
        server.wait(10)
    events = sum(r["events"] for r in results)
    seconds = max(r["end"] for r in results) - min(r["start"] for r in results)
    league = League(url)
    held = league.one("SELECT count(*) AS n FROM events")["n"]
    over = league.one("SELECT count(*) AS n FROM games WHERE status = 'over'")["n"]
    league.close()
    requests = sum(r["requests"] for r in results)
    via = "direct" if direct else "via the relay"
    print(f"N={n:3d} kiosks {via}, at most {batch} a request: {events} events in {seconds:.1f} s = "
          f"{events / seconds:.0f} events/s into the "
          f"league ({requests} requests, {events / requests:.1f} events each); league holds {held} "
          f"({held - events:+d}), games over {over}/{n}", flush=True)


def drop_lag(pg: Throwaway, n: int, drop_s: float, workers: int, folder: Path) -> None:
    url = pg.url("drop")
    migrate.create_database(url)
    migrate.upgrade(url)
    games = setup_league(url, n)
    port = free_port()
    server = start_server(url, port, folder / "serve-drop.log")
    relay = Relay(port)
    (folder / "drop").mkdir()
    done: list[dict] = []
    runner = threading.Thread(target=lambda: done.extend(run_kiosks(
        games, f"http://127.0.0.1:{relay.port}", str(folder / "drop"), workers, 1.0, 10 + drop_s + 60)))
    runner.start()
    time.sleep(10)
    dropped_at = time.time()
    relay.drop()
    time.sleep(drop_s)
    restored_at = time.time()
    relay.restore()
    runner.join()  # the kiosks play 60 s more, then wait for their outboxes to empty
    server.terminate()
    server.wait(10)
    league = League(url)
    rows = league.all("SELECT e.game_id, e.at, extract(epoch FROM e.received) AS received FROM events e"
                      " WHERE e.at::timestamptz BETWEEN to_timestamp(%s) AND to_timestamp(%s)",
                      (dropped_at, restored_at))
    after = [float(r["received"]) - restored_at for r in rows]
    lag = [float(r["received"]) - datetime.fromisoformat(r["at"]).timestamp() for r in rows]
    per_kiosk: dict[int, float] = {}
    for r, a in zip(rows, after, strict=True):
        per_kiosk[r["game_id"]] = max(per_kiosk.get(r["game_id"], 0.0), a)
    normal = league.all("SELECT e.at, extract(epoch FROM e.received) AS received FROM events e"
                        " WHERE e.at::timestamptz > to_timestamp(%s)", (restored_at + 30,))
    steady = [float(r["received"]) - datetime.fromisoformat(r["at"]).timestamp() for r in normal]
    league.close()
    print(f"drop of {drop_s:.0f} s, {n} kiosks at 1 action/s: {len(rows)} events recorded during the drop;"
          f" stored after the network came back: p50 {pct(after, .5):.2f} s, p95 {pct(after, .95):.2f} s;"
          f" outbox empty per kiosk: p50 {pct(list(per_kiosk.values()), .5):.2f} s,"
          f" p95 {pct(list(per_kiosk.values()), .95):.2f} s; recorded-to-stored p50 {pct(lag, .5):.1f} s,"
          f" p95 {pct(lag, .95):.1f} s; steady lag once caught up p50 {pct(steady, .5) * 1000:.0f} ms,"
          f" p95 {pct(steady, .95) * 1000:.0f} ms ({len(steady)} events)", flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kiosks", default="4,16,64")
    p.add_argument("--drop", type=float, default=60.0, help="seconds the network is down (0: no drop test)")
    p.add_argument("--drop-kiosks", type=int, default=16)
    p.add_argument("--workers", type=int, default=2, help="processes the simulated kiosks run in")
    p.add_argument("--batch", default="100", help="events a request at most, one run each (e.g. 100,1)")
    p.add_argument("--direct", action="store_true",
                   help="throughput: the kiosks to the server, not through the relay")
    args = p.parse_args()
    random.seed(0)
    with Throwaway(durable=True) as pg, tempfile.TemporaryDirectory() as tmp:
        print(f"PostgreSQL {pg.bin.parent.name} on 127.0.0.1 (fsync on, as a real league's); "
              f"{os.cpu_count()} cores", flush=True)
        for batch in (int(x) for x in args.batch.split(",")):
            for n in (int(x) for x in args.kiosks.split(",") if x):
                throughput(pg, n, args.workers, Path(tmp), batch, args.direct)
        if args.drop:
            drop_lag(pg, args.drop_kiosks, args.drop, args.workers, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
