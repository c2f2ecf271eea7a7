"""The display's web server: access rules, actions, the pushed event stream."""
import json
import threading

import pytest
from starlette.testclient import TestClient
from zonkcam.hardware.kiosk import web
from zonkcam.hardware.kiosk.web import Hub, Refused, create_app, own_host

LOCAL = ("127.0.0.1", 50000)
LAN = ("192.168.1.23", 50000)


class FakeTable:
    def __init__(self):
        self.actions = []

    def state(self):
        return {"turn": {"player": "Biggles", "total": 400}, "actions": len(self.actions)}

    def act(self, action):
        if action["action"] == "bank" and not self.actions:
            raise Refused("nothing to bank yet")
        self.actions.append(action)
        return {"ok": True}

    def frame_jpeg(self):
        return b"\xff\xd8jpeg" if self.actions else None

    def evidence_jpeg(self, throw_id):
        return b"\xff\xd8evidence" if throw_id == "7" else None

    def stats(self):
        return {"games": 1, "players": [{"name": "Biggles", "turns": len(self.actions)}]}


@pytest.fixture
def table():
    return FakeTable()


def client(table, who, pin="4321", hub=None):
    return TestClient(create_app(table, hub or Hub(), pin=pin), client=who, base_url="http://localhost:8080")


def test_local_kiosk_acts_and_only_its_pairing_shows_the_pin(table):
    with client(table, LOCAL) as c:
        state = c.get("/api/state")
        assert state.json()["access"] == {"can_act": True, "local": True, "lan": True}
        assert "4321" not in state.text
        pairing = c.get("/api/pairing").json()
        assert pairing["pin"] == "4321" and pairing["url"].endswith(":8080/#pin=4321")
        assert pairing["qr_svg"].startswith("<svg") and "path" in pairing["qr_svg"]
        assert c.post("/api/action", json={"action": "undo"}).json() == {"ok": True}
    assert table.actions == [{"action": "undo"}]
    with client(table, LAN) as c:
        assert c.get("/api/pairing").status_code == 403
    with client(table, LOCAL, pin=None) as c:
        assert c.get("/api/pairing").status_code == 404


def test_lan_spectator_cannot_act_without_the_pin(table):
    with client(table, LAN) as c:
        state = c.get("/api/state").json()
        assert state["access"] == {"can_act": False, "local": False, "lan": True}
        assert c.post("/api/action", json={"action": "undo"}).status_code == 403
        wrong = c.post("/api/action", json={"action": "undo"}, headers={"X-Zonkcam-PIN": "0000"})
        assert wrong.status_code == 403
        ok = c.post("/api/action", json={"action": "undo"}, headers={"X-Zonkcam-PIN": "4321"})
        assert ok.status_code == 200
    assert table.actions == [{"action": "undo"}]


def test_without_lan_there_is_no_pin_to_guess(table):
    with client(table, LAN, pin=None) as c:
        r = c.post("/api/action", json={"action": "undo"}, headers={"X-Zonkcam-PIN": ""})
        assert r.status_code == 403


def test_refused_and_malformed_actions_say_why(table):
    with client(table, LOCAL) as c:
        r = c.post("/api/action", json={"action": "bank"})
        assert r.status_code == 409 and r.json() == {"error": "nothing to bank yet"}
        json_type = {"Content-Type": "application/json"}
        assert c.post("/api/action", content=b"{not json", headers=json_type).status_code == 400
        assert c.post("/api/action", content=b'{"action": "bank"}').status_code == 415
        assert c.post("/api/action", json=["bank"]).status_code == 400


def test_pages_frames_and_evidence(table):
    with client(table, LOCAL) as c:
        assert "<title>zonkcam</title>" in c.get("/").text
        assert c.get("/spectator").status_code == 200
        assert c.get("/static/app.js").status_code == 200
        assert c.get("/static/..%2Fweb.py").status_code == 404
        assert c.get("/api/frame.jpg").status_code == 404
        c.post("/api/action", json={"action": "undo"})
        assert c.get("/api/frame.jpg").content.startswith(b"\xff\xd8")
        assert c.get("/api/evidence/7.jpg").content == b"\xff\xd8evidence"
        assert c.get("/api/evidence/8.jpg").status_code == 404


def test_event_stream_pushes_state_then_published_updates(table):
    hub = Hub()
    with client(table, LAN, hub=hub) as c, c.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        assert next(lines) == "event: state"
        assert json.loads(next(lines).removeprefix("data: "))["turn"]["player"] == "Biggles"
        assert next(lines) == ""
        # The app thread publishes; wait until the stream has subscribed.
        threading.Thread(target=lambda: _publish_when_subscribed(hub)).start()
        assert next(lines) == "event: banner"
        assert json.loads(next(lines).removeprefix("data: ")) == {"text": "ZONK!"}


