"""What training needs from the optional `train` extra, imported lazily, and its one error.

The product never needs torch or onnx: `zonkcam train` imports them only when it runs, and a
missing package is a `TrainError` that says how to install it, never a traceback.
"""
from __future__ import annotations

from types import ModuleType

TRAIN_EXTRA = "install the train extra: pip install 'zonkcam[train]'"


class TrainError(ValueError):
    """Unusable input: no images, a bad folder, torch missing, a corrupt model."""


def need_torch() -> ModuleType:
    try:
        import torch
    except ImportError:
        raise TrainError(f"torch is not installed; {TRAIN_EXTRA}") from None
    return torch


def need_onnx() -> tuple[ModuleType, ModuleType]:
    """`onnx` and its `numpy_helper`."""
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError:
        raise TrainError(f"onnx is not installed; {TRAIN_EXTRA}") from None
    return onnx, numpy_helper
