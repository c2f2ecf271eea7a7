"""What every subcommand module shares."""
from __future__ import annotations


class CliError(Exception):
    """A problem the user can fix; printed as one line, never a traceback."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status
