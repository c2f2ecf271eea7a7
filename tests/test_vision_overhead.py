"""The overhead (live) reader's stages on pictures drawn here: a die read again at its square,
one die of two read at the pips of one, dice the proposer missed beside a die, and the
second look's choices."""
import numpy as np
import pytest
from reader_helpers import cand, matched, scene
from zonkcam.vision.die_sizes import one_per_die
from zonkcam.vision.missed import with_missed
from zonkcam.vision.read import Reader
from zonkcam.vision.second_look import second_look
from zonkcam.vision.squares import squared


class SixWhereTheFaceFills:
    """A stand-in classifier: a sure six where a bright face fills the crop's face area (the
    face spans crop / 1.5 px at the centre of a 40-px crop), else a one."""

    face = slice(7, 33)

    def __init__(self, model):
        self.crop, self.crop_margin = model.crop, model.crop_margin

    def classify(self, crops):
        full = np.array([c[self.face, self.face].mean() > 0.8 for c in crops])
        six = np.array([0.01, 0, 0, 0, 0, 0, 0.99], np.float32)
        one = np.array([0.05, 0.9, 0.01, 0.01, 0.01, 0.01, 0.01], np.float32)
        return np.where(full[:, None], six, one)


def test_a_die_proposed_at_twice_the_size_of_the_others_is_read_again_at_theirs():
    reader = Reader()
    reader.reject_threshold = 0.5
    reader.model = SixWhereTheFaceFills(reader.model)
    image = np.full((240, 320, 3), 128, np.uint8)
    image[100:140, 230:270] = 235  # a 40-px die, proposed at 80 px
    found = [cand(60, 60, 40, 0.9), cand(120, 60, 40, 0.9), cand(180, 60, 42, 0.9),
             cand(250, 120, 80, 0.9)]
    out = second_look(reader, image, found, None)
    assert [int(np.argmax(c.probs[1:])) + 1 for c in out] == [1, 1, 1, 6]
    assert out[3].proposal is found[3].proposal  # the proposer's box is kept
    # two dice give no size to go by: the big one is taken as proposed
    assert second_look(reader, image, [found[0], found[3]], None)[1] is found[3]


def test_dice_too_small_for_the_first_proposal_are_found_at_twice_its_resolution(reader):
    """24-px dice in a 1920-px picture are 4 px at the proposer's ~320 px: it finds none of
    them (the shipped model, one grain of wood 64 px across), so the picture is proposed again
    at twice that, where each die is 8 px."""
    image, drawn = scene(0, "wood", n=3, size=24, w=1920, h=1920)
    first = [c for c in reader._candidates_at(image, reader.proposer_side, None)
             if not reader.rejects(c)]
    assert all(c.proposal.size > 2 * 24 for c in first)
    assert matched(reader.read(image), drawn) == (3, 3)


def test_an_overhead_reader_reads_a_die_again_at_the_square_its_silhouette_makes():
    reader = Reader(overhead=True)
    reader.reject_threshold = 0.5
    reader.model = SixWhereTheFaceFills(reader.model)
    image = np.full((240, 320, 3), (60, 110, 40), np.uint8)  # green felt
    image[103:137, 183:217] = 235  # a 34-px die at (200, 120), proposed 10 px off at 50 px
    image[40:74, 40:100] = 235  # not a square: two dice side by side, or a cocked one
    found = [cand(210, 130, 50, 0.9), cand(70, 57, 50, 0.9)]
    out = squared(reader, image, found, None)
    assert [int(np.argmax(c.probs[1:])) + 1 for c in out] == [6, 1]
    p = out[0].proposal  # at the square, at its size (the stream measures dice by it)
    assert (p.cx, p.cy, p.score) == pytest.approx((200, 120, 0.9), abs=1.5)
    assert p.w == p.h == pytest.approx(34, rel=0.1)  # not the proposed 50
    assert out[1] is found[1]


def test_a_lone_die_proposed_far_over_its_size_is_squared_at_the_size_the_caller_knows():
    # 26016, throw 11: one die on the table, proposed at 2.4 times its size; a picture of fewer
    # than three dice does not tell their size, a live table's settles do
    reader = Reader(overhead=True)
    reader.reject_threshold = 0.5
    reader.model = SixWhereTheFaceFills(reader.model)
    image = np.full((240, 320, 3), (60, 110, 40), np.uint8)
    image[103:137, 183:217] = 235  # a 34-px die at (200, 120), proposed at 81 px
    found = [cand(205, 125, 81, 0.9)]
    assert squared(reader, image, found, None) == found  # no square at 81 px
    out = squared(reader, image, found, 34.0)
    p = out[0].proposal
    assert (p.cx, p.cy, p.w) == pytest.approx((200, 120, 34), abs=1.5)
    assert int(np.argmax(out[0].probs[1:])) + 1 == 6


