"""The table app: settled throws from the camera become game actions, or a clear refusal."""
from types import SimpleNamespace

import numpy as np
import pytest
from zonkcam.hardware.kiosk.app import TableApp
from zonkcam.hardware.kiosk.web import Hub, Refused
from zonkcam.hardware.store import Store
from zonkcam.rules import load_variant
from zonkcam.rules.game import GameSetup
from zonkcam.vision.dice import Die

IMAGE = np.zeros((48, 64, 3), np.uint8)


def die(value, x=0):
    return Die(value, None, 0.99, 0.9, (x, 0, x + 10, 10), (x + 5, 5), 0.0, "ok")


def event(thrown, kept=(), removed=(), flags=()):
    return SimpleNamespace(thrown=[die(v, 20 * i) for i, v in enumerate(thrown)],
                           kept=[die(v) for v in kept], removed=[die(v) for v in removed],
                           flags=list(flags), quorum=True)


@pytest.fixture
def app(tmp_path):
    store = Store(tmp_path / "z.db")
    game_id = store.new_game(GameSetup(load_variant("wheaton"), ("Ann", "Bob")))
    messages = []
    table = TableApp(store, game_id, Hub(), tmp_path / "evidence", gesture_bank=True,
                     on_message=messages.append)
    table.messages = messages
    return table


def lines(app):
    return [str(a) for a in app.game.log]


def test_throws_keeps_and_gesture_bank_become_actions(app):
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    app.on_throw(event([1, 4, 4], kept=[1, 5], removed=[2, 3, 6]), IMAGE)
    assert lines(app) == ["Ann throw 1 5 2 3 6", "Ann keep 1 5", "Ann throw 1 4 4"]
    # Ann picks every die up while her 250 may be banked: she banks, Bob throws.
    app.on_throw(event([4, 4, 4, 2, 6], removed=[1, 5, 1, 4, 4]), IMAGE)
    assert lines(app)[3:] == ["Ann bank", "Bob throw 4 4 4 2 6"]
    assert app.game.players["Ann"].score == 250
    state = app.state()
    assert state["turn"]["player"] == "Bob" and state["turn"]["options"][0]["points"] == 400
    assert state["sheet"]["rows"][0]["cells"][0]["text"] == "250"


def test_hot_dice_when_every_die_scored_and_was_picked_up(app):
    app.on_throw(event([1, 1, 1, 5, 5]), IMAGE)
    app.on_throw(event([2, 3, 4, 6, 6], removed=[1, 1, 1, 5, 5]), IMAGE)
    assert lines(app) == ["Ann throw 1 1 1 5 5", "Ann keep 1 1 1 5 5", "Ann throw 2 3 4 6 6"]
    assert app.game.live is None and app.game.current == "Bob"  # VANNA


def test_a_die_off_the_table_is_a_spaz(app):
    app.on_throw(event([1, 5, 2, 3, 6], flags=["spaz"]), IMAGE)
    assert lines(app) == ["Ann spaz off_table"]
    assert app.game.current == "Bob"


def test_what_the_game_cannot_accept_is_not_scored_and_says_why(app):
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    app.on_throw(event([1, 4, 4], kept=[2, 3], removed=[1, 5, 6]), IMAGE)  # kept 2 and 3
    assert lines(app) == ["Ann throw 1 5 2 3 6"]
    assert "throw not scored" in app.messages[-1] and "cannot be set aside" in app.messages[-1]
    app.on_throw(event([1, 4, 4, 2, 2, 3]), IMAGE)
    assert lines(app) == ["Ann throw 1 5 2 3 6"]


def test_cocked_die_asks_for_a_rethrow(app):
    app.on_throw(event([1, 5, 2, 3, 6], flags=["cocked"]), IMAGE)
    assert lines(app) == [] and "cocked" in app.messages[-1]


def test_kiosk_actions_bank_correct_undo(app):
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    shown = app.state()["throw"]
    assert shown["id"] == "1" and shown["scored"] and shown["label"] == "Ann's throw #1"
    app.act({"action": "correct", "throw": shown["id"], "die": 2, "value": 3})
    assert lines(app)[-1] == "correct 1 die 2 3"
    assert [str(d) for d in app.game.live.turn.last.dice] == ["1", "5", "3", "3", "6"]
    with pytest.raises(Refused, match="DIAL IN"):
        app.act({"action": "bank"})
    app.act({"action": "undo"})  # retracts the (corrected) throw: Ann throws again
    assert app.game.live is None and app.game.current == "Ann"
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    with pytest.raises(Refused, match="no die 9"):
        app.act({"action": "correct", "throw": app.state()["throw"]["id"], "die": 9, "value": 1})
    with pytest.raises(Refused, match="which throw"):
        app.act({"action": "correct", "die": 0, "value": 1})
    app.act({"action": "penalty", "penalty": "space"})
    assert app.game.current == "Bob"


