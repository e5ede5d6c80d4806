#!/usr/bin/env bash
# The deployment tests run the shipped nginx site with Debian's nginx on loopback, and
# `make deploy-local` runs it. Install it when we can (root, apt) and it is missing, without
# starting it: a package's own start would leave an nginx on port 80 behind.
set -eu
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing nginx for the deployment test (apt-get)..."
    policy=/usr/sbin/policy-rc.d
    made=""
    if [ ! -e "$policy" ]; then
        # Debian's packages ask policy-rc.d before starting a service; 101 is "do not".
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && made=1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null 2>&1 \
        || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
    [ -n "$made" ] && rm -f "$policy"
else
    echo "nginx is missing and cannot be installed here (not root); the deployment test will" \
         "skip unless HEARTS_REQUIRE_NGINX=1, which makes it fail." >&2
fi
exit 0
