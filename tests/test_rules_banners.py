"""Banners on the kiosk: what each recorded action set off, in the seeds' words."""
from game_helpers import play, script
from zonkcam.rules.banners import banners
from zonkcam.rules.game import Game


def every_banner(game: Game) -> list[tuple[int, str]]:
    """(action number, banner) for a game's whole log, one action at a time."""
    out, before = [], Game.replay(game.setup, [])
    for k in range(1, len(game.log) + 1):
        after = Game.replay(game.setup, game.log[:k])
        out += [(k, text) for text in banners(before, after)]
        before = after
    return out


def test_w15_the_halftime_show_is_announced_once_and_every_zonk_by_its_name():
    game = play(script("wheaton_w20", "wheaton_halftime"))
    shown = [text for _, text in every_banner(game)]
    assert shown.count("HALFTIME SHOW") == 1
    marks = [r.mark for r in game.turns if r.outcome in ("zonk", "bloades", "vanna")]
    assert marks and sorted(t for t in shown if t.rstrip("!") in set(marks)) == sorted(f"{m}!" for m in marks)


def test_w6_devil_and_w14_magic_number():
    game = play("magic 2 3 3 5 5\nA throw 6 6 6 2 3\nA keep 6 6 6\nA throw 2 3\nB throw 5 3 2 3 5\n",
                "wheaton", "A,B")
    assert [t for _, t in every_banner(game)] == ["DEVIL HIT", "BLOADES!", "MAGIC NUMBER"]


def test_a_zonk_says_its_own_word():
    game = play("A throw 2 3 4 6 6\n", "wheaton", "A,B")
    assert every_banner(game) == [(1, "ZONK!")]


def test_new_hits_counts_what_one_action_gave_per_player():
    from zonkcam.rules.banners import new_hits

    game = play("magic 2 3 3 5 5\nA throw 5 3 2 3 5\nA keep 5 5\nA throw 2 4 6\n", "wheaton", "A,B")
    before, after = Game.replay(game.setup, game.log[:-1]), game
    assert new_hits(before, after) == {"A": 1, "B": 1}  # W14, settled as A's turn ends
    assert new_hits(after, after) == {}
