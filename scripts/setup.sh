#!/usr/bin/env bash
# One-time set-up on a fresh Debian machine: the browsers the tests and `npm start` drive, then the npm packages.
# Puppeteer never downloads a browser here (.puppeteerrc.cjs); it drives Debian's chromium and firefox-esr.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v firefox-esr >/dev/null 2>&1 || need+=(firefox-esr)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "Installing ${need[*]} from Debian..."
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" fonts-dejavu-core >/dev/null
fi
export PUPPETEER_SKIP_DOWNLOAD=1
npm ci --no-audit --no-fund
echo "Set up. Run the demo with: npm start    Run the tests with: npm test"
