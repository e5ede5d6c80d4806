#!/usr/bin/env bash
# Browser tests drive Debian's Chromium. Install it when we can (root, apt) and it is missing.
# With it, a colour emoji font: names and reactions with emoji in them are drawn as a phone
# draws them, not as empty boxes, in the tests' measures and screenshots.
set -eu
have_emoji() {
    ls /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf >/dev/null 2>&1
}
if { command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; } && have_emoji; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Chromium and an emoji font for the browser tests (apt-get)..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
elif command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    echo "No colour emoji font (fonts-noto-color-emoji), and it cannot be installed here:" \
         "emoji in names show as boxes in screenshots." >&2
else
    echo "Chromium is missing and cannot be installed here (not root); browser tests will skip" \
         "unless HEARTS_REQUIRE_BROWSER=1, which makes them fail." >&2
fi
