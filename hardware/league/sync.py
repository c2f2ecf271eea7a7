"""A kiosk's events into the league: idempotent by (game, sequence), in order, never doubled.

A batch is the kiosk's log lines from some sequence number on. Under the game's row lock:
lines the league already holds are checked to be the same (a resend after a lost answer is
acknowledged, not stored again; a different line under a held number is a conflict); a batch
that starts past the league's last line is refused with the number expected, so the kiosk
rewinds; new lines go in with `ON CONFLICT DO NOTHING` (the primary key is the guarantee).
Then the game is replayed by the rules (`results`) for its live scores, and when it is over
its result is written for the standings."""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb
from zonkcam.hardware.league.db import DB, League, LeagueError, returned
from zonkcam.hardware.league.results import Replays, setup_for

MAX_BATCH = 100  # ~6 KB of JSON, under the web layer's 16 KB body limit
MAX_LINE = 2000


@dataclass(frozen=True)
class Event:
    seq: int
    at: str
    line: str


def parse_events(body: Any) -> list[Event]:
    """`{"events": [{"seq", "at", "line"}, ...]}`: consecutive sequence numbers, or LeagueError."""
    events = body.get("events") if isinstance(body, dict) else None
    if not isinstance(events, list) or not 0 < len(events) <= MAX_BATCH:
        raise LeagueError(f'expected {{"events": [1-{MAX_BATCH} events]}}')
    out = []
    for e in events:
        ok = isinstance(e, dict) and isinstance(e.get("seq"), int) and not isinstance(e["seq"], bool)
        if not ok or not isinstance(e.get("at"), str) or not isinstance(e.get("line"), str) \
                or len(e["line"]) > MAX_LINE or len(e["at"]) > 64:
            raise LeagueError('an event is {"seq": N, "at": TIME, "line": ACTION}')
        out.append(Event(e["seq"], e["at"], e["line"]))
    if out[0].seq < 1 or any(b.seq != a.seq + 1 for a, b in itertools.pairwise(out)):
        raise LeagueError("a batch's events are numbered 1, 2, ... without a gap")
    return out


def add_events(league: League, replays: Replays, game_id: int, table_id: int,
               events: Sequence[Event]) -> dict[str, Any]:
    """Store a batch; returns {"acked": the last sequence held, "stored": new ones, "outcome"}."""
    with league.tx() as db:
        game = db.execute("SELECT table_id, players, ruleset, status FROM games WHERE id = %s FOR UPDATE",
                          (game_id,)).fetchone()
        if game is None:
            raise LeagueError(f"no game {game_id}", 404)
        if game["table_id"] != table_id:
            raise LeagueError(f"game {game_id} is not this table's game", 403)
        held = db.execute("SELECT seq, line FROM events WHERE game_id = %s AND seq >= %s ORDER BY seq",
                          (game_id, events[0].seq)).fetchall()
        last = returned(db.execute("SELECT coalesce(max(seq), 0) AS n FROM events WHERE game_id = %s",
                                   (game_id,)))["n"]
        if events[0].seq > last + 1:
            raise LeagueError(f"expected event {last + 1} next", 409)
        for row, event in zip(held, events, strict=False):
            if row["line"] != event.line:
                raise LeagueError(f"event {event.seq} differs from the one the league holds", 409)
        new = [e for e in events if e.seq > last]
        if new:
            with db.cursor() as cur:
                cur.executemany("INSERT INTO events (game_id, seq, at, line) VALUES (%s, %s, %s, %s)"
                                " ON CONFLICT DO NOTHING", [(game_id, e.seq, e.at, e.line) for e in new])
            def everything() -> list[tuple[str, str]]:
                return [(r["line"], r["at"]) for r in db.execute(
                    "SELECT line, at FROM events WHERE game_id = %s ORDER BY seq", (game_id,))]

            setup = setup_for(game["ruleset"], game["players"])
            outcome = replays.outcome(game_id, setup, new[0].seq, [(e.line, e.at) for e in new], everything)
            _write_outcome(db, game_id, game["status"], outcome)
        acked = max(last, events[-1].seq)
    return {"acked": acked, "stored": len(new)}


def _write_outcome(db: DB, game_id: int, status: str, outcome: Any) -> None:
    now_over = outcome.over
    db.execute("UPDATE games SET result = %s, problem = %s, status = %s,"
               " started = coalesce(started, now()), ended = CASE WHEN %s THEN coalesce(ended, now()) END"
               " WHERE id = %s",
               (Jsonb(outcome.to_json()), outcome.problem, "over" if now_over else "playing", now_over,
                game_id))
    if status == "over" or now_over:
        db.execute("DELETE FROM results WHERE game_id = %s", (game_id,))
    if now_over:
        for row in db.execute("SELECT gp.player_id, gp.team_id, p.name FROM game_players gp"
                              " JOIN players p ON p.id = gp.player_id WHERE gp.game_id = %s",
                              (game_id,)).fetchall():
            name = row["name"]
            db.execute("INSERT INTO results (game_id, player_id, team_id, score, hits, won)"
                       " VALUES (%s, %s, %s, %s, %s, %s)",
                       (game_id, row["player_id"], row["team_id"], outcome.scores.get(name, 0),
                        outcome.hits.get(name, 0), name in outcome.winners))


def events_of(league: League, game_id: int) -> list[dict[str, Any]]:
    return league.all("SELECT seq, at, line FROM events WHERE game_id = %s ORDER BY seq", (game_id,))
