#!/usr/bin/env bash
# A headless browser for the web inspector's end-to-end tests (tests/e2e/test_ui_browser.py).
#
#   scripts/browser.sh install   apt-get install Debian's chromium and chromium-driver (skips at once when present)
#   scripts/browser.sh check     say which browser and driver the tests will use (exit 1 when missing)
#
# Why Debian's packages: browser downloads (`playwright install`, Selenium Manager) reach hosts
# CI machines cannot; the distribution's Chromium and its matching chromedriver come from the
# same signed archive as the rest of the system and always agree on a version. The tests drive
# them through Selenium (PyPI, in the `test` extra) with --headless --no-sandbox --disable-gpu.
set -euo pipefail

CHROMIUM="${HIPOCAMPO_CHROMIUM:-/usr/bin/chromium}"
CHROMEDRIVER="${HIPOCAMPO_CHROMEDRIVER:-/usr/bin/chromedriver}"

log() { printf 'browser: %s\n' "$*" >&2; }

present() { [[ -x "$CHROMIUM" && -x "$CHROMEDRIVER" ]]; }

install() {
    if present; then
        return 0
    fi
    local sudo=()
    if [[ "$(id -u)" != 0 ]]; then
        command -v sudo >/dev/null || { log "need root (or sudo) to apt-get install chromium chromium-driver"; exit 1; }
        sudo=(sudo)
    fi
    log "installing chromium and chromium-driver with apt (a minute on a fresh machine)"
    export DEBIAN_FRONTEND=noninteractive
    # Only refresh the package lists when apt does not know the package yet (a fresh image).
    if ! apt-cache show chromium-driver >/dev/null 2>&1; then
        "${sudo[@]}" apt-get update -qq
    fi
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
    present || { log "chromium or chromedriver still missing after apt-get install"; exit 1; }
}

check() {
    if present; then
        log "$("$CHROMIUM" --version 2>/dev/null || echo chromium) with $("$CHROMEDRIVER" --version 2>/dev/null | cut -d' ' -f1-2)"
    else
        log "missing: $CHROMIUM or $CHROMEDRIVER (scripts/browser.sh install)"
        exit 1
    fi
}

case "${1:-}" in
    install) install ;;
    check) check ;;
    *) echo "usage: $0 install|check" >&2; exit 2 ;;
esac
