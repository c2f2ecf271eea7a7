"""benchmarks/phone_heap.py, issue 36's phone photos of dice heaped in a bowl: its dice are whole
cubes lying apart, and its labels name the face most nearly up."""
import benchmark_scripts
import numpy as np


def test_each_die_is_a_cube_apart_from_the_others_its_up_face_labelled():
    heap = benchmark_scripts.load("phone_heap")
    rng = np.random.default_rng(5)
    poses, readable = set(), 0
    for _ in range(3):
        cubes = heap._place(rng, heap.Camera(f=700, tilt=0.2, dist=25, roll=0.3, w=1008, h=756),
                            16, (504, 378, 300, 250))
        floor = [c for c in cubes if c.pose != "on two"]
        for i, c in enumerate(floor):  # no two dice on the floor drawn through each other
            assert heap._apart(c, floor[:i] + floor[i + 1:])
        for c in cubes:
            faces = {value: normal for value, normal, _ in c.faces()}
            assert all(np.allclose(faces[v], -faces[7 - v]) for v in range(1, 7))
            assert faces[c.top][2] == max(n[2] for n in faces.values())
            lowest = min(p[:, 2].min() for _, _, p in c.faces())
            assert np.isclose(lowest, 1.0 if c.pose == "on two" else 0.0)  # resting, not floating
            poses.add(c.pose)
    assert poses == {"flat", "leaning", "on two"}
    for _ in range(2):
        image, seen, _look = heap.photo(rng, 1008, 756)
        assert image.shape == (756, 1008, 3) and seen
        rows, ignore = heap.rows_of(seen, 1008, 756)
        assert len(rows) + len(ignore) == len(seen)
        readable += len(rows)
        assert ((rows[:, 1:3] > 0) & (rows[:, 1:3] < 1)).all() and set(rows[:, 0]) <= set(range(1, 7))
    assert readable > 10


def test_side_faces_read_as_dice_are_split_by_whether_the_die_is_legible():
    """`--sides`: a read on a legible die's side (its top read too) is a phantom; one on an
    illegible die's side counts neither way; a side's value read for the top is set against
    what wrong values give by chance (sides / 5 each)."""
    from zonkcam.vision.dice import Die
    heap = benchmark_scripts.load("phone_heap")

    def square(x0, y0, side=10.0):
        return np.array([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], float)

    def die(x, y, value):
        return Die(value, None, 0.9, 0.9, (0, 0, 1, 1), (x, y), 0.0)

    legible = heap.Seen(5, "leaning", (0, 0, 10, 16), square(0, 0), [(1, square(0, 10, 6))], True)
    leaning = heap.Seen(2, "leaning", (40, 0, 50, 16), square(40, 0), [(4, square(40, 10, 6))], False)
    extra = [die(3, 13, 1), die(43, 13, 4), die(100, 100, 3)]  # two sides and a phantom elsewhere
    pairs = [(die(5, 5, 1), legible)]  # the top read at its side's value
    assert heap.side_reads(extra, pairs, [legible, leaning]).tolist() == [2, 1, 1, 1, 0.2]
