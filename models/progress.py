"""The progress bar of the long CPU training runs: `zonkcam.vision.progress.Progress` (tqdm in a
terminal, plain lines in a log), kept importable from here for models' modules."""
from __future__ import annotations

from zonkcam.vision.progress import Progress

__all__ = ["Progress"]
