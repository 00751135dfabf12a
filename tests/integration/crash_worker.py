"""A worker process for the crash test: a slow fake embedder so it can be killed mid-batch."""

from __future__ import annotations

import asyncio
import sys
import time

from hipocampo import AsyncMemory
from hipocampo.adapters.embedders.fake import FakeEmbedder


class SlowEmbedder(FakeEmbedder):
    def embed_documents(self, texts):  # noqa: ANN001, ANN201 - test double
        time.sleep(0.002 * len(texts))
        return super().embed_documents(texts)


async def main(db: str) -> None:
    mem = await AsyncMemory.open(
        db, embedder=SlowEmbedder(), worker="external", worker_batch_size=20, job_lease_seconds=1.0, summaries=False
    )
    try:
        await mem.run_worker()
    finally:
        await mem.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
