"""Index a memory just written, in the caller's call, so its next read finds it (read-your-writes).

The agent's ``save_memory``/``update_memory`` tools write through the curation services, which
queue an indexing job; the worker indexes it soon, but the agent's next ``get_memory`` in the same
turn must already find it. This module indexes it at once. The queued job still runs and writes
the same entries (its embedding comes from the cache).

Why this cannot deadlock with the worker (docs/reliability.md, "one lock order"): the worker's
transaction reads the memory ``FOR SHARE`` and then rewrites its row before touching the
indexes. The hand-rolled version of this did the same from another connection, so two
transactions held a share lock on one row and each waited to upgrade it: Postgres aborted one
(``DeadlockDetected``). Here the memory row is only read (a share lock, which never waits on
another share lock), never written: the row was written by the call that stored it. What is
written are the index entries, in the worker's order: the vectors first, then the user's keyword
statistics. So this transaction waits only on locks the worker takes in the same order.
"""

from __future__ import annotations

import asyncio
import logging

from ..domain.model import MemoryItem, Scope
from .deps import Deps
from .indexing import embed_in_batches, embedding_texts

log = logging.getLogger(__name__)


async def index_now(deps: Deps, item: MemoryItem) -> bool:
    """Write ``item``'s vector and keyword entries now; False when it could not (deleted
    meanwhile, or the store failed: nothing is lost but immediacy, the worker indexes it)."""
    try:
        texts = await embedding_texts(deps, [item])
        vectors = await asyncio.to_thread(embed_in_batches, deps, texts)
        async with deps.uow.transaction():
            current = await deps.memories.get_many(item.scope, [item.id])
            if not current:  # deleted meanwhile: stays deleted
                return False
            scope = Scope(item.scope.tenant_id, item.scope.user_id)  # the indexes' scope, as the worker's
            await deps.vectors.upsert(scope, [(item.id, vectors[0])], deps.embedder.name)
            await deps.keywords.upsert(scope, [(item.id, current[0].index_text)])
        return True
    except Exception:
        log.warning("could not index memory %s at once; the worker will", item.id, exc_info=True)
        return False
