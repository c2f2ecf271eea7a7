"""A die a big still's read had found and then lost (issue 36 round 13, the Pi tray): read surely
by the focus beside the dice of the view kept, where that view read none. Generated candidates,
and a still's read with its focus faked."""
from __future__ import annotations

import numpy as np
import pytest
from zonkcam.vision import scales
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.read import Reader
from zonkcam.vision.scales import beside


def die(x: float, y: float, side: float, value: int, sure: float = 0.98) -> Candidate:
    """A candidate read as `value` (0: "not a pip die") this surely, boxed `side` px at (x, y)."""
    probs = np.full(7, (1 - sure) / 6, np.float32)
    probs[value] = sure
    return Candidate(Proposal(x, y, side, side, 0.5), 0.0, probs, np.zeros((4, 4, 3)),
                     np.ones(3), np.zeros((4, 4)))


def rejects(c: Candidate) -> bool:
    return bool(c.probs[0] >= 0.5)


def unsure(c: Candidate) -> bool:
    return not rejects(c) and c.probs[1:].max() < 0.9


def test_the_focus_adds_its_sure_dice_beside_the_view_s_where_it_has_none():
    """Of the focus's dice, only one read surely whose box holds no die of the view kept, in
    no die's box of it, and within 1.5 dice of one, is added: not the view's die read again (a
    centre in its box), a box over two of its dice, an unsure read, a rejected candidate, or a
    die read surely five dice from every die of the view (a logo's glyph)."""
    found = [die(500, 500, 100, 2), die(700, 500, 100, 5), die(600, 620, 300, 0)]
    new = die(820, 500, 100, 1)
    focused = [die(510, 520, 60, 2), die(600, 500, 300, 3), new, die(700, 620, 100, 4, 0.6),
               die(500, 620, 100, 0), die(1200, 500, 100, 6)]
    assert beside(found, focused, rejects, unsure) == [new]
    # a candidate the view rejected is no die: the focus's die there is added
    there = die(600, 610, 100, 6)
    assert beside(found, [there], rejects, unsure) == [there]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def test_a_view_kept_over_its_focus_takes_the_focus_s_sure_die_beside_its_own(reader, monkeypatch):
    """An 8 MP still whose view kept read three dice surely and whose focus read two, one of
    them where the view read none, touching its five: the view is kept (it reads more dice
    surely), with the focus's die beside its dice (before: the view's three alone; the Pi-tray
    proxy's still 048 of seed 37: a one beside a five, read surely by the focus at 97 px)."""
    image = np.zeros((2464, 3280, 3), np.uint8)
    found = [die(600, 1500, 115, 4), die(740, 1430, 115, 5), die(1900, 730, 115, 6)]
    new = die(637, 1380, 97, 1)
    focus_read = [die(745, 1432, 110, 5), new]
    monkeypatch.setattr(scales, "focus", lambda *a, **k: [((400, 1200, 900, 1700), 512)])
    monkeypatch.setattr(reader, "_regions_read", lambda image, where: focus_read)
    kept, focused = reader._focused(image, found, 1280, [])
    assert kept == [*found, new] and focused == focus_read
