"""A real table's unkindness (issue 34): hands held over the table, dark sleeves, knocked kept
dice, dice off the tray with no table file, and a dark tray's floor found whole."""
from dataclasses import replace

import cv2
import numpy as np
import pytest
from overhead_helpers import paste_turned
from zonkcam.vision.dice import Die, Reading
from zonkcam.vision.geometry import mark_geometry
from zonkcam.vision.motion import MotionConfig, RestDetector
from zonkcam.vision.sim.reader import DrawnDiceReader
from zonkcam.vision.sim.scoring import score
from zonkcam.vision.sim.simulator import SimConfig, Simulation, unkind
from zonkcam.vision.stream import ThrowStream
from zonkcam.vision.table import TableConfig, find_table, region_warnings, resting_spots
from zonkcam.vision.throws import ThrowTracker

FPS = 30.0
SIDE = 34  # px: the dice's side at 640x480


def frame(rng, blob=None, square=None):
    """Dark felt; `blob`: a hand's palm (x, y) free of any arm; `square`: a die's corner."""
    out = np.full((480, 640, 3), 40, np.uint8)
    if square is not None:
        x, y = (int(v) for v in square)
        cv2.rectangle(out, (x, y), (x + SIDE, y + SIDE), (230, 230, 230), -1)
    if blob is not None:
        cv2.ellipse(out, (int(blob[0]), int(blob[1])), (60, 45), 20, 0, 360, (120, 150, 205), -1)
    return np.clip(out + rng.normal(0, 2, out.shape), 0, 255).astype(np.uint8)


def settles(frames):
    det = RestDetector(MotionConfig(settle_s=0.3))
    det.update(frames[0], 0.0)
    det.set_die_side(SIDE, 640)  # the stream tells it once a settle has sized the dice
    ups = [det.update(f, i / FPS) for i, f in enumerate(frames[1:], 1)]
    return [u for u in ups if u.settled]


def test_a_hand_shaking_dice_free_of_the_frame_edge_is_no_roll():
    # a dark sleeve over a dark table: the palm moves on its own, joined to no arm
    rng = np.random.default_rng(0)
    still = [frame(rng) for _ in range(12)]
    shaking = [frame(rng, blob=(320 + 8 * np.sin(i), 240 + 4 * np.cos(i))) for i in range(40)]
    got = settles(still + shaking + still)
    assert len(got) == 2 and not got[-1].rolling


def test_an_arm_of_the_tables_colour_sweeping_over_a_die_at_rest_is_no_roll():
    # the sleeve shows only where it covers the die: a die-sized change, free of any edge
    rng = np.random.default_rng(2)

    def swept(x):
        out = frame(rng, square=(300, 200))
        out[:, max(0, x - 40):max(0, x)] = 40  # the sleeve, the felt's grey
        return out

    frames = [frame(rng, square=(300, 200)) for _ in range(12)]
    frames += [swept(290 + 10 * i) for i in range(12)] + frames[:12]
    det = RestDetector(MotionConfig(settle_s=0.3))
    det.update(frames[0], 0.0)
    det.set_die_side(SIDE, 640)
    det.set_resting([(317, 217)], 640)  # the stream tells it where the dice lay
    ups = [det.update(f, i / FPS) for i, f in enumerate(frames[1:], 1)]
    assert any(u.moving for u in ups) and not any(u.rolling for u in ups)


def test_a_die_rolling_is_still_a_roll_once_the_dice_are_sized_and_only_leaving_near_the_edge():
    rng = np.random.default_rng(1)
    middle = settles([frame(rng, square=(200 + 8 * i, 200)) for i in range(20)]
                     + [frame(rng, square=(352, 200))] * 15)
    assert middle[-1].rolling and not middle[-1].leaving
    out = settles([frame(rng, square=(400 + 14 * i, 200)) for i in range(20)]
                  + [frame(rng)] * 15)  # rolled across the right edge, out of the picture
    assert out[-1].rolling and out[-1].leaving


