"""Progress: tqdm's bar in a terminal, plain lines (no carriage returns) in a log."""
from __future__ import annotations

import io

from zonkcam.models.progress import Progress as FromModels
from zonkcam.vision.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_in_a_log_a_line_per_tenth_and_no_carriage_return():
    log = io.StringIO()
    bar = Progress(50, "train", unit="step", file=log)
    for i in range(50):
        bar.step(f"loss {1 / (i + 1):.2f}")
    bar.close()  # nothing left unsaid: no repeat
    text = log.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert len(lines) == 10 and lines[0] == "train: 5/50 step  loss 0.20"
    assert lines[-1] == "train: 50/50 step  loss 0.02"


def test_in_a_log_without_a_total_every_n_steps_and_the_last_count_at_close():
    log = io.StringIO()
    with Progress(None, "capture", unit="throws", every=3, file=log) as bar:
        for _ in range(7):
            bar.step()
    assert log.getvalue().splitlines() == ["capture: 3 throws", "capture: 6 throws", "capture: 7 throws"]


def test_in_a_terminal_tqdm_draws_the_bar():
    tty = Terminal()
    bar = FromModels(4, "eval", file=tty)  # models' name for the same bar
    for _ in range(4):
        bar.step("P 0.9")
    text = tty.getvalue()
    assert "\r" in text and "eval" in text and "4/4" in text and "P 0.9" in text
    assert bar.bar is None  # closed at the end, by itself
