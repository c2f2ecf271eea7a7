"""`train --classifier-from M --distill W`: a classifier trained further keeps its own reading of
the patches marked kept (the photographed ones) while it learns new drawn ones."""
import numpy as np
import pytest
from zonkcam.models.crops import CROP, CROP_MARGIN, drawn_patches, reader_crops
from zonkcam.vision.model import default_model_path


def _reading_moved(net, start, crops) -> float:
    """How far `net`'s classes moved from `start`'s on `crops` (mean KL divergence)."""
    import torch

    with torch.no_grad():
        p = torch.log_softmax(start(crops), 1)
        q = torch.log_softmax(net(crops), 1)
    return float((p.exp() * (p - q)).sum(1).mean())


def test_distillation_keeps_the_starting_reading_of_kept_patches():
    torch = pytest.importorskip("torch")
    from zonkcam.models.onnx_io import OnnxClassifier
    from zonkcam.models.train import train_classifier

    torch.set_num_threads(1)
    patches, labels = drawn_patches(256, np.random.default_rng(0))
    wrong = labels % 6 + 1  # a lesson the starting classifier disagrees with everywhere
    spec = OnnxClassifier.load(default_model_path())
    crops = torch.from_numpy(reader_crops(patches, CROP, CROP_MARGIN)[:, None])
    kept = np.ones(len(labels), bool)
    plain = train_classifier(patches, wrong, 4, 0, net=spec.twin(), lr=3e-3)
    distilled = train_classifier(patches, wrong, 4, 0, net=spec.twin(), lr=3e-3,
                                 distill=5.0, kept=kept)  # (its pull is 0 at the first step)
    start = spec.twin().eval()
    moved, kept_moved = _reading_moved(plain, start, crops), _reading_moved(distilled, start, crops)
    assert kept_moved < 0.5 * moved


def test_distill_without_a_classifier_to_keep_or_a_bad_lr_is_a_usage_error(capsys):
    pytest.importorskip("torch")
    from zonkcam.models.train import main

    for argv, named in ((["--distill", "1"], "--distill"),
                        (["--distill", "-1", "--classifier-from", "x.onnx"], "--distill"),
                        (["--lr", "0", "--classifier-from", "x.onnx"], "--lr"),
                        (["--lr", "0.001"], "--lr")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        assert named in capsys.readouterr().err
