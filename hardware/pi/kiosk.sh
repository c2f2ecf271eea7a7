#!/bin/sh
# Chromium full screen on the desktop's Wayland display, showing the zonkcam score sheet.
# Run by zonkcam-kiosk.service (installed by setup.sh in ~/.local/share/zonkcam/):
#   kiosk.sh --wait          wait for the desktop's Wayland socket and for the app to answer
#                            (at most ZONKCAM_KIOSK_WAIT seconds, 60: less than the unit's start
#                            timeout, so a desktop that never comes says why instead of timing out)
#   kiosk.sh                 start Chromium on that socket
#   kiosk.sh --find-socket   print the socket's name
# The socket is found, not assumed: labwc and wayfire take wayland-0 or wayland-1, whichever
# is free when the desktop starts.
set -u
url="${ZONKCAM_URL:-http://localhost:8080/?kiosk=1}"
wait_s="${ZONKCAM_KIOSK_WAIT:-60}"
runtime="${XDG_RUNTIME_DIR:-/run/user/$(id -u)}"

wayland_socket() {
  for s in "$runtime"/wayland-*; do
    if [ -S "$s" ]; then  # not the wayland-N.lock files beside them
      basename "$s"
      return 0
    fi
  done
  return 1
}

case "${1:-}" in
  --find-socket)
    wayland_socket || { echo "no Wayland socket in $runtime" >&2; exit 1; }
    ;;
  --wait)
    i=0
    while :; do
      if socket="$(wayland_socket)"; then
        curl -fs -o /dev/null --max-time 2 "$url" && exit 0
        why="the desktop is up ($socket) but $url does not answer (journalctl --user -u zonkcam)"
      else
        why="no Wayland desktop in $runtime: is the desktop logged in (desktop autologin)?"
      fi
      i=$((i + 1))
      if [ "$i" -ge "$wait_s" ]; then
        echo "zonkcam-kiosk: after ${wait_s} s, $why" >&2
        exit 1
      fi
      sleep 1
    done
    ;;
  "")
    socket="$(wayland_socket)" || { echo "zonkcam-kiosk: no Wayland socket in $runtime" >&2; exit 1; }
    browser="$(command -v chromium || command -v chromium-browser)" \
      || { echo "zonkcam-kiosk: Chromium is not installed (apt install chromium)" >&2; exit 1; }
    export WAYLAND_DISPLAY="$socket"
    # --kiosk: full screen, no UI; the crash/restore bubbles are suppressed so a power cut does
    # not leave a "Restore pages?" prompt; no pinch zoom and no swipe-back on the touch screen;
    # ?kiosk=1 makes the page hide the mouse cursor; the autoplay policy lets the first ZONK be
    # heard before anyone has touched the screen.
    exec "$browser" --kiosk --ozone-platform=wayland --disable-pinch \
      --overscroll-history-navigation=0 --autoplay-policy=no-user-gesture-required \
      --noerrdialogs --disable-infobars --disable-session-crashed-bubble \
      --hide-crash-restore-bubble --no-first-run --password-store=basic \
      --user-data-dir="$HOME/.local/share/zonkcam/chromium" "$url"
    ;;
  *)
    echo "usage: kiosk.sh [--wait | --find-socket]" >&2
    exit 2
    ;;
esac
