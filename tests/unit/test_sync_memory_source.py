"""The synchronous ``Memory`` is generated source (``scripts/gen_sync_memory.py``), so editors and
type checkers see its methods. These tests keep it in step with ``AsyncMemory``."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

from hipocampo import AsyncMemory, Memory
from hipocampo.client import _PUBLIC

ROOT = Path(__file__).resolve().parents[2]


def test_the_generated_file_is_in_step_with_async_memory() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_sync_memory.py"), "--check"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_public_coroutine_has_a_sync_method_with_the_same_parameters() -> None:
    for name in _PUBLIC:
        assert name in vars(Memory), f"Memory.{name} is not written in the class body"
        sync, coro = inspect.signature(getattr(Memory, name)), inspect.signature(getattr(AsyncMemory, name))
        assert list(sync.parameters) == list(coro.parameters), name
        assert [p.default for p in sync.parameters.values()] == [p.default for p in coro.parameters.values()], name
        assert sync.return_annotation == coro.return_annotation.replace("list[", "builtins.list[") or (
            sync.return_annotation == coro.return_annotation
        ), name
        assert not inspect.iscoroutinefunction(getattr(Memory, name))
