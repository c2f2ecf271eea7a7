"""`zonkcam doctor`: one OK/WARN/FAIL line per check with a fix, exit 1 on any FAIL, never a
traceback; nothing it looks at is changed."""
from __future__ import annotations

import json
import socket
import sqlite3

import cv2
import numpy as np
import pytest
from zonkcam.hardware.cli import doctor, main
from zonkcam.hardware.store import SCHEMA, SCHEMA_VERSION, Store


@pytest.fixture
def setup(tmp_path, monkeypatch):
    """A table's files in tmp_path: a video as the camera, a free port, no config, no database."""
    monkeypatch.setenv("ZONKCAM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ZONKCAM_DB", str(tmp_path / "data" / "z.db"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for _ in range(3):
        writer.write(np.full((120, 160, 3), 90, np.uint8))
    writer.release()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    return tmp_path, ["doctor", "--camera", str(video), "--port", str(free)]


def _run(capsys, argv) -> tuple[int, dict[str, tuple[str, str]]]:
    status = main(argv)
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].endswith("FAIL")  # the count line
    rows = {}
    for line in lines[:-1]:
        level, name, text = line.split(maxsplit=2)
        assert level in ("OK", "WARN", "FAIL")
        assert level == "OK" or "  -> " in text, f"a {level} without a fix: {line}"
        rows[name] = (level, text)
    return status, rows


def test_a_sound_setup_is_all_ok(setup, capsys):
    tmp_path, argv = setup
    Store(tmp_path / "data" / "z.db").close()
    (tmp_path / "config" / "zonkcam").mkdir(parents=True)
    (tmp_path / "config" / "zonkcam" / "play.toml").write_text('camera = "demo"\nlan = true\n')
    status, rows = _run(capsys, argv)
    assert status == 0
    names = ("versions", "platform", "port", "camera", "model", "display", "gpio", "disk", "database",
             "config")
    assert tuple(rows) == names
    for name in ("versions", "platform", "port", "camera", "model", "database", "config"):
        assert rows[name][0] == "OK", rows[name]
    assert "numpy" in rows["versions"][1] and "onnxruntime" in rows["versions"][1]
    assert "160x120 frame read" in rows["camera"][1]
    assert "6 of 6 drawn dice" in rows["model"][1]
    assert f"schema {SCHEMA_VERSION}" in rows["database"][1] and "camera, lan" in rows["config"][1]


def test_failures_say_what_to_do_and_exit_1(setup, capsys, tmp_path):
    tmp_path, argv = setup
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "z.db").write_bytes(b"not sqlite at all" * 100)
    (tmp_path / "config" / "zonkcam").mkdir(parents=True)
    (tmp_path / "config" / "zonkcam" / "play.toml").write_text('port = "x"\n')
    (tmp_path / "bad.onnx").write_text("not a model")
    argv = [*argv[:2], str(tmp_path / "missing.avi"), *argv[3:], "--model", str(tmp_path / "bad.onnx")]
    status, rows = _run(capsys, argv)
    assert status == 1
    assert rows["database"][0] == rows["config"][0] == rows["camera"][0] == rows["model"][0] == "FAIL"
    assert "port must be a number" in rows["config"][1]
    assert (tmp_path / "data" / "z.db").read_bytes().startswith(b"not sqlite")  # left as it was


def test_an_old_database_is_a_warning_and_a_newer_one_a_failure(setup, capsys):
    tmp_path, argv = setup
    path = tmp_path / "data" / "z.db"
    path.parent.mkdir()
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)  # version 0, as before schema versions
    db.close()
    status, rows = _run(capsys, argv)
    assert status == 0 and rows["database"][0] == "WARN" and "schema 0" in rows["database"][1]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0  # doctor upgrades nothing
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    status, rows = _run(capsys, argv)
    assert status == 1 and "newer zonkcam" in rows["database"][1]


def test_a_port_held_by_zonkcam_reports_its_camera_and_by_another_program_fails(setup, capsys,
                                                                                 monkeypatch):
    _, argv = setup
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        argv = [argv[0], "--port", str(held.getsockname()[1])]  # no --camera: the running one's
        monkeypatch.setattr(doctor, "_healthz", lambda port: None)
        status, rows = _run(capsys, argv)
        assert status == 1 and rows["port"][0] == "FAIL" and "not zonkcam" in rows["port"][1]
        serving = {"ok": True, "uptime_s": 12.0, "camera": "ok", "frame_age_s": 0.2}
        monkeypatch.setattr(doctor, "_healthz", lambda port: serving)
        status, rows = _run(capsys, argv)
        assert rows["port"] == ("OK", rows["port"][1]) and "zonkcam is serving" in rows["port"][1]
        assert rows["camera"][0] == "OK" and "in use by the running zonkcam: ok" in rows["camera"][1]
        monkeypatch.setattr(doctor, "_healthz", lambda port: serving | {"ok": False, "camera": "lost"})
        status, rows = _run(capsys, argv)
        assert status == 1 and rows["camera"][0] == "FAIL"


def test_a_check_that_breaks_is_a_fail_line_not_a_traceback(setup, capsys, monkeypatch):
    _, argv = setup

    def broken(ctx):
        raise RuntimeError("boom")

    monkeypatch.setattr(doctor, "check_gpio", broken)
    status, rows = _run(capsys, argv)
    assert status == 1 and rows["gpio"][0] == "FAIL" and "RuntimeError: boom" in rows["gpio"][1]


def test_json_has_every_check_and_the_verdict(setup, capsys):
    _, argv = setup
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and len(report["checks"]) == 10
    assert {c["status"] for c in report["checks"]} <= {"OK", "WARN"}


def test_on_a_pi_missing_gpio_and_display_are_warnings(setup, capsys, monkeypatch, tmp_path):
    from zonkcam.hardware.cameras import picamera

    _, argv = setup
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    monkeypatch.setattr(picamera, "DEVICE_MODEL", model)  # every `on_raspberry_pi` reads it
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # no wayland-* socket there
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setattr(doctor, "_importable", lambda module: module != "lgpio")
    _, rows = _run(capsys, argv)
    assert rows["gpio"][0] == "WARN" and "lgpio" in rows["gpio"][1]
    assert rows["display"][0] == "WARN" and "Autologin" in rows["display"][1]
    (tmp_path / "wayland-1").touch()
    _, rows = _run(capsys, argv)
    assert rows["display"] == ("OK", rows["display"][1]) and "wayland-1" in rows["display"][1]
