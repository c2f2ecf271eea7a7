"""The table app's kiosk features: new game (rules, players, roll-off), albany's turn clock, the
end-of-game summary, statistics, and a camera that goes away and comes back."""
import threading
from datetime import datetime, timedelta
from types import SimpleNamespace

import numpy as np
import pytest
from zonkcam.hardware.cameras import Frame
from zonkcam.hardware.kiosk.app import TableApp
from zonkcam.hardware.kiosk.web import Hub, Refused
from zonkcam.hardware.store import Store
from zonkcam.rules import load_variant
from zonkcam.rules.game import GameSetup
from zonkcam.rules.ruleset import with_option
from zonkcam.vision.dice import Die

IMAGE = np.zeros((48, 64, 3), np.uint8)


def die(value, x=0):
    return Die(value, None, 0.99, 0.9, (x, 0, x + 10, 10), (x + 5, 5), 0.0, "ok")


def event(thrown, flags=()):
    return SimpleNamespace(thrown=[die(v, 20 * i) for i, v in enumerate(thrown)], kept=[], removed=[],
                           flags=list(flags), quorum=True)


def make_app(tmp_path, ruleset=None, players=("Ann", "Bob"), **kw):
    store = Store(tmp_path / "z.db")
    game_id = store.new_game(GameSetup(ruleset or load_variant("wheaton"), players))
    messages = []
    app = TableApp(store, game_id, Hub(), tmp_path / "evidence", on_message=messages.append, **kw)
    app.messages = messages
    return app


def test_new_game_with_players_as_listed(tmp_path):
    app = make_app(tmp_path)
    old = app.game_id
    app.act({"action": "new_game", "ruleset": "variant:colors6", "players": "Cy, Ann", "order": "given"})
    assert app.game_id != old and app.game.order == ["Cy", "Ann"]
    state = app.state()
    assert state["game"]["variant"] == "colors6" and state["turn"]["player"] == "Cy"
    assert state["new_game"]["registry"] == ["Ann", "Bob", "Cy"]
    assert state["new_game"]["ruleset"] == "variant:colors6"
    assert app.evidence_dir.name == str(app.game_id) and app.evidence_dir.is_dir()
    assert app.store.unfinished() == app.game_id  # the newest unfinished game is the one resumed


@pytest.mark.parametrize(("action", "error"), [
    ({"ruleset": "variant:nope", "players": ["A", "B"]}, "unknown ruleset 'variant:nope'"),
    ({"ruleset": "variant:wheaton", "players": ["A", "A"]}, "distinct names"),
    ({"ruleset": "variant:wheaton", "players": 7}, "players must be a list"),
    ({"ruleset": "variant:wheaton", "players": ["A", "bank"]}, "cannot be a Zonk name"),
    ({"ruleset": "variant:wheaton", "players": ["A", "B"], "order": "dealer"}, "order must be"),
    ({"ruleset": "variant:wheaton", "players": ["A"], "order": "rolloff"}, "two or more players"),
])
def test_a_bad_new_game_says_why_and_changes_nothing(tmp_path, action, error):
    app = make_app(tmp_path)
    old = app.game_id
    with pytest.raises(Refused, match=error):
        app.act({"action": "new_game", **action})
    assert app.game_id == old and app.rolloff is None


def test_rolloff_read_by_the_camera_orders_the_new_game(tmp_path):
    app = make_app(tmp_path)
    app.act({"action": "new_game", "ruleset": "variant:wheaton", "players": ["Ann", "Bob", "Cy"],
             "order": "rolloff"})
    assert app.state()["rolloff"]["up"] == "Ann" and app.expecting_throw()
    app.on_throw(event([3]), IMAGE)
    app.on_throw(event([5]), IMAGE)
    app.on_throw(event([2, 6]), IMAGE)  # two dice: not a roll-off throw on a real table
    assert "throw one die" in app.messages[-1] and app.rolloff.up == "Cy"
    app.on_throw(event([5], flags=["lost"]), IMAGE)  # dice-in-play flags mean nothing here
    state = app.state()["rolloff"]
    assert state["rounds"] == [{"Ann": 3, "Bob": 5, "Cy": 5}, {}] and state["up"] == "Bob"
    app.act({"action": "rolloff_throw", "value": "2"})  # typed by the scorekeeper
    app.on_throw(event([6]), IMAGE)
    assert app.rolloff is None and app.state()["rolloff"] is None
    assert app.game.order == ["Cy", "Ann", "Bob"] and "Cy goes first" in app.messages[-1]
    # W3: the roll-off is in the game's log (its dice are no scores), the players keep their seats
    assert app.game.setup.players == ("Ann", "Bob", "Cy") and app.game.current == "Cy"
    assert [str(a) for a in app.store.log(app.game_id)] == [
        "Ann roll 3", "Bob roll 5", "Cy roll 5", "Bob roll 2", "Cy roll 6"]
    assert all(p.score == 0 for p in app.game.players.values())
    with pytest.raises(Refused, match="order of play is settled"):
        app.act({"action": "undo"})
    app.on_throw(event([1, 5, 2, 3, 4]), IMAGE)  # play starts with the winner
    assert str(app.store.log(app.game_id)[-1]).startswith("Cy throw")


