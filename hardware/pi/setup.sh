#!/usr/bin/env bash
# Set up a zonkcam table kiosk on Raspberry Pi OS Bookworm, 64-bit (Pi 4 or 5, the desktop).
# Run from the repository, as the desktop user (not root):  bash hardware/pi/setup.sh
#   bash hardware/pi/setup.sh --check   checks this system only (64-bit Bookworm, desktop
#                                       autologin) and changes nothing
# Safe to run again after `git pull`. Everything is installed for the user running it (no
# fixed pi user: Bookworm has no default user).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
data="$HOME/.local/share/zonkcam"
venv="$data/venv"
# What the checks read; overridable so that they can be tried on another machine.
os_release="${ZONKCAM_OS_RELEASE:-/etc/os-release}"
arch="${ZONKCAM_ARCH:-$(uname -m)}"
lightdm_conf="${ZONKCAM_LIGHTDM_CONF:-/etc/lightdm/lightdm.conf}"
uid="${ZONKCAM_UID:-$(id -u)}"

fail() { echo "zonkcam setup: $*" >&2; exit 1; }

check_platform() {
  [ "$uid" -ne 0 ] || fail "run this as the desktop user, not as root (it asks for sudo where it must)"
  case "$arch" in
    aarch64) ;;
    armv7l | armv6l | armhf)
      fail "this is 32-bit Raspberry Pi OS ($arch). zonkcam needs the 64-bit one (aarch64):" \
           "onnxruntime and OpenCV publish no 32-bit ARM wheels. Flash Raspberry Pi OS (64-bit)," \
           "Bookworm, with Raspberry Pi Imager." ;;
    *)
      fail "this is a $arch machine, not 64-bit Raspberry Pi OS (aarch64). On a PC, install as" \
           "the README says." ;;
  esac
  [ -r "$os_release" ] || fail "cannot read $os_release to tell which OS release this is"
  local codename
  codename="$(sed -n 's/^VERSION_CODENAME=//p' "$os_release" | tr -d '"')"
  case "$codename" in
    bookworm) ;;
    trixie)
      fail "this is Debian 13 'trixie', which has Python 3.13 and NumPy 2 in apt: the NumPy 1" \
           "pin in hardware/pi/constraints.txt (the ABI Bookworm's picamera2 is built for) has no" \
           "wheel for Python 3.13, and this setup is made and checked for Bookworm only. Flash" \
           "the Bookworm release of Raspberry Pi OS (64-bit)." ;;
    *)
      fail "this is '${codename:-an unknown release}' ($os_release); zonkcam's Pi setup is for" \
           "Raspberry Pi OS Bookworm, 64-bit." ;;
  esac
}

# The desktop session lightdm starts (LXDE-pi-labwc, LXDE-pi-wayfire, LXDE-pi-x), and whether it
# logs this user in by itself: without that, after a reboot the kiosk waits at a login screen.
desktop_session() {
  sed -n 's/^autologin-session=//p; s/^user-session=//p' "$lightdm_conf" 2>/dev/null | head -n 1
}

check_autologin() {
  if ! grep -qx "autologin-user=$USER" "$lightdm_conf" 2>/dev/null; then
    echo "WARNING: the desktop does not log $USER in by itself ($lightdm_conf has no" \
         "autologin-user=$USER): after a reboot the kiosk would wait at the login screen." >&2
    echo "         Turn it on: sudo raspi-config nonint do_boot_behaviour B4   (Desktop Autologin)" >&2
    return 1
  fi
}

# Screen blanking off. raspi-config picks its Wayland or X11 branch from the desktop it finds
# running, so over SSH before the desktop is up it would change the X11 setting only: then
# nothing is changed here and the way to do it is printed.
blanking_off() {
  local session runtime socket
  session="$(desktop_session)"
  case "$session" in
    *labwc* | *wayfire*)
      runtime="/run/user/$uid"
      socket="$(cd "$runtime" 2>/dev/null && for s in wayland-*; do [ -S "$s" ] && echo "$s" && break; done)"
      if [ -n "$socket" ]; then
        sudo env XDG_RUNTIME_DIR="$runtime" WAYLAND_DISPLAY="$socket" raspi-config nonint do_blanking 1
      else
        echo "(the $session desktop is not running yet: screen blanking left as it is. Run this" \
             "script again from the desktop, or turn it off in Preferences > Raspberry Pi" \
             "Configuration > Display > Screen Blanking)"
      fi ;;
    *) sudo raspi-config nonint do_blanking 1 ;;
  esac
}

check_platform
if [ "${1:-}" = "--check" ]; then
  autologin="desktop autologin for $USER"
  check_autologin || autologin="no desktop autologin"
  session="$(desktop_session)"
  echo "ok: 64-bit Raspberry Pi OS Bookworm; desktop session ${session:-unknown}; $autologin"
  exit 0
fi

echo "== apt packages: picamera2 (libcamera), gpiozero with lgpio (Pi 5 pins), Chromium, curl"
sudo apt-get update
sudo apt-get install -y python3-picamera2 python3-venv python3-gpiozero python3-lgpio curl
# The browser package was renamed; take whichever this release has.
sudo apt-get install -y chromium || sudo apt-get install -y chromium-browser

echo "== virtual environment with the system's picamera2 visible"
# --system-site-packages: picamera2 and libcamera's Python bindings come from apt and cannot be
# pip-installed. constraints.txt keeps NumPy at 1.x, the ABI apt's picamera2/simplejpeg were
# built for (a PyPI NumPy 2 in the venv would shadow it and break them), and OpenCV below 4.12,
# the last wheels that run on NumPy 1.x (see docs/hardware.md).
python3 -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --upgrade pip
"$venv/bin/pip" install -c "$repo/hardware/pi/constraints.txt" "$repo"
"$venv/bin/python" -c "import picamera2, numpy, cv2, onnxruntime; print('numpy', numpy.__version__, 'opencv', cv2.__version__)"

echo "== screen: no blanking"
if command -v raspi-config >/dev/null; then
  blanking_off
else
  echo "(raspi-config not found: turn screen blanking off by hand)"
fi

echo "== systemd user units: the app, and Chromium in kiosk mode"
units="$HOME/.config/systemd/user"
mkdir -p "$units" "$HOME/.config/zonkcam"
# The app's options for this table; kept when the script runs again.
[ -e "$HOME/.config/zonkcam/play.env" ] || echo "ZONKCAM_ARGS=" > "$HOME/.config/zonkcam/play.env"
sed "s#@VENV@#$venv#g" "$repo/hardware/pi/zonkcam.service" > "$units/zonkcam.service"
install -m 755 "$repo/hardware/pi/kiosk.sh" "$data/kiosk.sh"
cp "$repo/hardware/pi/zonkcam-kiosk.service" "$units/zonkcam-kiosk.service"
systemctl --user daemon-reload
systemctl --user enable zonkcam.service zonkcam-kiosk.service
# Start the user's services at boot without waiting for a login shell.
sudo loginctl enable-linger "$USER"

echo
check_autologin || true
echo "Done. Point the camera at the empty table and calibrate it (table region, exposure,"
echo "white balance and focus):"
echo "  $venv/bin/zonkcam calibrate --camera pi -o ~/.config/zonkcam/table.json --overlay ~/table.png"
echo "then set  ZONKCAM_ARGS=--table $HOME/.config/zonkcam/table.json  in ~/.config/zonkcam/play.env"
echo "(add --button 17 for a bank button) and start:  systemctl --user start zonkcam zonkcam-kiosk"
echo "Logs:  journalctl --user -u zonkcam -f"
