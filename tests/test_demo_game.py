"""The demo plays a real game: each throw decided from the table app's game once the last one
has been scored, through the simulator's live play; and five simulated minutes of it through
the real pipeline (camera -> throw stream -> table app) are scored, never refused."""
import threading
from collections import Counter
from types import SimpleNamespace

import pytest
from zonkcam.hardware import demo
from zonkcam.hardware.demo import DemoPlayer, match, set_colors
from zonkcam.rules import load_variant
from zonkcam.rules.actions import parse_action
from zonkcam.rules.dice import Die
from zonkcam.rules.game import Game, GameSetup
from zonkcam.vision.simulate import SimConfig, SimDie, Simulation, ThrowPlan

PLAYERS = ("Ann", "Bob")
# Ann's turn with 150 set aside and a 5 and a 2 just thrown: one die would be left.
NEARLY_OPEN = ["Ann throw 5 2 3 4 4", "Ann keep 5", "Ann throw 5 2 3 4", "Ann keep 5",
               "Ann throw 5 3 4", "Ann keep 5", "Ann throw 5 2"]


def game(lines, variant="wheaton"):
    setup = GameSetup(load_variant(variant), PLAYERS)
    return Game.replay(setup, [parse_action(line, PLAYERS) for line in lines])


class StandIn:
    """The parts of `TableApp` the player reads, around a game built by hand."""

    def __init__(self, game, gesture_bank=True):
        self.game, self.gesture_bank = game, gesture_bank
        self.pending, self.rolloff = None, None
        self.lock = threading.RLock()
        self.tally: Counter = Counter()
        self.said: list[str] = []
        self.acted: list[dict] = []

    def say(self, text):
        self.said.append(text)

    def act(self, action):
        self.acted.append(action)
        return {"ok": True}

    def state(self):
        return {"new_game": {"ruleset": "variant:wheaton", "players": list(PLAYERS)}}


def table(*values, colors=None):
    """The simulator's view: the last throw's dice as they lie, and the colours it may draw."""
    dice = [SimDie(v, (colors or ["white"] * len(values))[i], 100.0 + 50 * i, 100.0, 0.0)
            for i, v in enumerate(values)]
    return SimpleNamespace(last_thrown=dice, colors=["white", "red", "green", "yellow"])


def player(app, **kw):
    return DemoPlayer(app, p_spaz=kw.pop("p_spaz", 0), p_cocked=kw.pop("p_cocked", 0), **kw)


def test_a_new_turn_throws_the_whole_set_in_its_colours():
    throw = player(StandIn(game([]))).next_throw(table(), 0.0)
    assert throw == ThrowPlan(fresh=True, dice=5, colors=("white",) * 5)
    throw = player(StandIn(game([], "detroit"))).next_throw(table(), 0.0)
    assert throw.fresh and throw.dice == 6
    assert throw.colors == ("red", "red", "white", "white", "green", "green")


def test_the_best_keep_of_the_games_last_throw_stays_on_the_table():
    app = StandIn(game(["Ann throw 1 5 2 3 6"]))
    # the table shows the throw in another order than the game recorded it
    throw = player(app).next_throw(table(2, 6, 1, 3, 5), 0.0)
    assert throw == ThrowPlan(keep=(2, 4))  # the 1 and the 5: 150, three dice left


def test_no_bank_while_the_opening_minimum_blocks_it():
    # 200 with one die left is worth banking, but 250 opens (wheaton's DIAL IN): keep and throw
    app = StandIn(game(NEARLY_OPEN))
    assert app.game.live.turn.bank_blocker() is not None
    assert player(app).next_throw(table(2, 5), 0.0) == ThrowPlan(keep=(1,))


def test_an_opened_player_banks_by_picking_every_die_up():
    opened = ["Ann throw 1 1 1 2 3", "Ann bank", "Bob throw 2 3 4 6 6"]
    app = StandIn(game(opened + NEARLY_OPEN))
    p = player(app)
    assert p.next_throw(table(2, 5), 0.0) == ThrowPlan(fresh=True, dice=5, colors=("white",) * 5)
    assert app.said == ["demo: Ann banks 200"]


def test_without_gesture_banking_a_bank_waits_for_the_button_then_throws_on():
    app = StandIn(game(["Ann throw 1 1 1 2 3"]), gesture_bank=False)  # 1000, two dice left
    p = player(app)
    assert p.next_throw(table(1, 1, 1, 2, 3), 0.0) is None
    assert app.said == ["demo: Ann would bank 1000: press Bank"]
    assert p.next_throw(table(1, 1, 1, 2, 3), demo.BANK_BUTTON_S - 1) is None
    assert p.next_throw(table(1, 1, 1, 2, 3), demo.BANK_BUTTON_S) == ThrowPlan(keep=(0, 1, 2))
    app.tally["scored"] += 1
    assert p.next_throw(table(1, 1, 1, 2, 3), demo.BANK_BUTTON_S + 5) is None  # asks afresh
    assert len(app.said) == 2


def test_hot_dice_pick_every_die_up():
    app = StandIn(game(["Ann throw 1 1 1 5 5"]))
    assert player(app).next_throw(table(1, 5, 1, 5, 1), 0.0).fresh


def test_a_throw_not_scored_is_thrown_again_keeping_what_was_set_aside():
    app = StandIn(game(["Ann throw 1 5 2 3 6"]))
    app.pending = object()
    assert player(app).next_throw(table(4, 4, 2), 0.0) == ThrowPlan()


