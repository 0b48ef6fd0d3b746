#!/bin/sh
# System packages the test suite needs in CI (idempotent): headless Chromium for the HTML report test,
# PostgreSQL server binaries for the store/farm tests (they start their own cluster in a temp dir).
set -eu
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
missing=""
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    missing="$missing chromium"
fi
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 && ! command -v pg_ctl >/dev/null 2>&1; then
    missing="$missing postgresql"
fi
if [ -z "$missing" ]; then
    exit 0
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086  # word splitting of the package list is intended
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
