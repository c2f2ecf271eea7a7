"""A stack whose top face the reader takes for no die: found by its silhouette, two dice short.

86000 t8 (rune55 faces): a washed-out white face on top of a stack, nearer the light, showed no
pip; the reader found no die at the changed spot, the stream counted two dice lost and called
a false SPAZ."""
import numpy as np
from overhead_helpers import SIDE, die, table
from test_live_stacked import scene
from zonkcam.vision.dice import Reading
from zonkcam.vision.stacked import unread_stacks
from zonkcam.vision.stream import ThrowStream

LYING = [die(60, 60), die(60, 140, 2), die(260, 100, 4)]


class ReadsNoDieAtTheSpot:
    """The recognizer: reads the three dice lying alone, and nothing where it is asked to read
    again (a face it cannot read is no die to it)."""

    def read(self, image, table=None, size=None):
        return Reading(image.shape[1], image.shape[0], list(LYING))

    def read_at(self, image, points, size, table=None):
        return []


def _picture(with_stack: bool) -> np.ndarray:
    """`test_live_stacked.scene`'s table: three dice lying, and a stack or a fourth die."""
    return scene(with_stack)[0]


def _decided(image: np.ndarray, dice_count: int):
    """The stream's decision on three still pictures of `image` after a roll, the table empty
    at the last settle, `dice_count` dice in play and none seen leaving."""
    stream = ThrowStream(ReadsNoDieAtTheSpot(), dice_count=dice_count)
    stream._settled = (table(320, 200), [])
    stream._reads = [stream._read(image) for _ in range(3)]
    stream._rolled = True
    return stream._try_decide(1.0)


def test_a_stack_read_as_no_die_two_dice_short_is_a_stack_not_two_dice_lost():
    event = _decided(_picture(with_stack=True), dice_count=5)
    assert event is not None
    assert event.flags == ["stacked"]  # before: ["spaz", "lost"]
    assert sorted(((d.value or 0), d.status) for d in event.thrown) == [
        (0, "stacked"), (1, "ok"), (2, "ok"), (4, "ok")]


def test_a_die_lying_alone_read_as_no_die_is_no_stack():
    # one die's silhouette: two dice short is two dice short
    image = _picture(with_stack=False)
    assert unread_stacks(image, list(LYING), [(160, 100)], [], SIDE, 5) == []


def test_one_die_short_no_unread_spot_is_a_stack():
    image = _picture(with_stack=True)
    assert unread_stacks(image, list(LYING), [(160, 100)], [], SIDE, 4) == []
    assert unread_stacks(image, list(LYING), [(160, 100)], [], SIDE, None) == []
    found = unread_stacks(image, list(LYING), [(160, 100)], [], SIDE, 5)
    assert [(d.value, d.status) for d in found] == [(None, "stacked")]


def test_a_spot_the_reader_read_a_die_at_is_left_to_it():
    image = _picture(with_stack=True)
    assert unread_stacks(image, list(LYING), [(160, 100)], [die(165, 98, 3)], SIDE, 5) == []
