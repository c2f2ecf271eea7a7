"""The demo plays a real game: each throw decided from the table app's game once the last one
has been scored, through the simulator's live play; and five simulated minutes of it through
the real pipeline (camera -> throw stream -> table app) are scored, never refused."""
import threading
from collections import Counter
from types import SimpleNamespace

import pytest
from zonkcam.hardware.kiosk import demo
from zonkcam.hardware.kiosk.demo import DemoPlayer, match, set_colors
from zonkcam.rules import load_variant
from zonkcam.rules.actions import Action, Bank, parse_action
from zonkcam.rules.dice import DieFace
from zonkcam.rules.game import Game, GameSetup
from zonkcam.vision.sim.simulator import SimConfig, SimDie, Simulation, ThrowPlan

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
    assert match(dice, [DieFace(5, "green"), DieFace(1, "green")]) == [1, 2]
    assert match(dice, [DieFace(5), DieFace(5)]) == [0, 2]
    assert match(dice, [DieFace(3)]) == [0]  # misread by the game: still a die of the table


def test_live_play_keeps_its_colours_and_forgets_frames_played(monkeypatch):
    from zonkcam.vision.sim import simulator as simulate

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


# --- whole games: the end of a game, and the decisions it leaves to the table -------------

def table_app(tmp_path, ruleset, players=PLAYERS):
    """The real table app (its store, its umpire, its page actions), saying into a list."""
    from zonkcam.hardware.kiosk.app import TableApp
    from zonkcam.hardware.kiosk.web import Hub
    from zonkcam.hardware.store import Store

    store = Store(tmp_path / "z.db")
    said: list[str] = []
    app = TableApp(store, store.new_game(GameSetup(ruleset, players)), Hub(), tmp_path / "evidence",
                   gesture_bank=True, demo=True, on_message=said.append)
    return app, said


def settle(app, thrown, kept=(), flags=()):
    """A settled throw as the camera reads it: these dice thrown, those still on the table."""
    import numpy as np
    from zonkcam.vision.dice import Die as SeenDie

    def seen(t):
        return SeenDie(t["value"], t["color"], 1.0, 1.0, (0, 0, 1, 1), (0.0, 0.0), 0.0, t["status"])

    event = SimpleNamespace(thrown=[seen(d) for d in thrown], kept=[seen(d) for d in kept],
                            flags=list(flags), quorum=True)
    app.on_throw(event, np.zeros((8, 8, 3), np.uint8))


def play_live(app, player, sim, steps, t=0.0):
    """`steps` decisions of the demo, each throw read back exactly as the simulator threw it
    (the pipeline's reading is `test_five_minutes...`'s business); simulated seconds pass
    between them. Yields after each step: (step, t)."""
    for step in range(steps):
        plan = player.next_throw(sim, t)
        t += 1.0
        if plan is not None:
            sim.extend(plan)
            truth = sim.truth["throws"][-1]
            settle(app, truth["thrown"], truth["kept"], truth["flags"])
            sim._frames.clear()  # the frames are never rendered here
        yield step, t


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seed", "playoff_question"),
                         [("wheaton", 1, False), ("albany", 3, True)])
def test_demo_games_end_and_the_next_one_starts_without_a_person(tmp_path, variant, seed, playoff_question):
    """The last bank of a game is by gesture too: it is recorded (the dice thrown after it are
    nobody's), a question the game leaves to the table (albany seed 3 meets shaharazad's) is
    taken as a scorekeeper would, and the next game starts and plays."""
    ruleset = load_variant(variant)
    app, said = table_app(tmp_path, ruleset)
    p = DemoPlayer(app, seed=seed)
    sim = Simulation(SimConfig(seed=seed, throws=0, dice=ruleset.dice, p_off_table=0, p_cocked=0,
                               p_stacked=0, p_nudge=0, p_knock=0, p_disturbance=0))
    first = app.game_id
    for _ in play_live(app, p, sim, 600):  # a game takes some 150 decisions
        if app.game_id != first and app.game.turns:
            break
    assert app.game_id != first, (dict(app.tally), said[-5:])
    ended = app.store.game(first)
    assert ended.over and ended.winners and isinstance(ended.log[-1], (Bank, Action)), ended.log[-3:]
    assert app.tally["refused"] == 0, said[-5:]
    assert app.game.turns and app.game.log[0].verb == "throw"  # the new game is being played
    assert any("a new game" in s for s in said)
    assert any("past the target: a shaharazad?" in s for s in said) == playoff_question


# Albany without bonus rounds: Ann 9300, Bob 10300, then Ann's rebuttal (A11) throws 1000.
PAST = ["set game.bonus_rounds = []"]
NINE_THOUSAND = ["{p} throw 5 5 5 5 5", "{p} keep 5 5 5 5 5", "{p} throw 4 4 4 4 4", "{p} keep 4 4 4 4 4",
                 "{p} throw 3 3 3 2 4", "{p} bank"]