@pytest.mark.parametrize("step", [40, 45, 50])
def test_a_die_thrown_hard_out_of_the_picture_near_its_edge_in_one_frame_only_is_leaving(step):
    # issue 34, 73004 t4: the one die thrown rolled out across the right edge so fast that it
    # was within `edge_reach` of it in one frame only (the frame before, just outside it);
    # no die seen leaving, the throw went unreported and the die stayed picked up
    rng = np.random.default_rng(4)
    still = [frame(rng) for _ in range(12)]
    rolling = [frame(rng, square=(560 - step * k, 200)) for k in range(8, -1, -1)]
    got = settles(still + rolling + [frame(rng) for _ in range(15)])
    assert got[-1].rolling and got[-1].leaving


@pytest.mark.parametrize(("step", "body", "shadow"), [(28, 44, 10), (32, 40, 10), (32, 44, 6)])
def test_a_die_thrown_fast_over_the_lit_table_with_its_shadow_is_leaving(step, body, shadow):
    # issue 34, 74004 t3: a die thrown out of the dark tray over the light table round it; its
    # body (larger than its face) and its shadow on the light table, in two frames' places,
    # made a thing over a die's area until it touched the edge: never a free die near the edge
    rng = np.random.default_rng(4)

    def over_rim(x=None):
        out = np.full((480, 640, 3), 35, np.uint8)
        out[:, 500:] = (150, 175, 200)  # the table round the tray
        if x is not None:
            cv2.rectangle(out, (x + shadow, 200 + shadow), (x + body + shadow, 200 + body + shadow),
                          (25, 25, 25), -1)
            cv2.rectangle(out, (x, 200), (x + body, 200 + body), (120, 120, 120), -1)
        return np.clip(out + rng.normal(0, 2, out.shape), 0, 255).astype(np.uint8)

    still = [over_rim() for _ in range(12)]
    rolling = [over_rim(620 - step * k) for k in range(12, -1, -1)]
    got = settles(still + rolling + [over_rim() for _ in range(15)])
    assert got[-1].rolling and got[-1].leaving


