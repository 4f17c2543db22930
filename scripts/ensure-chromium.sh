#!/usr/bin/env bash
# Runs before `npm test`: the browser tests drive Debian's Chromium. Installs it when it is
# missing and this user can (root with apt-get); otherwise says exactly what to run.
set -euo pipefail
path="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$path" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests (once)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "The browser tests need Chromium at $path: run 'sudo apt-get install chromium'," >&2
echo "or set CHROMIUM_PATH to a Chromium or Chrome binary." >&2
exit 1
