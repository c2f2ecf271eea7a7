"""Corrections from the kiosk name the throw they are about, so they can never land on another;
a throw that was not scored is scored by entering its die; undo says what it takes back, redo."""
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


def die(value, x=0, color=None, status="ok"):
    return Die(value, color, 0.99, 0.9, (x, 0, x + 10, 10), (x + 5, 5), 0.0, status)


def event(thrown, kept=(), flags=(), cocked=()):
    dice = [die(None if i in cocked else v, 20 * i, status="cocked" if i in cocked else "ok")
            for i, v in enumerate(thrown)]
    return SimpleNamespace(thrown=dice, kept=[die(v) for v in kept], removed=[],
                           flags=[*flags, *(["cocked"] if cocked else [])], quorum=True)


@pytest.fixture
def app(tmp_path):
    store = Store(tmp_path / "z.db")
    game_id = store.new_game(GameSetup(load_variant("wheaton"), ("Dee", "Ann")))
    return TableApp(store, game_id, Hub(), tmp_path / "evidence", gesture_bank=True,
                    on_message=lambda m: None)


def lines(app):
    return [str(a) for a in app.game.log]


def test_entering_a_cocked_die_scores_that_throw_and_touches_no_other(app):
    app.on_throw(event([1, 1, 1, 2, 3]), IMAGE)  # Dee: three 1s
    app.act({"action": "bank"})
    dee_throw = lines(app)[0]
    app.on_throw(event([5, 2, 3, 4, 6], cocked=[1]), IMAGE)  # Ann: a die leans on the rim
    shown = app.state()["throw"]
    assert not shown["scored"] and "cocked" in shown["reason"] and shown["id"].startswith("p")
    assert shown["label"] == "Ann's throw waiting to be scored"
    assert lines(app) == [dee_throw, "Dee bank"]  # nothing recorded for Ann yet
    app.act({"action": "correct", "throw": shown["id"], "die": 1, "value": 2})
    assert lines(app) == [dee_throw, "Dee bank", "Ann throw 5 2 3 4 6"]
    assert app.state()["throw"]["scored"] and app.state()["throw"]["id"] == "3"
    assert app.game.players["Dee"].score == 1000
    assert app.tally == {"scored": 1, "unread": 1}
    # The waiting throw's key is spent: a second tap on the old dialog changes nothing.
    with pytest.raises(Refused, match="no longer waiting"):
        app.act({"action": "correct", "throw": shown["id"], "die": 1, "value": 6})
    assert lines(app)[-1] == "Ann throw 5 2 3 4 6"


def test_a_correction_names_its_throw_and_never_lands_on_a_later_one(app):
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    first = app.state()["throw"]["id"]
    app.on_throw(event([4, 4, 2], kept=[1, 5]), IMAGE)  # Dee: ZONK
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)  # Ann throws; her throw is on the page now
    assert app.state()["throw"]["id"] == "4"
    app.act({"action": "correct", "throw": first, "die": 2, "value": 3})  # Dee's 2 was a 3
    assert lines(app)[-1] == "correct 1 die 2 3"
    assert str(app.game.log[3]) == "Ann throw 1 5 2 3 6"  # Ann's throw as it was
    assert [str(d) for d in app.game.turns[0].turn.last.dice] == ["4", "4", "2"]
    assert [str(d) for d in app.game.live.turn.last.dice] == ["1", "5", "2", "3", "6"]
    # A correction the later actions cannot stand with is refused, and says which.
    with pytest.raises(Refused, match=r"action 2 .*Dee keep 1 5"):
        app.act({"action": "correct", "throw": first, "die": 1, "value": 2})
    with pytest.raises(Refused, match="not a throw that stands"):
        app.act({"action": "correct", "throw": "99", "die": 0, "value": 1})
    with pytest.raises(Refused, match="not a throw that stands"):
        app.act({"action": "correct", "throw": "2", "die": 0, "value": 1})  # a keep


def test_a_throw_left_waiting_is_never_scored_for_the_next_player(app):
    app.on_throw(event([1, 1, 1, 2, 3]), IMAGE)  # Dee: 1000
    app.on_throw(event([5, 2], kept=[1, 1, 1], cocked=[1]), IMAGE)  # a cocked die: waiting
    waiting = app.state()["throw"]["id"]
    app.act({"action": "bank"})  # Dee banks her 1000 instead
    assert app.state()["throw"] is None  # the page no longer offers it
    with pytest.raises(Refused, match="no longer waiting"):
        app.act({"action": "correct", "throw": waiting, "die": 1, "value": 5})
    assert lines(app) == ["Dee throw 1 1 1 2 3", "Dee bank"] and app.game.current == "Ann"


