#!/usr/bin/env bash
# Browser tests drive Debian's Chromium. Install it when we can (root, apt) and it is missing.
set -eu
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Chromium for the browser tests (apt-get)..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
    echo "Chromium is missing and cannot be installed here (not root); browser tests will skip" \
         "unless HEARTS_REQUIRE_BROWSER=1, which makes them fail." >&2
fi
