#!/usr/bin/env bash
# Install everything the tests need into .venv and run the whole suite.
# Used by CI (.ci/run) and by developers: `./scripts/test.sh [pytest args]`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Real PostgreSQL (+pgvector) and Redis for the tests (scripts/engines.sh: apt + a pgvector build, no
# Docker). The one-off install (about a minute on a fresh machine) runs while pip installs; the
# servers are then started on loopback and their URLs exported. HIPOCAMPO_TEST_ENGINES=skip leaves
# them out (the tests that need them then skip).
WITH_ENGINES=1
[[ "${HIPOCAMPO_TEST_ENGINES:-}" == skip ]] && WITH_ENGINES=0
# A headless Chromium and its driver for the web inspector's browser tests (scripts/browser.sh:
# Debian's packages). apt installs one thing at a time, so it follows the engines in the same
# background job. HIPOCAMPO_TEST_BROWSER=skip leaves it out (the browser tests then skip).
WITH_BROWSER=1
[[ "${HIPOCAMPO_TEST_BROWSER:-}" == skip ]] && WITH_BROWSER=0
browser_log="$(mktemp)"
install_browser() { if (( WITH_BROWSER )); then bash scripts/browser.sh install >"$browser_log" 2>&1; fi; }
if (( WITH_ENGINES )); then
    engines_log="$(mktemp)"
    { bash scripts/engines.sh install >"$engines_log" 2>&1 && install_browser; } </dev/null &
    engines_install=$!
else
    install_browser </dev/null &
    browser_install=$!
fi

PYTHON="${PYTHON:-python3}"
if [[ ! -x .venv/bin/python ]]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
# A third-party plugin (an embedder, a chat model, a vector index), installed as users install one:
# tests prove the entry-point route end to end (docs/plugins.md).
.venv/bin/python -m pip install --quiet -e tests/plugins/hipocampo-example-plugin
# The benchmarks ship apart from the product (benchmarks/pyproject.toml); tests and `hipocampo bench` use them.
.venv/bin/python -m pip install --quiet -e benchmarks

if (( WITH_ENGINES )); then
    if ! wait "$engines_install" || ! bash scripts/engines.sh start >>"$engines_log" 2>&1 </dev/null; then
        cat "$engines_log" "$browser_log" >&2
        echo "test.sh: scripts/engines.sh could not install or start PostgreSQL/Redis (HIPOCAMPO_TEST_ENGINES=skip runs without them)," \
            "or scripts/browser.sh could not install Chromium (HIPOCAMPO_TEST_BROWSER=skip)" >&2
        exit 1
    fi
    rm -f "$engines_log"
    eval "$(bash scripts/engines.sh env)"
    echo "test.sh: engines up: PostgreSQL+pgvector $HIPOCAMPO_TEST_PG_URL, Redis $HIPOCAMPO_TEST_REDIS_URL (scripts/engines.sh stop)"
fi

if (( ! WITH_ENGINES )) && ! wait "$browser_install"; then
    cat "$browser_log" >&2
    echo "test.sh: scripts/browser.sh could not install Chromium (HIPOCAMPO_TEST_BROWSER=skip runs without it)" >&2
    exit 1
fi
rm -f "$browser_log"
# Installed now: a browser test that finds no browser fails rather than skips.
(( WITH_BROWSER )) && export HIPOCAMPO_TEST_BROWSER=required

# Nothing in the suite may reach the network: model hubs are off, and so is tiktoken's download.
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

.venv/bin/ruff check src tests benchmarks scripts
.venv/bin/ruff format --check --quiet src tests benchmarks scripts
.venv/bin/python -m mypy  # src/hipocampo type-checks clean (settings in pyproject.toml)
exec .venv/bin/python -m pytest -p no:cacheprovider "$@"
