"""Captured datasets: YOLO labels from the recognizer, corrections, review order, size cap."""
import json

import numpy as np
import pytest
from zonkcam.models.captures import CaptureError, CaptureSet
from zonkcam.vision.dice import Die


def die(value, confidence, box=(10, 20, 30, 40), status="ok"):
    center = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return Die(value, "red", confidence, 0.9, box, center, 0.0, status)


def frame(seed=0):
    return np.random.default_rng(seed).integers(0, 255, (100, 200, 3), dtype=np.uint8)


def test_a_capture_has_yolo_labels_and_a_sidecar(tmp_path):
    captures = CaptureSet(tmp_path)
    name = captures.add(frame(), [die(3, 0.99), die(None, 0.4, status="unreadable"), die(6, 0.5)], "dice-v1")
    labels = (tmp_path / "labels" / f"{name}.txt").read_text().split("\n")
    assert labels[0] == "2 0.100000 0.300000 0.100000 0.200000"
    assert labels[1].startswith("5 ") and labels[2] == ""  # the unreadable die has no label
    meta = json.loads((tmp_path / "meta" / f"{name}.json").read_text())
    assert meta["model"] == "dice-v1" and not meta["reviewed"]
    assert [d["flagged"] for d in meta["dice"]] == [False, True, True]
    assert captures.image(name).shape == (100, 200, 3)


def test_review_queue_is_least_confident_first_and_corrections_rewrite_labels(tmp_path):
    captures = CaptureSet(tmp_path)
    a = captures.add(frame(1), [die(3, 0.99), die(6, 0.5)])
    b = captures.add(frame(2), [die(1, 0.7, box=(100, 20, 120, 40)),
                                die(None, 0.3, box=(150, 20, 170, 40), status="unreadable")])
    queue = [(item.name, item.die) for item in captures.review_queue()]
    assert queue == [(b, 1), (a, 1), (b, 0), (a, 0)]
    captures.correct(a, 1, value=4)
    assert (tmp_path / "labels" / f"{a}.txt").read_text().split("\n")[1].startswith("3 ")
    meta = captures.meta(a)
    assert meta["reviewed"] and meta["dice"][1]["value"] == 4 and meta["dice"][1]["confidence"] == 1.0
    # only the die a person set leaves the queue; its neighbour was never looked at
    assert [(item.name, item.die) for item in captures.review_queue()] == [(b, 1), (b, 0), (a, 0)]
    with pytest.raises(CaptureError, match="no die 5"):
        captures.correct(a, 5, value=1)
    with pytest.raises(CaptureError, match="face value"):
        captures.correct(a, 0, value=7)


def test_rejected_candidates_are_kept_for_review_unless_on_a_die(tmp_path):
    captures = CaptureSet(tmp_path)
    on_a_die = die(None, 0.2, box=(12, 22, 30, 40), status="unreadable")
    logo = die(None, 0.1, box=(100, 20, 120, 40), status="unreadable")
    name = captures.add(frame(), [die(3, 0.99)], rejected=[on_a_die, logo])
    dice = captures.meta(name)["dice"]
    assert [(d["value"], d.get("rejected", False), d["flagged"]) for d in dice] == [
        (3, False, False), (None, True, True)]
    assert [(i.die, i.rejected) for i in captures.review_queue()] == [(1, True), (0, False)]
    captures.correct(name, 1, value=0)
    assert captures.meta(name)["dice"][1]["status"] == "not_a_die"
    assert len((tmp_path / "labels" / f"{name}.txt").read_text().split("\n")) == 2  # one label
    with pytest.raises(CaptureError, match="not a pip die"):
        captures.correct(name, 1, value=-1)


def test_size_cap_prunes_oldest_unreviewed_never_reviewed(tmp_path):
    captures = CaptureSet(tmp_path, max_bytes=None)
    names = [captures.add(frame(i), [die(2, 0.95)]) for i in range(4)]
    captures.correct(names[0], 0, value=2)  # a person confirmed its die: the frame is reviewed
    per_frame = captures._bytes(names[1])
    captures.max_bytes = int(per_frame * 2.5)
    removed = captures.prune()
    assert removed == names[1:3]
    assert captures.names() == [names[0], names[3]]
    assert not (tmp_path / "images" / f"{names[1]}.jpg").exists()


def test_crop_is_the_die_with_a_margin(tmp_path):
    captures = CaptureSet(tmp_path)
    name = captures.add(frame(), [die(5, 0.99, box=(40, 40, 80, 80))])
    assert captures.crop(name, 0).shape[:2] == (60, 60)


def test_frames_sort_oldest_first_across_a_second(tmp_path, monkeypatch):
    # the clock read once a frame: 10.5 s, 10.9999 s, 11.2 s
    clock = iter([10_500_000_000, 10_999_900_000, 11_200_000_000])
    monkeypatch.setattr("zonkcam.models.captures.time.time_ns", lambda: next(clock))
    c = CaptureSet(tmp_path / "cap", max_bytes=None)
    image = np.full((40, 40, 3), 90, np.uint8)
    added = [c.add(image, []) for _ in range(3)]
    assert c.names() == added


def test_a_correction_is_a_face_and_a_colour_name_or_refused(tmp_path):
    captures = CaptureSet(tmp_path / "c")
    name = captures.add(np.zeros((48, 64, 3), np.uint8), [die(3, 0.5)])
    for value, color in ((True, None), (7, None), (None, ["a"]), (None, "Red Dye"), (None, "../x")):
        with pytest.raises(CaptureError):
            captures.correct(name, 0, value=value, color=color)
    captures.correct(name, 0, value=5, color="red")
    entry = captures.meta(name)["dice"][0]
    assert (entry["value"], entry["color"]) == (5, "red")


