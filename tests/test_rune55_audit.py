"""rune55's audited held-out subset: the corrections file, its loader and the ignore rule."""
import json

import numpy as np
import pytest
from zonkcam.hardware.cli import main
from zonkcam.models.rune55 import datasets_root, group_split
from zonkcam.models.rune55_audit import AUDIT_CSV, COLUMNS, audited_heldout, load_audit
from zonkcam.models.yolo import LabelError
from zonkcam.vision.dice import Die
from zonkcam.vision.evaluate import Tally

HEADER = "# a comment line\n" + ",".join(COLUMNS) + "\n"


def fake_rune55(root):
    """20 one-photo groups, two dice each (values 1 and 2); returns the held-out files."""
    rows = ["split,file,group"]
    for g in range(20):
        for sub in ("images", "labels"):
            (root / "train" / sub).mkdir(parents=True, exist_ok=True)
        (root / "train" / "images" / f"p{g}.jpg").write_bytes(b"")
        (root / "train" / "labels" / f"p{g}.txt").write_text("0 0.25 0.5 0.1 0.1\n1 0.75 0.5 0.1 0.1\n")
        rows.append(f"train,p{g}.jpg,{g}")
    (root / "groups.csv").write_text("\n".join(rows) + "\n")
    return [f"train/{it.image.name}" for it in group_split(root, "heldout")]


def test_loader_applies_each_action_to_audited_photos_only(tmp_path):
    held = fake_rune55(tmp_path)
    a, b, c = held[:3]
    audit = tmp_path / "audit.csv"
    audit.write_text(HEADER + "\n".join([
        f"{a},0,value,1,5,,,,",             # label 1: a 5, not a 2
        f"{a},0,add,,3,0.5,0.9,0.1,0.1",     # a die the labels missed
        f"{a},0,ok,,,,,,",
        f"{b},0,drop,0,,,,,",                # label 0 is no pip die
        f"{b},0,ignore,1,,,,,",              # label 1 cannot be read
        f"{b},0,ignore,,,0.5,0.1,0.2,0.2",   # nor can an unlabelled die here
        f"{b},0,ok,,,,,,",
        f"{c},0,value,0,4,,,,",              # no ok row: not audited, not scored
    ]) + "\n")
    items = {f"train/{it.image.name}": it for it in audited_heldout(tmp_path, audit)}
    assert sorted(items) == sorted([a, b])
    assert items[a].dice[:, 0].tolist() == [1, 5, 3]
    assert np.allclose(items[a].dice[2], [3, 0.5, 0.9, 0.1, 0.1]) and len(items[a].ignore) == 0
    assert len(items[b].dice) == 0
    assert np.allclose(items[b].ignore, [[0.5, 0.1, 0.2, 0.2], [0.75, 0.5, 0.1, 0.1]])


@pytest.mark.parametrize("row, says", [
    ("train/x.jpg,0,fix,0,1,,,,", "action 'fix'"),
    ("train/x.jpg,0,value,0,7,,,,", "value 7"),
    ("train/x.jpg,0,value,0,,,,,", "value needs a label and a value"),
    ("train/x.jpg,0,add,,2,0.5,0.5,1.5,0.1", "0..1"),
    ("train/x.jpg,0,ignore,1,,0.5,0.5,0.1,0.1", "a label or a box"),
    ("train/x.jpg,0,ignore,one,,,,,", "row 1"),
])
def test_a_bad_row_is_named(tmp_path, row, says):
    audit = tmp_path / "audit.csv"
    audit.write_text(HEADER + row + "\n")
    with pytest.raises(LabelError, match=says):
        load_audit(audit)


