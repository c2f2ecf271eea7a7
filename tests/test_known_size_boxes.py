"""A live table's reader, the dice's size known: a die the proposer boxes far over that size is
boxed at its square (issue 36 round 14: 60-px dice boxed 1.6-1.9 times, 91002 f1199)."""
import numpy as np
import pytest
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.read import Reader


def probs(value: int, sure: float) -> np.ndarray:
    """Class probabilities ("not a die" first) reading `value` `sure`."""
    out = np.full(7, (1 - sure) / 6, np.float32)
    out[value] = sure
    return out


class Reads:
    """A stand-in classifier: every crop reads a two, surely."""

    def __init__(self, model):
        self.crop, self.crop_margin = model.crop, model.crop_margin

    def classify(self, crops):
        return np.stack([probs(2, 0.95)] * len(crops))


def tray_of_dice(centres: list[tuple[int, int]], side: int = 60) -> np.ndarray:
    """A dark tray below a light wooden wall (rows 0-74), light dice of `side` px at `centres`,
    each with two dark pips."""
    image = np.full((480, 640, 3), 30, np.uint8)
    image[:75] = (110, 140, 170)  # wood, BGR
    h = side // 2
    for x, y in centres:
        image[y - h:y + h, x - h:x + h] = 215
        for px, py in ((x + h // 2, y - h // 2), (x - h // 2, y + h // 2)):
            image[py - 4:py + 4, px - 4:px + 4] = 60
    return image


def test_a_die_boxed_near_twice_its_known_size_by_the_wall_is_boxed_at_its_square():
    # the proposer's boxes as 91002 f1199's: every die 1.8-1.9 times
    centres, boxes = [(333, 112), (200, 300), (400, 300), (520, 200)], [110, 108, 112, 115]
    image = tray_of_dice(centres)
    found = [Candidate(Proposal(x + 2, y + 3, b, b, 0.9), 0.0, probs(2, 0.95),
                       np.full((64, 64, 3), 128, np.uint8), None, np.full((40, 40), 0.5, np.float32))
             for (x, y), b in zip(centres, boxes, strict=True)]
    reader = Reader(overhead=True)
    reader.reject_threshold = 0.5
    reader.model = Reads(reader.model)
    reader._zoomed = lambda image, size: (found, None)  # the proposer's boxes, as given
    out = reader.candidates(image, 60.0)
    by_wall = min(out, key=lambda c: np.hypot(c.proposal.cx - 333, c.proposal.cy - 112))
    assert by_wall.proposal.size == pytest.approx(60, rel=0.1)  # not 110: the stream's side
    assert (by_wall.proposal.cx, by_wall.proposal.cy) == pytest.approx((333, 112), abs=2)
