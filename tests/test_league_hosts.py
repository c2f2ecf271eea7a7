"""The league without a PostgreSQL: the Host names it answers to (`serve --allowed-hosts`), its
replay of recorded events (stored: not held to the colour check of an action taken now), and a
kiosk whose league game's log does not load (it stops; it never starts an ordinary game instead).
Network on 127.0.0.1 only."""
import pytest
from zonkcam.hardware.cli import main
from zonkcam.hardware.league.hosts import allowed_hosts, host_allowed
from zonkcam.hardware.league.results import Replays, outcome_of
from zonkcam.rules import load_variant
from zonkcam.rules.actions import parse_action
from zonkcam.rules.game import Game, GameSetup

pytest.importorskip("starlette")


def test_allowed_hosts_are_dns_names_or_domains_and_anything_else_is_a_clear_error():
    assert allowed_hosts(" League.Example.org., *.club.example ") == ("league.example.org", "*.club.example")
    assert allowed_hosts(None) == () and allowed_hosts("") == ()
    for bad in ("http://league.example.org", "league.example.org:8090", "a b", "*", "-x.example", "x.*.org"):
        with pytest.raises(ValueError, match="is not a DNS name"):
            allowed_hosts(bad)


def test_a_host_is_this_machines_or_allowed_by_name_or_domain():
    allowed = allowed_hosts("league.example.org,*.club.example")
    for host in ("127.0.0.1:8090", "localhost:8090", "[::1]:8090", "192.168.1.20",  # as before
                 "league.example.org", "LEAGUE.example.org:443", "t1.club.example"):
        assert host_allowed(host, allowed), host
    for host in ("evil.example", "example.org", "xleague.example.org", "club.example",  # the domain itself
                 "league.example.org.evil.example", "", "[bad"):
        assert not host_allowed(host, allowed), host
    assert not host_allowed("league.example.org", ())  # the default: loopback and the LAN only


def test_the_league_app_answers_to_allowed_names_only():
    from starlette.testclient import TestClient
    from zonkcam.hardware.league.server import create_app

    class NoDatabase:  # the read this test makes needs no PostgreSQL
        def teams(self):
            return [{"team": "Reds", "players": ["Ann"]}]

        def close(self):
            pass

    name = ("league.example.org",)
    for allowed, host, status in (((), name[0], 421), (name, name[0], 200), (name, "evil.example", 421),
                                  ((), "127.0.0.1:8090", 200)):
        client = TestClient(create_app(NoDatabase(), allowed_hosts=allowed), base_url=f"http://{host}")
        answer = client.get("/api/teams")
        assert answer.status_code == status, (allowed, host)
        if status == 421:
            assert "--allowed-hosts" in answer.json()["error"]
        else:
            assert answer.json() == [{"team": "Reds", "players": ["Ann"]}]
        assert answer.headers["x-frame-options"] == "DENY"  # refused or not


def test_serve_refuses_a_bad_allowed_host_in_one_line(capsys, monkeypatch):
    monkeypatch.delenv("ZONKCAM_LEAGUE_HOSTS", raising=False)
    assert main(["league", "serve", "--db", "postgresql:///x", "--allowed-hosts", "https://a.example"]) == 2
    err = capsys.readouterr().err
    assert "--allowed-hosts: 'https://a.example' is not a DNS name" in err and "Traceback" not in err
    monkeypatch.setenv("ZONKCAM_LEAGUE_HOSTS", "a b")
    assert main(["league", "serve", "--db", "postgresql:///x"]) == 2
    assert "'a b' is not a DNS name" in capsys.readouterr().err


# A colors6 game (red, green, white dice) as an older kiosk recorded it: a blue die.
OLD = ["A throw red:2 green:2 white:2 red:3 green:4 white:6", "A keep 2 2 2", "A throw blue:5 red:1 white:3"]


def test_the_leagues_replay_moves_on_by_recorded_events_an_off_set_colour_included():
    setup = GameSetup(load_variant("colors6"), ("A", "B"))
    at = "2026-11-01T20:00:00"
    replays = Replays()

    def everything():
        raise AssertionError("the cached game should have moved on, not been replayed afresh")

    first = replays.outcome(1, setup, 1, [(OLD[0], at)], lambda: [(OLD[0], at)])
    assert first.problem is None and first.current == "A"
    after = replays.outcome(1, setup, 2, [(line, at) for line in OLD[1:]], everything)
    whole = Game.replay(setup, [parse_action(line, setup.players, at) for line in OLD])
    assert after.problem is None and after.to_json() == outcome_of(whole).to_json()
    assert whole.live.turn.last.dice[0].color == "blue"  # the log really holds the off-set colour


def test_a_league_game_whose_log_does_not_load_stops_the_kiosk_instead_of_a_new_game(tmp_path, monkeypatch,
                                                                                      capsys):
    """The league is unreachable (a closed port on 127.0.0.1), so the kiosk resumes its league game
    offline; that game's log has a line this zonkcam cannot read (a newer one wrote it)."""
    from zonkcam.hardware.league.kiosk import Links, links_path
    from zonkcam.hardware.league.throwaway import free_port
    from zonkcam.hardware.store import Store
    from zonkcam.models.registry import shipped_model

    if not shipped_model().is_file():
        pytest.skip("no shipped dice model")
    db, url = tmp_path / "z.db", f"http://127.0.0.1:{free_port()}"
    store = Store(db)
    local = store.new_game(GameSetup(load_variant("albany"), ("Ann", "Eve", "Ida")))
    store.db.execute("INSERT INTO actions (game_id, seq, at, line) VALUES (?, 1, ?, ?)",
                     (local, "2026-11-26T20:00:00", "Eve frobnicate 3"))
    store.db.commit()
    store.close()
    Links(links_path(db)).add(local, url, "T1", 7)
    monkeypatch.setenv("ZONKCAM_LEAGUE_TOKEN", "not-a-real-token")

    def serve(*args, **kwargs):
        raise AssertionError("the kiosk started serving a game")

    monkeypatch.setattr("uvicorn.run", serve)
    status = main(["play", "--camera", "demo", "--demo-seed", "0",
                   "--league", url, "--table-name", "T1", "--db", str(db),
                   "--port", str(free_port()), "--players", "X,Y"])
    err = capsys.readouterr().err
    assert status == 1, err
    assert "league game 7 (local game 1) does not load" in err and "a stored action cannot be read" in err
    assert "not starting another game" in err and "Traceback" not in err and "not-a-real-token" not in err
    again = Store(db)
    assert again.db.execute("SELECT count(*) FROM games").fetchone()[0] == 1  # no ordinary game made
    assert [line for (line,) in again.db.execute("SELECT line FROM actions")] == ["Eve frobnicate 3"]
