#!/bin/sh
# Runs one GUI test under its own Xvfb display (and its own D-Bus session when
# dbus-run-session is there), so the suite needs no display of its own.
# SPDX-License-Identifier: GPL-3.0-or-later
set -e
if [ -n "${TM_TEST_USE_DISPLAY:-}" ] && [ -n "${DISPLAY:-}" ]; then
  exec "$@"
fi
unset WAYLAND_DISPLAY
export GDK_BACKEND=x11
export NO_AT_BRIDGE=1
export GTK_A11Y=none
if command -v dbus-run-session >/dev/null 2>&1; then
  # A bus that starts no service of the machine's (tests/dbus-session.conf).
  exec dbus-run-session --config-file="$(dirname "$0")/dbus-session.conf" -- xvfb-run -a -s "-screen 0 1280x900x24 -nolisten tcp" "$@"
fi
exec xvfb-run -a -s "-screen 0 1280x900x24 -nolisten tcp" "$@"