TEN_THOUSAND = ["{p} throw 1 1 1 1 1", "{p} keep 1 1 1 1 1", "{p} throw 3 3 3 2 4", "{p} bank"]


def without(variant, **game_rules):
    """A variant with some of its game rules changed (house rules)."""
    import dataclasses

    ruleset = load_variant(variant)
    return dataclasses.replace(ruleset, game=dataclasses.replace(ruleset.game, **game_rules))


def at_the_last_bank(tmp_path, ruleset, lines):
    """A game whose next bank, Ann's 1000 (the dice of her last throw: 1 1 1 2 3), takes her
    past the target after `lines`."""
    app, said = table_app(tmp_path, ruleset)
    app.store.record(app.game_id, *[parse_action(line, PLAYERS) for line in [*lines, "Ann throw 1 1 1 2 3"]])
    return app, said


def die_truth(*values):
    colors = ("red", "red", "white", "white", "green")
    return [{"value": v, "color": c, "status": "ok"} for v, c in zip(values, colors, strict=True)]


@pytest.mark.parametrize("playoff", [True, False])
def test_a_bank_that_leads_to_shaharazad_is_recorded_and_the_demo_decides(tmp_path, monkeypatch, playoff):
    monkeypatch.setattr(demo, "P_PLAYOFF", 1.0 if playoff else 0.0)
    # albany with no bonus rounds: Bob past the target, Ann's rebuttal (A11) ties her with him
    lines = [line.format(p="Ann") for line in NINE_THOUSAND] + [line.format(p="Bob") for line in TEN_THOUSAND]
    app, said = at_the_last_bank(tmp_path, without("albany", bonus_rounds=()), lines)
    p = player(app)
    throw = p.next_throw(table(1, 1, 1, 2, 3), 0.0)
    assert throw.fresh and said[-1] == "demo: Ann banks 1000"  # every die picked up, thrown
    settle(app, die_truth(2, 3, 4, 6, 6))
    game = app.game
    assert app.tally == Counter(scored=1) and game.phase == "shaharazad?", said[-1]
    assert game.players["Ann"].score == 10300 and game.log[-1].verb == "bank"
    # the question stays on the page a while, then the table's answer is given on it
    assert p.next_throw(table(2, 3, 4, 6, 6), 1.0) is None
    assert "Ann and Bob are past the target: a shaharazad?" in said[-1]
    assert p.next_throw(table(2, 3, 4, 6, 6), 1.0 + demo.DECIDE_S) is None
    game = app.game
    if playoff:
        assert said[-1] == "demo: Bob asks for a shaharazad and Ann accepts: a play-off to 2500"
        assert game.phase == "play" and game.current == "Ann" and game.playoff == {"Ann": 0, "Bob": 0}
        assert p.next_throw(table(2, 3, 4, 6, 6), 10.0).fresh  # the play-off is played
    else:
        assert said[-1] == "demo: nobody asks for a shaharazad: the game ends"
        assert game.over and game.winners == ["Ann", "Bob"]
        ended = app.game_id
        assert p.next_throw(table(2, 3, 4, 6, 6), 10.0) is None  # game over, shown a while
        assert p.next_throw(table(2, 3, 4, 6, 6), 10.0 + demo.GAME_OVER_S).fresh
        assert app.game_id != ended and app.game.ruleset == game.ruleset  # the same house rules


def test_a_game_ending_bank_by_gesture_records_the_bank_alone(tmp_path):
    # wheaton with no halftime round: 9300 + 1000 banked ends the game at once (first past)
    lines = [line.format(p="Ann") for line in NINE_THOUSAND] + ["Bob throw 2 2 3 3 6"]
    app, said = at_the_last_bank(tmp_path, without("wheaton", halftime=0), lines)
    settle(app, die_truth(2, 3, 4, 6, 6))  # every die picked up and thrown
    game = app.game
    assert game.over and game.winners == ["Ann"] and game.log[-1].verb == "bank", said
    assert app.tally == Counter(scored=1)


def test_a_throw_refused_again_and_again_brings_the_scorekeeper_in():
    app = StandIn(game(["Ann throw 1 1 1 2 3"]))  # 1000 may be banked
    app.pending = SimpleNamespace(reason="nobody is up")
    p = player(app)
    for i in range(demo.RETRIES):
        assert p.next_throw(table(1, 1, 1, 2, 3), float(i)) == ThrowPlan()
        app.tally["refused"] += 1
    assert p.next_throw(table(1, 1, 1, 2, 3), 9.0) is None
    assert app.acted == [{"action": "bank"}] and "steps in: bank" in app.said[-1]
