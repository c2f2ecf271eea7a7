"""Die-sized spots where the picture changed between two settles."""
import cv2
import numpy as np
from overhead_helpers import SIDE, put, table
from zonkcam.vision.changed_spots import changed_spots


def near(spots, x, y):
    return [s for s in spots if np.hypot(s[0] - x, s[1] - y) < SIDE / 3]


def test_a_die_that_came_and_one_that_went_are_spots_under_other_light():
    before = table()
    put(before, 60, 60, 0)
    put(before, 180, 60, 10)
    now = table()
    put(now, 60, 60, 0)
    put(now, 120, 150, 30)
    now = (now * 0.85).astype(np.uint8)  # the light dimmed
    spots = changed_spots(before, now, SIDE)
    assert len(spots) == 2 and near(spots, 180, 60) and near(spots, 120, 150)
    # away from the dice read (the one that went, read at the last settle), one is left
    assert changed_spots(before, now, SIDE, away_from=[(180, 60)]) == near(spots, 120, 150)


def test_a_hand_and_a_strip_along_the_edge_are_no_spot():
    before = table()
    now = table()
    now[40:160, 60:180] = (150, 170, 200)  # a hand, far more than a die's worth
    now[190:196, 10:230] = (30, 60, 90)  # a table edge moved a few pixels: a long strip
    assert changed_spots(before, now, SIDE) == []
    # nor parts of one: a strip wears away, a hand is far more than two dice
    assert changed_spots(before, now, SIDE, split=True) == []


def test_a_die_of_the_tables_grey_but_not_its_colour_is_a_spot():
    wood = np.full((200, 240, 3), (60, 90, 130), np.uint8)  # brown: grey 98
    now = wood.copy()
    corners = cv2.boxPoints(((120, 100), (SIDE, SIDE), 20)).astype(np.int32)
    cv2.fillPoly(now, [corners], (40, 40, 200))  # a red die: grey 88
    assert near(changed_spots(wood, now, SIDE), 120, 100)
