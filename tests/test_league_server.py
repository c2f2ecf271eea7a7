"""The league on a real (throw-away) PostgreSQL: the draw of both rounds, standings and exports,
two kiosks at once, the server and the database stopped mid-game, idempotent events, and who may
do what (table tokens, the admin's password, other origins and hosts)."""
import random
import threading
import time

import pytest
from league_helpers import (
    PRESENT,
    LeagueServer,
    SimKiosk,
    call,
    draw_match,
    league_log,
    league_night,
    login,
    new_league,
    start_postgres,
)
from zonkcam.hardware.kiosk.web import PinGuard
from zonkcam.hardware.league import matches
from zonkcam.hardware.league.db import League
from zonkcam.hardware.league.draw import Played, second_round


@pytest.fixture(scope="module")
def pg():
    server = start_postgres()
    yield server
    server.close()


@pytest.fixture
def night(pg, request):
    url = new_league(pg, request.node.name.replace("test_", "t")[:40].lower())
    league = League(url)
    setup = league_night(league)
    server = LeagueServer(url).start()
    yield {**setup, "league": league, "server": server, "base": server.base, "url": url}
    server.stop()
    league.close()


def kiosk(tmp_path, night, table, seed=0):
    return SimKiosk(tmp_path, night["base"], table, night["tokens"][table], seed)