def _publish_when_subscribed(hub):
    import time

    for _ in range(200):
        if hub.subscribers:
            break
        time.sleep(0.01)
    hub.publish("banner", {"text": "ZONK!"})


def test_statistics_page_and_json(table):
    with client(table, LAN) as c:
        assert "statistics" in c.get("/stats").text
        assert c.get("/static/stats.js").status_code == 200
        table.actions.append({"action": "undo"})
        assert c.get("/api/stats").json() == {"games": 1, "players": [{"name": "Biggles", "turns": 1}]}


LAN_PHONE = ("127.0.0.2", 50001)  # another machine, as far as the server can tell


def test_a_phone_unlocks_with_the_pin_and_a_guesser_is_locked_out(table):
    with client(table, LAN_PHONE) as c:
        assert c.post("/api/unlock", json={}, headers={"X-Zonkcam-PIN": "4321"}).json() == {"ok": True}
        for guess in ("0000", "1111", "2222", "3333", "4444"):
            r = c.post("/api/unlock", json={}, headers={"X-Zonkcam-PIN": guess})
            assert r.status_code == 403 and r.json() == {"error": "wrong PIN"}
        # Five misses a minute: even the right PIN waits now, so 10,000 PINs take days.
        locked = c.post("/api/action", json={"action": "undo"}, headers={"X-Zonkcam-PIN": "4321"})
        assert locked.status_code == 429 and "wait" in locked.json()["error"]
    assert table.actions == []


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_each_lockout_of_an_address_lasts_twice_the_one_before():
    clock = Clock()
    guard = web.PinGuard(clock=clock)
    for lockout in (60, 120, 240):
        for _ in range(5):
            assert not guard.locked("a")
            guard.miss("a")
        assert guard.locked("a") and not guard.locked("b")
        clock.now += lockout - 1
        assert guard.locked("a")
        clock.now += 1
        assert not guard.locked("a")


def test_many_addresses_guess_no_faster_than_a_few_and_a_pin_holds_for_days():
    """An attacker with an address per guess, guessing whenever the guard lets it: the guesses
    that are even looked at in a simulated day are few enough that a six-digit PIN is found,
    on average, only after more than a day."""
    clock = Clock()
    guard = web.PinGuard(clock=clock)
    tried = 0
    for n in range(24 * 3600):  # one guess a second from a fresh address, for a day
        clock.now = float(n)
        address = f"10.0.{n // 250 % 250}.{n % 250}"
        if not guard.locked(address):
            tried += 1
            guard.miss(address)
    expected_days = 1_000_000 / 2 / tried
    assert tried <= 20 * 24 * 60 and expected_days > 1


def test_another_web_page_cannot_act_even_on_the_kiosk_itself(table):
    with client(table, LOCAL) as c:
        hostile = c.post("/api/action", json={"action": "undo"}, headers={"Origin": "http://evil.example"})
        assert hostile.status_code == 403
        # A form or a no-cors fetch cannot send JSON: a plain-text body is not an action.
        plain = c.post("/api/action", content=b'{"action": "undo"}', headers={"Content-Type": "text/plain"})
        assert plain.status_code == 415
        own = c.post("/api/action", json={"action": "undo"}, headers={"Origin": "http://localhost:8080"})
        assert own.status_code == 200
    assert table.actions == [{"action": "undo"}]


def test_the_throw_on_the_table_is_served_from_the_frame_it_was_read_from(table):
    table.throw_jpeg = lambda key: b"\xff\xd8throw" if key == "p3" else None
    with client(table, LOCAL) as c:
        assert c.get("/api/throw/p3.jpg").content == b"\xff\xd8throw"
        assert c.get("/api/throw/4.jpg").status_code == 404


def test_every_answer_forbids_framing_injected_script_sniffing_and_referrers(table):
    with client(table, LOCAL) as c:
        for path in ("/", "/api/state", "/static/app.js", "/static/none.js"):
            headers = c.get(path).headers
            policy = headers["content-security-policy"]
            assert "frame-ancestors 'none'" in policy and "script-src 'self';" in policy, path
            assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"  # the phone's address carries the PIN


