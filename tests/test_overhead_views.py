"""The overhead reader's views of one die, on pictures drawn here: which read a die keeps when
its views disagree (benchmarks/README.md, issue 34, round 15)."""
import numpy as np
import pytest
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.read import Reader
from zonkcam.vision.squares import squared


def probs(value: int, sure: float) -> np.ndarray:
    """Class probabilities ("not a die" first) reading `value` `sure`."""
    out = np.full(7, (1 - sure) / 6, np.float32)
    out[value] = sure
    return out


class Reads:
    """A stand-in classifier: every crop reads `value` `sure`."""

    def __init__(self, model, value: int, sure: float):
        self.crop, self.crop_margin = model.crop, model.crop_margin
        self.read = probs(value, sure)

    def classify(self, crops):
        return np.stack([self.read] * len(crops))


def at_square(square_reads: tuple[int, float], box: float, read: tuple[int, float]) -> Candidate:
    """A 34-px die drawn at (200, 120) on felt, proposed at `box` px 4 px off and read `read`
    there, read again at its square as `square_reads`."""
    reader = Reader(overhead=True)
    reader.reject_threshold = 0.5
    reader.model = Reads(reader.model, *square_reads)
    image = np.full((240, 320, 3), (60, 110, 40), np.uint8)
    image[103:137, 183:217] = 235
    found = [Candidate(Proposal(204, 124, box, box, 0.9), 0.0, probs(*read),
                       np.full((64, 64, 3), 128, np.uint8), None, np.full((40, 40), 0.5, np.float32))]
    out = squared(reader, image, found, 34.0)
    assert len(out) == 1
    p = out[0].proposal  # at the square in every case: the stream measures dice by it
    assert (p.cx, p.cy) == pytest.approx((200, 120), abs=1.5)
    assert p.w == pytest.approx(34, rel=0.1)  # not the proposed size
    return out[0]


def test_a_surer_read_at_a_die_sized_box_is_not_replaced_by_a_less_sure_one_at_the_square():
    # 69015 t7: a six read 0.92 at the proposer's box (1.3 sides), a four 0.73 at its square
    c = at_square((4, 0.73), 44, (6, 0.92))
    assert (c.value, float(c.probs[6])) == (6, pytest.approx(0.92))


def test_the_square_read_replaces_a_die_read_less_surely_or_of_the_same_value():
    assert at_square((4, 0.73), 44, (6, 0.6)).value == 4
    c = at_square((6, 0.73), 44, (6, 0.92))  # the same value: the square's read, as before
    assert float(c.probs[6]) == pytest.approx(0.73)


def test_a_read_at_a_box_about_two_dice_wide_gives_way_to_the_square():
    # 70017 t0: proposed at 2.2 sides, read a one 0.96; its square read the three 0.89
    assert at_square((3, 0.89), 75, (1, 0.96)).value == 3
