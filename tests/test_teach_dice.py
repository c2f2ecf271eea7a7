"""Issue 6's proof: zonkcam learns a table's odd dice (a star for the one, a logo for the six).

Simulated table with those dice -> capture with the current model's labels (misreads included)
-> a handful of corrections through CaptureSet, as the kiosk makes them -> `zonkcam train` ->
the whole recognizer with the new model reads held-back custom dice >= 99% right, and drawn
pip dice no worse than before.
Runs without rune55 (drawn base data). Timed: the figures go to the test's output (-s).
"""
from __future__ import annotations

import itertools
import json
import math
import time
from collections import Counter

import pytest

pytestmark = pytest.mark.slow
pytest.importorskip("torch", reason="the train extra is not installed")

from zonkcam.hardware.cli import main  # noqa: E402
from zonkcam.models.captures import NOT_A_DIE, CaptureSet  # noqa: E402
from zonkcam.models.registry import Registry, shipped_model  # noqa: E402
from zonkcam.vision.read import Reader  # noqa: E402
from zonkcam.vision.sim.simulator import SimConfig, Simulation  # noqa: E402
from zonkcam.vision.stream import ThrowStream  # noqa: E402
from zonkcam.vision.table import TableConfig  # noqa: E402

THROWS = 80
DICE = 10  # more dice than a game uses: more held-back dice per simulated second
REVIEWED = 100  # dice the person looks at on the review page (least confident first)


Truth = dict[str, list[tuple[float, float, int]]]  # frame name -> resting dice (x, y, value)


def capture(root, model) -> tuple[CaptureSet, Truth, float]:
    """What `zonkcam capture` does, on a simulated table; also where every resting die lay, and
    the die size."""
    sim = Simulation(SimConfig(seed=21, throws=THROWS, dice=DICE, fps=15, dice_style="star-logo",
                               keep_policy=lambda values, state: None,  # every die thrown again
                               p_off_table=0, p_cocked=0, p_stacked=0, p_disturbance=0))
    region = sim.truth["table"]
    table = TableConfig(tuple(region["frame_size"]), [tuple(p) for p in region["polygon"]])
    stream = ThrowStream(Reader(model), table)
    captures = CaptureSet(root, max_bytes=None)
    truth: Truth = {}
    for i, (t, frame) in enumerate(sim.frames()):
        event = stream.feed(frame, t)
        if event is None:
            continue
        name = captures.add(frame, [*event.kept, *event.thrown], model=str(model),
                            rejected=stream.last_unread)  # faces it could not read, for review
        truth[name] = [(d.x, d.y, d.value) for d in sim._frames[i].dice if d.status == "ok"]
    return captures, truth, sim.size


def value_at(truth: Truth, name: str, center, size: float) -> int | None:
    """The value of the die lying at `center` (None: no die there)."""
    x, y = center
    tx, ty, value = min(truth[name], key=lambda d: math.hypot(d[0] - x, d[1] - y))
    return value if math.hypot(tx - x, ty - y) < 0.5 * size else None


def held_back_accuracy(captures: CaptureSet, names, truth: Truth, size: float, model_path
                       ) -> tuple[float, int, dict[int, float]]:
    """The whole recognizer with `model_path` on the held-back frames, against the simulator:
    of the resting dice it finds (read, or rejected as "not a pip die"), the share reported with
    their value. Dice the proposer misses are not the classifier's to learn (issue 7's recall)."""
    reader = Reader(model_path)
    right: Counter[int] = Counter()
    seen: Counter[int] = Counter()
    for name in names:
        reading = reader.read(captures.image(name))
        found = [*reading.dice, *reading.rejected]
        for x, y, value in truth[name]:
            d = min(found, key=lambda d: math.hypot(d.center[0] - x, d.center[1] - y), default=None)
            if d is None or math.hypot(d.center[0] - x, d.center[1] - y) >= 0.5 * size:
                continue
            seen[value] += 1
            right[value] += d.value == value
    per_value = {v: round(right[v] / seen[v], 3) for v in sorted(seen)}
    return sum(right.values()) / sum(seen.values()), sum(seen.values()), per_value


def test_teach_custom_dice(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ZONKCAM_HOME", str(tmp_path / "home"))
    # frames are named by the clock, and training holds frames back by their names: a fixed
    # clock holds the same frames back on every run (by the wall clock, held-back accuracy
    # ran 0.986-1.000 from run to run)
    clock = itertools.count(1_795_000_000 * 10**9, 10**9)
    monkeypatch.setattr(time, "time_ns", lambda: next(clock))
    t0 = time.time()
    old = Registry().active_path()
    assert old == shipped_model()
    root = tmp_path / "captures"
    captures, truth, size = capture(root, old)
    t_capture = time.time() - t0

    # The person opens the review page (least confident dice first, those it could not read at
    # all before them), picks the dice showing the same face among the first REVIEWED and sets
    # them in one tap per face ("not a die" for what is no die): a handful of bulk corrections,
    # each through CaptureSet.correct as the page makes them.
    corrections = confirmed = 0
    faces = set()
    for item in captures.review_queue()[:REVIEWED]:
        center = captures.meta(item.name)["dice"][item.die]["center"]
        value = value_at(truth, item.name, center, size) or NOT_A_DIE
        captures.correct(item.name, item.die, value=value)
        faces.add(value)
        corrections += item.value != value
        confirmed += item.value == value

    t1 = time.time()
    assert main(["train", str(root), "--out", str(tmp_path / "star-logo"), "--epochs", "6"]) == 0
    t_train = time.time() - t1
    captured = capsys.readouterr()
    printed, log = captured.out, captured.err.replace("\r", "\n")
    metrics = json.loads((tmp_path / "star-logo" / "metrics.json").read_text())
    new = tmp_path / "star-logo" / "model.onnx"
    names = [key.split("/", 1)[1] for key in metrics["held_back_frames"]]
    before, n, per_before = held_back_accuracy(captures, names, truth, size, old)
    after, _, per_after = held_back_accuracy(captures, names, truth, size, new)
    report = (f"\n{len(captures.names())} frames captured in {t_capture:.0f} s; {REVIEWED} dice reviewed "
              f"in {len(faces)} bulk taps ({corrections} changed, {confirmed} confirmed); "
              f"held-back custom dice ({n}): "
              f"{before:.3f} -> {after:.3f} (per value {per_before} -> {per_after}); drawn pip dice: "
              f"{metrics['before']['base']} -> {metrics['after']['base']}; zonkcam train {t_train:.0f} s "
              f"(training {metrics['train_seconds']} s)\n{printed}")
    with capsys.disabled():
        print(report)
        print("\n".join(line for line in log.splitlines() if "eta" not in line or "/" not in line))
    # The proof: the custom faces the shipped model misreads (the logo six, the star one) ...
    assert min(per_before[1], per_before[6]) < 0.8, "no custom face was misread before: no proof"
    assert n >= 120
    # ... are read after capture -> a handful of corrections -> zonkcam train (issue 6's target:
    # >= 99% on the held-back custom dice; 1.000 with seeds 0-2 here; CI once read 0.990 before
    # verified dice weighed x3), nothing forgotten
    assert after >= 0.99 and min(per_after[1], per_after[6]) >= 0.95, report
    assert metrics["after"]["base"] >= metrics["before"]["base"], report  # no forgetting
    assert metrics["activated"] and Registry().active_name() == "star-logo"
    assert metrics["thin_faces"] == {}, report  # each new face shown often enough: no warning
    assert len(faces) <= 7  # one bulk tap per face (or no die): a handful, not a relabelling session
