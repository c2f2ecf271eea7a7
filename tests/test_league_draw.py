"""The league's draws and standings (seed 001's match rules, L1-L3) and its games' rules (L4):
pure functions, no database."""
import pytest
from zonkcam.hardware.league.draw import (
    DrawError,
    GameLine,
    Played,
    check_roster,
    first_round,
    second_round,
    standings,
)

PRESENT = {"Reds": ["Ann", "Bob", "Cat"], "Blues": ["Eve", "Fay"], "Greens": ["Ida", "Jo", "Kim", "Lou"]}


def test_rosters_hold_four_to_seven_players():  # L1
    check_roster("Reds", ["A", "B", "C", "D"])
    check_roster("Reds", list("ABCDEFG"))
    for bad in (list("ABC"), list("ABCDEFGH"), ["A", "B", "C", "A"]):
        with pytest.raises(DrawError):
            check_roster("Reds", bad)


def test_first_round_is_games_of_three_one_player_of_each_team():  # L2
    games = first_round(PRESENT)
    assert len(games) == 2  # Blues have two players present: two games, at least two
    assert games == [("Ann", "Eve", "Ida"), ("Fay", "Jo", "Bob")]  # the teams take turns sitting first
    for game in games:
        assert sorted(next(t for t, ps in PRESENT.items() if p in ps) for p in game) == \
            ["Blues", "Greens", "Reds"]
    players = [p for g in games for p in g]
    assert len(players) == len(set(players))


def test_first_round_refuses_what_the_rules_refuse():  # L1, L2
    with pytest.raises(DrawError, match="needs 2"):
        first_round({"Reds": ["Ann", "Bob"], "Blues": ["Eve"], "Greens": ["Ida", "Jo"]})
    with pytest.raises(DrawError, match="3 teams"):
        first_round({"Reds": ["Ann", "Bob"], "Blues": ["Eve", "Fay"]})
    with pytest.raises(DrawError, match="two teams"):
        first_round({"Reds": ["Ann", "Bob"], "Blues": ["Ann", "Fay"], "Greens": ["Ida", "Jo"]})


def test_second_round_takes_each_teams_most_hits_and_one_more_from_the_best_total():  # L3
    lines = [
        Played("Ann", "Reds", 2500, 3), Played("Eve", "Blues", 10150, 7), Played("Ida", "Greens", 4000, 2),
        Played("Fay", "Blues", 3000, 1), Played("Jo", "Greens", 10050, 6), Played("Bob", "Reds", 8000, 5),
    ]
    # Reds: Bob (5 hits); Blues: Eve (7); Greens: Jo (6). Totals: Reds 10500, Blues 13150, Greens 14050:
    # the Greens' next best, Ida, makes four.
    assert second_round(["Reds", "Blues", "Greens"], lines) == ("Bob", "Eve", "Jo", "Ida")


def test_second_round_ties_go_to_the_higher_score_then_the_earlier_player():
    lines = [
        Played("Ann", "Reds", 2500, 3), Played("Eve", "Blues", 5000, 3), Played("Ida", "Greens", 4000, 3),
        Played("Fay", "Blues", 6000, 3), Played("Jo", "Greens", 4000, 3), Played("Bob", "Reds", 2500, 3),
    ]
    # hits tie everywhere: Fay outscores Eve; Ida and Jo tie, Ida was listed first; totals Blues 11000 best
    assert second_round(["Reds", "Blues", "Greens"], lines) == ("Ann", "Fay", "Ida", "Eve")


def test_second_round_waits_for_every_first_round_game():
    lines = [Played("Ann", "Reds", 2500, 3), Played("Eve", "Blues", 10150, 7),
             Played("Ida", "Greens", 4000, 2)]
    with pytest.raises(DrawError, match="first-round game over"):
        second_round(["Reds", "Blues", "Greens"], lines)


def test_standings_count_match_wins_then_games_then_points():
    lines = [
        # match 1: round 1 won by Eve (Blues) and Jo (Greens); round 2 won by Bob (Reds)
        GameLine(1, 1, 1, "Ann", "Reds", 2500, 3, False), GameLine(1, 1, 1, "Eve", "Blues", 10150, 7, True),
        GameLine(1, 1, 1, "Ida", "Greens", 4000, 2, False), GameLine(1, 1, 2, "Fay", "Blues", 3000, 1, False),
        GameLine(1, 1, 2, "Jo", "Greens", 10050, 6, True), GameLine(1, 1, 2, "Bob", "Reds", 8000, 5, False),
        GameLine(1, 2, 3, "Bob", "Reds", 10100, 6, True), GameLine(1, 2, 3, "Eve", "Blues", 9000, 4, False),
        GameLine(1, 2, 3, "Jo", "Greens", 7000, 3, False), GameLine(1, 2, 3, "Ida", "Greens", 500, 0, False),
    ]
    table = standings(["Blues", "Greens", "Reds", "Golds"], lines)
    assert [s.team for s in table] == ["Reds", "Blues", "Greens", "Golds"]  # Blues: more points
    reds, blues, greens, golds = table
    assert (reds.matches, reds.match_wins, reds.games, reds.game_wins, reds.points, reds.hits) == \
        (1, 1, 3, 1, 20600, 14)
    assert (greens.match_wins, greens.games, greens.game_wins, greens.points) == (0, 3, 1, 21550)
    assert (blues.match_wins, blues.game_wins, blues.points) == (0, 1, 22150)
    assert golds.to_json() == {"team": "Golds", "matches": 0, "match_wins": 0, "games": 0, "game_wins": 0,
                               "points": 0, "hits": 0}


def test_l4_a_league_game_is_its_season_variant_with_league_play_on():
    from zonkcam.hardware.league.db import LeagueError, ruleset_for
    from zonkcam.rules.ruleset import ruleset_from_dict

    rules = ruleset_from_dict(ruleset_for("albany", {"target": 5000}))
    assert rules.game.league and rules.target == 5000  # A11 off, A13-A15 and the clock on
    with pytest.raises(LeagueError):
        ruleset_for("albany", {"no.such.option": 1})
