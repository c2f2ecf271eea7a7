"""`zonkcam play` reads play.toml ($XDG_CONFIG_HOME/zonkcam, or --config); flags win over it;
a key play does not know or a value of the wrong kind is one line naming the key."""
from __future__ import annotations

import pytest
from zonkcam.hardware.cli import main
from zonkcam.hardware.cli import play as cli_play


@pytest.fixture
def seen(monkeypatch, tmp_path):
    """The arguments play would run with (it is not started), config home in tmp_path."""
    got = []
    monkeypatch.setattr(cli_play, "cmd_play", lambda args: got.append(args) or 0)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return got


def _write(tmp_path, text: str, name: str = "config/zonkcam/play.toml"):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _error(capsys, *argv: str) -> str:
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    return err


def test_the_file_sets_options_and_flags_win(seen, tmp_path):
    _write(tmp_path, 'camera = "demo"\nport = 9001\nplayers = ["Ann", "Bob"]\nlan = true\n'
                     'dice-set = "~/dice.json"\nbutton = 17\nevidence_days = 30\ngesture-bank = false\n')
    assert main(["play"]) == 0
    args = seen[-1]
    assert (args.camera, args.port, args.players) == ("demo", 9001, "Ann,Bob")
    assert args.lan is True and args.button == 17
    assert args.dice_set == str(tmp_path / "home" / "dice.json")  # ~ expanded, as a shell would
    assert args.evidence_days == 30 and args.evidence_mb == 1000 and args.gesture_bank is False
    assert main(["play", "--port", "9002", "--players", "Cy,Di", "--gesture-bank"]) == 0
    args = seen[-1]
    assert (args.port, args.players, args.camera, args.gesture_bank) == (9002, "Cy,Di", "demo", True)


def test_no_file_is_no_config_and_another_file_is_taken_with_config(seen, tmp_path):
    assert main(["play"]) == 0 and seen[-1].port == 8080 and seen[-1].camera is None
    other = _write(tmp_path, 'port = 7000\n', "elsewhere.toml")
    assert main(["play", "--config", str(other)]) == 0 and seen[-1].port == 7000


def test_a_flag_variant_wins_over_the_files_rules(seen, tmp_path, capsys):
    _write(tmp_path, 'rules = "house.toml"\n')
    assert main(["play"]) == 0
    assert seen[-1].rules == "house.toml"
    assert main(["play", "--variant", "albany"]) == 0
    cli_play.play_config.flags_win(seen[-1])  # as cmd_play does first
    assert (seen[-1].variant, seen[-1].rules) == ("albany", None)
    _write(tmp_path, 'rules = "house.toml"\nvariant = "albany"\n')
    assert "'variant' and 'rules' both set" in _error(capsys, "play")


@pytest.mark.parametrize(("text", "said"), [
    ('cameras = "pi"', "unknown key 'cameras'"),
    ('new = true', "unknown key 'new'"),
    ('port = "8080"', "port must be a number, not '8080'"),
    ('port = 99999', "port: 99999 is not from 1 to 65535"),
    ('port = 80.5', "port: '80.5' is not a whole number"),
    ('lan = "yes"', "lan must be true or false"),
    ('button = true', "button must be a number"),
    ('camera = 3', "camera must be a string"),
    ('players = ["Ann", 2]', "players must be a list of names"),
    ('evidence-mb = -1', "evidence-mb: -1 is not from 0"),
    ('port = ', "not TOML"),
])
def test_bad_keys_and_values_are_one_line_naming_the_key(seen, tmp_path, capsys, text, said):
    path = _write(tmp_path, text + "\n")
    err = _error(capsys, "play")
    assert said in err and str(path) in err and not seen


def test_a_missing_config_file_is_an_error(seen, tmp_path, capsys):
    assert "cannot read it" in _error(capsys, "play", "--config", str(tmp_path / "nope.toml"))


def test_the_demo_plays_new_throws_each_start_unless_given_a_seed(caplog):
    class App:  # the demo player only holds on to its app until a throw is asked of it
        pass

    with caplog.at_level("INFO", logger="zonkcam.play"):
        first, second = (cli_play.demo_camera(App(), 5, None) for _ in range(2))
        again = cli_play.demo_camera(App(), 5, 41)
    seeds = [cam.simulation.config.seed for cam in (first, second, again)]
    assert seeds[0] != seeds[1] and seeds[2] == 42  # the player's seed is 41, the throws' one above
    assert again.player.rng.random() == cli_play.demo_camera(App(), 5, 41).player.rng.random()
    assert f"--demo-seed {seeds[0] - 1} plays the same throws again" in caplog.text


def test_a_demo_seed_is_a_whole_number(capsys):
    assert "--demo-seed" in _error(capsys, "play", "--demo-seed", "-3")
