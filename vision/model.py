"""Loading the shipped ONNX model (`models/dice.onnx`) with onnxruntime.

One file holds both nets: the proposer (input `image`, outputs `heat`, `geometry`) and the face
classifier (input `crops`, output `face`). Each input has a default value, so each stage runs
alone.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "dice.onnx"
_REQUIRED = {"inputs": {"image", "crops"}, "outputs": {"heat", "geometry", "face"}}


class ModelError(Exception):
    """The model file is missing, corrupt or not a zonkcam dice model."""


def default_model_path() -> Path:
    """The model shipped with the package. Which model a table uses (the registry's active one)
    is the caller's choice: vision is handed a path and never asks the registry."""
    return DEFAULT_MODEL


class DiceModel:
    """The two nets behind one onnxruntime session."""

    def __init__(self, path: str | Path | None = None, threads: int = 1) -> None:
        import onnxruntime as ort

        self.path = Path(path) if path is not None else default_model_path()
        if not self.path.is_file():
            raise ModelError(f"model file not found: {self.path}")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3  # the optional inputs' defaults trigger a harmless warning
        try:
            self.session = ort.InferenceSession(
                str(self.path), opts, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises several unrelated types
            if "INVALID_PROTOBUF" in str(exc):  # a truncated download, or not a model at all
                raise ModelError(f"cannot load model {self.path}: not an ONNX model file "
                                 "(corrupt, cut short, or another format)") from exc
            raise ModelError(f"cannot load model {self.path}: {exc}".splitlines()[0]) from exc
        names = {
            # inputs with a default value are listed as overridable initializers
            "inputs": {i.name for i in self.session.get_inputs()}
            | {i.name for i in self.session.get_overridable_initializers()},
            "outputs": {o.name for o in self.session.get_outputs()},
        }
        for kind, want in _REQUIRED.items():
            if not want <= names[kind]:
                raise ModelError(
                    f"{self.path} is not a zonkcam dice model (missing {kind}: "
                    f"{', '.join(sorted(want - names[kind]))})"
                )
        meta = self.session.get_modelmeta().custom_metadata_map
        try:
            self.stride = int(meta.get("stride", 4))
            self.crop = int(meta.get("crop", 32))
            self.crop_margin = float(meta.get("crop_margin", 1.1))
            # thresholds chosen on the tune split by `python -m zonkcam.models.tune`, if it ran
            self.heat_threshold = _optional_float(meta, "heat_threshold")
            self.reject_threshold = _optional_float(meta, "reject_threshold")
            self.value_threshold = _optional_float(meta, "value_threshold")
        except ValueError as exc:
            raise ModelError(f"{self.path}: its metadata is not a dice model's ({exc})") from None
        if not (1 <= self.stride <= 64 and 8 <= self.crop <= 256):
            raise ModelError(f"{self.path}: stride {self.stride} or crop {self.crop} out of range")
        self._no_crops: np.ndarray | None = np.zeros((0, 1, self.crop, self.crop), np.float32)
        # onnxruntime before 1.32 cannot dequantize an empty batch and logs an error for it; the
        # fallback below is expected, so that first try runs silent
        self._quiet = ort.RunOptions()
        self._quiet.log_severity_level = 4

    def check(self) -> None:
        """Run both nets once on blank input and check what they give back, so a model that
        loads but cannot read dice is refused before it is installed."""
        try:
            heat, geometry = self.propose(np.zeros((64, 64), np.float32))
            face = self.classify(np.zeros((2, self.crop, self.crop), np.float32))
        except Exception as exc:  # onnxruntime's own error types
            raise ModelError(f"{self.path}: does not run ({exc})".splitlines()[0]) from None
        if heat.ndim != 2 or geometry.shape[1:] != heat.shape or face.shape != (2, 7):
            raise ModelError(f"{self.path}: gives outputs of the wrong shape (heat {heat.shape}, "
                             f"geometry {geometry.shape}, face {face.shape})")


    def propose(self, grey01: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Centre heatmap (gh, gw) and geometry (4, gh, gw) for a float image in 0..1."""
        feed = {"image": grey01[None, None]}
        # onnxruntime runs the whole graph whatever is asked for: left to its default, the
        # classifier reads a crop each time (a 320-px proposal 3.8 -> 2.9 ms given none)
        if self._no_crops is not None:
            try:
                heat, geometry = self.session.run(["heat", "geometry"], feed | {"crops": self._no_crops},
                                                  self._quiet)
                return heat[0, 0], geometry[0]
            except Exception:  # a model whose classifier cannot take an empty batch
                self._no_crops = None
        heat, geometry = self.session.run(["heat", "geometry"], feed)
        return heat[0, 0], geometry[0]

    def classify(self, crops01: np.ndarray) -> np.ndarray:
        """Probabilities (n, 7): reject, then values 1..6, for float crops (n, crop, crop)."""
        if len(crops01) == 0:
            return np.zeros((0, 7), np.float32)
        return self.session.run(["face"], {"crops": crops01[:, None]})[0]


def _optional_float(meta: dict[str, str], key: str) -> float | None:
    return float(meta[key]) if key in meta else None
