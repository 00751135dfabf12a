"""Shared fixtures: a memory on a real SQLite file, with the shipped fake embedder."""

from __future__ import annotations

import pytest

from hipocampo import Memory
from hipocampo.adapters.embedders.fake import FakeEmbedder


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "memory.db")


@pytest.fixture
def memory(db_path):
    mem = Memory.open(db_path, embedder=FakeEmbedder())
    yield mem
    mem.close()