def test_each_throw_waits_until_the_app_has_processed_the_last():
    app = StandIn(game([]))
    p = player(app)
    assert p.next_throw(table(), 0.0).fresh
    app.game = game(["Ann throw 1 5 2 3 6"])
    assert p.next_throw(table(1, 5, 2, 3, 6), 3.0) is None  # not processed yet
    app.tally["scored"] += 1
    assert p.next_throw(table(1, 5, 2, 3, 6), 3.2) == ThrowPlan(keep=(0, 1))
    # a throw the camera never reported: after a while, the same dice again
    assert p.next_throw(table(1, 4, 4), 6.0) is None
    assert p.next_throw(table(1, 4, 4), 6.0 + demo.PATIENCE_S) == ThrowPlan()
    assert "missed" in app.said[-1]
    assert p.next_throw(table(1, 4, 4), 20.0) is None  # and that one waits afresh


def test_a_finished_game_is_shown_then_a_new_one_starts_with_the_same_players():
    app = StandIn(game(["Ann throw 1 1 1 1 1"]))  # W5: five ones win at once
    assert app.game.over
    p = player(app)
    assert p.next_throw(table(1, 1, 1, 1, 1), 100.0) is None
    assert p.next_throw(table(1, 1, 1, 1, 1), 100.0 + demo.GAME_OVER_S - 1) is None
    app.act = lambda action: (app.acted.append(action), setattr(app, "game", game([])))
    assert p.next_throw(table(1, 1, 1, 1, 1), 100.0 + demo.GAME_OVER_S).fresh
    assert app.acted == [{"action": "new_game", "ruleset": "variant:wheaton",
                          "players": ["Ann", "Bob"], "order": "given"}]
    assert app.said[0].startswith("demo: game over") and app.said[-1] == "demo: a new game, Ann, Bob"


def test_spaz_and_cocked_dice_on_purpose_say_so():
    app = StandIn(game([]))
    throw = player(app, p_spaz=1.0).next_throw(table(), 0.0)
    assert throw.special == "off_table" and throw.fresh
    assert app.said == ["demo: this throw sends a die off the table (SPAZ), on purpose"]
    throw = player(app, p_cocked=1.0).next_throw(table(), 0.0)
    assert throw.special == "cocked" and "cocked, on purpose" in app.said[-1]


def test_a_table_that_lost_track_of_the_turn_banks_or_takes_the_throw_back():
    # a game resumed mid-turn: the table holds none of the game's last throw
    app = StandIn(game(["Ann throw 1 5 2 3 6"]))
    assert player(app).next_throw(table(), 0.0) is None
    assert app.acted == [{"action": "undo"}]
    app = StandIn(game(["Ann throw 1 1 1 5 2"]))  # 1150 may be banked
    assert player(app).next_throw(table(), 0.0).fresh and app.acted == []


def test_set_colours_and_matching_the_games_dice_to_the_table():
    assert set_colors(3, [], ["red", "white"]) == ("white",) * 3
    assert set_colors(2, [], ["red", "green"]) == ("red", "red")
    assert set_colors(3, ["red", "purple", "purple"], ["red", "white", "green"]) == \
        ("red", "white", "white")
    dice = table(5, 1, 5, colors=["red", "green", "green"]).last_thrown
    assert match(dice, [Die(5, "green"), Die(1, "green")]) == [1, 2]
    assert match(dice, [Die(5), Die(5)]) == [0, 2]
    assert match(dice, [Die(3)]) == [0]  # misread by the game: still a die of the table


def test_live_play_keeps_its_colours_and_forgets_frames_played(monkeypatch):
    from zonkcam.vision import simulate

    monkeypatch.setattr(simulate, "LIVE_KEEP", 3)
    sim = Simulation(SimConfig(seed=4, throws=0, p_disturbance=0))
    colors = ("red", "red", "white", "white", "green", "green")
    sim.extend(ThrowPlan(fresh=True, dice=6, colors=colors))
    played = held = 0
    for _ in range(8):
        while sim.next_frame() is not None:
            played += 1
            held = max(held, len(sim._frames))
        assert sorted(d.color for d in sim.kept + sim.last_thrown) == sorted(colors)
        sim.extend(ThrowPlan(keep=(0,)) if len(sim.last_thrown) > 1 else ThrowPlan(fresh=True))
    assert played > 2 * held  # played frames are dropped as it goes
    assert [t["index"] for t in sim.truth["throws"]] == [6, 7, 8]
    sim.extend(ThrowPlan(fresh=True, special="cocked"))
    assert sim.truth["throws"][-1]["flags"] == ["cocked"]


# --- five simulated minutes through the real pipeline ------------------------------------

MINUTES = 5


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["wheaton", "colors6"])
def test_five_minutes_of_demo_play_are_scored_and_legal(tmp_path, variant):
    from zonkcam.models.registry import Registry

    model = Registry().active_path()
    if not model.is_file():
        pytest.skip("no dice model")
    ruleset = load_variant(variant)
    app, demo_player = demo.play_offline(ruleset, tmp_path, model, minutes=MINUTES, seed=1)

    tally = app.tally
    processed = sum(tally.values())
    settled = max(processed, demo_player.throws - 1)  # the last may still be rolling at the end
    assert settled >= 40, (demo_player.throws, tally)
    assert tally["scored"] + tally["spaz"] >= 0.8 * settled, tally
    assert tally["refused"] == 0, tally
    g = app.game
    assert any(r.outcome == "banked" and r.points > 0 for r in g.turns)
    replayed = Game.replay(g.setup, g.log)
    assert {n: p.score for n, p in replayed.players.items()} == {n: p.score for n, p in g.players.items()}
    if ruleset.dice_colors:  # the set's colours are thrown and read back as such
        allowed = Counter(ruleset.dice_colors)
        for action in g.log:
            if action.verb == "throw":
                colors = Counter(token.partition(":")[0] for token in action.args)
                assert not colors - allowed, str(action)
