"""A real Chroma server for the tests: ``chroma run`` from the chromadb package, on loopback.

Registered in ``tests/conftest.py``. ``chroma_server`` is the server's ``host:port``, started once
per test session when a test first asks for it and stopped at the end; each test takes collections
of its own (``chroma+http://host:port?collection=<unique>``), so tests never see each other's
vectors. Without the ``chroma`` extra the tests that need it are skipped.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _chroma_cli() -> str:
    """The ``chroma`` script installed beside this interpreter (the venv's), else on PATH."""
    beside = Path(sys.executable).with_name("chroma")
    found = str(beside) if beside.exists() else shutil.which("chroma")
    if found is None:
        pytest.skip("the chroma extra is not installed (pip install 'hipocampo[chroma]')")
    return found


@contextmanager
def running_chroma(folder: Path) -> Iterator[str]:
    """``chroma run`` on a free loopback port, storing in ``folder``; yields ``host:port`` once it
    accepts connections, and stops it on exit."""
    port = _free_port()
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(
        [_chroma_cli(), "run", "--path", str(folder / "data"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"chroma run did not start: {(folder / 'server.log').read_text(errors='replace')[-2000:]}"
                    ) from None
                time.sleep(0.1)
        yield f"127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("chromadb")
    with running_chroma(tmp_path_factory.mktemp("chroma-server")) as server:
        yield server


def chroma_http_url(server: str) -> str:
    """A vectors URL on the shared server with collections no other test uses."""
    return f"chroma+http://{server}?collection=t{uuid.uuid4().hex[:16]}"
