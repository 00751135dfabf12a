"""The core runs without the ``langgraph`` extra; its modules say how to install it."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
for name in ("langgraph", "langchain_core"):
    sys.modules[name] = None  # import fails as if not installed
import hipocampo, hipocampo.agent, hipocampo.entrypoints.cli
from hipocampo.domain.errors import ConfigurationError
for module in ("hipocampo.agent.langgraph", "hipocampo.agent.chat", "hipocampo.agent.scripted_chat"):
    try:
        __import__(module)
    except ConfigurationError as exc:
        assert "pip install 'hipocampo[langgraph]'" in str(exc), exc
    else:
        raise AssertionError(module + " imported without langgraph")
print("ok")
"""


def test_core_imports_without_langgraph_and_the_extra_is_named():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
