"""benchmarks/device_train.py: crops cut here train the shipped classifier elsewhere (needs torch)."""
from types import SimpleNamespace

import benchmark_scripts
import numpy as np
import pytest
from zonkcam.vision.faces import PATCH, PATCH_MARGIN
from zonkcam.vision.sim.drawn import DrawnDie, background, draw_die


def test_dumped_crops_come_back_with_rejects_weighted_and_train_a_loadable_model(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from zonkcam.vision.model import DiceModel

    dt = benchmark_scripts.load("device_train")
    rng = np.random.default_rng(0)
    patches, labels = [], []
    for i in range(56):  # 8 rejects: half of them kept, each twice
        patch = background(rng, PATCH, PATCH, "felt")
        value = i % 7  # 0: a reject (the felt alone)
        if value:
            draw_die(patch, DrawnDie(value, "white", PATCH / 2, PATCH / 2, PATCH / PATCH_MARGIN, 0.0))
        patches.append(patch.mean(axis=2).astype(np.uint8))
        labels.append(value)
    data = tmp_path / "crops.npz"
    dt.save(data, np.stack(patches), np.array(labels), reject_share=0.5)
    back, back_labels = dt.load(data)
    # every die once, half the rejects twice: as many rejects as were cut
    assert np.bincount(back_labels).tolist() == np.bincount(labels).tolist()
    assert back.shape[1:] == (PATCH, PATCH) and np.abs(back[back_labels > 0].mean() - np.mean(
        [p for p, v in zip(patches, labels, strict=True) if v])) < 2  # JPEG, not other pictures
    out = tmp_path / "cand.onnx"
    args = SimpleNamespace(data=data, out=out, start=dt.SHIPPED, scratch=False, hard_faces=0.2,
                           epochs=1, lr=1e-4, seed=0, device="cpu", workers=1)
    assert dt.train(args) == 0
    DiceModel(out)  # the shipped graph with the classifier trained on: it loads and reads
