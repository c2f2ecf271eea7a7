"""A one-line progress bar on stderr, for the long CPU training runs."""
from __future__ import annotations

import sys
import time


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.start, self.n = total, label, time.time(), 0

    def step(self, note: str = "") -> None:
        self.n += 1
        done = self.n / self.total
        bar = "#" * int(30 * done)
        eta = (time.time() - self.start) / done * (1 - done)
        end = "\n" if self.n == self.total else ""
        print(f"\r{self.label} [{bar:<30}] {self.n}/{self.total} eta {eta:4.0f}s {note}",
              end=end, file=sys.stderr, flush=True)