def test_evidence_of_every_throw_is_linked_from_the_sheet(app):
    app.on_throw(event([2, 3, 4, 6, 6]), IMAGE)  # ZONK
    cell = app.state()["sheet"]["rows"][0]["cells"][0]
    assert cell["text"] == "ZONK" and cell["evidence"] == ["/api/evidence/0-1.jpg"]
    assert app.evidence_jpeg("0-1").startswith(b"\xff\xd8")
    assert app.evidence_jpeg("../x") is None


def test_capture_switch_saves_throws_and_kiosk_corrections_fix_their_labels(tmp_path):
    from zonkcam.models.captures import CaptureSet

    store = Store(tmp_path / "z.db")
    game_id = store.new_game(GameSetup(load_variant("wheaton"), ("Ann", "Bob")))
    captures = CaptureSet(tmp_path / "captures")
    app = TableApp(store, game_id, Hub(), tmp_path / "evidence", captures=captures, model="m1",
                   on_message=lambda m: None)
    logo = Die(None, None, 0.2, 0.0, (150, 0, 160, 10), (155, 5), 0.0, "unreadable")
    app.on_throw(event([1, 5, 2, 3, 6]), np.zeros((48, 200, 3), np.uint8), [logo])
    [name] = captures.names()
    assert captures.meta(name)["model"] == "m1" and len(captures.meta(name)["dice"]) == 6
    assert captures.meta(name)["dice"][5]["rejected"]  # the face it could not read, for review
    app.act({"action": "correct", "throw": app.state()["throw"]["id"], "die": 2, "value": 4})
    meta = captures.meta(name)
    assert meta["reviewed"] and meta["dice"][2]["value"] == 4
    assert (tmp_path / "captures" / "labels" / f"{name}.txt").read_text().split("\n")[2].startswith("3 ")


def test_banners_are_pushed_for_what_a_throw_set_off_but_not_for_an_undo(app):
    published = []
    app.hub.publish = lambda kind, data: published.append((kind, data))
    app.on_throw(event([6, 6, 6, 2, 3]), IMAGE)
    app.on_throw(event([2, 3], kept=[6, 6, 6], removed=[2, 3]), IMAGE)
    banners = [d["text"] for k, d in published if k == "banner"]
    assert banners == ["DEVIL HIT", "BLOADES!"]
    app.act({"action": "undo"})
    assert [d["text"] for k, d in published if k == "banner"] == banners


def test_penalties_fall_on_the_player_named_with_the_turns_lost(app):
    """A13/A15 from the kiosk: a foul on the thrower, 'lose the next turns' on another player."""
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    app.act({"action": "penalty", "penalty": "next", "player": "Bob", "turns": 2})
    assert lines(app)[-1] == "Bob penalty next 2" and app.game.current == "Ann"
    app.act({"action": "penalty", "penalty": "foul", "turns": 1})
    assert lines(app)[-1] == "Ann penalty foul 1"
    with pytest.raises(Refused, match="no player 'Cid'"):
        app.act({"action": "penalty", "penalty": "space", "player": "Cid"})
    with pytest.raises(Refused, match="whole number from 1 to 20"):
        app.act({"action": "penalty", "penalty": "next", "turns": "lots"})
    assert any(p["name"] == "foul" for p in app.state()["penalties"])


def test_the_hits_to_take_are_shown_until_the_next_throw_gives_none(app):
    app.on_throw(event([6, 6, 6, 2, 3]), IMAGE)  # W7: a devil's hit, settled when the turn ends
    assert app.state()["hits_to_take"] == []
    app.on_throw(event([2, 3], kept=[6, 6, 6], removed=[2, 3]), IMAGE)  # BLOADES ends it
    assert app.state()["hits_to_take"] == [{"player": "Ann", "hits": 1}]
    app.on_throw(event([2, 3, 4, 6, 6], removed=[6, 6, 6, 2, 3]), IMAGE)  # Bob: ZONK, no hit
    assert app.state()["hits_to_take"] == []
    assert app.state()["camera"]["demo"] is False


def test_the_bank_button_banks_and_says_why_not(app, monkeypatch):
    """--button N against a stand-in for gpiozero: a press banks, or the page says why not."""
    import sys
    import types

    from zonkcam.hardware.cli.play import _bank_button

    class Button:
        def __init__(self, pin):
            self.pin, self.when_pressed = pin, None

    monkeypatch.setitem(sys.modules, "gpiozero", types.SimpleNamespace(Button=Button))
    _bank_button(17, app)
    assert app.button.pin == 17
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    app.button.when_pressed()  # 150 is short of wheaton's DIAL IN (250)
    assert "bank button:" in app.live.message and "DIAL IN" in app.live.message
    app.on_throw(event([1, 1, 1], kept=[1, 5], removed=[2, 3, 6]), IMAGE)
    app.button.when_pressed()
    assert lines(app)[-1] == "Ann bank"
