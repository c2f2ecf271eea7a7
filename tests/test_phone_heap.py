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
