"""Opt-in tests against a real local model server: skipped unless ``HIPOCAMPO_LLM_E2E=1``.

They need packages the test extra does not install (see ``test_llama_cpp_e2e.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    # Registered here too, so --strict-markers accepts the marker whatever pyproject says.
    config.addinivalue_line("markers", "llm_e2e: starts a local LLM server (opt-in: HIPOCAMPO_LLM_E2E=1)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("HIPOCAMPO_LLM_E2E") == "1":
        return
    skip = pytest.mark.skip(reason="LLM end-to-end tests are opt-in: set HIPOCAMPO_LLM_E2E=1")
    for item in items:  # this hook sees every collected test, not only this folder's
        if HERE in item.path.resolve().parents:
            item.add_marker(skip)