def test_queue_puts_likely_misreads_first_and_table_junk_last(tmp_path):
    captures = CaptureSet(tmp_path)
    unsure = {"probs": [0.0, 0.0, 0.45, 0.5, 0.0, 0.0, 0.05], "heat": 0.9}  # a 3 or a 2
    clear = {"probs": [0.0, 0.0, 0.0, 0.93, 0.0, 0.0, 0.07], "heat": 0.9}
    name = captures.add(frame(), [die(3, 0.93, box=(10, 10, 30, 30)), die(3, 0.5, box=(40, 10, 60, 30)),
                                  die(4, 0.95, box=(70, 10, 90, 30))],
                        rejected=[die(None, 0.1, box=(100, 10, 120, 30), status="unreadable"),
                                  die(None, 0.2, box=(130, 10, 150, 30), status="unreadable")])
    meta = captures.meta(name)
    for entry, look in zip(meta["dice"], [clear, unsure, None, {"probs": [0.9] + [0.02] * 6, "heat": 0.1},
                                          {"probs": [0.8] + [0.04] * 6, "heat": 0.8}], strict=True):
        if look:
            entry["look"] = look
    (tmp_path / "meta" / f"{name}.json").write_text(json.dumps(meta))
    queue = captures.review_queue()
    # the unsure 3, the unread die-shaped thing (a face never taught), then the sure reads, least
    # sure first, the mark the proposer hardly took for a die last
    assert [(i.die, i.group) for i in queue] == [(1, "misread"), (4, "misread"), (0, "sure"), (2, "sure"),
                                                 (3, "junk")]
    assert [i.words for i in queue] == ["reads 3, unsure (or 2?)", "a die? face not recognised", "reads 3",
                                        "reads 4", "probably not a die"]
    # the same spot read otherwise in the next frame: one of the two reads is wrong
    other = captures.add(frame(), [die(5, 0.99, box=(11, 10, 31, 30)),  # the 3 that lay still
                                   die(5, 0.99, box=(46, 12, 66, 32))])  # rethrown, came to rest near
    assert {(i.name, i.die) for i in captures.review_queue()[:2]} == {(other, 0), (name, 0)}


def test_bad_crop_skip_and_a_missed_die(tmp_path):
    captures = CaptureSet(tmp_path)
    name = captures.add(frame(), [die(3, 0.5, box=(10, 10, 30, 30)), die(2, 0.6, box=(40, 10, 80, 50))])
    captures.dismiss(name, 1, "bad_crop")
    captures.dismiss(name, 0, "skip")
    assert captures.review_queue() == []
    dice = captures.meta(name)["dice"]
    assert dice[1]["status"] == "bad_crop" and dice[0]["skipped"] and dice[0]["value"] == 3
    assert len((tmp_path / "labels" / f"{name}.txt").read_text().split()) == 5  # the skipped 3 only
    added = captures.add_die(name, 150, 60)
    assert captures.meta(name)["dice"][added]["box"] == [140, 50, 160, 70]  # the frame's dice size
    assert [(i.die, i.words) for i in captures.review_queue()] == [(added, "added by you: which face?")]
    captures.correct(name, added, value=6)
    assert captures.review_queue() == []
    assert (tmp_path / "labels" / f"{name}.txt").read_text().split("\n")[1].startswith("5 0.750000 0.600000")
    with pytest.raises(CaptureError, match="outside"):
        captures.add_die(name, 500, 10)
    with pytest.raises(CaptureError, match="not one of"):
        captures.dismiss(name, 0, "burn")


def test_a_sure_read_unlike_its_look_alikes_is_checked_first(tmp_path):
    from zonkcam.models.review_rank import SIGNATURE

    captures = CaptureSet(tmp_path)
    rng = np.random.default_rng(0)
    skull = rng.normal(size=SIGNATURE * SIGNATURE)
    plain = rng.normal(size=SIGNATURE * SIGNATURE)
    sure = {"probs": [0.0, 0.0, 0.95, 0.0, 0.05, 0.0, 0.0], "heat": 0.9}
    dice = [die(2, 0.95, box=(10 + 25 * k, 10, 30 + 25 * k, 30)) for k in range(6)]
    name = captures.add(frame(), dice)
    meta = captures.meta(name)
    # dice 0-3 look alike (a skull turned any way); 1-3 read as 4, die 0 surely as 2; 4-5 are 2s
    for k, entry in enumerate(meta["dice"]):
        sig = np.rot90((skull if k < 4 else plain).reshape(SIGNATURE, SIGNATURE), k).ravel()
        entry["look"] = sure | {"sig": list(sig + rng.normal(0, 0.05, sig.shape))}
        if 1 <= k <= 3:
            entry["value"] = 4
    (tmp_path / "meta" / f"{name}.json").write_text(json.dumps(meta))
    queue = captures.review_queue()
    assert (queue[0].die, queue[0].group) == (0, "misread")
    assert {i.die for i in queue if i.group == "sure"} == {1, 2, 3, 4, 5}


def test_photos_are_no_sequence_a_die_at_the_same_spot_is_no_neighbour(tmp_path):
    captures = CaptureSet(tmp_path)
    a = captures.add(frame(), [die(3, 0.95, box=(10, 10, 30, 30))], still=True)
    b = captures.add(frame(), [die(5, 0.95, box=(10, 10, 30, 30))], still=True)
    assert [(i.name, i.group) for i in captures.review_queue()] == [(a, "sure"), (b, "sure")]
