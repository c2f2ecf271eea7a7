"""`zonkcam capture` on the demo camera: settled throws saved as a labelled dataset."""
import json

import pytest
from zonkcam.hardware.cli import main
from zonkcam.models.registry import shipped_model


@pytest.mark.skipif(not shipped_model().is_file(), reason="no shipped dice model in this checkout")
def test_capture_saves_each_settled_throw_with_labels(tmp_path, capsys):
    out = tmp_path / "captures"
    assert main(["capture", "--camera", "demo", "--out", str(out), "--throws", "2"]) == 0
    metas = sorted((out / "meta").glob("*.json"))
    assert len(metas) == 2
    meta = json.loads(metas[0].read_text())
    assert meta["dice"] and {"value", "confidence", "box", "flagged"} <= set(meta["dice"][0])
    label = (out / "labels" / f"{metas[0].stem}.txt").read_text().split()
    assert len(label) % 5 == 0 and all(0 <= int(c) <= 5 for c in label[::5])
    assert "2 throws saved" in capsys.readouterr().out


def test_capture_from_a_missing_camera_is_a_clear_error(tmp_path, capsys):
    assert main(["capture", "--camera", str(tmp_path / "nope"), "--out", str(tmp_path / "c")]) == 2
    assert "not a camera" in capsys.readouterr().err
