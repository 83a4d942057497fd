#!/usr/bin/env bash
# Make sure Debian's Chromium is at /usr/bin/chromium for the browser tests.
# The tests never download a browser of their own: Playwright drives this one.
set -euo pipefail

CHROMIUM=${COSTSCOPE_CHROMIUM:-/usr/bin/chromium}

if [ -x "$CHROMIUM" ]; then
  echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM") is installed"
  exit 0
fi

if [ "$CHROMIUM" != /usr/bin/chromium ]; then
  echo "ensure-chromium: COSTSCOPE_CHROMIUM=$CHROMIUM is not an executable" >&2
  exit 1
fi

SUDO=
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
    echo "ensure-chromium: /usr/bin/chromium is missing and I am not root: run 'apt-get install chromium' as root" >&2
    exit 1
  fi
fi

echo "ensure-chromium: /usr/bin/chromium is missing; installing Debian's chromium (apt-get)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-liberation
echo "ensure-chromium: installed $(/usr/bin/chromium --version)"