@pytest.mark.parametrize(("variant", "seating", "log"), [
    ("classic", ("Ann", "Bob", "Cy"), ["Ann roll 2", "Bob roll 6", "Cy roll 4", "Bob goes first"]),  # C9
    ("colors6", ("Bob", "Cy", "Ann"), []),  # seating rules: the roll-off only seats the players
])
def test_a_rolloff_is_logged_where_the_rules_throw_for_order(tmp_path, variant, seating, log):
    app = make_app(tmp_path)
    app.act({"action": "new_game", "ruleset": f"variant:{variant}", "players": ["Ann", "Bob", "Cy"],
             "order": "rolloff"})
    for value in (2, 6, 4):
        app.act({"action": "rolloff_throw", "value": value})
    assert app.rolloff is None and app.game.order == ["Bob", "Cy", "Ann"] and app.game.current == "Bob"
    assert app.game.setup.players == seating
    assert [str(a) for a in app.store.log(app.game_id)] == log


def test_demo_rolloff_reads_the_leftmost_die_and_can_be_cancelled(tmp_path):
    app = make_app(tmp_path, demo=True)
    old = app.game_id
    app.act({"action": "new_game", "ruleset": "variant:wheaton", "players": ["Ann", "Bob"],
             "order": "rolloff"})
    app.on_throw(event([4, 1, 6]), IMAGE)
    assert app.rolloff.rounds[0] == {"Ann": 4}
    with pytest.raises(Refused, match="face value"):
        app.act({"action": "rolloff_throw", "value": 9})
    app.act({"action": "cancel_rolloff"})
    assert app.rolloff is None and app.game_id == old
    with pytest.raises(Refused, match="no roll-off"):
        app.act({"action": "rolloff_throw", "value": 3})


def test_house_rules_given_to_the_server_and_kept_in_the_store(tmp_path):
    ours = with_option(load_variant("wheaton"), "target", 5000)
    app = make_app(tmp_path, ruleset=with_option(load_variant("classic"), "turn.open_minimum", 350),
                   house_rules={"ours": ours})
    choices = {c["label"]: c["key"] for c in app.state()["new_game"]["rulesets"]}
    assert {"wheaton", "albany", "classic", "detroit", "colors6", "ours"} <= set(choices)
    kept = [label for label in choices if label.endswith(f"(house rules of game {app.game_id})")]
    assert len(kept) == 1 and choices[kept[0]].startswith("house:")
    app.act({"action": "new_game", "ruleset": choices["ours"], "players": ["Ann", "Bob"]})
    assert app.game.ruleset.target == 5000
    app.act({"action": "new_game", "ruleset": choices[kept[0]], "players": ["Ann", "Bob"]})
    assert app.game.ruleset.name == "classic" and app.game.ruleset.turn.open_minimum == 350


def test_albany_league_turn_clock_is_on_the_display(tmp_path):
    league = with_option(load_variant("albany"), "game.league", True)
    store_start = (datetime.now() - timedelta(seconds=50)).isoformat(timespec="seconds")
    store = Store(tmp_path / "z.db")
    game_id = store.new_game(GameSetup(league, ("Ann", "Bob"), started=store_start))
    app = TableApp(store, game_id, Hub(), tmp_path / "evidence", on_message=lambda m: None)
    clock = app.state()["turn"]["clock"]
    # A14: two minutes for the first throw, counted from the start (no action yet): ~50 s used.
    assert clock["limit_s"] == 120 and clock["countdown_s"] == 10 and 49 <= clock["elapsed_s"] <= 60
    assert {"name": "clock", "label": "Turn clock ran out"} in app.state()["penalties"]
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    clock = app.state()["turn"]["clock"]
    assert clock["limit_s"] == 30 and clock["elapsed_s"] < 5  # counted from the throw
    app.act({"action": "penalty", "penalty": "clock"})
    assert app.game.current == "Bob"
    plain = make_app(tmp_path / "plain", ruleset=load_variant("albany"))
    assert plain.state()["turn"]["clock"] is None
    assert "clock" not in [p["name"] for p in plain.state()["penalties"]]


