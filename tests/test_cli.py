import subprocess
import sys


def test_console_command_runs_and_lists_subcommands():
    out = subprocess.run(
        [sys.executable, "-m", "zonkcam.hardware.cli", "--help"],
        capture_output=True, text=True, check=True,
    )
    assert "usage: zonkcam" in out.stdout
