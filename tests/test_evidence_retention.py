"""Evidence pictures are pruned oldest first, by age and by total size (hardware/kiosk/evidence.py)."""
from __future__ import annotations

import os
import threading

from zonkcam.hardware.kiosk.evidence import Retention, keep_pruned, prune

DAY = 86400.0
NOW = 1_800_000_000.0


def _picture(root, game: int, name: str, days_old: float, size: int = 1000):
    path = root / str(game) / f"{name}.jpg"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xff" * size)
    os.utime(path, (NOW - days_old * DAY, NOW - days_old * DAY))
    return path


def _left(root) -> set[str]:
    return {f"{p.parent.name}/{p.stem}" for p in root.glob("*/*.jpg")}


def test_pictures_past_the_age_go_the_rest_stay(tmp_path):
    _picture(tmp_path, 1, "1-1", days_old=200)
    _picture(tmp_path, 1, "1-2", days_old=100)
    _picture(tmp_path, 2, "4-1", days_old=10)
    (tmp_path / "2" / "notes.txt").write_text("not evidence")
    gone = prune(tmp_path, Retention(days=90, mb=0), now=NOW)
    assert [p.stem for p in gone] == ["1-1", "1-2"]  # oldest first
    assert _left(tmp_path) == {"2/4-1"}
    assert (tmp_path / "2" / "notes.txt").exists() and (tmp_path / "1").is_dir()  # folders stay


def test_over_the_size_the_oldest_go_until_it_fits(tmp_path):
    for i in range(10):  # 10 pictures of 300 kB, 1 day apart: 3 MB
        _picture(tmp_path, 1 + i // 5, f"{i}-1", days_old=10 - i, size=300_000)
    gone = prune(tmp_path, Retention(days=0, mb=1.0), now=NOW)
    assert len(gone) == 7  # 3 x 300 kB fit in 1 MB
    assert _left(tmp_path) == {"2/7-1", "2/8-1", "2/9-1"}
    assert prune(tmp_path, Retention(days=0, mb=1.0), now=NOW) == []  # nothing more to do


def test_no_limits_keep_everything(tmp_path):
    _picture(tmp_path, 1, "1-1", days_old=5000, size=10_000_000)
    assert prune(tmp_path, Retention(days=0, mb=0), now=NOW) == []
    assert prune(tmp_path / "missing", Retention(), now=NOW) == []  # no evidence yet


def test_the_table_thread_prunes_at_start_and_stops_when_told(tmp_path):
    _picture(tmp_path, 1, "1-1", days_old=20_000)  # in 1972: old by any clock the test runs at
    stop = threading.Event()
    stop.set()  # one round, then return at once
    keep_pruned(tmp_path, Retention(days=90, mb=0), stop)
    assert _left(tmp_path) == set()
