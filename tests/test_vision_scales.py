"""The recognizer at scales the proposer's 320-px view does not show well (issue 36): one die
filling the picture, and small dice in a big picture. Drawn dice; benchmarks/scale_eval.py
measures the same on rune55's photos."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from zonkcam.vision import scales
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.die_sizes import alike_in_size, seen_size
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.read import Reader
from zonkcam.vision.scales import FOCUS_DIE, crowded, focus, whole_dice, without_pips
from zonkcam.vision.sim.drawn import DrawnDie, background, draw_die, render_scene
from zonkcam.vision.touching import STEPS, places


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def close_up(value: int, angle: float, kind: str, color: str, side: int = 90,
             fill: float = 0.66) -> np.ndarray:
    """One die filling two thirds (`fill`) of a small picture, as a crop of one die."""
    image = background(np.random.default_rng(value), side, side, kind)
    draw_die(image, DrawnDie(value, color, side / 2, side / 2, side * fill, angle))
    return image


def test_a_die_filling_the_picture_is_one_die_not_its_pips(reader):
    """Six faces in three looks: before the close-up pass 2 of these 18 read as one die of the
    right value (the others as pips, or unread); now all but one (a red two on paper that the
    close-up boxes too small to trust)."""
    right = [(value, angle) for value in range(1, 7)
             for angle, kind, color in ((0, "paper", "red"), (25, "felt", "white"),
                                        (40, "wood", "blue"))
             if [d.value for d in reader.read(close_up(value, angle, kind, color)).dice] == [value]]
    assert len(right) >= 17, right


def test_a_small_crop_whose_pip_alone_reads_as_a_die_is_read_close_up(reader):
    """A 52-px crop of a two, noisy and JPEG'd (as rune55's ~40-px dice cut ~60 px): blown up
    to the proposer's 320 px, one pip 2 px across read as a one, under a tenth of the
    picture, so the close-up never looked (before: a one); shrunk onto its canvas the die
    reads as a two."""
    rng = np.random.default_rng(2)
    image = background(rng, 52, 52, "felt")
    draw_die(image, DrawnDie(2, "white", 26, 26, 52 * 0.7, 0))
    noisy = np.clip(image + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
    image = cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 70])[1],
                         cv2.IMREAD_COLOR)
    assert [d.value for d in reader.read(image).dice] == [2]


def test_a_die_read_surely_inside_the_close_ups_gives_way_where_the_middle_view_agrees(reader):
    """A 200-px crop of a five (132 px): the first look reads its middle, 43 px, surely as a
    four; the close-up reads a five 184 px across, and the 160-px view a five 113 px across
    (too small to be the close-up's die: before, the sure four stayed). Of a three, the first
    look's two (its middle) gives way the same."""
    assert [d.value for d in reader.read(close_up(5, 25, "paper", "red", 200)).dice] == [5]
    assert [d.value for d in reader.read(close_up(3, 25, "wood", "red", 200)).dice] == [3]


def test_pips_beside_the_close_ups_box_are_not_dice(reader):
    """A six filling 0.8 of a 90-px crop: the close-up reads it surely, boxed 18 px off its
    middle, and two of its pips read unsurely as fours lay outside that box (before: three
    dice)."""
    assert [d.value for d in reader.read(close_up(6, 25, "felt", "white", fill=0.8)).dice] == [6]


def test_the_middle_view_reads_a_small_crop_the_close_up_reads_no_die_in(reader):
    """A 66-px crop of a red one on felt: neither the first look nor the close-up reads a die
    (before: none); the 160-px view reads the one surely, filling the picture (rune55's
    close-ups: a two 165 px across in a 232-px crop, whose close-up read its pips as twos; a
    two 53 px across in 65, boxed at half its size)."""
    image = cv2.resize(close_up(1, 40, "felt", "red", 200), (66, 66), interpolation=cv2.INTER_AREA)
    assert [d.value for d in reader.read(image).dice] == [1]


def canvases_proposed(reader, monkeypatch) -> list[int]:
    """The canvases (`Reader._proposals_at`'s) of the proposals a reader makes from now on."""
    canvases: list[int] = []
    proposals_at = reader._proposals_at
    monkeypatch.setattr(reader, "_proposals_at", lambda image, side, canvas=1: (
        canvases.append(canvas), proposals_at(image, side, canvas))[1])
    return canvases


@pytest.mark.parametrize("seed", [0, 2, 4])
def test_a_table_of_dice_read_surely_gets_no_close_up(reader, monkeypatch, seed):
    """A 640x640 table of three dice 150 px across (as rune55's photos: dice a quarter to a half
    of the picture), each read surely at the first look: they are dice, not one die's pips, so
    the picture is not read again shrunk onto a canvas (`scales.pips_may_be`; on rune55's
    640-px photos the close-up cost ~6 ms of a 17-ms read and changed only boxes). Before: the
    close-up was made on each."""
    image, drawn = render_scene(np.random.default_rng(seed), 640, 640, n=3, size=150, kind="felt")
    canvases = canvases_proposed(reader, monkeypatch)
    assert sorted(d.value for d in reader.read(image).dice) == sorted(d.value for d in drawn)
    assert scales.CLOSE_UP_CANVAS not in canvases


@pytest.mark.parametrize(("value", "kind", "color"), [(4, "wood", "white"), (6, "paper", "red"),
                                                       (3, "dark", "blue")])
def test_a_die_filling_half_a_640_px_picture_is_still_read_close_up(reader, monkeypatch, value,
                                                                   kind, color):
    """The gate's other side: one die 320 px across in a 640-px picture, whose pips the first
    look reads unsurely as dice (a four's as four fours), is read whole close up."""
    canvases = canvases_proposed(reader, monkeypatch)
    assert [d.value for d in reader.read(close_up(value, 20, kind, color, 640, 0.5)).dice] == [value]
    assert scales.CLOSE_UP_CANVAS in canvases


def test_small_dice_in_a_big_picture_are_found(reader):
    """A 12 MP picture of dice ~60 px across (7 px at the proposer's first look)."""
    rng = np.random.default_rng(36)
    image, drawn = render_scene(rng, 4032, 3024, n=6, size=60, kind="wood")
    dice = reader.read(image).dice
    assert sorted(d.value for d in dice) == sorted(d.value for d in drawn)
    for d in drawn:
        assert any(math.hypot(r.center[0] - d.cx, r.center[1] - d.cy) < d.size / 2 for r in dice)


def test_tiny_dice_in_a_webcam_picture_are_found(reader):
    rng = np.random.default_rng(12)
    image, drawn = render_scene(rng, 1280, 960, n=8, size=16, kind="felt")
    dice = reader.read(image).dice
    assert len(dice) == len(drawn)
    assert sum(d.value is not None for d in dice) >= len(drawn) - 1


def candidate(cx: float, cy: float, size: float, sure: bool) -> Candidate:
    probs = np.array([0.0, 0.95 if sure else 0.6, 0.05 if sure else 0.4, 0, 0, 0, 0], np.float32)
    empty = np.zeros((1, 1), np.float32)
    return Candidate(Proposal(cx, cy, size, size, 0.9), 0.0, probs, empty, empty, empty)


def test_the_pips_of_a_die_read_surely_are_not_dice():
    reader = Reader.__new__(Reader)
    reader.reject_threshold, found = 0.5, [candidate(100, 100, 80, True),
                                           candidate(120, 118, 20, True),  # a pip inside it
                                           candidate(190, 100, 78, False)]  # a die beside it
    kept = without_pips(found, reader.unsure, reader.rejects)
    assert [c.proposal.cx for c in kept] == [100, 190]


def test_pips_lie_crowded_and_dice_side_by_side_do_not():
    pips = [Proposal(x, y, 14, 14, 0.5) for x, y in ((0, 0), (8, 8), (16, 16))]
    dice = [Proposal(x, 0, 50, 50, 0.5) for x in (0, 52, 104)]
    assert crowded(pips)
    assert not crowded(dice)


def test_a_tray_of_dice_read_as_one_die_close_up_keeps_its_dice():
    """rune55 PXL_20240219_192227570: the close-up read half a tray of 23 dice (~65 px on 640)
    as one die 360 px across, and its 11 dice went as that die's pips."""
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    dice = [candidate(40 + 75 * (i % 4), 130 + 75 * (i // 4), 60, True) for i in range(11)]
    heap = candidate(180, 290, 360, True)
    kept = whole_dice(dice, [heap], 640, reader.unsure, reader.rejects)
    assert kept == dice


def test_a_crops_die_read_surely_at_its_halves_is_one_where_the_middle_view_reads_one():
    """scale_eval's 71-px crop of a five (round 10): the first look read it surely at two halves
    (28 and 22 px, each a five), which looked like dice side by side inside the close-up's five
    (50 px); the 160-px view read one five there, 34 px (0.68 of the close-up's: before, under
    `SAME_DIE`, the two halves stayed)."""
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    halves = [candidate(31, 39, 28, True), candidate(47, 31, 22, True)]
    close_up = [candidate(33, 32, 50, True)]
    kept = whole_dice(halves, close_up, 71, reader.unsure, reader.rejects,
                      lambda: [candidate(33, 35, 34, True)])
    assert [c.proposal.size for c in kept] == [50]
    two = [candidate(25, 32, 26, True), candidate(47, 32, 26, True)]  # dice side by side stay
    assert whole_dice(halves, close_up, 71, reader.unsure, reader.rejects, lambda: two) == halves


def test_a_blurred_crops_many_pips_read_unsurely_give_way_to_its_die():
    """An 80-px crop of a blurred six: the first look read nine of its pips unsurely, more than
    a die's pips (`MOST_PIPS`), which was taken for a tray of dice (before: nine dice); a tray's
    dice are read surely."""
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    pips = [candidate(20 + 14 * (i % 3), 24 + 14 * (i // 3), 11, False) for i in range(9)]
    close_up = [candidate(45, 57, 70, True)]
    kept = whole_dice(pips, close_up, 80, reader.unsure, reader.rejects)
    assert [c.proposal.size for c in kept] == [70]


def test_a_crops_die_read_unsurely_whole_stands_for_its_pips_read_unsurely():
    """An 84-px crop of a dark two (scale_eval round 10): the first look read three pips
    unsurely as dice (14 px), the close-up the die, 69 px, unsurely; nothing was read whole, so
    the pips stayed. A die read surely among them, or pips beside a die read whole, stay as they
    are read."""
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    pips = [candidate(31, 35, 14, False), candidate(57, 49, 14, False),
            candidate(32, 64, 12, False)]
    close = [candidate(53, 47, 69, False)]
    kept = scales.in_a_crop(pips, close, 84, 84, reader.unsure, reader.rejects)
    assert [c.proposal.size for c in kept] == [69]
    sure = [*pips[:2], candidate(32, 64, 12, True)]
    assert scales.in_a_crop(sure, close, 84, 84, reader.unsure, reader.rejects) == sure


def read_as(cx: float, cy: float, size: float, value: int, sure: bool = True) -> Candidate:
    """A candidate read as `value`, surely (0.95) or not (0.6)."""
    probs = np.zeros(7, np.float32)
    probs[value] = 0.95 if sure else 0.6
    empty = np.zeros((1, 1), np.float32)
    return Candidate(Proposal(cx, cy, size, size, 0.9), 0.0, probs, empty, empty, empty)


def test_a_crops_five_read_surely_at_its_corners_is_the_close_ups_five():
    """scale_eval's 72-px crop of a five (round 10): the first look read three of its corners
    surely as fives (15-19 px) and a pip unsurely; the close-up read the five whole (40 px), but
    two fives read surely inside it looked like dice side by side. A part read as another value,
    or the close-up's die read unsurely, leaves them as read."""
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    parts = [read_as(28, 33, 18, 5), read_as(48, 44, 19, 5), read_as(29, 47, 15, 5),
             read_as(40, 37, 9, 2, sure=False)]
    five = read_as(33, 39, 40, 5)
    kept = scales.in_a_crop(parts, [five], 72, 72, reader.unsure, reader.rejects)
    assert kept == [five]
    other = [*parts[:3], read_as(40, 37, 9, 3)]
    kept = scales.in_a_crop(other, [five], 72, 72, reader.unsure, reader.rejects)
    assert all(c is not five for c in kept) and any(c is other[3] for c in kept)
    unsure = read_as(33, 39, 40, 5, sure=False)
    kept = scales.in_a_crop(parts, [unsure], 72, 72, reader.unsure, reader.rejects)
    assert all(c is not unsure for c in kept)


def test_a_die_read_twice_in_a_crop_is_one_die():
    """A 100-px crop of a six read surely by two views at boxes 14 px apart (32 and 30 px): one
    die. Dice side by side, a die apart, or of other values, stay."""
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    twice = [read_as(41.5, 37, 30, 6), read_as(38, 50.5, 32, 6)]
    assert scales.in_a_crop(twice, [], 100, 100, reader.unsure,
                            reader.rejects) == [twice[1]]
    apart = [read_as(30, 50, 30, 6), read_as(62, 50, 30, 6)]
    assert scales.in_a_crop(apart, [], 100, 100, reader.unsure, reader.rejects) == apart
    other = [read_as(41.5, 37, 30, 6), read_as(38, 50.5, 32, 5)]
    assert scales.in_a_crop(other, [], 100, 100, reader.unsure, reader.rejects) == other


def test_two_close_up_dice_the_middle_view_reads_as_one_are_one_die():
    """scale_eval's 228-px crop of a six (round 10): the close-up read two sixes (128 and 97 px)
    over one six the 160-px view read whole (169 px), which stood in for each (before: the same
    six reported twice)."""
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    close_up = [candidate(141, 138, 128, True), candidate(84, 87, 97, True)]
    one = candidate(106, 117, 169, True)
    kept = whole_dice([], close_up, 228, reader.unsure, reader.rejects, lambda: [one])
    assert kept == [one]


def test_a_neighbours_corner_at_a_crops_edge_is_no_die(reader):
    """A 200-px crop of a two (140 px) with a neighbour's corner in its top right corner: the
    first look read the corner as a four, unsurely, beside the two read surely (before: two
    dice); nor is a die cut by the edge, a third of the die read whole, read surely as a one
    (scale_eval's 228-px crop of a three, a 68-px corner at its edge)."""
    image = background(np.random.default_rng(2), 200, 200, "paper")
    draw_die(image, DrawnDie(2, "white", 100, 100, 140, 10.0))
    draw_die(image, DrawnDie(3, "white", 214, -14, 140, 20.0))
    assert [d.value for d in reader.read(image).dice] == [2]
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    three, corner = candidate(111, 117, 179, True), candidate(218, 38, 68, True)
    assert scales.in_a_crop([corner, three], [], 228, 228, reader.unsure,
                            reader.rejects) == [three]


def test_touching_dice_in_an_8_mp_still_are_read_apart(reader):
    """Six dice ~100 px across side by side in a block on a dark tray, 3280x2464: at 1280 px
    they show ~40 px and the proposer makes 2 dice of them; the region round those, proposed
    again where they show ~64 px, reads all six."""
    rng = np.random.default_rng(5)
    background(rng, 8, 8, "dark")  # (the draws this scene was found with)
    image = background(rng, 3280, 2464, "dark")
    side, x, y = rng.uniform(60, 110), rng.uniform(800, 2400), rng.uniform(600, 1800)
    colors = ("white", "red", "blue", "green", "black")
    drawn = [DrawnDie(int(rng.integers(1, 7)), colors[int(rng.integers(0, 5))],
                      x + (i % 3) * side * 1.02, y + (i // 3) * side * 1.02, side,
                      float(rng.uniform(-4, 4))) for i in range(6)]
    for d in drawn:
        draw_die(image, d)
    dice = reader.read(image).dice
    assert sorted(d.value for d in dice) == sorted(d.value for d in drawn)


def test_focus_frames_the_dice_read_at_the_scale_they_are_read_well():
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    found = [candidate(1000, 800, 80, True), candidate(1100, 820, 80, True)]
    [((x0, y0, x1, y1), side)] = focus(found, 3280, 2464, 1280, reader.rejects)
    assert (x0, y0, x1, y1) == (840, 640, 1260, 980)  # a die and a half beyond their boxes
    assert side == round(420 * FOCUS_DIE / 80)
    assert focus(found, 3280, 2464, 3280, reader.rejects) == []  # 80 px there already
    # a die far from them: a region of its own, not the still between them
    far = [*found, candidate(3000, 2200, 80, True)]
    assert [box for box, _ in focus(far, 3280, 2464, 1280, reader.rejects)] == [
        (840, 640, 1260, 980), (2840, 2040, 3160, 2360)]


def test_a_proposal_at_the_middle_scale_tells_one_big_die_from_two():
    """A 246-px crop of one five: the first look read two "fives" at its halves, which look
    like dice side by side inside the close-up's die; the 160-px proposal sees one die there.
    Two dice side by side (rune55 00014: two twos) stay two when it sees two."""
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    halves = [candidate(149, 152, 86, True), candidate(81, 103, 77, True)]
    close_up = [candidate(110, 131, 163, True)]
    one = [candidate(114, 126, 215, True)]
    kept = whole_dice(halves, close_up, 246, reader.unsure, reader.rejects, lambda: one)
    assert [c.proposal.size for c in kept] == [215]
    two = [candidate(100, 100, 90, True), candidate(160, 160, 90, True)]
    kept = whole_dice(halves, close_up, 246, reader.unsure, reader.rejects, lambda: two)
    assert kept == halves


@pytest.mark.parametrize("seed", [1032, 1037])
def test_dice_side_by_side_under_a_close_ups_die_stay_dice(reader, seed):
    """A 640x480 table of six dice ~55 px (`teach_eval.drawn_photos`' tables, unpainted): the
    first look boxes a few 100-116 px, a tenth of the picture, so the close-up looks, and reads
    one "die" ~280 px across over three of them (1037: a two at 0.93 over a five, a one and a
    two). The 160-px view reads each of those surely; before, the close-up's die took their
    place (1037: four dice read, three right; 1032: five, four right)."""
    rng = np.random.default_rng(seed)
    kind = str(rng.choice(["felt", "wood", "paper"]))
    image, drawn = render_scene(rng, 640, 480, n=6, kind=kind,
                                colors=("white", "red", "blue", "black"))
    dice = reader.read(image).dice
    assert len(dice) == len(drawn)
    for d in drawn:
        assert any(math.hypot(r.center[0] - d.cx, r.center[1] - d.cy) < d.size / 2
                   and r.value == d.value for r in dice), d


def touching_pairs(seed: int, sides: tuple[float, float] = (100, 140)
                   ) -> tuple[np.ndarray, list[DrawnDie]]:
    """An 8 MP dark tray of seven dice `sides` px across (100-140): two pairs touching (1.04
    dice apart, one pair at a slant), three alone."""
    rng = np.random.default_rng(seed)
    image = background(rng, 3280, 2464, "dark")
    side = rng.uniform(*sides)
    colors = ("white", "red", "blue", "green", "yellow")
    dice = []
    for k, (x, y) in enumerate([(800, 700), (2300, 700), (800, 1750), (2300, 1750), (1550, 1200)]):
        turn = float(rng.uniform(0, 2 * math.pi)) if k < 2 else 0.0
        dice.append(DrawnDie(int(rng.integers(1, 7)), str(rng.choice(colors)), x, y, side,
                             float(rng.uniform(-5, 5))))
        if k < 2:
            d = 1.04 * side / max(abs(math.cos(turn)), abs(math.sin(turn)))
            dice.append(DrawnDie(int(rng.integers(1, 7)), str(rng.choice(colors)),
                                 x + d * math.cos(turn), y + d * math.sin(turn), side,
                                 float(rng.uniform(-5, 5))))
    for d in dice:
        draw_die(image, d)
    return image, dice


def test_touching_dice_boxed_as_one_are_read_as_two(reader):
    """Seed 4: the 320-px view reads the still's dice surely, a touching pair as one die with a
    box nearly two dice long; read again at the typical die's size where its dice can lie
    (`vision.touching`), it is two (before: six dice of seven)."""
    image, drawn = touching_pairs(4)
    dice = reader.read(image).dice
    assert sorted(d.value for d in dice) == sorted(d.value for d in drawn)
    for d in drawn:
        assert any(math.hypot(r.center[0] - d.cx, r.center[1] - d.cy) < d.size / 2 for r in dice)


def read_apart(reader: Reader, image: np.ndarray, drawn: list[DrawnDie]) -> bool:
    """Whether the still reads as its drawn dice: their values, one die read on each."""
    dice = reader.read(image).dice
    return sorted(d.value for d in dice) == sorted(d.value for d in drawn) and all(
        any(math.hypot(r.center[0] - d.cx, r.center[1] - d.cy) < d.size / 2 for r in dice)
        for d in drawn)


def test_a_still_of_dice_boxed_big_at_320_px_is_proposed_at_640(reader):
    """Seed 1, dice 86 px (8 px at 320 px): the 320-px view boxes them 1.7-2.4 times their
    size (a median of 17 px there), reads five surely and was kept, a touching pair of sixes
    read as one; a first view whose dice are boxed under twice the least the proposer finds
    is zoomed (`scales.FIRST_VIEW_BOXED`), and the 640-px view reads all seven (before: six)."""
    image, drawn = touching_pairs(1, (80, 100))
    assert read_apart(reader, image, drawn)


def test_a_pair_read_surely_as_one_die_is_focused(reader):
    """Seed 5, dice 99 px: the view kept (640 px) reads each touching pair surely as one five,
    boxed about as the dice alone (131 and 138 px against 146-203), each alone in its region,
    so the focus left them (`scales.lone`); their outlines measure 1.7 and 1.9 dice long, the
    dice alone 0.9 (`touching.two_long`), and focused they read as two each (before: five dice
    of seven)."""
    image, drawn = touching_pairs(5, (80, 100))
    assert read_apart(reader, image, drawn)


def test_a_pair_hidden_by_a_view_that_boxed_every_die_big_is_parted(reader):
    """Seed 16, dice 81 px: the view kept (320 px) reads five dice surely, boxed 135-276 px,
    a touching two and three as one three 276 px across; its own least box (135) is no die's
    size, and at that size the pair's grid read no two dice. The 640-px view and the focus box
    the dice ~94 px: parted at the still's size by all its views (`die_sizes.seen_size`), the
    pair is two (before: five dice of seven)."""
    image, drawn = touching_pairs(16, (80, 100))
    assert read_apart(reader, image, drawn)


def test_a_die_of_the_size_every_view_saw_is_no_speck():
    """Dice boxed 300 px by a coarse view and one die of 100 px: beside them the die is under
    half their median (a speck), but a die of the still's size by its views is kept."""
    def die(x: float, side: float) -> Candidate:
        probs = np.array([0.0, 0.98, 0.0, 0.0, 0.0, 0.0, 0.02], np.float32)
        return Candidate(Proposal(x, 500, side, side, 0.5), 0.0, probs, np.zeros((4, 4, 3)),
                         np.ones(3), np.zeros((4, 4)))

    found = [die(500, 300), die(1000, 300), die(1500, 300), die(2000, 100)]
    no, sure = (lambda c: False), (lambda c: False)
    assert len(alike_in_size(found, no, sure, overhead=False)) == 3
    assert len(alike_in_size(found, no, sure, overhead=False, seen=100)) == 4
    assert seen_size([found[:3], [die(500, 90), die(900, 100), die(1300, 110)]], no, sure) == 90


def test_places_in_a_long_box_lie_along_it():
    """Two dice of 100 px side by side in a 200x100 box: their centres (950 and 1050) lie among
    the places, which reach no further than a third of a die beyond them."""
    pair = Proposal(1000, 500, 200, 100, 0.9)
    spots = places(pair, 100)
    xs, ys = sorted({x for x, _ in spots}), sorted({y for _, y in spots})
    assert len(xs) == STEPS and len(ys) < len(xs)
    assert 950 - 40 <= xs[0] <= 950 and 1050 <= xs[-1] <= 1050 + 40
    assert ys[0] >= 460 and ys[-1] <= 540
