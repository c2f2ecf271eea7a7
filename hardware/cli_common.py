"""What every subcommand module shares."""
from __future__ import annotations

import argparse
from collections.abc import Callable


class CliError(Exception):
    """A problem the user can fix; printed as one line, never a traceback."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` (a port, a count of turns...)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not from {low} to {high}")
        return value

    return parse


port = bounded(1, 65535)
