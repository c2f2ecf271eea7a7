"""Table statistics: face counts and chi-square fairness, zonk rates, average turns."""
import math

import pytest
from zonkcam.hardware.store import Store
from zonkcam.rules import load_variant
from zonkcam.rules.game import GameSetup
from zonkcam.rules.ruleset import with_option
from zonkcam.rules.stats import TableStats, add_game, chi2_sf, fairness


def pdf(x, k):
    return x ** (k / 2 - 1) * math.exp(-x / 2) / (2 ** (k / 2) * math.gamma(k / 2))


def integrated_sf(x, k, upper=200.0, steps=20000):
    """P(X >= x) by Simpson's rule over the density: an independent check of the closed form."""
    h = (upper - x) / steps
    s = pdf(x, k) + pdf(upper, k)
    s += sum((4 if i % 2 else 2) * pdf(x + i * h, k) for i in range(1, steps))
    return s * h / 3


@pytest.mark.parametrize(("x", "k"), [(11.0705, 5), (3.841459, 1), (5.991465, 2), (7.814728, 3)])
def test_chi2_sf_at_the_five_percent_critical_values(x, k):
    assert chi2_sf(x, k) == pytest.approx(0.05, abs=1e-6)


@pytest.mark.parametrize(("x", "k"), [(1.0, 5), (8.2, 5), (20.0, 5), (4.5, 4), (2.5, 3), (30.0, 7)])
def test_chi2_sf_matches_the_integrated_density(x, k):
    assert chi2_sf(x, k) == pytest.approx(integrated_sf(x, k), rel=1e-6)


def test_chi2_sf_edges():
    assert chi2_sf(0.0, 5) == 1.0
    with pytest.raises(ValueError, match="degrees of freedom"):
        chi2_sf(1.0, 0)


def test_fairness_of_counts_worked_by_hand():
    # 60 throws, 10 expected per face: (20-10)^2/10 + 5 * (8-10)^2/10 = 10 + 2 = 12
    result = fairness([20, 8, 8, 8, 8, 8])
    assert result.n == 60 and result.chi2 == pytest.approx(12.0) and result.enough
    assert result.p == pytest.approx(chi2_sf(12.0, 5)) and result.p < 0.05
    assert fairness([10] * 6).chi2 == 0 and fairness([10] * 6).p == 1.0
    assert fairness([0] * 6).p is None
    with pytest.raises(ValueError, match="6 face counts"):
        fairness([1, 2, 3])


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "z.db")
    yield s
    s.close()


def record(store, game_id, *lines):
    for line in lines:
        store.record(game_id, line)


def test_two_games_one_archived_one_going(store):
    # Game 1 ends at once: Ann's 1000 reaches the (lowered) target.
    first = store.new_game(GameSetup(with_option(load_variant("wheaton"), "target", 1000), ("Ann", "Bob")))
    record(store, first, "Ann throw 1 1 1 2 3", "Ann bank")
    assert store.game(first).over
    # Game 2: Bob zonks, Ann banks 150 after an undone misread, Bob's turn is still going.
    second = store.new_game(GameSetup(load_variant("wheaton"), ("Bob", "Ann")))
    record(store, second, "Bob throw 2 3 4 6 6", "Ann throw 6 6 6 6 6", "undo",
           "Ann throw 1 5 2 3 3", "Ann keep 1 5", "Ann throw 1 2 4", "Ann keep 1",
           "Ann throw 2 2", "Bob throw 5 5 2 3 4")  # Ann's 2 2 scores nothing: BLOADES
    stats = store.stats().to_json()
    assert stats["games"] == 2 and stats["skipped"] == []
    ann, bob = stats["players"]
    assert [ann["name"], bob["name"]] == ["Ann", "Bob"]
    # Ann's dice: 1 1 1 2 3 | 1 5 2 3 3 | 1 2 4 | 2 2 (the undone 6s do not count)
    assert ann["all_dice"]["faces"] == [5, 5, 3, 1, 1, 0]
    # Bob's: 2 3 4 6 6 | 5 5 2 3 4
    assert bob["all_dice"]["faces"] == [0, 2, 2, 2, 2, 2]
    assert [d["color"] for d in ann["dice"]] == ["any"]
    # Bob: one finished turn, a zonk (his second turn is still going).
    assert (bob["turns"], bob["zonks"], bob["zonk_rate"], bob["average_turn"]) == (1, 1, 1.0, 0.0)
    assert bob["games"] == 2


def test_turns_zonks_and_average_by_hand(store):
    game = store.new_game(GameSetup(load_variant("wheaton"), ("Ann", "Bob")))
    record(store, game,
           "Ann throw 1 1 1 2 3", "Ann bank",          # 1000
           "Bob throw 2 3 4 6 6",                      # zonk
           "Ann throw 5 2 3 4 4", "Ann keep 5", "Ann throw 2 3 4 6",  # BLOADES
           "Bob throw 1 5 2 2 3", "Bob keep 1 5",
           "Bob throw 1 2 3", "Bob bank")             # 100 + 50 + 100 = 250: dials in
    stats = add_game(TableStats(), store.game(game))
    ann, bob = stats.players["Ann"], stats.players["Bob"]
    assert (ann.turns, ann.zonks, ann.points, ann.best_turn) == (2, 1, 1000, 1000)
    assert ann.zonk_rate == 0.5 and ann.average_turn == 500
    assert (bob.turns, bob.zonks, bob.points) == (2, 1, 250)
    assert bob.average_turn == 125


def test_colours_are_counted_apart_and_together(store):
    game = store.new_game(GameSetup(load_variant("colors6"), ("Ann", "Bob")))
    record(store, game, "Ann throw red:5 green:2 white:3 red:4 green:6 white:6")
    game2 = store.new_game(GameSetup(load_variant("colors6"), ("Bob", "Ann")))
    record(store, game2, "Bob throw red:5 red:5 green:2 green:3 white:6 white:4")
    stats = store.stats().to_json()
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    assert {d["color"]: d["faces"] for d in ann["dice"]} == {
        "green": [0, 1, 0, 0, 0, 1], "red": [0, 0, 0, 1, 1, 0], "white": [0, 0, 1, 0, 0, 1]}
    colors = {c["color"]: c["faces"] for c in stats["colors"]}
    assert colors["red"] == [0, 0, 0, 1, 3, 0]
    assert colors["green"] == [0, 2, 1, 0, 0, 1]
    assert colors["white"] == [0, 0, 1, 1, 0, 2]
    # red: 4 dice, expected 4/6 each: sum c^2 / e - n = (1 + 9) * 6/4 - 4 = 11
    red = next(c for c in stats["colors"] if c["color"] == "red")
    assert red["chi2"] == pytest.approx(11.0) and not red["enough"]
    assert red["p"] == pytest.approx(round(chi2_sf(11.0, 5), 4))


def test_a_game_that_no_longer_replays_is_reported_not_fatal(store):
    game = store.new_game(GameSetup(load_variant("wheaton"), ("Ann", "Bob")))
    record(store, game, "Ann throw 1 1 1 2 3")
    store.db.execute("UPDATE actions SET line = 'Ann throw 9 9' WHERE game_id = ?", (game,))
    stats = store.stats()
    assert stats.games == 0 and len(stats.skipped) == 1 and stats.skipped[0].startswith(f"game {game}:")


def test_add_game_counts_players_games(store):
    game = store.new_game(GameSetup(load_variant("wheaton"), ("Ann", "Bob")))
    stats = add_game(add_game(TableStats(), store.game(game)), store.game(game))
    assert stats.games == 2 and stats.players["Ann"].games == 2 and stats.players["Ann"].turns == 0
