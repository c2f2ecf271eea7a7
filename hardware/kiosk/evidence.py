"""Evidence retention: the frames throws were read from (``evidence/GAME/TURN-N.jpg`` beside
the game database, written by the table app) would fill a Pi's SD card over months of play.
They are pruned oldest first: past an age, then while the folder is over a total size."""
from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("zonkcam.evidence")

DEFAULT_DAYS = 90.0  # a dispute is settled long before; the game log itself is kept forever
DEFAULT_MB = 1000.0  # about 10,000 throws' frames, a few % of a 32 GB card
PRUNE_EVERY_S = 3600.0


@dataclass(frozen=True)
class Retention:
    """How much evidence is kept; 0 turns a limit off."""

    days: float = DEFAULT_DAYS
    mb: float = DEFAULT_MB


def prune(root: Path, retention: Retention, now: float | None = None) -> list[Path]:
    """Delete evidence pictures under `root` older than `retention.days`, then the oldest while
    the rest add up to more than `retention.mb`; returns what was deleted, oldest first.
    Folders are left (the running game's is written to)."""
    now = time.time() if now is None else now
    found = []
    for path in root.glob("*/*.jpg"):
        with contextlib.suppress(FileNotFoundError):  # pruned or moved meanwhile
            stat = path.stat()
            found.append((stat.st_mtime, path.name, stat.st_size, path))
    found.sort()
    total = sum(size for _, _, size, _ in found)
    too_old = now - retention.days * 86400 if retention.days > 0 else -float("inf")
    budget = retention.mb * 1e6 if retention.mb > 0 else float("inf")
    gone = []
    for mtime, _, size, path in found:
        if mtime >= too_old and total <= budget:
            break  # oldest first: everything after is newer and fits
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        total -= size
        gone.append(path)
    return gone


def keep_pruned(root: Path, retention: Retention, stop: threading.Event,
                every_s: float = PRUNE_EVERY_S, on_error: Callable[[str], None] = log.warning) -> None:
    """Prune now and then every `every_s` until `stop` (a thread of the running table)."""
    while True:
        try:
            gone = prune(root, retention)
        except OSError as exc:  # a full or read-only card: say so, keep the table running
            on_error(f"evidence pruning in {root} failed: {exc}")
        else:
            if gone:
                log.info("evidence: %d old pictures pruned (keeping %g days, %g MB)",
                         len(gone), retention.days, retention.mb)
        if stop.wait(every_s):
            return
