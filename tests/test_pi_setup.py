"""hardware/pi: setup.sh's checks on a fake /etc/os-release, `uname -m` and lightdm.conf (its
--check changes nothing), and the kiosk's Wayland socket found rather than assumed."""
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

PI = Path(__file__).resolve().parent.parent / "hardware" / "pi"
BOOKWORM = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
TRIXIE = 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nVERSION_CODENAME=trixie\nID=debian\n'

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def setup_check(tmp_path, os_release=BOOKWORM, arch="aarch64", lightdm=None, uid="1000"):
    release = tmp_path / "os-release"
    release.write_text(os_release)
    conf = tmp_path / "lightdm.conf"
    if lightdm is not None:
        conf.write_text(lightdm)
    env = dict(os.environ, ZONKCAM_OS_RELEASE=str(release), ZONKCAM_ARCH=arch,
               ZONKCAM_LIGHTDM_CONF=str(conf), ZONKCAM_UID=uid, USER="ann")
    return subprocess.run(["bash", str(PI / "setup.sh"), "--check"], env=env, capture_output=True,
                          text=True, timeout=30)


def test_64_bit_bookworm_with_desktop_autologin_passes(tmp_path):
    done = setup_check(tmp_path, lightdm="[Seat:*]\nautologin-user=ann\nautologin-session=LXDE-pi-labwc\n")
    assert done.returncode == 0, done.stderr
    assert "ok: 64-bit Raspberry Pi OS Bookworm; desktop session LXDE-pi-labwc; " \
           "desktop autologin for ann" in done.stdout
    assert "WARNING" not in done.stderr


def test_without_desktop_autologin_it_says_how_to_turn_it_on(tmp_path):
    done = setup_check(tmp_path, lightdm="[Seat:*]\nautologin-user=bob\n")
    assert done.returncode == 0
    assert "does not log ann in by itself" in done.stderr
    assert "raspi-config nonint do_boot_behaviour B4" in done.stderr


@pytest.mark.parametrize("arch", ["armv7l", "armv6l"])
def test_32_bit_pi_os_is_refused_with_the_reason(tmp_path, arch):
    done = setup_check(tmp_path, arch=arch)
    assert done.returncode == 1
    assert f"32-bit Raspberry Pi OS ({arch})" in done.stderr
    assert "no 32-bit ARM wheels" in done.stderr and "64-bit" in done.stderr


def test_a_pc_is_sent_to_the_readme(tmp_path):
    done = setup_check(tmp_path, arch="x86_64")
    assert done.returncode == 1 and "the README" in done.stderr


def test_trixie_is_refused_with_the_numpy_reason(tmp_path):
    done = setup_check(tmp_path, os_release=TRIXIE)
    assert done.returncode == 1
    assert "trixie" in done.stderr and "Python 3.13" in done.stderr and "NumPy" in done.stderr
    assert "Bookworm" in done.stderr


def test_another_release_and_root_are_refused(tmp_path):
    bullseye = setup_check(tmp_path, os_release="VERSION_CODENAME=bullseye\n")
    assert bullseye.returncode == 1 and "'bullseye'" in bullseye.stderr
    root = setup_check(tmp_path, uid="0")
    assert root.returncode == 1 and "not as root" in root.stderr


def test_no_unit_or_script_assumes_the_pi_user_or_wayland_0():
    for path in PI.iterdir():
        text = path.read_text()
        assert "/home/pi" not in text, path
        assert "WAYLAND_DISPLAY=wayland-0" not in text, path
    unit = (PI / "zonkcam-kiosk.service").read_text()
    assert "TimeoutStartSec=90" in unit and "kiosk.sh --wait" in unit
    kiosk = (PI / "kiosk.sh").read_text()
    assert 'wait_s="${ZONKCAM_KIOSK_WAIT:-60}"' in kiosk  # under the start timeout
    assert "--disable-pinch" in kiosk and "--overscroll-history-navigation=0" in kiosk


def kiosk(runtime: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(PI / "kiosk.sh"), *args], capture_output=True, text=True,
                          env=dict(os.environ, XDG_RUNTIME_DIR=str(runtime), **env), timeout=30)


def test_the_kiosk_finds_the_desktops_wayland_socket(tmp_path):
    runtime = Path("/tmp") / f"zk-{os.getpid()}"  # short: a socket path is at most 107 bytes
    runtime.mkdir()
    try:
        assert kiosk(runtime, "--find-socket").returncode == 1
        (runtime / "wayland-0.lock").write_text("")  # a lock file is not the socket
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(runtime / "wayland-1"))
        try:
            found = kiosk(runtime, "--find-socket")
            assert found.returncode == 0 and found.stdout.strip() == "wayland-1"
        finally:
            server.close()
    finally:
        shutil.rmtree(runtime)


def test_the_kiosk_wait_gives_up_with_the_reason(tmp_path):
    waited = kiosk(tmp_path, "--wait", ZONKCAM_KIOSK_WAIT="1")
    assert waited.returncode == 1
    assert "after 1 s, no Wayland desktop" in waited.stderr and "autologin" in waited.stderr
