"""Progress on stderr for the long runs (training, eval, tuning, capture): tqdm's bar in a
terminal; in a log (journald, a file, CI) no carriage returns, but one plain line per tenth of
the way (or per `every` steps when the total is not known) and one at the end.

Here, in vision, the lowest layer that shows progress (`zonkcam eval`), so that models and
hardware share it.
"""
from __future__ import annotations

import sys
from types import TracebackType
from typing import TextIO

from tqdm import tqdm


class Progress:
    """`step()` once per unit of work, with an optional note (a loss, a count)."""

    def __init__(self, total: int | None, label: str, unit: str = "it", every: int = 100,
                 file: TextIO | None = None) -> None:
        self.total, self.label, self.unit = total, label, unit
        self.n, self.note, self._said = 0, "", 0
        self.file = file or sys.stderr
        # a line per tenth of the way in a log; a line per `every` steps when there is no end
        self.every = max(1, total // 10) if total else every
        self.bar = tqdm(total=total, desc=label, unit=unit, file=self.file, dynamic_ncols=True) \
            if self.file.isatty() else None

    def step(self, note: str = "", n: int = 1) -> None:
        self.n += n
        self.note = note or self.note
        if self.bar is not None:
            if note:
                self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(n)
            if self.total is not None and self.n >= self.total:
                self.close()
        elif self.n % self.every < n or self.n == self.total:
            self._line()

    def close(self) -> None:
        """Finish: the bar's last state stays on screen; a log gets the last count if unsaid."""
        if self.bar is not None:
            self.bar.close()
            self.bar, self._said = None, self.n
        elif self.n != self._said:
            self._line()

    def _line(self) -> None:
        of = f"/{self.total}" if self.total else ""
        note = f"  {self.note}" if self.note else ""
        print(f"{self.label}: {self.n}{of} {self.unit}{note}", file=self.file, flush=True)
        self._said = self.n

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