def test_summary_with_gha_and_the_games_statistics(tmp_path):
    app = make_app(tmp_path, ruleset=with_option(load_variant("wheaton"), "target", 1000))
    assert app.state()["summary"] is None
    app.on_throw(event([2, 3, 4, 6, 6]), IMAGE)  # Ann: ZONK
    app.on_throw(event([1, 1, 1, 2, 3]), IMAGE)  # Bob: three 1s
    app.act({"action": "bank"})  # 1000: Bob wins at once
    summary = app.state()["summary"]
    assert summary["winners"] == ["Bob"]
    ann, bob = summary["players"]
    assert (ann["name"], ann["score"], ann["turns"], ann["zonks"], ann["zonk_rate"]) == ("Ann", 0, 1, 1, 1.0)
    assert (bob["score"], bob["turns"], bob["average_turn"], bob["best_turn"]) == (1000, 1, 1000.0, 1000)
    assert bob["faces"] == [3, 1, 1, 0, 0, 0]
    assert summary["gha"] == round((ann["hits"] + bob["hits"]) / 2, 2) and bob["hits"] >= 1
    assert "G.H.A." in summary["text"]


def test_stats_cover_every_game_in_the_store(tmp_path):
    app = make_app(tmp_path)
    app.on_throw(event([2, 3, 4, 6, 6]), IMAGE)
    app.act({"action": "new_game", "ruleset": "variant:wheaton", "players": ["Ann", "Bob"]})
    app.on_throw(event([2, 2, 4, 6, 3]), IMAGE)
    stats = app.stats()
    assert stats["games"] == 2
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    assert ann["all_dice"]["faces"] == [0, 3, 2, 2, 0, 3] and ann["turns"] == 2 and ann["zonks"] == 2


class VanishingCamera:
    """Frames 0..n; after frame `lose_at` it is 'lost' (as `Reconnecting` reports from inside its
    retry loop) and comes back with a new generation."""

    name = "test"

    def __init__(self, app, n=6, lose_at=2):
        self.app, self.n, self.lose_at, self.i, self.generation = app, n, lose_at, 0, 0
        self.states = []

    def read(self):
        if self.i == self.lose_at:
            self.app.camera_status("camera lost: test: stopped delivering frames; retrying in 0.5 s")
            self.states.append(self.app.state()["camera"])
            self.generation += 1
            self.app.camera_status("camera test is back")
        if self.i >= self.n:
            return None
        self.i += 1
        return Frame(IMAGE, self.i / 10, self.i)

    def still(self):
        return IMAGE


class CountingStream:
    def __init__(self, dice, streams):
        self.dice, self.frames, self.expecting, self.last_image = dice, [], True, None
        streams.append(self)

    def feed(self, frame, t, full=None):
        self.frames.append(t)
        return None


def test_a_lost_camera_is_shown_and_the_stream_starts_afresh_when_it_is_back(tmp_path):
    app = make_app(tmp_path)
    camera, streams = VanishingCamera(app), []
    app.run(camera, CountingStream(5, streams), threading.Event(), lambda dice: CountingStream(dice, streams))
    assert camera.states == [{"status": "lost", "demo": False, "message":
                              "camera lost: test: stopped delivering frames; retrying in 0.5 s"}]
    # Frames before the gap went to the first stream, frames after it to a fresh one.
    assert [s.frames for s in streams] == [[0.1, 0.2], [0.3, 0.4, 0.5, 0.6]]
    assert streams[1].dice == 5
    assert app.game.log == [] and app.state()["camera"]["status"] == "ended"


@pytest.mark.parametrize(("polygon", "error"), [
    ([[0, 0], [10, 0]], "3 to 16 corners"),
    ([[0, 0], [10, 0], [10, 999]], "inside the 64x48 picture"),
    ([[0, 0], [10, 0], ["a", 3]], "3 to 16 corners"),
    ("0,0 1,1 2,2", "3 to 16 corners"),
])
def test_a_table_region_from_the_page_is_checked(tmp_path, polygon, error):
    app = make_app(tmp_path)
    with pytest.raises(Refused, match="no picture from the camera"):
        app.act({"action": "table", "polygon": [[0, 0], [10, 0], [10, 10]]})
    app._send_frame(IMAGE)
    with pytest.raises(Refused, match=error):
        app.act({"action": "table", "polygon": polygon})
    assert app.table is None
    answer = app.act({"action": "table", "polygon": [[1, 1], [60, 2], [62, 40], [3, 45]]})
    assert answer["message"] == "table region set (until the kiosk restarts)"
    assert app.state()["table"] == {"frame_size": [64, 48], "polygon": [[1, 1], [60, 2], [62, 40], [3, 45]]}
