"""Every `zonkcam` command fed garbage: one line on stderr and exit status 2, never a traceback.

The cases are what a careless user or a broken file gives: numbers out of range or not numbers
(NaN, infinity), files that are text, binary, empty, cut short or folders, JSON of the wrong
shape, output names nothing can write. A test at the end checks every subcommand has cases.
"""
from __future__ import annotations

import argparse
import shlex
import subprocess
import sys

import cv2
import numpy as np
import pytest
from browser import free_port
from zonkcam.hardware.cli import build_parser, main

# {T} is the folder the fixture below fills with bad files.
CASES = [
    # score, variants
    "score 7", "score 1 x", "score --colors a 1 1", "score --rules {T}/rules.json 1",
    "score --rules {T}/bin 1", "score --rules {T}/dir 1", "score -v nope 1",
    "variants --show nope", "variants --show ../etc/passwd",
    # read
    "read {T}/cut.jpg", "read {T}/cut.png", "read {T}/text.jpg", "read {T}/empty.jpg",
    "read {T}/bin", "read {T}/dir", "read {T}/missing.jpg",
    "read {T}/ok.jpg --table nan,1,2,3,4,5", "read {T}/ok.jpg --table inf,0,1,1",
    "read {T}/ok.jpg --table 1,2,3", "read {T}/ok.jpg --table 5,5,5,5",
    "read {T}/ok.jpg --annotate {T}/out.xyz", "read {T}/ok.jpg --annotate {T}/nodir/x.jpg",
    "read {T}/ok.jpg --dice-set {T}/bin", "read {T}/ok.jpg --dice-set {T}/colors.json",
    "read {T}/ok.jpg --dice-set {T}/list.json", "read {T}/ok.jpg --model {T}/text.onnx",
    "read {T}/ok.jpg --model {T}/dir",
    # eval
    "eval {T}/class9", "eval {T}/fields", "eval {T}/nonutf", "eval {T}/nogroup --split heldout",
    "eval {T}/class9 --split nope", "eval {T}/dir", "eval {T}/missing", "eval {T}/ok.jpg",
    "eval {T}/good --limit -1", "eval {T}/good --limit 0", "eval {T}/good --files {T}/nonutf.txt",
    "eval {T}/good --files {T}/missing", "eval {T}/good --model {T}/text.onnx",
    # calibrate-dice
    "calibrate-dice {T}/text.jpg --colors red", "calibrate-dice {T}/ok.jpg --colors ''",
    "calibrate-dice {T}/ok.jpg --colors red,,", "calibrate-dice {T}/ok.jpg --colors [a]",
    "calibrate-dice {T}/ok.jpg --colors red --out {T}/nodir/x.json",
    "calibrate-dice {T}/ok.jpg --colors red --model {T}/text.onnx",
    # replay
    "replay {T}/bin", "replay {T}/v.avi --fps 0", "replay {T}/v.avi --fps nan",
    "replay {T}/v.avi --settle -1", "replay {T}/v.avi --settle nan", "replay {T}/v.avi --settle 1e9",
    "replay {T}/v.avi --dice 0", "replay {T}/v.avi --dice -3",
    "replay {T}/v.avi --table {T}/nan.json", "replay {T}/v.avi --table {T}/zero.json",
    "replay {T}/v.avi --table {T}/junk.json", "replay {T}/v.avi --table {T}/list.json",
    "replay {T}/v.avi --model {T}/text.onnx", "replay {T}/dir", "replay {T}/missing.avi",
    # calibrate
    "calibrate {T}/text.jpg -o {T}/t.json", "calibrate {T}/ok.jpg --polygon nan,1,2,3,4,5 -o {T}/t.json",
    "calibrate {T}/ok.jpg --polygon a,b -o {T}/t.json", "calibrate {T}/ok.jpg --keep-zone x -o {T}/t.json",
    "calibrate {T}/ok.jpg -o {T}/nodir/t.json", "calibrate {T}/ok.jpg -o {T}/t.json --overlay {T}/o.xyz",
    "calibrate {T}/ok.jpg --camera usb:99 -o {T}/t.json",
    "calibrate {T}/ok.jpg --polygon 0,0,1e12,1e12 -o {T}/t.json", "calibrate -o {T}/t.json",
    # simulate
    "simulate {T}/s.avi --fps 0", "simulate {T}/s.avi --fps 1e9", "simulate {T}/s.avi --throws 0",
    "simulate {T}/s.avi --throws -1", "simulate {T}/s.avi --dice 0", "simulate {T}/s.avi --dice 100",
    "simulate {T}/s.avi --seed x", "simulate {T}/nodir/s.avi", "simulate {T}/s.xyz --throws 1",
    "simulate {T}/s.avi --crops {T}/dir --throws 1",
    # model
    "model add {T}/text.onnx --use", "model add {T}/dir", "model add {T}/missing.onnx",
    "model add {T}/ok.jpg --name ../x", "model use nope", "model use ../../etc", "model rollback",
    "model list --json --bad",
    # game
    "game new --players ''", "game new --players ,,", "game new --players A,A",
    "game new -v nope --players A,B", "game new --rules {T}/rules.json --players A,B",
    "game new --rules {T}/bin --players A,B", "game new --set nonsense --players A,B",
    "game new --set dice=many --players A,B", "game sheet --db {T}/dir", "game sheet --db {T}/bin",
    "game log --game 999", "game log --game -1", "game sheet --game abc",
    "game play {T}/script.txt", "game play {T}/bin", "game play {T}/nonutf.txt", "game play {T}/dir",
    "game act nonsense", "game act 'A throw 9'", "game throw 1 2 x", "game keep 7",
    "game penalty foul 100000000", "game correct 999 'A bank'", "game correct -1 undo",
    "game correct 1 die 99 x:9", "game bank --player Nobody", "game spaz --player Nobody",
    "game undo --db {T}/bin", "game archive --db {T}/dir", "game players --db {T}/bin",
    # play
    "play --port 99999", "play --port 0", "play --camera demo --new --players A,A",
    "play --camera demo --dice-set {T}/bin",
    "play --camera demo --table {T}/junk.json", "play --camera demo --table {T}/nan.json",
    "play --camera demo --model {T}/text.onnx", "play --camera garbage:thing",
    "play --camera usb:99", "play --camera {T}/v.avi --fps 0", "play --camera demo --players ''",
    "play --camera demo --capture {T}/ok.jpg", "play --camera demo --button x",
    "play --camera demo --rules {T}/bin", "play --camera demo -v nope", "play --camera demo --db {T}/dir",
    # capture, train, review
    "capture --camera demo --out {T}/ok.jpg --throws 1", "capture --camera demo --out {T}/cap --max-gb -1",
    "capture --camera demo --out {T}/cap --max-gb nan", "capture --camera demo --out {T}/cap --throws 0",
    "capture --camera {T}/missing --out {T}/cap",
    "train {T}/missing", "train {T}/dir", "train {T}/good --epochs 0", "train {T}/good --threads 0",
    "train {T}/good --base {T}/text.onnx", "train {T}/good --out {T}/ok.jpg", "train {T}/good --base nope",
    "train {T}/class9",
    "review {T}/missing", "review {T}/ok.jpg", "review {T}/dir --port 99999",
    # doctor (a FAIL found is status 1, not garbage: test_doctor.py)
    "doctor --port 0", "doctor --port x", "doctor --json --bad",
    # league (issue 39; a database that is not one, or not there: no PostgreSQL needed)
    "league serve --db mysql://x", "league serve --port 99999", "league add-table",
    "league add-table T1 --db nope", "league password --db postgresql://a@127.0.0.1:1/x",
    "league migrate --db ''", "league", "play --camera demo --league ftp://x --table-name T",
    "play --camera demo --league http://127.0.0.1:1",
    # unknown command, a group without its command (a bare `zonkcam` prints the help: test_cli.py)
    "nope", "game", "model",
]


