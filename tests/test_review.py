"""The review page of captured dice: JSON API, least confident first, bulk correction, browser."""
import json
import os

import numpy as np
import pytest
from browser import free_port, server
from starlette.applications import Starlette
from starlette.testclient import TestClient
from zonkcam.hardware.cli import main
from zonkcam.hardware.kiosk.review import create_review_app, review_routes
from zonkcam.hardware.kiosk.web import Access
from zonkcam.models.captures import CaptureSet
from zonkcam.vision.dice import Die


def die(value, confidence, x):
    box = (x, 20, x + 30, 50)
    return Die(value, "white", confidence, 0.9, box, (x + 15, 35), 0.0,
               "ok" if value is not None else "unreadable")


def looked(captures, heats=None):
    """Each die's look as capture stores it: here only the proposer's heat (no class
    probabilities: the queue goes by the read's confidence)."""
    for name in captures.names():
        meta = captures.meta(name)
        for i, d in enumerate(meta["dice"]):
            d["look"] = {"heat": (heats or {}).get(i, 0.9)}
        (captures.root / "meta" / f"{name}.json").write_text(json.dumps(meta))
    return captures


@pytest.fixture
def captures(tmp_path):
    c = CaptureSet(tmp_path / "cap", max_bytes=None)
    image = np.full((80, 240, 3), 90, np.uint8)
    c.add(image, [die(2, 0.95, 10), die(1, 0.5, 60), die(None, 0.2, 110)], "m")
    c.add(image, [die(4, 0.7, 150), die(6, 0.99, 200)], "m")
    return looked(c)


def test_queue_is_least_confident_first_and_bulk_correction_verifies(captures):
    client = TestClient(create_review_app(captures.root), client=("127.0.0.1", 5000), base_url="http://localhost:8081")
    data = client.get("/api/review").json()
    assert data["total"] == 5 and data["frames"] == 2 and data["reviewed_frames"] == 0
    assert [(i["value"], i["confidence"]) for i in data["items"]] == [
        (None, 0.2), (1, 0.5), (4, 0.7), (2, 0.95), (6, 0.99)]
    crop = client.get(data["items"][0]["crop"])
    assert crop.status_code == 200 and crop.headers["content-type"] == "image/jpeg"

    picked = [{"name": i["name"], "die": i["die"]} for i in data["items"][:2]]
    r = client.post("/api/review/correct", json={"items": picked, "value": 3})
    assert r.json() == {"corrected": 2, "value": 3}
    first = captures.names()[0]
    meta = captures.meta(first)
    assert meta["reviewed"] and [d["value"] for d in meta["dice"]] == [2, 3, 3]
    assert [d["flagged"] for d in meta["dice"]] == [False, False, False]
    labels = (captures.root / "labels" / f"{first}.txt").read_text().split()
    assert labels[0::5] == ["1", "2", "2"]  # classes 0..5: the corrected dice are now 3s
    # the die of that frame nobody looked at stays queued; the other frame is untouched
    left = client.get("/api/review").json()
    assert [(i["value"], i["confidence"]) for i in left["items"]] == [(4, 0.7), (2, 0.95), (6, 0.99)]
    assert len(captures.review_queue()) == 3


def test_a_rejected_candidate_is_queued_and_can_be_called_no_die(tmp_path):
    captures = CaptureSet(tmp_path / "cap", max_bytes=None)
    image = np.full((80, 240, 3), 90, np.uint8)
    logo = Die(None, None, 0.1, 0.0, (110, 20, 140, 50), (125, 35), 0.0, "unreadable")
    mark = Die(None, None, 0.3, 0.0, (170, 20, 200, 50), (185, 35), 0.0, "unreadable")
    name = captures.add(image, [die(2, 0.95, 10)], "m", rejected=[logo, mark])
    looked(captures, {2: 0.1})  # the proposer hardly took the mark for a die
    client = TestClient(create_review_app(captures.root), client=("127.0.0.1", 5000), base_url="http://localhost:8081")
    data = client.get("/api/review").json()
    assert [(i["die"], i["value"], i["rejected"], i["group"]) for i in data["items"]] == [
        (1, None, True, "misread"), (0, 2, False, "sure"), (2, None, True, "junk")]
    assert [i["words"] for i in data["items"]] == ["a die? face not recognised", "reads 2",
                                                   "probably not a die"]
    assert data["groups"] == {"misread": 1, "sure": 1, "junk": 1}
    r = client.post("/api/review/correct", json={"items": [{"name": name, "die": 1}], "value": 6})
    assert r.status_code == 200
    r = client.post("/api/review/correct", json={"items": [{"name": name, "die": 2}], "value": 0})
    assert r.json() == {"corrected": 1, "value": 0}
    dice = captures.meta(name)["dice"]
    assert (dice[1]["value"], dice[1]["status"]) == (6, "ok")
    assert (dice[2]["value"], dice[2]["status"]) == (None, "not_a_die")
    labels = (captures.root / "labels" / f"{name}.txt").read_text().split()
    assert labels[0::5] == ["1", "5"]  # the logo is now a labelled six; the mark is no label
    assert [i["die"] for i in client.get("/api/review").json()["items"]] == [0]


