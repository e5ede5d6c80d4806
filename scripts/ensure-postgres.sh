#!/usr/bin/env bash
# The tests start a throwaway PostgreSQL 15 cluster of their own (tests/pg_support.py) from
# Debian's binaries. Install them when we can (root, apt) and they are missing.
set -eu
if [ -x /usr/lib/postgresql/15/bin/initdb ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing PostgreSQL 15 for the store tests (apt-get)..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >/dev/null
else
    echo "PostgreSQL 15 is missing and cannot be installed here (not root); PostgreSQL tests" \
         "will skip unless HEARTS_REQUIRE_POSTGRES=1, which makes them fail." >&2
fi
