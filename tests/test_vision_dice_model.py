"""`DiceModel.propose` feeds the classifier an empty batch: onnxruntime runs the whole graph
whatever output is asked for, so the proposal would otherwise pay for a crop read."""
import numpy as np
from zonkcam.vision.model import DiceModel


def _grey(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.random((96, 128)).astype(np.float32)


def test_the_proposal_is_the_same_with_the_classifier_given_nothing():
    model = DiceModel()
    for seed in range(3):
        grey = _grey(seed)
        heat, geometry = model.propose(grey)
        plain_heat, plain_geometry = model.session.run(["heat", "geometry"], {"image": grey[None, None]})
        assert model._no_crops is not None
        assert np.array_equal(heat, plain_heat[0, 0]) and np.array_equal(geometry, plain_geometry[0])


def test_a_model_that_refuses_an_empty_batch_is_run_as_before_and_its_refusal_is_not_logged():
    """onnxruntime before 1.32 refuses to dequantize an empty batch and logs an error for it
    (seen on 1.30): the first try runs with errors unlogged, then the plain run as before."""
    model = DiceModel()
    run = model.session.run
    calls, severities = [], []

    class Refusing:
        def run(self, names, feed, options=None):
            calls.append(set(feed))
            severities.append(None if options is None else options.log_severity_level)
            if "crops" in feed and not len(feed["crops"]):
                raise RuntimeError("cannot broadcast an empty batch")
            return run(names, feed)

    model.session = Refusing()
    heat, _ = model.propose(_grey(0))
    model.propose(_grey(1))
    assert heat.shape == (96 // model.stride, 128 // model.stride)
    assert model._no_crops is None
    assert calls == [{"image", "crops"}, {"image"}, {"image"}]
    assert severities == [4, None, None]  # 4: fatal errors only