def test_a_die_and_one_leaning_beside_it_are_no_square_where_the_dice_are_known_smaller():
    # 32012, throw 1: a die leaning on another, and the other, proposed at 1.8 times the
    # dice's size, made one silhouette near a square that wide; read there, the die's read
    # moved off it onto the other's face
    reader = Reader(overhead=True)
    reader.reject_threshold = 0.5
    reader.model = SixWhereTheFaceFills(reader.model)
    image = np.full((240, 320, 3), (60, 110, 40), np.uint8)
    image[83:117, 83:117] = 235  # a 34-px die, and beside it a die leaning, 1.8 dice long
    image[83:144, 117:144] = 235
    image[20:54, 250:284] = image[180:214, 250:284] = 235  # two more, to give a typical size
    found = [cand(100, 100, 60, 0.9), cand(267, 37, 60, 0.9), cand(267, 197, 60, 0.9)]
    moved = squared(reader, image, found, None)[0].proposal
    assert (moved.cx, moved.cy) == pytest.approx((112, 112), abs=2)
    assert squared(reader, image, found, 34.0)[0] is found[0]


class SixWhereTheFaceIsFramed(SixWhereTheFaceFills):
    """A stand-in classifier: a sure six where a bright face fills the crop's face area and
    the table shows around it (a crop of the whole die), else a one (a crop inside the die)."""

    def classify(self, crops):
        probs = super().classify(crops)
        inside = np.array([max(c[:4].mean(), c[-4:].mean(), c[:, :4].mean(), c[:, -4:].mean())
                           >= 0.6 for c in crops])
        probs[inside] = (0.05, 0.9, 0.01, 0.01, 0.01, 0.01, 0.01)
        return probs


def test_an_overhead_reader_keeps_one_of_two_dice_read_at_the_pips_of_one():
    # a two seen as two small dice, one at each pip: cut apart between them, each half passes
    # for a small square, but the whole silhouette is the die's, and both dice read there:
    # one is kept
    reader = Reader(overhead=True)
    reader.reject_threshold = 0.5
    reader.model = SixWhereTheFaceIsFramed(reader.model)
    image = np.full((240, 320, 3), (60, 110, 40), np.uint8)
    image[103:137, 183:217] = 235  # a 34-px die at (200, 120)
    image[40:74, 40:74] = image[40:74, 120:154] = image[160:194, 40:74] = 235  # three more
    found = [cand(57, 57, 34, 0.9), cand(137, 57, 34, 0.9), cand(57, 177, 34, 0.9),
             cand(192, 112, 17, 0.6), cand(208, 128, 17, 0.5)]
    out = squared(reader, image, found, None)
    p = out[3].proposal  # the surer proposal, at the square
    assert len(out) == 4 and (p.cx, p.cy, p.score) == pytest.approx((200, 120, 0.6), abs=1.5)
    assert p.w == pytest.approx(34, rel=0.1)  # the die's size, not the pip's it was proposed at
    assert int(np.argmax(out[3].probs[1:])) + 1 == 6


def test_an_overhead_reader_reads_a_die_across_the_table_edge_proposed_at_a_pip_at_its_square():
    # the square around the die shows felt and the frame: against either alone the die merges
    # with the other, which reaches the border
    reader = Reader(overhead=True)
    reader.reject_threshold = 0.5
    reader.model = SixWhereTheFaceIsFramed(reader.model)
    rng = np.random.default_rng(0)
    image = np.full((240, 320, 3), (60, 110, 40), np.float32)  # green felt...
    image[:, 160:] = (60, 110, 160)  # ...and a wooden frame right of x = 160
    image = np.clip(image + rng.normal(0, 4, (240, 320, 1)), 0, 255).astype(np.uint8)
    image[103:137, 143:177] = 235  # a 34-px die at (160, 120), half on the frame
    image[40:74, 40:74] = image[160:194, 40:74] = image[40:74, 100:134] = 235  # three more
    found = [cand(57, 57, 34, 0.9), cand(57, 177, 34, 0.9), cand(117, 57, 34, 0.9),
             cand(152, 112, 14, 0.5)]
    out = squared(reader, image, found, None)
    assert int(np.argmax(out[3].probs[1:])) + 1 == 6


