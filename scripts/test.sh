#!/usr/bin/env bash
# Install everything the tests need into .venv and run the whole suite.
# Used by CI (.ci/run) and by developers: `./scripts/test.sh [pytest args]`.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
if [[ ! -x .venv/bin/python ]]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

# Nothing in the suite may reach the network: model hubs are off, and so is tiktoken's download.
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

.venv/bin/ruff check src tests benchmarks
exec .venv/bin/python -m pytest -p no:cacheprovider "$@"
