"""A thrown die landing by where a picked-up die of its face lay is no kept die knocked, when
the picked-up die was not seen there once the rolling began (seeds 63004, throw 4; 63005, 5)."""
from overhead_helpers import SIDE, die, put, table
from zonkcam.vision.dice import Die
from zonkcam.vision.looks import Look
from zonkcam.vision.stream import ThrowStream
from zonkcam.vision.throws import ThrowTracker

SIX = [Die(v, "white", 0.99, 0.9, (x - 15, y - 15, x + 15, y + 15), (x, y), 10.0, "ok")
       for v, (x, y) in enumerate([(100, 100), (200, 100), (300, 100), (100, 300), (200, 300),
                                   (300, 300)], 1)]


def thrown_by_the_two(stayed):
    """Every die but the 1 picked up and thrown with no settle between; a 2 lands 13 px from
    where the 2 lay (past the match tolerance), turned alike, among three others: (outcome)."""
    t = ThrowTracker(dice_count=6)
    t.settle([], rolled=False)
    t.settle(SIX, rolled=True)
    two = SIX[1]
    landed = Die(2, "white", 0.99, 0.9, two.box, (two.center[0] + 10, two.center[1] + 8), 14.0, "ok")
    thrown = [Die(v, "white", 0.99, 0.9, (0, 0, 30, 30), (150 + 60 * v, 380), 10.0, "ok")
              for v in (3, 4, 5, 6)]
    return t.settle([SIX[0], landed, *thrown], rolled=True, stayed=stayed)


def test_a_die_not_seen_where_it_lay_once_dice_rolled_was_picked_up_not_knocked():
    out = thrown_by_the_two(lambda old: old is not SIX[1])
    assert out.kind == "throw" and out.flags == []
    assert [d.value for d in out.kept] == [1]
    assert sorted(d.value for d in out.thrown) == [2, 3, 4, 5, 6]
    assert sorted(d.value for d in out.removed) == [2, 3, 4, 5, 6]


def test_a_die_seen_where_it_lay_while_dice_rolled_and_moved_since_was_knocked():
    for stayed in (lambda old: True, None):  # None: the caller cannot tell
        out = thrown_by_the_two(stayed)
        assert out.flags == ["knocked"] and sorted(d.value for d in out.kept) == [1, 2]


def test_the_stream_notes_the_dice_seen_where_they_lay_while_dice_roll():
    settled = table()
    put(settled, 60, 60, 0)
    put(settled, 160, 100, 10)
    kept, taken = die(60, 60, 1), die(160, 100, 2)
    rolling = table()  # the two picked up; the one where it lay
    put(rolling, 60, 60, 0)
    for read_here in (True, False):
        stream = ThrowStream(None)
        stream.tracker._on_table = [kept, taken]
        stream._looks = {d: Look.of(settled, d, SIDE) for d in (kept, taken)}
        stream._watch(rolling, read_here)
        assert stream._stayed_put(kept)
        assert stream._stayed_put(taken) is not read_here  # not told from a small stream
