"""A real ``hipocampo serve`` process for tests: its own free loopback port, its output (stdout
and stderr, the access log included) collected as it comes, and its pid for ``/proc``."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx


@dataclass
class ServeProcess:
    url: str
    port: int
    proc: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def peak_rss_kib(self) -> int:
        """The process's peak resident memory so far (``VmHWM``), in KiB."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        raise AssertionError("no VmHWM in /proc status")

    def wait_for_output(self, text: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output:
            assert time.monotonic() < deadline, f"{text!r} never appeared in:\n{self.output}"
            time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve_process(cli_command: Sequence[str], *args: str, env: dict[str, str] | None = None) -> Iterator[ServeProcess]:
    """``hipocampo serve --port <free> *args`` until the block ends; then a clean stop (exit 0)."""
    port = free_port()
    proc = subprocess.Popen(
        [*cli_command, "serve", "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    served = ServeProcess(f"http://127.0.0.1:{port}", port, proc)
    assert proc.stdout is not None
    stdout = proc.stdout

    def collect() -> None:
        for line in iter(stdout.readline, ""):
            served.lines.append(line)

    reader = threading.Thread(target=collect, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{served.url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, f"server did not start:\n{served.output}"
            time.sleep(0.1)
        yield served
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        reader.join(timeout=10)
    assert proc.returncode == 0, served.output
