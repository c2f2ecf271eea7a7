"""`zonkcam play --lan` for real: a phone's spectator view reaches the server from 127.0.0.2
(through `hardware.relay.Relay`), which the server takes for another machine (only 127.0.0.1 and ::1 are
the kiosk itself): no controls, no PIN shown, actions refused without the kiosk's PIN and
accepted with it. Tests reach loopback addresses only."""
import json
import urllib.request

import pytest
from browser import free_port, server
from zonkcam.hardware.relay import Relay
from zonkcam.models.registry import shipped_model

pytestmark = pytest.mark.skipif(not shipped_model().is_file(), reason="no shipped dice model")


def test_spectator_on_the_lan_cannot_act_without_the_pin(browser, tmp_path):
    port = free_port()
    argv = ["-m", "zonkcam.hardware.cli", "play", "--camera", "demo", "--demo-seed", "0",
            "--lan", "--port", str(port),
            "--db", str(tmp_path / "z.db"), "--players", "Ann,Bob"]
    with (server(argv, port, env={"ZONKCAM_HOME": str(tmp_path / "home")}) as (kiosk, _),
          Relay(port, source="127.0.0.2") as relay):
        lan = relay.url
        with urllib.request.urlopen(kiosk + "/api/state", timeout=10) as r:
            access = json.loads(r.read())["access"]
        assert access == {"can_act": True, "local": True, "lan": True}
        with urllib.request.urlopen(kiosk + "/api/pairing", timeout=10) as r:
            pin = json.loads(r.read())["pin"]  # for the kiosk's own screen only
        assert len(pin) == 6
        local = browser.new_page(viewport={"width": 800, "height": 480})
        local.goto(kiosk)
        local.wait_for_function(f"() => document.querySelector('#pin').textContent === 'PIN {pin}'")
        local.click("#pin")
        local.wait_for_selector("#pairing-dialog[open] #pairing-qr svg")
        assert local.inner_text("#pairing-pin") == pin

        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(f"{lan}/spectator")
        phone.wait_for_selector("#sheet th")
        state = phone.evaluate("fetch('/api/state').then(r => r.json())")
        assert state["access"] == {"can_act": False, "local": False, "lan": True}
        assert not phone.is_visible("#pin")
        assert phone.evaluate("fetch('/api/pairing').then(r => r.status)") == 403
        for control in ("#bank", "#undo", "#new-game", "#end-game", "#penalty"):
            assert not phone.is_visible(control), control

        post = """async ([pin]) => {
            const headers = {"Content-Type": "application/json"};
            if (pin !== null) headers["X-Zonkcam-PIN"] = pin;
            const action = {action: "new_game", ruleset: "variant:wheaton", players: ["Cy", "Di"]};
            const r = await fetch("/api/action", {method: "POST", headers, body: JSON.stringify(action)});
            return [r.status, await r.json()];
        }"""
        status, body = phone.evaluate(post, [None])
        assert status == 403 and "PIN" in body["error"]
        wrong = f"{(int(pin) + 1) % 1_000_000:06d}"
        assert phone.evaluate(post, [wrong])[0] == 403
        assert state["game"]["id"] == 1
        status, body = phone.evaluate(post, [pin])
        assert status == 200 and body["ok"]
        phone.wait_for_function("() => document.querySelector('#sheet thead').innerText.includes('Cy')")
        with urllib.request.urlopen(kiosk + "/api/state", timeout=10) as r:
            assert json.loads(r.read())["sheet"]["players"] == ["Cy", "Di"]

        scanned = browser.new_page(viewport={"width": 390, "height": 844})
        scanned.goto(f"{lan}/#pin={pin}")  # the address in the kiosk's QR code, seen from a phone
        scanned.wait_for_function("() => sessionStorage.getItem('pin') !== null && location.hash === ''")
        assert scanned.is_hidden("#unlock") and scanned.is_visible("#undo")