@pytest.mark.parametrize("step", [30, 36, 42])
@pytest.mark.parametrize("x", [383, 360])
def test_a_die_thrown_out_past_a_hand_held_by_the_edge_is_leaving(step, x):
    # issue 34 round 29 (90002 t2): the one die thrown flew out by the top edge past the hand
    # holding dice there. Free of the edge but within `hand_gap` of the hand from the frame
    # it came within `edge_reach` of the edge, it was a piece of the hand: no die seen leaving,
    # a die short, and the throw went unreported (its knocked die too)
    rng = np.random.default_rng(5)

    def held(y=None):
        out = frame(rng, square=None if y is None else (x, y))
        out[:12, 336:416] = (70, 60, 55)  # a dark sleeve's hand by the top edge
        return out

    still = [frame(rng) for _ in range(12)]
    # one frame with the die a die's side or less from the hand and within `edge_reach`
    rolling = [held(34 + step * k) for k in range(320 // step, -3, -1)]
    got = settles(still + rolling + [held() for _ in range(15)])
    assert got[-1].rolling and got[-1].leaving


def test_two_fingertips_coming_in_one_after_another_by_the_edge_are_no_die_leaving():
    # a hand in a sleeve that does not show: a fingertip by the bottom edge, then another a
    # few dice along, nearer it; each is free of the edge and die-sized, neither moved out
    rng = np.random.default_rng(3)
    still = [frame(rng) for _ in range(12)]
    tips = [frame(rng, square=(200, 480 - 24 - SIDE)), frame(rng, square=(300, 480 - 16 - SIDE))]
    got = settles(still + tips + still)
    assert got[-1].rolling and not got[-1].leaving


def test_a_hands_shadow_growing_in_from_the_edge_is_no_die_leaving():
    # issue 34, 76008 t3: a hand of the light table's colour came in by the top edge before the
    # throw; its shadow showed alone, free of the edge by a pixel or two, die-sized, its side by
    # the edge creeping nearer it as the rest grew in (its centre going away from the edge):
    # taken for a die leaving, the stack thrown then (a die short) was reported `spaz, lost`
    rng = np.random.default_rng(6)

    def lit(top=None, bottom=0, square=None):
        out = np.full((480, 640, 3), (150, 175, 200), np.uint8)
        if top is not None:
            out[top:bottom, 300:340] = (100, 115, 130)
        if square is not None:
            x, y = square
            out[y:y + SIDE, x:x + SIDE] = (230, 230, 230)
        return np.clip(out + rng.normal(0, 2, out.shape), 0, 255).astype(np.uint8)

    still = [lit() for _ in range(12)]
    shadow = [lit(top, bottom) for top, bottom in ((16, 52), (12, 62), (8, 72), (8, 80))]
    rolling = [lit(square=(200 + 8 * i, 240)) for i in range(10)]
    got = settles(still + shadow + rolling + [lit(square=(272, 240))] * 15)
    assert got[-1].rolling and not got[-1].leaving
    # a die going out by that edge, its centre nearing it too, is still leaving
    out = [lit(square=(300, y)) for y in (60, 44, 30, 18, 8)]
    got = settles(still + out + [lit() for _ in range(15)])
    assert got[-1].rolling and got[-1].leaving


def test_before_the_dice_are_sized_a_die_leaving_is_followed_from_near_where_it_was():
    # issue 34 round 22 (77008 t0, the game's first throw, the dice's size not yet known): a
    # die bouncing into the bottom edge's reach was taken for another die 28 small px away
    # come nearer the edge (`track` unbounded), so a die leaving; the stack thrown then was
    # measured by colour alone and missed (`spaz, lost`)
    rng = np.random.default_rng(7)

    def two(a, b=None):
        return frame(rng, square=a) if b is None else _with(frame(rng, square=a), b)

    def _with(image, corner):
        x, y = corner
        cv2.rectangle(image, (x, y), (x + SIDE, y + SIDE), (230, 230, 230), -1)
        return image

    det = RestDetector(MotionConfig(settle_s=0.3))  # no die side told
    still = [frame(rng) for _ in range(12)]
    rolling = [two((400 + 8 * i, 360)) for i in range(6)]
    landed = [two((448 + 6 * i, 360), (200, 410)) for i in range(3)]
    frames = still + rolling + landed + [two((460, 360), (200, 410))] * 15
    ups = [det.update(f, i / FPS) for i, f in enumerate(frames)]
    got = [u for u in ups if u.settled]
    assert got[-1].rolling and not got[-1].leaving
    # a die going out by the edge, followed frame to frame, is still leaving
    det = RestDetector(MotionConfig(settle_s=0.3))
    out = [frame(rng, square=(300, y)) for y in (60, 44, 30, 18, 8)]
    ups = [det.update(f, i / FPS) for i, f in enumerate(still + out + still + still)]
    got = [u for u in ups if u.settled]
    assert got[-1].rolling and got[-1].leaving


def test_a_hand_shrunk_to_a_die_going_out_over_a_table_of_its_colour_is_no_die_leaving():
    # the table round the tray is of the hand's colour: going out, the hand shows only over the
    # tray, a die's size by the edge, never joined to it (seeds 63012 and 63016)
    rng = np.random.default_rng(5)

    def hand(y):
        out = frame(rng)
        if y is not None:  # a palm with its fingers curled round the dice it holds
            cv2.circle(out, (320, y), 40, (120, 150, 205), -1)
        out[:40] = (120, 150, 205)
        return out

    still = [hand(None) for _ in range(12)]
    got = settles(still + [hand(200 - 10 * i) for i in range(24)] + still)
    assert not got[-1].leaving


def die(value, x, y):
    return Die(value, "white", 0.99, 0.9, (x - 15, y - 15, x + 15, y + 15), (x, y), 10.0, "ok")


SIX = [die(v, 100 * v, 100 + 100 * (v % 2)) for v in range(1, 7)]


def started():
    t = ThrowTracker(TableConfig((640, 480), [(40, 40), (600, 40), (600, 440), (40, 440)]),
                     dice_count=6)
    t.settle([], rolled=False)
    assert t.settle(SIX, rolled=True).kind == "throw"
    return t



def test_a_read_many_dice_wide_is_no_die_on_the_table():
    # the recognizer proposed a patch of the tray holding two dice as one die, 7.5 sides
    # across, centred between them (seed 63001, frame 2007): no die lies there
    table = TableConfig((640, 480), [(40, 40), (600, 40), (600, 440), (40, 440)])
    patch = replace(die(2, 231, 124), box=(102, 2, 360, 247), status="off_table")
    got = mark_geometry([die(2, 398, 306), patch], table, size=34)
    assert [(d.value, d.center) for d in got] == [(2, (398, 306))]
    top = replace(die(5, 300, 300), box=(249, 249, 351, 351))  # a stack's, three dice wide
    assert len(mark_geometry([die(2, 398, 306), top], table, size=34)) == 2



def test_a_kept_die_knocked_and_named_grey_after_white_is_still_kept():
    # a real die's grey body on a dark tray is named white at one settle, grey at the next
    # (seed 63015, throw 1: the kept four, knocked 0.3 of a side, was reported thrown)
    t = started()
    assert t.settle(SIX[:4], rolled=False).kind == "pickup"
    four = SIX[3]
    knocked = replace(four, center=(four.center[0] + 8, four.center[1] + 6), color="grey")
    thrown = [die(2, 500, 380), die(6, 150, 380)]
    out = t.settle([*SIX[:3], knocked, *thrown], rolled=True)
    assert out.kind == "throw" and sorted(d.value for d in out.thrown) == [2, 6]
    assert "knocked" in out.flags and len(out.kept) == 4
    # white and black are no flicker: a black four there is a die thrown
    t = started()
    t.settle(SIX[:4], rolled=False)
    out = t.settle([*SIX[:3], replace(knocked, color="black"), *thrown], rolled=True)
    assert sorted(d.value for d in out.thrown) == [2, 4, 6]


def test_dice_picked_up_and_held_are_no_throw_when_no_die_was_seen_leaving():
    # the player picked two dice up and shook them in view: fewer dice, and something free of
    # the frame's edge moved (a piece of the hand), but nothing left the picture
    t = started()
    out = t.settle(SIX[:4], rolled=True, left=False)
    assert out.kind == "pickup" and out.flags == []


def test_every_die_thrown_lost_needs_one_seen_leaving_the_picture():
    t = started()
    assert t.settle(SIX[:5], rolled=False).kind == "pickup"
    assert t.settle(SIX[:5], rolled=True, left=False).kind == "none"  # held, shaken, put back
    out = t.settle(SIX[:5], rolled=True, left=True)
    assert out.kind == "throw" and out.flags == ["spaz", "lost"]


def test_every_die_swept_up_in_one_go_and_held_is_a_pick_up_not_a_lost_throw():
    # seed 62003, throw 9: the hand took all six dice with no settle between and held them
    # by the frame's edge, shaking them (a roll seen leaving); the table is empty
    t = started()
    out = t.settle([], rolled=True, left=True)
    assert out.kind == "pickup" and out.flags == [] and len(out.removed) == 6
    out = t.settle([die(d.value, d.center[0] + 20, d.center[1] + 150) for d in SIX], rolled=True)
    assert out.kind == "throw" and out.flags == [] and len(out.removed) == 6


def test_a_kept_die_the_picture_shows_moved_a_little_is_knocked():
    t = started()
    assert t.settle(SIX[:2], rolled=False).kind == "pickup"
    thrown = [die(v, 150 + 60 * v, 380) for v in range(1, 5)]
    nudged = SIX[1]  # lies within the match tolerance of where it lay: only the picture knows
    out = t.settle([*SIX[:2], *thrown], rolled=True, shifted=lambda old: old == nudged)
    assert out.kind == "throw" and out.flags == ["knocked"]
    assert sorted(d.value for d in out.kept) == [1, 2]


def test_a_kept_die_knocked_under_a_third_of_a_side_with_no_settle_after_a_pick_up_is_knocked():
    # picked up and thrown in one go; a thrown die pushed the 2 under a third of a side and turned
    # it 5°: its picture is not as it was, and it is no die thrown
    t = started()
    two = SIX[1]
    knocked = Die(2, "white", 0.99, 0.9, two.box, (two.center[0] + 6, two.center[1] + 4),
                  15.0, "ok")
    thrown = [die(v, 150 + 60 * v, 380) for v in range(1, 5)]
    out = t.settle([SIX[0], knocked, *thrown], rolled=True, alike=lambda old, new: new is not
                   knocked)
    assert out.kind == "throw" and out.flags == ["knocked"]
    assert sorted(d.value for d in out.kept) == [1, 2]
    assert sorted(d.value for d in out.removed) == [3, 4, 5, 6]


def play(config, table=True):
    sim = Simulation(config)
    region = sim.truth["table"]
    given = TableConfig(tuple(region["frame_size"]), [tuple(p) for p in region["polygon"]])
    stream = ThrowStream(DrawnDiceReader(), given if table else None, dice_count=config.dice)
    events = [e for t, f in sim.frames() if (e := stream.feed(f, t))]
    return sim, stream, score(events, sim.truth)


def test_holds_in_sleeves_and_knocks_by_thrown_dice_come_out_as_the_truth():
    sim, _, result = play(unkind(SimConfig(seed=5, throws=6), dark=False))
    kinds = [d["kind"] for d in sim.truth["disturbances"]]
    assert "hold" in kinds and result.knocked_truth >= 1
    assert result.phantoms == 0 and result.exact == 6, result.misses
    assert result.knocked_found == result.knocked_truth and result.false_knocked == 0


class SceneReader:
    """Reads the simulator's own scene of the frame fed (`index`): every die as it is drawn."""

    def __init__(self, sim):
        self.sim, self.index = sim, 0

    def read(self, image, table=None, size=None):
        spec, s = self.sim._frames[self.index], self.sim.size
        ox, oy = spec.offset
        dice = []
        for d in spec.dice:
            x, y, half = d.x + ox, d.y + oy, 0.7 * s * d.scale
            dice.append(Die(d.value, d.color, 1.0, 1.0, (round(x - half), round(y - half),
                            round(x + half), round(y + half)), (x, y), d.angle % 90, d.status))
        return Reading(image.shape[1], image.shape[0], dice, list(table or []), 0.0)


@pytest.mark.parametrize("seed", [44, 64, 84])
def test_a_kept_die_pushed_by_a_hand_that_goes_out_and_comes_back_holding_dice_is_no_throw(seed):
    # 73000 t7: the hand picks three dice up, pushing a kept die a side on its way, goes out
    # and comes back with them at once (no settle between), holds them over the tray and goes
    # out again. Its sleeve is the table's colour: coming back, a piece of it is taken for a
    # die rolling (seed 84: leaving too). The die pushed lies where it lies before that: it
    # is no throw, and no die of the three is lost: picked up, and the kept die knocked
    sim = Simulation(unkind(SimConfig(seed=seed, throws=1, p_off_table=0, p_cocked=0,
                                      p_stacked=0, p_disturbance=0)))
    sim._kept = sim._last_thrown[:3]
    picked = [d for d in sim._table if all(d is not k for k in sim._kept)]
    sim._rest(0.5)
    assert sim._pick_up(picked, sim._kept[0])  # pushed
    sim._hold()
    sim._rest(1.0)
    region = sim.truth["table"]
    reader = SceneReader(sim)
    stream = ThrowStream(reader, TableConfig(tuple(region["frame_size"]),
                                             [tuple(p) for p in region["polygon"]]),
                         dice_count=sim.config.dice)
    events = []
    for i, (t, f) in enumerate(sim.frames()):
        reader.index = i
        if e := stream.feed(f, t):
            events.append(e)
    assert stream._rolled  # the sleeve coming back
    assert len(events) == 1 and stream.stats.outcomes["pickup"] == 1, [e.flags for e in events]
    assert sorted(d.value for d in stream.tracker.removed) == sorted(d.value for d in picked)
    assert stream.tracker._knocked


def test_a_die_resting_off_the_tray_is_spaz_with_no_table_file():
    _, stream, result = play(SimConfig(seed=7, throws=3, p_off_table=1.0, p_cocked=0,
                                       p_stacked=0, p_disturbance=0), table=False)
    assert stream.table is not None  # found in the first still picture
    assert result.spaz_truth >= 2 and result.spaz_found == result.spaz_truth
    assert result.false_spaz == 0 and result.phantoms == 0, result.misses


def iou(a, b):
    ma, mb = np.zeros((480, 640), np.uint8), np.zeros((480, 640), np.uint8)
    cv2.fillPoly(ma, [np.int32(a)], 1)
    cv2.fillPoly(mb, [np.int32(b)], 1)
    return (ma & mb).sum() / (ma | mb).sum()


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 63013])  # bright and dark tables, black and lit walls;
# 63013: a dark table, lit toward the bottom, that a looser fill than the floor's enters
def test_a_dark_trays_floor_is_found_whole_with_its_shaded_strip_and_not_its_rim(seed):
    sim = Simulation(SimConfig(seed=seed, throws=0, surface="dark"))
    image = sim.render(0, sim._still())
    found = find_table(image)
    assert iou(found, sim.polygon) > 0.97
    assert region_warnings(found, (640, 480), image) == []


