import subprocess
import sys

import pytest


def test_console_command_runs_and_lists_subcommands():
    out = subprocess.run(
        [sys.executable, "-m", "zonkcam.hardware.cli", "--help"],
        capture_output=True, text=True, check=True,
    )
    assert "usage: zonkcam" in out.stdout


def test_play_checks_camera_and_model_before_it_writes_a_game(tmp_path, capsys):
    from zonkcam.hardware.cli import main

    db = tmp_path / "z.db"
    assert main(["play", "--camera", str(tmp_path / "none.mp4"), "--db", str(db), "--port", "18931"]) == 2
    assert main(["play", "--camera", "demo", "--model", str(tmp_path / "no.onnx"), "--db", str(db),
                 "--port", "18931"]) == 2
    err = capsys.readouterr().err
    assert "not a camera" in err and "model file not found" in err
    assert not db.exists()  # no game row left behind


def test_numbers_from_the_command_line_are_bounded(tmp_path, capsys):
    from zonkcam.hardware.cli import main

    db = str(tmp_path / "z.db")
    with pytest.raises(SystemExit):
        main(["play", "--port", "99999", "--db", db])
    assert "99999 is not from 1 to 65535" in capsys.readouterr().err
    assert main(["game", "new", "--db", db, "--variant", "albany", "--players", "A,B"]) == 0
    assert main(["game", "penalty", "--db", db, "foul", "100000000"]) == 2
    assert "turns lost are 0 to 20" in capsys.readouterr().err
