#!/usr/bin/env bash
# Playwright cannot download its browsers here: use Debian's Chromium, and
# its old headless shell, which the browser tests run in (Playwright's own
# choice for headless runs: about a fifth less CPU than the full browser's
# headless mode on the same specs, docs/testing.md).
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ]; then exit 0; fi
echo "Installing Debian's chromium and its headless shell for the browser tests..."
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell >/dev/null