def test_a_region_that_is_a_patch_of_the_floor_or_leaves_dice_outside_is_warned_of():
    sim = Simulation(SimConfig(seed=2, throws=0, surface="dark"))
    image = sim.render(0, sim._still())
    (x1, y1), (x2, y2) = np.min(sim.polygon, axis=0), np.max(sim.polygon, axis=0)
    patch = [(x1 + 60, y1 + 60), (x2 - 60, y1 + 60), (x2 - 60, y2 - 60), (x1 + 60, y2 - 60)]
    assert any("patch" in w for w in region_warnings(patch, (640, 480), image))
    with_die = image.copy()
    cv2.rectangle(with_die, (x1 + 20, y1 + 20), (x1 + 20 + SIDE, y1 + 20 + SIDE),
                  (230, 230, 230), -1)
    spots = resting_spots([image, with_die], SIDE)
    assert len(spots) == 1
    assert any("outside" in w for w in region_warnings(patch, (640, 480), None, spots))
    assert region_warnings(find_table(image), (640, 480), image, spots) == []


def test_a_die_flat_against_a_slanted_wall_a_little_off_the_table_file_is_on_the_table():
    # seed 62018, throw 10: the tray's left wall slants; a die rests flat against it, turned
    # as the wall is, and the picture lies a few px off the table file's (a nudge): its face,
    # measured as the die turned, crosses the file's edge by under 0.15 of a side
    table = TableConfig((640, 480), [(85, 401), (73, 97), (546, 78), (558, 382)])
    wall = Die(6, "red", 0.99, 0.9, (77, 238, 107, 269), (92.0, 253.7), -4.2, "ok")
    assert mark_geometry([wall], table, size=34)[0].status == "ok"
    # one whose face crosses it farther is off it
    across = replace(wall, center=(84.0, 253.7))
    assert mark_geometry([across], table, size=34)[0].status == "off_table"