def test_of_two_reads_of_one_die_the_one_read_at_its_square_is_kept():
    reader = Reader()
    found = [cand(100, 100, 34, 0.9), cand(180, 100, 34, 0.9), cand(60, 160, 34, 0.9),
             cand(200, 200, 34, 0.6), cand(210, 200, 34, 0.4)]
    assert one_per_die(found, reader.rejects) == found[:4]
    assert one_per_die(found, reader.rejects, first={4}) == found[:3] + found[4:]



def parting_reader():
    reader = Reader(overhead=True)
    reader.reject_threshold = 0.5
    reader.model = SixWhereTheFaceFills(reader.model)
    return reader


def parting_scene():
    """Three dice on felt, each proposed (at 50 px, as the proposer sizes a 36-px die)."""
    from overhead_helpers import put, table

    image = table(320, 240)
    for x, y in ((60, 60), (60, 180), (260, 190)):
        put(image, x, y, 10)
    return image, [cand(60, 60, 50, 0.9), cand(60, 180, 50, 0.9), cand(260, 190, 50, 0.9)]


def near(c, x, y, within=6.0):
    return np.hypot(c.proposal.cx - x, c.proposal.cy - y) <= within


def test_an_overhead_reader_reads_a_die_the_proposer_missed_beside_a_die():
    from overhead_helpers import put

    image, found = parting_scene()
    put(image, 105, 75, 30)  # 47 px from the die at (60, 60), not proposed
    out = with_missed(parting_reader(), image, found, None)
    assert out[:3] == found and len(out) == 4 and near(out[3], 105, 75)


def test_an_overhead_reader_reads_no_speck_beside_a_die():
    # a chip half a die across (a quarter of its area) beside a die: under half a die, no die
    image, found = parting_scene()
    image[30:50, 100:120] = 230
    assert with_missed(parting_reader(), image, found, None) is found


def test_an_overhead_reader_reads_two_dice_proposed_as_one_between_them_at_each():
    from overhead_helpers import put

    image, found = parting_scene()
    put(image, 160, 60, 10)
    put(image, 215, 80, 30)
    out = with_missed(parting_reader(), image, [*found, cand(187, 70, 76, 0.6)], None)
    assert out[:3] == found and len(out) == 5
    assert near(out[3], 160, 60) and near(out[4], 215, 80)


def test_an_overhead_reader_reads_a_die_proposed_with_the_cocked_die_leaning_on_it_at_each():
    from overhead_helpers import put

    image, found = parting_scene()
    put(image, 160, 110, 0)
    put(image, 160, 66, 0, lean=40)  # top face 28 px and side 23 px long, the side touching
    out = with_missed(parting_reader(), image, [*found, cand(160, 95, 60, 0.6)], None)
    assert out[:3] == found and len(out) == 5
    low, high = sorted(out[3:], key=lambda c: c.proposal.cy)
    assert near(low, 160, 60, 8) and near(high, 160, 108, 8)


def test_an_overhead_reader_leaves_a_stack_and_dice_alone_as_proposed():
    from test_live_stacked import stack

    image, found = parting_scene()
    stack(image, 160, 100, 15, (0.6, -0.8))
    found.append(cand(160, 100, 55, 0.8))
    image[15:120, 92:118] = 200  # a thing over two dice big beside a die (a phone): no die
    assert with_missed(parting_reader(), image, found, None) is found


def test_an_overhead_reader_finds_squares_when_most_dice_were_proposed_at_their_pips():
    # seed 13006, throw 5: four of seven proposals were pips (about 20 px for 34-px dice), so
    # the typical size was a pip's and no die's square was found at it: a blue two was read
    # as a one at its pip, a green four on green felt as a two in a 55-px box in some frames
    from zonkcam.vision.sim.simulator import SimConfig, Simulation

    sim = Simulation(SimConfig(seed=13006, throws=5))
    first = sim.truth["throws"][4]["frame"]
    reader = Reader(overhead=True)
    for i in range(first, first + 12, 2):
        frame = sim._frames[i]
        dice = reader.read(sim.render(i, frame)).dice
        assert sorted(d.value for d in dice) == sorted(d.value for d in frame.dice)
