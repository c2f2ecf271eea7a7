"""Subcommands: (placeholder until this area lands)."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add this area's subcommands to the `zonkcam` parser."""