class _ReadsTurned:
    """Reads one die at (100, 80) turned 42° (its face's pips and edges) in every picture."""

    def read(self, image, table=None, size=None):
        box = (100 - 24, 80 - 24, 100 + 24, 80 + 24)  # a square of 34 px turned 42°
        return Reading(image.shape[1], image.shape[0],
                       [Die(4, "white", 0.98, 0.8, box, (100.0, 80.0), 42.0, "ok")], [], 0.0)


def photo_die(turn):
    """Dark felt with a die whose photo shows a white face turned 42° on a red square of 34
    px turned `turn`° (a face cut from a photo with the table it lay on: 72001 t8), its
    centre at (100, 80), 15 px above the region's edge."""
    rng = np.random.default_rng(1)
    image = np.clip(np.full((200, 240, 3), 40.0) + rng.normal(0, 2, (200, 240, 3)), 0, 255
                    ).astype(np.uint8)
    square = np.full((SIDE, SIDE, 3), (40, 40, 200), np.uint8)
    face = np.full((24, 24, 3), 235, np.uint8)
    for x, y in ((6, 6), (17, 6), (6, 17), (17, 17)):
        cv2.circle(face, (x, y), 3, (30, 30, 30), -1)
    m = cv2.getRotationMatrix2D((12, 12), 42, 1.0)
    m[:, 2] += (SIDE / 2 - 12, SIDE / 2 - 12)
    turned = cv2.warpAffine(face, m, (SIDE, SIDE))
    inside = cv2.warpAffine(np.full((24, 24), 255, np.uint8), m, (SIDE, SIDE)) > 127
    square[inside] = turned[inside]
    paste_turned(image, square, 100, 80, turn)
    return image


