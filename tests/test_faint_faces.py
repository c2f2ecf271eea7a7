"""Faint faces (white pips on white, a lamp's wash) read again stretched (`reread.faint_read_again`).

Drawn dice, read by the shipped model: a white face whose pips are a light grey reads unsure
and wrong (a three as a one, a six as a four) or `unreadable` at every crop the reader and the
stream's other re-reads take; with its face's own span of grey stretched it reads right.
"""
from dataclasses import replace

import cv2
import numpy as np
import pytest
from zonkcam.vision.dice import Die
from zonkcam.vision.faces import faint, stretched
from zonkcam.vision.quorum import vote
from zonkcam.vision.reread import SURE_STRETCHED, faint_read_again, unreadable_read_again, unsure_read_again
from zonkcam.vision.stream import ThrowStream

S = 34  # a die's side, px: the simulator's
AT = (120.0, 100.0)
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def picture(value: int, pip: int, seed: int = 0, body: int = 240) -> np.ndarray:
    """A white die (`body` grey) with pips of grey `pip`, turned 20 degrees, at `AT` on a dark
    tray's floor with sensor noise (`seed`)."""
    rng = np.random.default_rng(seed)
    image = np.clip(np.full((200, 240, 3), 38, np.float32) + rng.normal(0, 3, (200, 240, 1)), 0, 255
                    ).astype(np.uint8)
    s = 4 * S
    face = np.full((s, s, 3), body, np.uint8)
    for px, py in PIPS[value]:
        cv2.circle(face, (round(s / 2 + px * 0.27 * s), round(s / 2 + py * 0.27 * s)),
                   round(0.09 * s), (pip, pip, pip), -1, cv2.LINE_AA)
    face = cv2.GaussianBlur(cv2.resize(face, (S, S), interpolation=cv2.INTER_AREA), (0, 0), 1.0)
    m = cv2.getRotationMatrix2D((S / 2, S / 2), 20, 1.0)
    m[:, 2] += (AT[0] - S / 2, AT[1] - S / 2)
    warped = cv2.warpAffine(face, m, (240, 200))
    mask = cv2.warpAffine(np.full((S, S), 255, np.uint8), m, (240, 200))
    image[mask > 127] = warped[mask > 127]
    return image


@pytest.fixture(scope="module")
def reader():
    from zonkcam.vision.read import Reader

    return Reader(overhead=True)


def settled_as_read(reader, pictures: list[np.ndarray]) -> list[Die]:
    """The die as the stream had it before this rule: the quorum's vote, read again unsure and
    `unreadable` (`reread`'s other two rules)."""
    dice, _ = vote([reader.read(p, None, S).dice for p in pictures])
    dice = unsure_read_again(dice, pictures[-1], reader.read_at, S)
    return unreadable_read_again(dice, pictures, reader.read_at, S)


def test_drawn_faint_faces_read_stretched_take_their_values(reader):
    before, after = [], []
    for value in range(1, 7):
        pictures = [picture(value, 215, seed) for seed in range(3)]
        assert faint(pictures[-1], AT, S)
        dice = settled_as_read(reader, pictures)
        assert len(dice) == 1
        before.append(dice[0].value)
        again = faint_read_again(dice, pictures, reader.read_at, S)
        after.append((again[0].value, again[0].status))
        assert again[0].confidence >= SURE_STRETCHED
        assert again[0].center == dice[0].center and again[0].color == dice[0].color
    assert after == [(v, "ok") for v in range(1, 7)]
    # as read without the rule: the ones, threes, fours, fives and sixes wrong or unread
    assert sum(b != v for b, v in zip(before, range(1, 7), strict=True)) >= 4


def test_the_stream_reads_a_faint_die_again_stretched_at_its_settle(reader):
    pictures = [picture(6, 215, seed) for seed in range(3)]
    dice = settled_as_read(reader, pictures)
    assert dice[0].value != 6  # read as a four, unsure
    stream = ThrowStream(reader, dice_count=1)
    stream._side = S
    stream._pictures.extend(pictures)
    settled = stream._unsure_read_again(dice, pictures[-1], [])
    assert [(d.value, d.status) for d in settled] == [(6, "ok")]


def test_crisp_and_blank_faces_are_not_faint():
    assert not faint(picture(5, 20), AT, S)  # black pips on white
    assert not faint(picture(5, 255, body=255), AT, S)  # washed out to 255: nothing to stretch
    assert faint(picture(5, 225), AT, S)
    # stretched, the faint face spans a die's greys; the floor away from it is as it was
    image = picture(5, 225)
    out = stretched(image, [AT], S)
    inner = cv2.cvtColor(out[90:110, 110:130], cv2.COLOR_BGR2GRAY)
    assert int(inner.max()) - int(inner.min()) > 150
    assert np.array_equal(out[:20, :20], image[:20, :20])


class ReadsByPicture:
    """Reads a stretched picture as `values[k]` (value, confidence) in the k-th picture."""

    def __init__(self, values: list[tuple[int, float]]):
        self.values = values
        self.asked = 0

    def read_at(self, image, points, size, table=None):
        value, confidence = self.values[self.asked]
        self.asked += 1
        return [Die(value, "grey", confidence, 0.9, (0, 0, 1, 1), p, 0.0, "ok") for p in points]


def test_a_faint_die_stays_as_read_unless_every_stretched_picture_reads_one_value_surely():
    pictures = [picture(6, 215, seed) for seed in range(3)]
    unsure = Die(4, "white", 0.43, 0.9, (100, 80, 140, 120), AT, 20.0, "ok")
    for values in ([(6, 0.98), (6, 0.98), (6, 0.85)], [(6, 0.98), (5, 0.95), (6, 0.98)]):
        assert faint_read_again([unsure], pictures, ReadsByPicture(values).read_at, S) == [unsure]
    sure = replace(unsure, confidence=0.95)  # a sure read, and a die lying as at the last settle
    reads = ReadsByPicture([(6, 0.98)] * 3)
    assert faint_read_again([sure], pictures, reads.read_at, S) == [sure]
    assert faint_read_again([unsure], pictures, reads.read_at, S, settled=[unsure]) == [unsure]
    assert reads.asked == 0
    crisp = [picture(6, 20, seed) for seed in range(3)]  # an unsure read of a crisp face
    assert faint_read_again([unsure], crisp, reads.read_at, S) == [unsure]
    assert faint_read_again([unsure], pictures, reads.read_at, S)[0].value == 6