def test_two_kiosks_play_round_one_at_once_then_round_two_is_drawn_and_standings_count(tmp_path, night):
    league = night["league"]
    match = draw_match(league, night, ["T1", "T2"])
    assert [g["players"] for g in match["games"]] == [["Ann", "Eve", "Ida"], ["Fay", "Jo", "Bob"]]
    kiosks = [kiosk(tmp_path, night, "T1", 1), kiosk(tmp_path, night, "T2", 2)]
    for k in kiosks:
        k.sender.start()
    threads = [threading.Thread(target=k.play) for k in kiosks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in kiosks:
        k.drain()
        k.sender.stop()
        assert league_log(league, k.league_game) == k.log()  # event for event
        ours = k.store.game(k.game_id)
        theirs = matches.game_view(league, k.league_game)
        assert theirs["status"] == "over"
        assert theirs["result"]["scores"] == {p: ours.players[p].score for p in ours.order}
        assert theirs["result"]["winners"] == ours.winners
    # round 2, from the kiosks' own games by the rules' draw
    team = {p: t for t, ps in PRESENT.items() for p in ps}
    lines = [Played(p, team[p], g.players[p].score, g.hit_total(p))
             for g in (k.store.game(k.game_id) for k in kiosks) for p in g.setup.players]
    expected = second_round(list(PRESENT), lines)
    status, _, _ = call(night["base"], f"/api/matches/{match['match']}/round2", {"table": "T3"})
    assert status == 401  # spectators do not draw
    cookie = login(night["base"])
    status, drawn, _ = call(night["base"], f"/api/matches/{match['match']}/round2", {"table": "T3"},
                            cookie=cookie)
    assert status == 200
    assert tuple(drawn["games"][-1]["players"]) == expected and drawn["games"][-1]["table_name"] == "T3"
    final = kiosk(tmp_path, night, "T3", 3)
    final.sender.start()
    final.play()
    final.drain()
    final.sender.stop()
    assert league_log(league, final.league_game) == final.log()
    ours = final.store.game(final.game_id)
    winners = {team[p] for p in ours.winners}
    status, table, _ = call(night["base"], "/api/standings")
    assert status == 200
    assert {row["team"] for row in table if row["match_wins"]} == winners
    assert sum(row["games"] for row in table) == 3 * 2 + 3  # every team plays in all three games
    points = {t: 0 for t in PRESENT}
    for g in [*(k.store.game(k.game_id) for k in kiosks), ours]:
        for p in g.setup.players:
            points[team[p]] += g.players[p].score
    assert {row["team"]: row["points"] for row in table if row["team"] in points} == points
    # exports: the same lines as CSV and JSON
    status, games_json, _ = call(night["base"], "/export/games.json")
    assert status == 200 and len(games_json) == 3 + 3 + 4
    status, csv_text, headers = call(night["base"], "/export/standings.csv")
    assert headers["content-type"].startswith("text/csv")
    assert csv_text.splitlines()[0] == "team,matches,match_wins,games,game_wins,points,hits"
    status, history, _ = call(night["base"], "/api/players/Ann")
    anns = [g for g in [*(k.store.game(k.game_id) for k in kiosks), ours] if "Ann" in g.setup.players]
    assert status == 200 and history["played"] == len(anns)
    assert history["best_score"] == max(g.players["Ann"].score for g in anns)
    assert history["hits"] == sum(g.hit_total("Ann") for g in anns)
    assert call(night["base"], "/players/Ann")[0] == 200
    status, page, _ = call(night["base"], f"/matches/{match['match']}")
    assert status == 200 and "Ann" in page and "T3" in page


def test_league_server_and_database_stopped_mid_game_lose_and_double_nothing(tmp_path, night, pg):
    league = night["league"]
    draw_match(league, night, ["T1", "T2"])
    k = kiosk(tmp_path, night, "T1", 5)
    k.sender.start()
    k.play(20)
    k.drain()
    night["server"].stop()  # the league's web server goes away mid-game
    k.play(15)  # play goes on; the outbox keeps them
    assert sum(k.sender.waiting().values()) == 15
    night["server"].start()
    k.drain()
    assert league_log(league, k.league_game) == k.log()
    pg.stop()  # now PostgreSQL itself: the league answers 503, the kiosk retries
    k.play(15)
    pg.start_again()
    k.play()
    k.drain()
    k.sender.stop()
    assert league_log(league, k.league_game) == k.log()
    assert matches.game_view(league, k.league_game)["status"] == "over"


def test_a_resent_batch_is_stored_once_and_a_gap_or_a_changed_event_is_refused(tmp_path, night):
    draw_match(night["league"], night, ["T1", "T2"])
    k = kiosk(tmp_path, night, "T1", 7)
    k.play(5)
    events = [{"seq": s, "at": at, "line": line} for s, at, line in k.log()]
    auth = {"Authorization": f"Bearer {night['tokens']['T1']}", "X-Zonkcam-Table": "T1"}
    path = f"/api/kiosk/games/{k.league_game}/events"
    assert call(night["base"], path, {"events": events[:3]}, auth)[1] == {"acked": 3, "stored": 3}
    assert call(night["base"], path, {"events": events[:3]}, auth)[1] == {"acked": 3, "stored": 0}
    assert call(night["base"], path, {"events": events[1:]}, auth)[1] == {"acked": 5, "stored": 2}
    status, answer, _ = call(night["base"], path, {"events": [{**events[4], "seq": 7}]}, auth)
    assert status == 409 and "expected event 6" in answer["error"]
    status, answer, _ = call(night["base"], path, {"events": [{**events[0], "line": "Ann bank"}]}, auth)
    assert status == 409 and "differs" in answer["error"]
    assert [e for _, _, e in league_log(night["league"], k.league_game)] == [e["line"] for e in events]
    # the other table's token cannot write this table's game
    other = {"Authorization": f"Bearer {night['tokens']['T2']}", "X-Zonkcam-Table": "T2"}
    assert call(night["base"], path, {"events": events[:1]}, other)[0] == 403


def test_wrong_tokens_are_refused_then_locked_out(night):
    draw_match(night["league"], night, ["T1", "T2"])
    path = "/api/kiosk/assignment"
    good = {"Authorization": f"Bearer {night['tokens']['T1']}", "X-Zonkcam-Table": "T1"}
    assert call(night["base"], path, headers=good)[0] == 200
    assert call(night["base"], path)[0] == 401
    for headers in ({"Authorization": "Bearer nope", "X-Zonkcam-Table": "T1"},
                    {"Authorization": f"Bearer {night['tokens']['T1']}", "X-Zonkcam-Table": "T2"},
                    {"Authorization": f"Bearer {night['tokens']['T1']}", "X-Zonkcam-Table": "T9"}):
        status, answer, _ = call(night["base"], path, headers=headers)
        assert status == 403 and night["tokens"]["T1"] not in str(answer)
    for _ in range(2):
        call(night["base"], path, headers={"Authorization": "Bearer nope", "X-Zonkcam-Table": "T1"})
    assert call(night["base"], path, headers=good)[0] == 429  # five misses a minute: locked out


def test_only_the_admin_edits_and_only_from_the_leagues_own_pages(night):
    base = night["base"]
    team = {"name": "Golds", "players": ["Mo", "Ned", "Oz", "Pip"]}
    assert call(base, "/api/teams", team)[0] == 401
    assert call(base, "/api/login", {"password": "not it"})[0] == 403
    cookie = login(base)
    assert call(base, "/api/teams", team, cookie=cookie)[0] == 200
    assert call(base, "/api/teams", team, {"Origin": "http://evil.example"}, cookie=cookie)[0] == 403
    assert call(base, "/api/teams", team, {"Host": "evil.example"}, cookie=cookie)[0] == 421
    assert call(base, "/api/teams", {"name": "Tiny", "players": ["A1", "B1", "C1"]}, cookie=cookie)[0] == 400
    same_table = {"night": night["night"], "present": PRESENT, "tables": ["T1", "T1"]}
    status, answer, _ = call(base, "/api/matches", same_table, cookie=cookie)
    assert status == 400 and "separate tables" in answer["error"]  # L2
    status, teams, _ = call(base, "/api/teams")
    assert status == 200 and {"team": "Golds", "players": ["Mo", "Ned", "Oz", "Pip"]} in teams
    stored = night["league"].admin_hash()
    assert stored.startswith("scrypt$") and "correct horse" not in stored
    assert all(len(r["token_hash"]) == 64 and r["token_hash"] not in night["tokens"].values()
               for r in night["league"].all("SELECT token_hash FROM tables"))


def test_wrong_tokens_from_everywhere_do_not_lock_every_kiosk_out_but_wrong_passwords_do():
    from zonkcam.hardware.league.auth import Guard

    guard = Guard()
    tables, admin = guard.backoff("table"), guard.backoff("admin")
    assert isinstance(tables, PinGuard) and isinstance(admin, PinGuard)  # the kiosk's backoff, reused
    for i in range(200):
        tables.miss(f"10.0.{i // 250}.{i % 250}")
        admin.miss(f"10.0.{i // 250}.{i % 250}")
    assert not tables.locked("127.0.0.1") and tables.locked("10.0.0.1") is False
    assert admin.locked("127.0.0.1")


def test_undos_replay_on_the_league_as_on_the_kiosk(tmp_path, night):
    from zonkcam.rules.actions import Undo

    draw_match(night["league"], night, ["T1", "T2"])
    k = kiosk(tmp_path, night, "T1", 11)
    k.sender.start()
    for _ in range(6):  # an undo in nearly every batch: the league's cached replay must not drift
        k.play(7)
        k.store.record(k.game_id, Undo())
    k.play()
    k.drain()
    k.sender.stop()
    ours = k.store.game(k.game_id)
    theirs = matches.game_view(night["league"], k.league_game)["result"]
    assert sum(line == "undo" for _, _, line in league_log(night["league"], k.league_game)) == 6
    assert theirs["scores"] == {p: ours.players[p].score for p in ours.order}
    assert theirs["hits"] == {p: ours.hit_total(p) for p in ours.order} and theirs["over"]


def test_a_league_night_of_two_matches_at_three_tables(tmp_path, night):
    """The issue's night: two matches, three tables; each kiosk (the real join, log and sender
    of `zonkcam play --league`) plays the games offered to its table one after another."""
    from zonkcam.hardware.league.outbox import LeagueLink
    from zonkcam.hardware.league.simkiosk import SimApp, play
    from zonkcam.hardware.store import Store

    league, base, cookie = night["league"], night["base"], login(night["base"])
    other = {"Reds": ["Cat", "Dan"], "Blues": ["Gus", "Hal"], "Greens": ["Kim", "Lou"]}
    status, first, _ = call(base, "/api/matches", {"night": night["night"], "present": PRESENT,
                                                   "tables": ["T1", "T2"]}, cookie=cookie)
    assert status == 200
    status, second, _ = call(base, "/api/matches", {"night": night["night"], "present": other,
                                                    "tables": ["T3", "T1"]}, cookie=cookie)
    assert status == 200
    links, threads = {}, []
    for i, table in enumerate(("T1", "T2", "T3")):
        (tmp_path / table).mkdir()
        (tmp_path / table / "league-token").write_text(night["tokens"][table])
        store = Store(tmp_path / table / "z.db")
        link = links[table] = LeagueLink(store, tmp_path / table / "z.db", base, table)
        app = SimApp(store, link.game_id)
        link.start(app)
        threads.append(threading.Thread(target=play, args=(link, app, random.Random(i), 0.0, 2), daemon=True))
        threads[-1].start()

    def round_one_over(match: dict) -> bool:
        view = call(base, f"/api/matches/{match['match']}")[1]
        return all(g["status"] == "over" for g in view["games"] if g["round"] == 1)

    for match, table in ((first, "T2"), (second, "T3")):
        wait(lambda m=match: round_one_over(m), 60)
        assert call(base, f"/api/matches/{match['match']}/round2", {"table": table}, cookie=cookie)[0] == 200
    for t in threads:
        t.join(90)
        assert not t.is_alive()
    for link in links.values():
        link.stop()
    games = league.all("SELECT id, table_id, status FROM games ORDER BY id")
    assert len(games) == 6 and {g["status"] for g in games} == {"over"}
    for link in links.values():
        played = link.links.all(base)
        assert len(played) == 2  # each table played two games, one after the other
        for lk in played:
            with link.store.db as db:
                ours = [tuple(r) for r in db.execute("SELECT seq, at, line FROM actions WHERE game_id = ?"
                                                     " ORDER BY seq", (lk.local_game,))]
            assert league_log(league, lk.league_game) == ours
    table = call(base, "/api/standings")[1]
    assert sum(row["matches"] for row in table) == 6 and sum(row["match_wins"] for row in table) >= 2


def wait(check, timeout):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_a_kiosk_started_before_the_league_waits_for_it(tmp_path, night):
    from zonkcam.hardware.league.outbox import LeagueLink
    from zonkcam.hardware.store import Store

    match = draw_match(night["league"], night, ["T1", "T2"])
    night["server"].stop()
    (tmp_path / "league-token").write_text(night["tokens"]["T1"])
    joined = {}

    def join() -> None:
        joined["link"] = LeagueLink(Store(tmp_path / "z.db"), tmp_path / "z.db", night["base"], "T1")

    kiosk_boot = threading.Thread(target=join, daemon=True)
    kiosk_boot.start()
    kiosk_boot.join(1.0)
    assert kiosk_boot.is_alive()  # no league yet: the kiosk waits, it does not give up
    night["server"].start()
    kiosk_boot.join(20)
    link = joined["link"]
    assert link.game_id == 1 and link.links.find(night["base"], match["games"][0]["id"]).local_game == 1
    assert link.store.game(1).setup.players == tuple(match["games"][0]["players"])


def test_a_batch_too_large_for_the_league_is_sent_in_smaller_ones(tmp_path, night):
    draw_match(night["league"], night, ["T1", "T2"])
    k = kiosk(tmp_path, night, "T1", 13)
    long_line = "Ann permanent " + "a long house rule, " * 20  # 100 of these: over the 16 KB body limit
    with k.store.db as db:
        for seq in range(1, 101):
            db.execute("INSERT INTO actions (game_id, seq, at, line) VALUES (?, ?, ?, ?)",
                       (k.game_id, seq, "2026-11-26T20:00:00", long_line))
    k.sender.start()
    k.drain()
    k.sender.stop()
    assert k.sender.batch < 100 and not k.sender.stuck
    assert league_log(night["league"], k.league_game) == k.log()
    assert matches.game_view(night["league"], k.league_game)["problem"]  # kept, and said not to play