@pytest.mark.parametrize(("action", "error"), [
    ({"throw": "1", "die": 0, "value": 7}, "1 to 6"),
    ({"throw": "1", "die": 0, "value": True}, "1 to 6"),
    ({"throw": "1", "die": -1, "value": 2}, "no die -1"),
    ({"throw": "1", "die": "0", "value": 2}, "no die '0'"),
    ({"throw": "1", "die": 0}, "face or colour"),
    ({"throw": "1", "die": 0, "color": "<b>red"}, "not a colour"),
    ({"throw": "1", "die": 0, "color": 3}, "not a colour"),
    ({"throw": ["1"], "die": 0, "value": 2}, "which throw"),
])
def test_a_malformed_correction_says_why_and_changes_nothing(app, action, error):
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    with pytest.raises(Refused, match=error):
        app.act({"action": "correct", **action})
    assert lines(app) == ["Dee throw 1 5 2 3 6"]


def test_after_a_rethrow_the_dice_set_aside_are_read_from_the_turn(app):
    """A cocked throw between a keep and the next throw leaves the keep as it was."""
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    app.on_throw(event([4, 4, 2], kept=[1, 5], cocked=[2]), IMAGE)  # Dee kept 1 5; a die cocked
    assert lines(app) == ["Dee throw 1 5 2 3 6"]
    app.on_throw(event([4, 4, 1], kept=[1, 5]), IMAGE)  # thrown again, the 1 and 5 still aside
    assert lines(app) == ["Dee throw 1 5 2 3 6", "Dee keep 1 5", "Dee throw 4 4 1"]
    app.on_throw(event([2, 3], kept=[1, 5, 1]), IMAGE)  # and the 1 set aside too
    assert lines(app)[3:] == ["Dee keep 1", "Dee throw 2 3"]


def test_undo_says_what_it_takes_back_and_redo_puts_it_back(app):
    app.on_throw(event([1, 1, 1, 2, 3]), IMAGE)
    app.act({"action": "bank"})
    assert app.state()["undo"] == {"label": "Dee's bank"} and app.state()["redo"] is None
    answer = app.act({"action": "undo"})
    assert answer["message"] == "took back: Dee's bank" and app.game.live.player == "Dee"
    assert app.state()["redo"] == {"label": "Dee's bank"}
    assert app.act({"action": "redo"})["message"] == "done again: Dee's bank"
    assert app.game.players["Dee"].score == 1000 and app.state()["redo"] is None
    app.act({"action": "undo"})
    app.on_throw(event([4, 1], kept=[1, 1, 1]), IMAGE)  # a new action: nothing left to redo
    assert lines(app)[-1] == "Dee throw 4 1"
    with pytest.raises(Refused, match="nothing to redo"):
        app.act({"action": "redo"})


def test_an_unfinished_game_is_left_and_resumed_from_the_page(app):
    app.on_throw(event([1, 1, 1, 2, 3]), IMAGE)
    first = app.game_id
    app.act({"action": "new_game", "ruleset": "variant:classic", "players": ["Cy", "Bo"]})
    assert [g["id"] for g in app.state()["unfinished"]] == [first]
    app.act({"action": "resume", "game": first})
    assert app.game_id == first and app.game.live.player == "Dee"
    with pytest.raises(Refused, match="no unfinished game"):
        app.act({"action": "resume", "game": 12345})


def test_the_page_says_what_bank_would_add_and_why_it_cannot(app):
    app.on_throw(event([1, 5, 2, 3, 6]), IMAGE)
    turn = app.state()["turn"]
    assert turn["bank_adds"] is None and "DIAL IN" in turn["bank_blocker"]
    assert turn["best"] == {"points": 150, "combos": ["single 1", "single 5"]}
    app.on_throw(event([1, 1, 4], kept=[1, 5]), IMAGE)
    turn = app.state()["turn"]
    assert turn["bank_adds"] == 350 and turn["can_bank"] and turn["bank_blocker"] is None
    state = app.state()
    assert state["players"][0] == {"name": "Dee", "score": 0, "hits": 0, "to_target": 10_000,
                                   "current": True}
    assert state["legend"][0] == {"mark": "¶", "meaning": "a hit"}  # wheaton's, W18
    assert {"mark": "»", "meaning": "straight hit"} in state["legend"]


def test_any_printable_name_plays_and_survives_a_restart(tmp_path):
    """Names are data in typed actions, quoted in the log: spaces, quotes, a newline."""
    store = Store(tmp_path / "z.db")
    names = ("Mary Ann", 'Bo "the dice" B', "Line\nBreak")
    game_id = store.new_game(GameSetup(load_variant("wheaton"), names))
    app = TableApp(store, game_id, Hub(), tmp_path / "evidence", on_message=lambda m: None)
    app.on_throw(event([1, 1, 1, 2, 3]), IMAGE)
    app.act({"action": "bank"})
    app.on_throw(event([5, 5, 5, 2, 3]), IMAGE)
    app.act({"action": "penalty", "penalty": "next", "player": names[2], "turns": 1})
    resumed = Store(tmp_path / "z.db").game(game_id)
    assert resumed.players["Mary Ann"].score == 1000 and resumed.current == names[1]
    assert [a.player for a in resumed.log] == [names[0], names[0], names[1], names[2]]