@pytest.mark.parametrize("turn", [0, 3, -4])
def test_a_die_whose_face_shows_turned_on_its_square_is_on_the_table_as_its_outline_lies(turn):
    # issue 34 round 17 (72001 t8, no table file): a rune55 face, a white die at 42° on the
    # red of the photo's table, fills a square at 3°; read at 42°, its face measured at that
    # turn crossed the edge of the region the stream found (3 px inside the file's): a false
    # SPAZ. Its outline is square at 3°, 15 px from the edge (0.44 of a side): on the table.
    image = photo_die(turn)
    table = TableConfig((240, 200), [(10, 10), (230, 10), (230, 95), (10, 95)])
    stream = ThrowStream(_ReadsTurned(), table, dice_count=1)
    for i in range(20):
        stream.feed(image, i / FPS)
    assert [d.status for d in stream.tracker.on_table] == ["ok"]
    # a die whose outline crosses the edge is off the table however it is read
    stream = ThrowStream(_ReadsTurned(), TableConfig((240, 200), [(10, 10), (230, 10),
                                                                  (230, 88), (10, 88)]),
                         dice_count=1)
    for i in range(20):
        stream.feed(image, i / FPS)
    assert [d.status for d in stream.tracker.on_table] == ["off_table"]


class _ReadsOff:
    """Reads a die at (`x`, 100) turned -3°, its box 44 px (a photo's light corners), and two
    white dice lying at (60, 60) and (60, 140) that tell the dice's size."""

    def __init__(self, x):
        self.x = x

    def read(self, image, table=None, size=None):
        box = (self.x - 22, 100 - 22, self.x + 22, 100 + 22)
        dice = [Die(v, "white", 0.99, 0.8, (43, y - 17, 77, y + 17), (60.0, float(y)), 0.0, "ok")
                for v, y in ((5, 60), (6, 140))]
        dice.append(Die(3, "black", 0.99, 0.8, box, (float(self.x), 100.0), -3.0, "ok"))
        return Reading(image.shape[1], image.shape[0], dice, [], 0.0)


