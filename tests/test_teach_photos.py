"""Issue 37's proof on a small drawn proxy: a folder of photos of dice with new faces (a skull on
the one, an emblem on the six) -> capture --stills -> a person's review (answers from the
drawing) -> train -> never-taught photos read right.

The same loop as `benchmarks/teach_eval.py` (which runs it on real rune55 photos), kept small:
drawn tables, 8 photos taught and 12 read, with `zonkcam train`'s own recipe (a small capture:
24 epochs over three folds, about 12 minutes on one core), so that the figure is what a user's
teaching gives (4 epochs, the test before stop 47, read 88 % of them). `pytest -q -s -rxX`
prints the figures.
"""
from __future__ import annotations

import json

import benchmark_scripts
import pytest

pytestmark = pytest.mark.slow
pytest.importorskip("torch", reason="the train extra is not installed")

TARGET = 95.0  # % of the new faces read right on never-taught photos (issue 37)
# Below this floor the loop has broken, not merely fallen short (the faces missed are the
# classifier's, read as no die or as the other new face: docs/teach.md).
FLOOR = 50.0


def test_ten_photos_teach_the_new_faces(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ZONKCAM_HOME", str(tmp_path / "home"))
    f = benchmark_scripts.load("teach_eval").run(tmp_path, source="drawn", teach=8, test=12, seed=0)
    with capsys.disabled():
        print("\n" + json.dumps(f))
    assert f["new_faces"]["before"] < 50, "the shipped model already reads the new faces: no proof"
    assert f["new_faces"]["n"] >= 20
    assert f["new_faces"]["after"] >= FLOOR, f
    # no worse on the other faces of those photos, on plain photos, on drawn pip dice, by more than
    # a die on each (the figures are rounded to 0.1 %: 60 -> 59 of 72 dice reads 83.3 -> 81.9)
    for key in ("pip_faces", "plain_dice", "plain_dice_found", "drawn_pip_dice"):
        slack = 100 / f[key]["n"] + 0.1
        assert f[key]["after"] >= f[key]["before"] - slack, (key, f)
    assert f["review"]["taps_per_photo"] <= 10, f
    if f["new_faces"]["after"] < TARGET:  # shown as xfail with the figure until the target holds
        pytest.xfail(f"issue 37's target not reached: {f['new_faces']['after']}% of the new faces "
                     f"read right (target {TARGET}%)")
