"""Dice read unsure or `unreadable` at a settle are read again (`vision.reread`)."""
from dataclasses import replace

import numpy as np
from overhead_helpers import SIDE, die, put, table
from zonkcam.vision.reread import AGAIN, UNSURE, unreadable_read_again, unsure_read_again
from zonkcam.vision.stream import ThrowStream


class ReadsBySize:
    """Reads at a place as the recognizer read seed 64006's four (0.44 sure as a five in the
    proposer's crop): `values[size factor]` at each of the factors of the dice's side."""

    def __init__(self, values: dict[float, int | None]):
        self.values = values
        self.asked: list[tuple[tuple[float, float], float]] = []

    def read(self, image, table=None, size=None):
        raise AssertionError("not read in these tests")

    def read_at(self, image, points, size, table=None):
        self.asked += [(p, size) for p in points]
        value = self.values.get(round(size / SIDE, 2))
        return [] if value is None else [replace(die(*p, value), confidence=0.95) for p in points]


def picture() -> np.ndarray:
    image = table()
    put(image, 60, 60, 0)
    put(image, 160, 100, 10)
    return image


def unsure(value: int, x: float, y: float, confidence: float = 0.44):
    return replace(die(x, y, value), confidence=confidence)


def test_a_die_read_unsure_takes_the_value_both_larger_crops_read():
    reader = ReadsBySize({f: 4 for f in AGAIN})
    dice = [die(60, 60, 2), unsure(5, 160, 100)]
    again = unsure_read_again(dice, picture(), reader.read_at, SIDE)
    assert [(d.value, d.center) for d in again] == [(2, (60, 60)), (4, (160, 100))]
    assert again[1].confidence == 0.95
    # only the unsure die was read again, once a size
    assert [p for p, _ in reader.asked] == [(160, 100)] * len(AGAIN)


def test_reads_that_disagree_or_read_no_die_leave_the_die_as_read():
    for values in ({AGAIN[0]: 4, AGAIN[1]: 6}, {AGAIN[0]: 4, AGAIN[1]: None}):
        dice = [unsure(6, 160, 100)]
        assert unsure_read_again(dice, picture(), ReadsBySize(values).read_at, SIDE) == dice


def test_sure_dice_and_dice_lying_as_at_the_last_settle_are_not_read_again():
    reader = ReadsBySize({f: 4 for f in AGAIN})
    kept = unsure(5, 60, 60)
    dice = [kept, unsure(5, 160, 100, confidence=UNSURE)]
    assert unsure_read_again(dice, picture(), reader.read_at, SIDE, settled=[kept]) == dice
    assert reader.asked == []


def test_the_stream_reads_a_thrown_die_read_unsure_again_at_its_settle():
    reader = ReadsBySize({f: 4 for f in AGAIN})
    stream = ThrowStream(reader, dice_count=2)
    stream._side = SIDE
    then = table()
    put(then, 60, 60, 0)
    stream._settled = (then, [die(60, 60, 2)])  # the two lay there; the five came since
    image = picture()
    stream.last_image = image
    settled = stream._settled_dice([die(60, 60, 2), unsure(5, 160, 100)], [])
    assert sorted(d.value for d in settled) == [2, 4]


class ReadsByPicture:
    """Reads at a place as the recognizer read seed 68019's three, washed out by a lamp
    (`unreadable`, 0.29 sure in the proposer's crop; a three, 0.79 sure, at the dice's size):
    `values[k]` in the k-th picture it is asked about, `unreadable` where None."""

    def __init__(self, values: list[int | None], confidence: float = 0.79):
        self.values, self.confidence = values, confidence
        self.asked: list[tuple[list[tuple[float, float]], float]] = []

    def read(self, image, table=None, size=None):
        raise AssertionError("not read in these tests")

    def read_at(self, image, points, size, table=None):
        value = self.values[len(self.asked)]
        self.asked.append((list(points), size))
        if value is None:
            return [replace(unreadable(*p), confidence=0.27) for p in points]
        return [replace(die(*p, value), confidence=self.confidence) for p in points]


def unreadable(x: float, y: float):
    return replace(die(x, y, 1), value=None, confidence=0.29, status="unreadable")


def test_a_die_read_unreadable_takes_the_value_every_picture_reads_at_the_dice_size():
    reader = ReadsByPicture([3, 3, 3])
    dice = [die(60, 60, 2), unreadable(160, 100)]
    again = unreadable_read_again(dice, [picture()] * 3, reader.read_at, SIDE)
    assert [(d.value, d.status, d.center) for d in again] == [
        (2, "ok", (60, 60)), (3, "ok", (160, 100))]
    assert again[1].confidence == 0.79
    # the unreadable die alone, at the dice's own size, once a picture
    assert reader.asked == [([(160, 100)], SIDE)] * 3


def test_an_unreadable_die_stays_so_unless_every_picture_reads_one_value_surely():
    for values in ([3, 3, None], [3, 5, 3]):
        dice = [unreadable(160, 100)]
        again = unreadable_read_again(dice, [picture()] * 3, ReadsByPicture(values).read_at, SIDE)
        assert again == dice
    # 68006's three read as a one, 0.33 sure, in each picture: `ok` for the reader, not named
    unsure_reads = ReadsByPicture([1, 1, 1], confidence=0.33)
    dice = [unreadable(160, 100)]
    assert unreadable_read_again(dice, [picture()] * 3, unsure_reads.read_at, SIDE) == dice
    kept = unreadable(160, 100)  # lying as at the last settle: judged then
    reader = ReadsByPicture([3, 3, 3])
    assert unreadable_read_again([kept], [picture()] * 3, reader.read_at, SIDE,
                                 settled=[kept]) == [kept]
    assert reader.asked == []


def test_the_stream_reads_a_thrown_die_read_unreadable_again_in_the_quorum_pictures():
    reader = ReadsByPicture([3, 3, 3])
    stream = ThrowStream(reader, dice_count=2)
    stream._side = SIDE
    then = table()
    put(then, 60, 60, 0)
    stream._settled = (then, [die(60, 60, 2)])
    image = picture()
    stream.last_image = image
    stream._pictures.extend([image] * 3)
    settled = stream._settled_dice([die(60, 60, 2), unreadable(160, 100)], [])
    assert [(d.value, d.status) for d in settled] == [(2, "ok"), (3, "ok")]
