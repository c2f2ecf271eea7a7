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


def test_version_and_a_bare_command_print_and_say_so(capsys):
    from zonkcam.hardware.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("zonkcam 0.")
    # a bare `zonkcam`: the help on stdout (commands listed), status 2 as for a missing argument
    assert main([]) == 2
    out = capsys.readouterr().out
    assert out.startswith("usage: zonkcam") and "play" in out and "doctor" in out


def _parsers(parser, path="zonkcam"):
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{path} {name}")


def test_every_default_worth_saying_is_in_the_help():
    import argparse

    from zonkcam.hardware.cli import build_parser

    for path, parser in _parsers(build_parser()):
        text = " ".join(parser.format_help().split())
        for action in parser._actions:
            if action.help is argparse.SUPPRESS or action.default in (None, [], argparse.SUPPRESS) \
                    or action.default is False or not action.option_strings:
                continue
            shown = f"(default: {action.default})"
            assert shown in text or "default" in (action.help or ""), f"{path} {action.option_strings}"
            assert "(default " not in (action.help or ""), f"{path}: say '(default: X)'"


def test_short_flags_are_consistent():
    """-v is --verbose (before the command); after one, the old `-v NAME` for --variant is a
    one-line pointer. An output file or folder is -o/--out wherever a command writes one."""
    from zonkcam.hardware.cli import build_parser

    for path, parser in _parsers(build_parser()):
        for action in parser._actions:
            if "-o" in action.option_strings:
                assert "--out" in action.option_strings, path
            if "--out" in action.option_strings:
                assert "-o" in action.option_strings, path
            if "--variant" in action.option_strings:
                assert "-v" not in action.option_strings, path


def test_minus_v_is_verbose_and_no_longer_the_variant(capsys):
    from zonkcam.hardware.cli import main

    assert main(["-v", "score", "1", "5"]) == 0
    with pytest.raises(SystemExit):
        main(["score", "-v", "albany", "1"])
    assert "write --variant NAME" in capsys.readouterr().err


def test_calibrate_still_takes_its_old_output_spelling(tmp_path):
    import cv2
    import numpy as np
    from zonkcam.hardware.cli import main

    cv2.imwrite(str(tmp_path / "t.png"), np.full((48, 64, 3), 90, np.uint8))
    for flag in ("-o", "--out", "--output"):
        out = tmp_path / f"table{flag}.json"
        assert main(["calibrate", str(tmp_path / "t.png"), "--polygon", "1,1,40,30", flag, str(out)]) == 0
        assert out.is_file()