def test_bad_corrections_are_refused(captures):
    client = TestClient(create_review_app(captures.root), client=("127.0.0.1", 5000), base_url="http://localhost:8081")
    name = captures.names()[0]
    assert client.post("/api/review/correct", json={"items": [{"name": name, "die": 0}], "value": 7}
                       ).status_code == 400
    assert client.post("/api/review/correct", json={"value": 2}).status_code == 400
    r = client.post("/api/review/correct", json={"items": [{"name": "nope", "die": 0}], "value": 2})
    assert r.status_code == 404 and "nope" in r.json()["error"]
    assert client.get(f"/api/review/crop/{name}/9").status_code == 404
    assert not captures.meta(name)["reviewed"]


def test_a_name_from_outside_the_capture_folder_is_no_frame(captures, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.json").write_text(json.dumps({"dice": [{"value": 1}], "reviewed": False}))
    client = TestClient(Starlette(routes=review_routes(captures.root)), client=("127.0.0.1", 5000))
    relative = os.path.relpath(outside / "victim", captures.root / "meta")
    for name in (relative, str(outside / "victim"), ".hidden"):
        r = client.post("/api/review/correct", json={"items": [{"name": name, "die": 0}], "value": 2})
        assert r.status_code == 404, name
    assert json.loads((outside / "victim.json").read_text())["dice"][0]["value"] == 1
    assert sorted(p.name for p in outside.iterdir()) == ["victim.json"]


def test_lan_corrections_need_the_pin(captures):
    app = Starlette(routes=review_routes(captures.root, Access("1234")))
    lan = TestClient(app, client=("192.168.1.20", 5000))
    item = {"name": captures.names()[0], "die": 0}
    assert lan.post("/api/review/correct", json={"items": [item], "value": 2}).status_code == 403
    ok = lan.post("/api/review/correct", json={"items": [item], "value": 2},
                  headers={"x-zonkcam-pin": "1234"})
    assert ok.status_code == 200


def test_review_command_refuses_a_non_capture_folder(tmp_path, capsys):
    assert main(["review", str(tmp_path)]) == 2
    assert "not a capture folder" in capsys.readouterr().err


def test_review_command_refuses_an_unknown_model(captures, capsys):
    assert main(["review", str(captures.root), "--model", "nope"]) == 2
    assert "nor is it an installed model" in capsys.readouterr().err


def test_dice_captured_without_their_look_get_it_when_listed(tmp_path):
    c = CaptureSet(tmp_path / "cap", max_bytes=None)
    c.add(np.full((80, 240, 3), 90, np.uint8), [die(2, 0.95, 10)], "m")  # as the kiosk saves it
    client = TestClient(create_review_app(c.root), client=("127.0.0.1", 5000), base_url="http://localhost:8081")
    assert client.get("/api/review").json()["total"] == 1
    look = c.meta(c.names()[0])["dice"][0]["look"]
    assert len(look["probs"]) == 7 and 0 <= look["heat"] <= 1


def test_right_bad_crop_skip_pages_and_a_missed_die(captures):
    client = TestClient(create_review_app(captures.root), client=("127.0.0.1", 5000), base_url="http://localhost:8081")
    first, second = captures.names()
    page = client.get("/api/review?offset=1&limit=2").json()
    assert page["total"] == 5 and page["offset"] == 1 and len(page["items"]) == 2
    everything = client.get("/api/review?limit=2").json()["items"] + page["items"] + \
        client.get("/api/review?offset=3&limit=9").json()["items"]
    assert len({(i["name"], i["die"]) for i in everything}) == 5  # every crop reachable
    r = client.post("/api/review/correct", json={"items": [{"name": second, "die": 0}], "action": "confirm"})
    assert r.status_code == 200 and captures.meta(second)["dice"][0]["confidence"] == 1.0
    r = client.post("/api/review/correct", json={"items": [{"name": first, "die": 2}], "action": "confirm"})
    assert r.status_code == 404 and "no read to confirm" in r.json()["error"]
    client.post("/api/review/correct", json={"items": [{"name": first, "die": 2}], "action": "bad_crop"})
    client.post("/api/review/correct", json={"items": [{"name": first, "die": 0}, {"name": first, "die": 1},
                                                       {"name": second, "die": 1}], "action": "skip"})
    assert client.get("/api/review").json()["total"] == 0  # the count reaches zero
    assert client.post("/api/review/correct", json={"items": [], "action": "burn"}).status_code == 400
    # the whole frame, its dice, and a die the recognizer missed added by a tap on it
    assert client.get(f"/api/review/frame/{first}").headers["content-type"] == "image/jpeg"
    assert len(client.get(f"/api/review/frame/{first}/dice").json()["dice"]) == 3
    r = client.post("/api/review/add", json={"name": first, "x": 200, "y": 40})
    assert r.json()["added"] == 3 and client.get(r.json()["crop"]).status_code == 200
    items = client.get("/api/review").json()["items"]
    assert [(i["die"], i["words"], i["group"]) for i in items] == [
        (3, "added by you: which face?", "misread")]
    assert client.post("/api/review/add", json={"name": first, "x": 900, "y": 40}).status_code == 400
    assert client.post("/api/review/add", json={"name": "nope", "x": 1, "y": 1}).status_code == 404
    assert client.post("/api/review/add", json={"name": first}).status_code == 400


def test_adding_a_die_is_guarded_as_corrections_are(captures):
    app = Starlette(routes=review_routes(captures.root, Access("1234")))
    lan = TestClient(app, client=("192.168.1.20", 5000))
    spot = {"name": captures.names()[0], "x": 200, "y": 40}
    assert lan.post("/api/review/add", json=spot).status_code == 403
    local = TestClient(app, client=("127.0.0.1", 5000))
    evil = {"origin": "http://evil.example"}
    assert local.post("/api/review/add", json=spot, headers=evil).status_code == 403
    assert local.post("/api/review/add", content=json.dumps(spot)).status_code == 415
    assert len(captures.meta(spot["name"])["dice"]) == 3
    assert lan.post("/api/review/add", json=spot, headers={"x-zonkcam-pin": "1234"}).status_code == 200


def test_review_page_in_a_browser(browser, captures):
    port = free_port()
    with server(["-m", "zonkcam.hardware.cli", "review", str(captures.root), "--port", str(port)],
                port) as (url, _):
        page = browser.new_page(viewport={"width": 800, "height": 480})  # the kiosk's 7" screen
        page.goto(url + "/review")
        tiles = page.locator(".die")
        tiles.first.wait_for()
        assert tiles.count() == 5
        assert page.locator(".die .words").all_inner_texts() == [
            "a die? face not recognised", "reads 1, unsure", "reads 4, unsure", "reads 2", "reads 6"]
        assert page.locator("#summary").inner_text() == "5 left to look at · 2 frames"
        assert page.locator("#actions button").first.is_disabled()
        assert page.locator("#actions button[data-value='0']").inner_text() == "not a die"
        for label in ("right", "bad crop", "skip"):  # on the 800x480 screen, in reach
            box = page.locator("#actions button", has_text=label).bounding_box()
            assert box and box["x"] + box["width"] <= 800 and box["y"] + box["height"] <= 480, label
        tiles.nth(0).click()
        assert page.locator("#actions button[data-action='confirm']").is_disabled()  # no read to confirm
        tiles.nth(2).click()
        assert page.locator(".die.selected").count() == 2
        page.locator("#actions button[data-value='5']").click()
        page.wait_for_function("() => document.querySelectorAll('.die').length === 3")
        assert page.locator(".die .words").all_inner_texts() == ["reads 1, unsure", "reads 2", "reads 6"]
        page.locator("section[data-group='sure'] .select-group").click()
        page.locator("#actions button[data-action='confirm']").click()
        page.wait_for_function("() => document.querySelectorAll('.die').length === 1")
        tiles.first.click()
        page.locator("#actions button[data-action='bad_crop']").click()
        page.wait_for_function("() => document.getElementById('summary').textContent === 'all done'")
        assert page.locator("#done").is_visible()
        page.close()
    metas = [json.loads(p.read_text()) for p in sorted((captures.root / "meta").glob("*.json"))]
    assert metas[0]["dice"][2]["value"] == 5 and metas[1]["dice"][0]["value"] == 5
    assert metas[0]["dice"][1]["status"] == "bad_crop" and metas[1]["dice"][1]["confidence"] == 1.0
    assert all(m["reviewed"] for m in metas)


def test_a_missed_die_is_added_by_a_tap_on_the_frame(browser, captures):
    port = free_port()
    with server(["-m", "zonkcam.hardware.cli", "review", str(captures.root), "--port", str(port)],
                port) as (url, _):
        page = browser.new_page(viewport={"width": 800, "height": 480})
        page.goto(url + "/review")
        page.locator(".die").first.wait_for()
        page.locator(".die .in-frame").first.click()
        image = page.locator("#frame-img")
        page.wait_for_function("() => document.getElementById('frame-img').naturalWidth > 0")
        page.wait_for_function("() => document.querySelectorAll('#frame-box .box').length === 3")
        box = image.bounding_box()
        assert box["width"] <= 800 and box["y"] + box["height"] <= 480
        image.click(position={"x": box["width"] * 220 / 240, "y": box["height"] * 40 / 80})
        page.wait_for_function("() => document.querySelectorAll('#frame-box .box').length === 4")
        page.locator("#frame-close").click()
        page.wait_for_function("() => document.querySelectorAll('.die').length === 6")
        assert page.locator(".die .words").first.inner_text() == "added by you: which face?"
        page.close()


def test_the_kiosk_review_page_orders_dice_with_the_model_play_reads_with(tmp_path, monkeypatch):
    """`zonkcam play --model M --capture DIR`: dice captured without their look get it from M,
    not from the active model."""
    import shutil
    from pathlib import Path

    from zonkcam.models.registry import shipped_model

    if not shipped_model().is_file():
        pytest.skip("no shipped dice model")
    model = tmp_path / "ours.onnx"
    shutil.copy(shipped_model(), model)
    seen = []

    def spy(root, access=None, model=None):
        seen.append(model)
        return review_routes(root, access, model)

    monkeypatch.setattr("zonkcam.hardware.kiosk.review.review_routes", spy)
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: None)  # serve nothing, return at once
    monkeypatch.setenv("ZONKCAM_HOME", str(tmp_path / "home"))
    assert main(["play", "--camera", "demo", "--demo-seed", "0",
                 "--model", str(model), "--capture", str(tmp_path / "cap"),
                 "--db", str(tmp_path / "z.db"), "--port", str(free_port()), "--players", "A,B"]) == 0
    assert len(seen) == 1 and seen[0] is not None and Path(seen[0]).resolve() == model.resolve()


def test_the_review_page_alone_answers_no_page_under_another_name(captures):
    """DNS rebinding: a hostile page whose name points at this machine is same-origin to the
    browser; it must neither read the crops nor label them."""
    evil = TestClient(create_review_app(captures.root), client=("127.0.0.1", 5000),
                      base_url="http://evil.example:8081")
    assert evil.get("/api/review").status_code == 421
    answer = evil.post("/api/review/correct", json={"items": [{"name": "x", "die": 0}], "value": 3},
                       headers={"Origin": "http://evil.example:8081"})
    assert answer.status_code == 421
    own = TestClient(create_review_app(captures.root), client=("127.0.0.1", 5000), base_url="http://localhost:8081").get("/review")
    assert own.status_code == 200 and "frame-ancestors 'none'" in own.headers["content-security-policy"]
