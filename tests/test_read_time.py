"""benchmarks/read_time.py (issue 36: the read time at 640²), run small on drawn tables."""
from __future__ import annotations

import sys

import benchmark_scripts
from zonkcam.vision import sides


def test_read_time_times_drawn_tables_and_splits_the_passes(monkeypatch, capsys):
    read_time = benchmark_scripts.load("read_time")
    top_faces = sides.top_faces
    monkeypatch.setattr(sys, "argv", ["read_time.py", "--drawn", "--count", "2", "--passes"])
    assert read_time.main() == 0
    out = capsys.readouterr().out
    assert "drawn 640x640 tables 0-2, 2 pictures" in out and "median" in out
    assert "proposal at 320 px:" in out and "naming dice (Reader.die):" in out
    assert sides.top_faces is top_faces  # the wrappers go with the run


def test_drawn_tables_are_640_px_square_with_dice():
    read_time = benchmark_scripts.load("read_time")
    pictures = read_time.drawn_pictures(5, 2)
    assert [p.shape for p in pictures] == [(640, 640, 3)] * 2