def black_die_by_the_wall(x):
    """A dark tray's floor with a lit rim from x = 216 on, a black three photographed with the
    light table it lay on in two corners, its centre at (`x`, 100), and two white dice."""
    rng = np.random.default_rng(2)
    image = np.full((200, 240, 3), 40.0)
    image[:, 216:222] = 110  # the lit rim
    image[:, 222:] = (34, 32, 30)  # the dark table round the tray (odd seeds)
    for y in (60, 140):
        image[y - SIDE // 2:y - SIDE // 2 + SIDE, 60 - SIDE // 2:60 - SIDE // 2 + SIDE] = 225
    image = np.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(np.uint8)
    photo = np.full((SIDE, SIDE, 3), 58, np.uint8)
    for corner in ((0, 0), (SIDE - 1, SIDE - 1)):
        cv2.circle(photo, corner, 6, (120, 120, 120), -1)
    for k in (-1, 0, 1):
        cv2.circle(photo, (SIDE // 2 + 9 * k, SIDE // 2 + 9 * k), 3, (200, 200, 200), -1)
    image[100 - SIDE // 2:100 - SIDE // 2 + SIDE, x - SIDE // 2:x - SIDE // 2 + SIDE] = photo
    return image


class _ReadsFlush:
    """Reads a five at (383, `y`) turned `turn`, flush against the tray's bottom wall (seed
    74018: the floor's edge at y = 423.6 there), and two dice that tell the dice's size."""

    def __init__(self, y, turn):
        self.y, self.turn = y, turn

    def read(self, image, table=None, size=None):
        dice = [Die(v, "white", 0.99, 0.8, (x - 17, 200 - 17, x + 17, 200 + 17),
                    (float(x), 200.0), 0.0, "ok") for v, x in ((2, 200), (4, 300))]
        dice.append(Die(5, "black", 0.86, 0.8, (366, round(self.y) - 17, 400, round(self.y) + 17),
                        (383.0, self.y), self.turn, "ok"))
        return Reading(image.shape[1], image.shape[0], dice, [], 0.0)


@pytest.mark.parametrize(("y", "turn"), [(409.0, 2.0), (409.0, -3.0), (410.0, 0.0), (410.0, 4.0)])
def test_a_die_flush_against_the_wall_of_a_region_found_inside_the_floor_is_on_the_table(
        monkeypatch, y, turn):
    # issue 34, 74018 t5 (no table file): a five flush against the tray's bottom wall, its
    # centre 0.41-0.44 sides from the floor's edge (read 1-2 px off toward it); the region the
    # stream found in the first still picture lay 3.5 px inside that edge there, and the face
    # measured at the read centre crossed it: a false SPAZ. The region found is widened by
    # what it may lie inside the floor's edge
    found = [(80, 67), (549, 77), (544, 424), (72, 413)]  # as the stream found it in the game
    monkeypatch.setattr("zonkcam.vision.stream.find_table", lambda image: found)
    sim = Simulation(unkind(SimConfig(seed=74018, throws=0)))
    image = sim.render(0, sim._still())
    stream = ThrowStream(_ReadsFlush(y, turn), None, dice_count=3)
    for i in range(20):
        stream.feed(image, i / FPS)
    assert stream.table is not None
    assert {d.value: d.status for d in stream.tracker.on_table}[5] == "ok"
    # one whose centre lies 2 px inside the floor's edge, across the wall, is off the table
    stream = ThrowStream(_ReadsFlush(421.5, turn), None, dice_count=3)
    for i in range(20):
        stream.feed(image, i / FPS)
    assert {d.value: d.status for d in stream.tracker.on_table}[5] == "off_table"


@pytest.mark.parametrize("off", [5, 6, 7])
def test_a_black_die_by_a_dark_trays_wall_read_off_its_centre_is_on_the_table(off):
    # issue 34, 73019 t3 (no table file): a black three lay against the tray's right wall, 3 px
    # from its lit rim; the recognizer's box, 44 px with the photo's light corners, centred it
    # 6 px off toward the wall, and its face measured there crossed the edge of the region the
    # stream found (2 px inside the floor): a false SPAZ. Its outline lies on the table
    table = TableConfig((240, 200), [(10, 10), (214, 10), (214, 190), (10, 190)])
    image = black_die_by_the_wall(196)
    stream = ThrowStream(_ReadsOff(196 + off), table, dice_count=3)
    for i in range(20):
        stream.feed(image, i / FPS)
    assert {d.value: d.status for d in stream.tracker.on_table}[3] == "ok"
    # one lying across the rim is off the table wherever it is read
    image = black_die_by_the_wall(212)
    stream = ThrowStream(_ReadsOff(212 - off), table, dice_count=3)
    for i in range(20):
        stream.feed(image, i / FPS)
    assert {d.value: d.status for d in stream.tracker.on_table}[3] == "off_table"


@pytest.mark.parametrize("rise", [6, 10])
def test_a_sleeve_showing_over_a_lit_rim_while_the_hand_moves_on_is_no_roll(rise):
    # issue 34 round 30 (84019 t3, 84015): a hand picking dice up, its arm in a sleeve of the
    # felt's grey from the bottom edge, shows only where it crosses the lit rim by that edge: a
    # die-sized piece by the hand at first, then free of it as the hand moves on, up and
    # along. Taken for a die rolling, the pick-up was a roll: the dice picked up seen where they
    # lay (a false `knocked`), or a die seen leaving (a phantom `spaz, lost`)
    rng = np.random.default_rng(7)

    def picking(ax=None, ay=0, die=None):
        out = frame(rng, blob=None if ax is None else (ax, ay), square=die)
        out[400:428] = (150, 150, 150)  # the lit rim by the bottom edge
        if ax is not None:
            out[400:428, ax - 20:ax + 20] = 40  # the sleeve crossing it
        return np.clip(out + rng.normal(0, 2, out.shape), 0, 255).astype(np.uint8)

    still = [picking() for _ in range(12)]
    moving = [picking(500 - 30 * k, 340 - rise * k) for k in range(12)]
    got = settles(still + moving + [picking() for _ in range(15)])
    assert len(got) == 2 and not got[-1].rolling
    # a die thrown from that hand, flying away from it, is still a roll
    thrown = [picking(500 - 4 * k, 340 - rise * k, die=(380 - 45 * k, 330 - 20 * k))
              for k in range(6)]
    got = settles(still + thrown + [picking(die=(140, 210)) for _ in range(15)])
    assert got[-1].rolling
