#!/usr/bin/env bash
# Set up a zonkcam table kiosk on Raspberry Pi OS Bookworm (Pi 4 or 5, the labwc desktop).
# Run from the repository, as the desktop user (not root):  bash hardware/pi/setup.sh
# Safe to run again after `git pull`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$HOME/.local/share/zonkcam/venv"

echo "== apt packages: picamera2 (libcamera), Chromium, gpiozero"
sudo apt-get update
sudo apt-get install -y python3-picamera2 python3-venv python3-gpiozero python3-lgpio
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
sudo raspi-config nonint do_blanking 1 || echo "(raspi-config not found: disable blanking by hand)"

echo "== systemd user units: the app, and Chromium in kiosk mode"
units="$HOME/.config/systemd/user"
mkdir -p "$units" "$HOME/.config/zonkcam"
# The app's options for this table; kept when the script runs again.
[ -e "$HOME/.config/zonkcam/play.env" ] || echo "ZONKCAM_ARGS=" > "$HOME/.config/zonkcam/play.env"
sed "s#@VENV@#$venv#g" "$repo/hardware/pi/zonkcam.service" > "$units/zonkcam.service"
cp "$repo/hardware/pi/zonkcam-kiosk.service" "$units/zonkcam-kiosk.service"
systemctl --user daemon-reload
systemctl --user enable zonkcam.service zonkcam-kiosk.service
# Start the user's services at boot without waiting for a login shell.
sudo loginctl enable-linger "$USER"

echo
echo "Done. Point the camera at the empty table and calibrate it (table region, exposure,"
echo "white balance and focus):"
echo "  $venv/bin/zonkcam calibrate --camera pi -o ~/.config/zonkcam/table.json --overlay ~/table.png"
echo "then set  ZONKCAM_ARGS=--table $HOME/.config/zonkcam/table.json  in ~/.config/zonkcam/play.env"
echo "(add --button 17 for a bank button) and start:  systemctl --user start zonkcam zonkcam-kiosk"
echo "Logs:  journalctl --user -u zonkcam -f"