def test_a_page_under_another_name_reads_nothing_dns_rebinding(table):
    with TestClient(create_app(table, Hub(), pin="4321"), client=LOCAL,
                    base_url="http://evil.example:8080") as c:
        assert c.get("/api/state").status_code == 421
        assert c.post("/api/action", json={"action": "undo"}).status_code == 421
    for host in ("localhost:8080", "127.0.0.1:8080", "[::1]:8080", "192.168.1.23:8080"):
        assert own_host(host), host
    assert not own_host("evil.example:8080") and not own_host(None)
    assert table.actions == []


def test_oversized_and_deeply_nested_actions_are_refused(table, monkeypatch):
    with client(table, LOCAL) as c:
        big = c.post("/api/action", json={"action": "undo", "pad": "x" * 20_000})
        assert big.status_code == 413
        deep = b'{"action": "undo", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}"  # past the parser's depth
        nested = c.post("/api/action", content=deep, headers={"Content-Type": "application/json"})
        assert nested.status_code == 400
        monkeypatch.setattr(web, "MAX_STREAMS", 0)
        assert c.get("/api/events").status_code == 503
    assert table.actions == []


class HealthyTable(FakeTable):
    def __init__(self, camera="ok"):
        super().__init__()
        self.camera = camera

    def health(self):
        return {"camera": self.camera, "frame_age_s": 0.4}


def test_healthz_answers_anyone_with_no_secret():
    table = HealthyTable()
    app = create_app(table, Hub(), pin="4321")
    # from the LAN without a PIN, under a name the kiosk does not know, from another origin
    with TestClient(app, client=LAN, base_url="http://zonk-table.example:8080") as c:
        r = c.get("/healthz", headers={"Origin": "http://elsewhere.example"})
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "*"
        body = r.json()
        assert set(body) == {"ok", "uptime_s", "camera", "frame_age_s"}
        assert body["ok"] is True and body["camera"] == "ok" and body["frame_age_s"] == 0.4
        assert body["uptime_s"] >= 0 and "4321" not in r.text
        assert c.get("/api/state").status_code == 421  # the rest still refuses a name not its own
        table.camera = "lost"
        assert c.get("/healthz").json()["ok"] is False
    with client(FakeTable(), LOCAL) as c:  # a table that cannot say: still answers
        assert c.get("/healthz").json()["camera"] == "unknown"


def test_the_table_app_reports_its_camera_and_last_frame(tmp_path):
    from zonkcam.hardware.kiosk.app import TableApp
    from zonkcam.hardware.store import Store
    from zonkcam.rules.game import GameSetup
    from zonkcam.rules.ruleset import load_variant

    store = Store(tmp_path / "z.db")
    game = store.new_game(GameSetup(load_variant("wheaton"), ("A", "B")))
    app = TableApp(store, game, Hub(), tmp_path / "evidence")
    assert app.health() == {"camera": "starting", "frame_age_s": None}
    import numpy as np

    app._send_frame(np.zeros((48, 64, 3), np.uint8))
    health = app.health()
    assert health["camera"] == "starting" and 0 <= health["frame_age_s"] < 60


MALFORMED_HOSTS = ["[bad", "[::1", "a:b:c", "", "x" * 5000, "[::1]:80:80", "[nonsense]:80", "a b",
                   "evil\uff0fx", "caf\u00e9", "localhost:http"]


@pytest.mark.parametrize("host", MALFORMED_HOSTS)
def test_a_malformed_host_header_is_a_400_not_a_traceback(table, host, caplog):
    app = create_app(table, Hub(), pin="4321")
    raw = {"Host": host.encode()}  # non-ASCII as the UTF-8 bytes a client like curl sends
    with TestClient(app, client=LOCAL, raise_server_exceptions=True) as c:
        r = c.get("/api/state", headers=raw)
        assert r.status_code == 400 and r.json() == {"error": "malformed Host header"}
        assert c.post("/api/action", json={"action": "undo"}, headers=raw).status_code == 400
        assert c.get("/healthz", headers=raw).status_code == 200
    assert not own_host(host) and table.actions == []
    assert not [rec for rec in caplog.records if rec.exc_info]


def test_a_malformed_origin_is_refused_not_a_traceback(table):
    with client(table, LOCAL) as c:
        r = c.post("/api/action", json={"action": "undo"}, headers={"Origin": "http://[bad"})
        assert r.status_code == 403
    assert table.actions == []


def test_well_formed_hosts_are_read_as_before():
    assert web.host_of("[::1]:8080") == "::1" and web.host_of("LocalHost") == "localhost"
    assert web.host_of("zonk-table.local:80") == "zonk-table.local"
    assert own_host("[::1]") and own_host("10.0.0.7") and not own_host("[::1")
