"""Dice read unsure at a settle are read again at larger crops (`vision.reread`)."""
from dataclasses import replace

import numpy as np
from overhead_helpers import SIDE, die, put, table
from zonkcam.vision.reread import AGAIN, UNSURE, unsure_read_again
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
