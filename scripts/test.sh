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
if (( WITH_ENGINES )); then
    engines_log="$(mktemp)"
    bash scripts/engines.sh install >"$engines_log" 2>&1 </dev/null &
    engines_install=$!
fi

PYTHON="${PYTHON:-python3}"
if [[ ! -x .venv/bin/python ]]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

if (( WITH_ENGINES )); then
    if ! wait "$engines_install" || ! bash scripts/engines.sh start >>"$engines_log" 2>&1 </dev/null; then
        cat "$engines_log" >&2
        echo "test.sh: scripts/engines.sh could not install or start PostgreSQL/Redis (HIPOCAMPO_TEST_ENGINES=skip runs without them)" >&2
        exit 1
    fi
    rm -f "$engines_log"
    eval "$(bash scripts/engines.sh env)"
    echo "test.sh: engines up: PostgreSQL+pgvector $HIPOCAMPO_TEST_PG_URL, Redis $HIPOCAMPO_TEST_REDIS_URL (scripts/engines.sh stop)"
fi

# Nothing in the suite may reach the network: model hubs are off, and so is tiktoken's download.
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

.venv/bin/ruff check src tests benchmarks
exec .venv/bin/python -m pytest -p no:cacheprovider "$@"