def _yolo(root, label: bytes, groups: str | None = None) -> None:
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    cv2.imwrite(str(root / "images" / "a.jpg"), np.full((48, 64, 3), 90, np.uint8))
    (root / "labels" / "a.txt").write_bytes(label)
    if groups is not None:
        (root / "groups.csv").write_text(groups)


@pytest.fixture(scope="module")
def bad(tmp_path_factory):
    t = tmp_path_factory.mktemp("bad")
    image = (np.random.default_rng(1).random((120, 160, 3)) * 255).astype(np.uint8)
    cv2.imwrite(str(t / "ok.jpg"), image)
    for ext in (".jpg", ".png"):
        data = cv2.imencode(ext, image)[1].tobytes()
        (t / f"cut{ext}").write_bytes(data[: len(data) // 2])
    (t / "text.jpg").write_text("hello")
    (t / "empty.jpg").write_bytes(b"")
    (t / "text.onnx").write_text("not a model")
    (t / "bin").write_bytes(bytes(range(256)) * 8)
    (t / "nonutf.txt").write_bytes(b"\xff\xfe\xfa")
    (t / "dir").mkdir()
    (t / "list.json").write_text("[]")
    (t / "nan.json").write_text('{"frame_size": [64, 48], "polygon": [[NaN, 1], [2, 3], [4, 5]]}')
    (t / "zero.json").write_text('{"frame_size": [0, 0], "polygon": [[0, 0], [10, 0], [10, 10]]}')
    (t / "junk.json").write_text('{"a": ')
    (t / "colors.json").write_text('{"colors": {"[a]": [1, 2, 3]}}')
    (t / "rules.json").write_text('{"dice": "many"}')
    (t / "script.txt").write_text("A throw 9 9 9\nnonsense\n")
    _yolo(t / "good", b"0 0.5 0.5 0.2 0.2\n")
    _yolo(t / "class9", b"9 0.5 0.5 0.2 0.2\n")
    _yolo(t / "fields", b"a b c d e\n")
    _yolo(t / "nonutf", b"\xff\xfe 0.5\n")
    _yolo(t / "nogroup", b"0 0.5 0.5 0.2 0.2\n", groups="x,y\n1,2\n")
    writer = cv2.VideoWriter(str(t / "v.avi"), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for _ in range(3):
        writer.write(image)
    writer.release()
    return t


@pytest.mark.parametrize("case", CASES)
def test_garbage_gets_one_line_and_status_2(case, bad, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ZONKCAM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ZONKCAM_DB", str(tmp_path / "z.db"))
    main(["game", "new", "--players", "A,B"])  # a game to act on, for the game cases
    capsys.readouterr()
    argv = shlex.split(case.format(T=bad))
    if argv[:1] == ["play"]:  # in a process of its own: a case that wrongly starts the kiosk
        port = [] if "--port" in argv else ["--port", str(free_port())]
        run = subprocess.run([sys.executable, "-m", "zonkcam.hardware.cli", *argv, *port],
                             capture_output=True, text=True, timeout=120)
        status, err, out = run.returncode, run.stderr, run.stdout  # would otherwise serve on
    else:
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse's usage errors
            status = exc.code
        out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert status == 2, f"{case}: status {status}, stderr {err!r}"
    assert len(lines) == 1 and lines[0].startswith("zonkcam"), f"{case}: {err!r}"
    assert lines[0].split(": ", 1)[-1] not in out, f"{case}: said twice, on stdout too: {out!r}"


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> set[str]:
    """Every command path: 'read', 'game new', 'model add', ..."""
    found = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                path = f"{prefix} {name}".strip()
                found |= _commands(sub, path) or {path}
    return found


def test_every_subcommand_is_fed_garbage():
    covered = {" ".join(case.split()[:2]) for case in CASES} | {case.split(" ")[0] for case in CASES}
    missing = {c for c in _commands(build_parser()) if c not in covered}
    assert not missing, sorted(missing)