def test_a_photo_outside_the_heldout_groups_or_a_missing_label_is_refused(tmp_path):
    held = set(fake_rune55(tmp_path))
    other = next(f"train/p{g}.jpg" for g in range(20) if f"train/p{g}.jpg" not in held)
    audit = tmp_path / "audit.csv"
    audit.write_text(HEADER + f"{other},0,ok,,,,,,\n")
    with pytest.raises(LabelError, match="not held-out"):
        audited_heldout(tmp_path, audit)
    audit.write_text(HEADER + f"{min(held)},0,ignore,2,,,,,\n{min(held)},0,ok,,,,,,\n")
    with pytest.raises(LabelError, match="label 2 of 2"):
        audited_heldout(tmp_path, audit)
    (tmp_path / "bad.csv").write_text("file,action\n")
    with pytest.raises(LabelError, match="header"):
        load_audit(tmp_path / "bad.csv")


def die(x, y, value, confidence=0.9):
    return Die(value, None, confidence, 0.0, (x - 5, y - 5, x + 5, y + 5), (x, y), 0.0)


def test_a_die_reported_in_an_ignore_box_is_neither_found_nor_extra():
    labels = np.array([[2, 0.25, 0.5, 0.1, 0.1]], np.float32)
    ignore = np.array([[0.75, 0.5, 0.1, 0.1]], np.float32)
    dice = [die(25, 50, 2), die(75, 50, 6), die(75, 10, 1)]  # found, ignored, extra
    t = Tally()
    t.add(dice, labels, 100, 100, ignore=ignore)
    assert (t.labels, t.predictions, t.matched, t.correct, t.exact_images) == (1, 2, 1, 1, 0)
    t = Tally()
    t.add(dice[:2], labels, 100, 100, ignore=ignore)
    assert (t.predictions, t.exact_images) == (1, 1)  # the ignored die does not spoil the image
    t = Tally()
    t.add(dice[:2], labels, 100, 100)
    assert (t.predictions, t.exact_images) == (2, 0)  # without the box it is an extra die
    t = Tally()  # a legible die read inside a neighbour's ignore box still counts as found
    t.add([die(27, 50, 2)], labels, 100, 100, ignore=np.array([[0.3, 0.5, 0.1, 0.1]], np.float32))
    assert (t.predictions, t.matched, t.exact_images) == (1, 1, 1)


def test_a_die_at_a_slant_boxed_whole_over_its_ignored_top_face_is_not_extra():
    # rune55 boxes an oblique die's top face alone; the reader boxes the whole die, top and
    # side, so its centre falls below the (ignored) label box while the box's centre is in it
    labels = np.zeros((0, 5), np.float32)
    ignore = np.array([[0.5, 0.44, 0.08, 0.06]], np.float32)  # the top face: y 41-47
    slanted = Die(3, None, 0.9, 0.0, (44, 40, 56, 58), (50, 49), 0.0)  # centre y 49: outside
    t = Tally()
    t.add([slanted], labels, 100, 100, ignore=ignore)
    assert (t.predictions, t.exact_images) == (0, 1)
    t = Tally()  # a die beside the ignored one, its box clear of it, is still an extra
    t.add([die(50, 70, 3)], labels, 100, 100, ignore=ignore)
    assert (t.predictions, t.exact_images) == (1, 0)


RUNE55 = datasets_root() / "rune55"


@pytest.mark.skipif(not (RUNE55 / "groups.csv").exists(), reason="rune55 is not in ../shared/datasets")
def test_the_shipped_audit_fits_rune55_and_eval_takes_it(capsys):
    items = audited_heldout(RUNE55)
    assert len(items) == len({r for r, a in load_audit(AUDIT_CSV).items() if a.done}) > 0
    assert all(((it.dice[:, 0] >= 1) & (it.dice[:, 0] <= 6)).all() for it in items)
    assert main(["eval", str(RUNE55), "--split", "audited", "--limit", "3", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["split"] == "audited" and s["images"] == 3


def test_eval_audited_without_rune55_is_a_clear_error(tmp_path, capsys):
    assert main(["eval", str(tmp_path), "--split", "audited"]) == 2
    assert "groups.csv" in capsys.readouterr().err
