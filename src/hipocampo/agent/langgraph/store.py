"""A LangGraph ``BaseStore`` kept in hipocampo, so LangGraph and LangMem apps can switch to it.

Each item is one hipocampo memory (kind ``fact``) with a deterministic id derived from its scope,
namespace and key, so a put overwrites. The memory's metadata holds the namespace, key and JSON
value; its content is the text of the fields named by the index configuration (default: the whole
value as JSON). Items are indexed as they are put, so a search right after a put finds them;
``index=False`` stores an item that searches by query never score (it can still fill a page,
unscored, as with LangGraph's own stores).

An item with one text to index is indexed as that memory. One with several (several fields, or
an array's elements) is indexed as LangGraph's stores index it: each text under its own vector,
the item scored by its best one, so a match in one field is not diluted by the others. Each text
is then a *part*: a memory of its own (source ``langgraph_store_part``, in the item's scope, with
the item's expiry) written, replaced and deleted with the item, in its transaction.

Namespaces map onto hipocampo scopes: by default every item lives in one user scope
(``tenant_id``/``user_id``); with ``user_from_namespace=i``, ``namespace[i]`` is the hipocampo user,
so each end user's items are isolated, and appear in that user's recall as facts. Searches must
then name that element in their prefix.

TTLs (minutes, LangGraph's ``ttl``/``TTLConfig``) become the memory's ``expires_at``: an expired
item is gone for gets, searches and listings (hipocampo keeps it, with its history, until
:meth:`HipocampoStore.sweep_ttl` deletes it), and reads refresh the TTL unless told not to.

Searches by query use hipocampo's hybrid search (dense + keyword, with its boosts); ``score`` is
its final score, not a cosine: it can exceed 1, and thresholds tuned on LangGraph's stores do not
carry over. ``scores="cosine"`` searches the vectors alone and scores by cosine similarity, as
LangGraph's stores do. Filtering and listing scan the scope's facts: fine for thousands of items.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine, Iterable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from ...client import SearchOptions
from ...domain.errors import ConfigurationError, InvalidInput
from ...domain.model import MAX_CONTENT_CHARS, MemoryItem, MemoryKind, Scope, content_hash
from . import store_query as q

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        IndexConfig,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        TTLConfig,
        get_text_at_path,
        tokenize_path,
        validate_op_namespace,
    )
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError("HipocampoStore needs langgraph: pip install 'hipocampo[langgraph]'") from exc

if TYPE_CHECKING:
    from ...client import AsyncMemory
    from ...client_sync import Memory

T = TypeVar("T")
SOURCE = "langgraph_store"
PART_SOURCE = "langgraph_store_part"
PAGE = 500


class SyncCallOnAsyncStore(ConfigurationError, asyncio.InvalidStateError):
    """A sync call to a store over an ``AsyncMemory`` that cannot be served: made on the memory's
    own event loop (it would wait on itself), or with that loop not running. LangGraph's async
    stores raise ``asyncio.InvalidStateError`` here; hipocampo's callers catch its own
    ``ConfigurationError``: this is both."""


class HipocampoStore(BaseStore):
    """LangGraph's ``BaseStore`` on hipocampo memories (see the module docs).

    ``index`` takes LangGraph's ``IndexConfig``; only ``fields`` is used (hipocampo's own embedder
    embeds, so ``dims`` and ``embed`` are ignored; :attr:`index_config` says what is used). ``ttl``
    takes LangGraph's ``TTLConfig`` (``default_ttl`` minutes, ``refresh_on_read``);
    ``sweep_interval_minutes`` is ignored: call :meth:`sweep_ttl` to delete expired items, which
    reads already leave out. ``scores``: ``"hybrid"`` (hipocampo's search and score) or
    ``"cosine"`` (the vectors alone, scored by cosine similarity, as LangGraph's stores).
    """

    supports_ttl = True

    def __init__(
        self,
        memory: AsyncMemory | Memory,
        *,
        tenant_id: str = "default",
        user_id: str = "langgraph",
        user_from_namespace: int | None = None,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        scores: Literal["hybrid", "cosine"] = "hybrid",
    ) -> None:
        if user_from_namespace is not None and user_from_namespace < 0:
            raise ConfigurationError("user_from_namespace must be a namespace position (0 or more)")
        if scores not in ("hybrid", "cosine"):
            raise ConfigurationError(f'scores must be "hybrid" or "cosine", got {scores!r}')
        Scope(tenant_id, user_id)  # validates the ids now rather than on first use
        self._runner = getattr(memory, "_runner", None)
        self._memory: AsyncMemory = memory._inner if self._runner is not None else memory  # type: ignore[union-attr,assignment]
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.user_from_namespace = user_from_namespace
        self.fields: list[str] = list((index or {}).get("fields") or ["$"])
        self._index: dict[str, Any] = dict(index or {})
        self.scores = scores
        self.ttl_config = ttl
        try:  # an AsyncMemory belongs to the loop that opened it: sync calls are sent there
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None

    @property
    def index_config(self) -> dict[str, Any]:
        """The index, as LangGraph's stores expose theirs. Never ``None``: every item is searched
        by meaning, with hipocampo's embedder, whose dimension ``dims`` is; ``fields`` are the
        fields indexed by default. Other keys given in ``index`` (``embed``) are kept as given,
        unused."""
        return {**self._index, "dims": self._memory.embedding_dim, "fields": list(self.fields)}

    # -- the two abstract methods ----------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` synchronously: on a sync ``Memory``'s loop, or on the loop of the
        ``AsyncMemory`` (the store must then have been made on that loop, and called off it)."""
        return self._run_sync(self._abatch(list(ops)))

    def _run_sync(self, coro: Coroutine[Any, Any, T]) -> T:
        if self._runner is not None:
            return self._runner.run(coro)
        loop = self._loop
        if loop is None or not loop.is_running() or _on_loop_thread(loop):
            coro.close()
            raise SyncCallOnAsyncStore(
                "HipocampoStore over an AsyncMemory is async: use abatch/aput/asearch (or a sync Memory)"
            )
        return asyncio.run_coroutine_threadsafe(coro, loop).result()

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        if self._runner is None:
            return await self._abatch(ops)
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._abatch(ops), self._runner.loop))

    async def _abatch(self, ops: list[Op]) -> list[Result]:
        """Reads first, then the puts (the last put of a key wins), as LangGraph's stores do."""
        results: list[Result] = [None] * len(ops)
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for op in ops:
            validate_op_namespace(op)
        for i, op in enumerate(ops):
            if isinstance(op, GetOp):
                results[i] = await self._get(op)
            elif isinstance(op, SearchOp):
                results[i] = await self._search(op)
            elif isinstance(op, ListNamespacesOp):
                results[i] = await self._list_namespaces(op)
            elif isinstance(op, PutOp):
                puts.pop((tuple(op.namespace), op.key), None)
                puts[(tuple(op.namespace), op.key)] = op
            else:
                raise ValueError(f"Unknown operation type: {type(op)}")
        for op in puts.values():
            await self._put(op)
        return results

    # -- operations ------------------------------------------------------------------------------
    async def _get(self, op: GetOp) -> Item | None:
        scope = self._scope(op.namespace)
        found = [
            m for m in await self._memory.get_keyed(scope, [self._id(scope, op.namespace, op.key)]) if self._live(m)
        ]
        if op.refresh_ttl:
            await self._refresh(found)
        return _item(found[0]) if found else None

    async def _put(self, op: PutOp) -> None:
        if op.ttl is not None and not op.ttl > 0:
            raise InvalidInput("ttl must be a positive number of minutes (or None)")
        namespace = tuple(op.namespace)
        if not namespace:
            raise InvalidNamespaceError("Namespace cannot be empty.")
        scope = self._scope(namespace)
        memory_id = self._id(scope, namespace, op.key)
        old = await self._memory.get_keyed(scope, [memory_id])
        if op.value is None:
            await self._memory.delete_keyed(scope, [memory_id, *(_part_ids(old[0]) if old else [])])
            return
        value = dict(op.value)
        try:
            as_json = json.dumps(value, ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"a store value must be JSON-serialisable: {exc}") from None
        fields = [] if op.index is False else (op.index if op.index is not None else self.fields)
        texts = [t for f in fields for t in get_text_at_path(value, tokenize_path(f) if f != "$" else f) if t.strip()]
        several = len(texts) > 1  # each text its own part, the item scored by its best
        now = self._memory.now()
        item = MemoryItem(
            id=memory_id,
            scope=scope,
            kind=MemoryKind.FACT,
            content=("\n".join(texts) if texts else as_json)[:MAX_CONTENT_CHARS],
            created_at=now,
            metadata={
                "source": SOURCE,
                "namespace": list(namespace),
                "key": op.key,
                "value": value,
                "indexed": bool(texts),
                "ttl_minutes": op.ttl,
                "parts": len(texts) if several else 0,
            },
            key=f"{SOURCE}:{memory_id}",  # its own fact slot: fact reconciliation leaves it alone
            expires_at=None if op.ttl is None else now + timedelta(minutes=op.ttl),
        )
        parts = [_part(item, i, text) for i, text in enumerate(texts)] if several else []
        stale = [i for i in (_part_ids(old[0]) if old else []) if i not in {p.id for p in parts}]
        await self._memory.put_keyed(item, index=bool(texts) and not several, parts=parts, drop=stale)

    async def _search(self, op: SearchOp) -> list[SearchItem]:
        if op.limit < 0 or op.offset < 0:
            raise InvalidInput("search limit and offset must not be negative")
        prefix = tuple(op.namespace_prefix)
        scope = self._search_scope(prefix)

        def wanted(m: MemoryItem) -> bool:
            return self._live(m) and q.has_prefix(_namespace(m), prefix) and q.matches(m.metadata["value"], op.filter)

        if not op.query:
            listed = [m for m in await self._all_items([scope]) if wanted(m)]
            listed.sort(key=lambda m: m.updated_at or m.created_at, reverse=True)
            chosen = listed[op.offset : op.offset + op.limit]
            if op.refresh_ttl:
                await self._refresh(chosen)
            return [_item(m, search=True) for m in chosen]
        needed = op.offset + op.limit
        pool = min(max(self._memory.settings.candidate_pool, 5 * needed + 20), 2000)
        hits = await (self._cosine_hits if self.scores == "cosine" else self._hybrid_hits)(scope, op.query, pool)
        scored = [(m, score) for m, score in await self._by_item(scope, hits) if wanted(m)]
        kept = scored[op.offset : needed]
        page: list[SearchItem] = [_item(m, score) for m, score in kept]
        filler: list[MemoryItem] = []
        if len(page) < op.limit:  # a short page is filled with unscored matches, as LangGraph's stores do
            seen = {m.id for m, _ in scored}
            rest = [m for m in await self._all_items([scope]) if m.id not in seen and wanted(m)]
            skip = max(op.offset - len(scored), 0)
            filler = rest[skip : skip + op.limit - len(page)]
            page += [_item(m, search=True) for m in filler]
        if op.refresh_ttl:
            await self._refresh([m for m, _ in kept] + filler)
        return page

    async def _hybrid_hits(self, scope: Scope, query: str, pool: int) -> list[tuple[MemoryItem, float]]:
        options = SearchOptions(k=200, kinds=(MemoryKind.FACT,), min_relevance=0.0, pool=pool)
        found = await self._memory.search_scope(scope, query, options)
        return [(h.memory, h.score) for h in found.hits]

    async def _cosine_hits(self, scope: Scope, query: str, pool: int) -> list[tuple[MemoryItem, float]]:
        """The nearest vectors and their cosine similarity to the query: LangGraph's score."""
        return await self._memory.nearest(scope, query, pool)

    async def _by_item(self, scope: Scope, hits: list[tuple[MemoryItem, float]]) -> list[tuple[MemoryItem, float]]:
        """The store items the hits are of (an item, or one of its parts), best score first, each
        scored by its best hit; hits on other memories of the scope are left out."""
        best: dict[str, float] = {}
        items: dict[str, MemoryItem] = {}
        for m, score in hits:
            if m.metadata.get("source") == PART_SOURCE and isinstance(m.metadata.get("item"), str):
                owner = m.metadata["item"]
            elif _is_item(m) and m.metadata.get("indexed") and not m.metadata.get("parts"):
                owner, items[m.id] = m.id, m  # (an item with parts is scored by them, even if reindexed)
            else:
                continue
            best[owner] = max(score, best.get(owner, score))
        missing = [i for i in best if i not in items]
        items.update((m.id, m) for m in await self._memory.get_keyed(scope, missing) if _is_item(m))
        ranked = sorted((i for i in best if i in items), key=lambda i: best[i], reverse=True)
        return [(items[i], best[i]) for i in ranked]

    async def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = list(op.match_conditions or ())
        scopes = await self._scopes_for(conditions)
        namespaces = {_namespace(m) for m in await self._all_items(scopes) if self._live(m)}
        kept = [ns for ns in namespaces if all(q.condition_matches(c, ns) for c in conditions)]
        if op.max_depth is not None:
            kept = list({ns[: op.max_depth] for ns in kept})
        return sorted(kept)[op.offset : op.offset + op.limit]

    def sweep_ttl(self) -> int:
        """Delete the expired items of the store's scopes for good; returns how many. (Reads
        already leave them out; this reclaims the space.)"""
        return self._run_sync(self.asweep_ttl())

    async def asweep_ttl(self) -> int:
        """:meth:`sweep_ttl`, async."""
        scopes = await self._scopes_for([])
        now = self._memory.now()
        removed = 0
        for scope in scopes:
            expired = [m for m in await self._all_items([scope]) if not m.is_current(now)]
            removed += len(expired)
            await self._memory.delete_keyed(scope, [i for m in expired for i in (m.id, *_part_ids(m))])
        return removed

    # -- TTLs ------------------------------------------------------------------------------------
    def _live(self, m: MemoryItem) -> bool:
        return _is_item(m) and m.is_current(self._memory.now())

    async def _refresh(self, items: list[MemoryItem]) -> None:
        """Push the expiry of items read with a TTL one TTL past now (LangGraph's refresh on read),
        and their parts' with them."""
        now = self._memory.now()
        renewed = []
        for m in items:
            minutes = m.metadata.get("ttl_minutes")
            if isinstance(minutes, (int, float)) and minutes > 0:
                m.expires_at = now + timedelta(minutes=minutes)
                renewed.append(m)
        expiry = {m.id: m.expires_at for m in renewed}
        owners = [m for m in renewed if _part_ids(m)]
        for scope in {m.scope for m in owners}:
            part_ids = [i for m in owners if m.scope == scope for i in _part_ids(m)]
            for part in await self._memory.get_keyed(scope, part_ids):
                part.expires_at = expiry[part.metadata["item"]]
                renewed.append(part)
        await self._memory.renew(renewed)  # only the expiry changes: the indexes stay as they are

    # -- scopes and ids --------------------------------------------------------------------------
    def _scope(self, namespace: tuple[str, ...]) -> Scope:
        i = self.user_from_namespace
        if i is None:
            return Scope(self.tenant_id, self.user_id)
        if len(namespace) <= i:
            raise InvalidInput(
                f"namespace {namespace} has no element {i}, which names the hipocampo user (user_from_namespace={i})"
            )
        return Scope(self.tenant_id, namespace[i])

    def _search_scope(self, prefix: tuple[str, ...]) -> Scope:
        i = self.user_from_namespace
        if i is not None and len(prefix) <= i:
            raise InvalidInput(
                f"a search needs the user in its namespace prefix: element {i} (user_from_namespace={i}); got {prefix}"
            )
        return self._scope(prefix)

    async def _scopes_for(self, conditions: list[Any]) -> list[Scope]:
        i = self.user_from_namespace
        if i is None:
            return [Scope(self.tenant_id, self.user_id)]
        for c in conditions:
            if c.match_type == "prefix" and len(c.path) > i and c.path[i] != "*":
                return [Scope(self.tenant_id, c.path[i])]
        return await self._memory.tenant_scopes(self.tenant_id)

    def _id(self, scope: Scope, namespace: tuple[str, ...], key: str) -> str:
        path = json.dumps([scope.tenant_id, scope.user_id, list(namespace), key], ensure_ascii=False)
        return "lgstore_" + content_hash(path)[:32]

    async def _all_items(self, scopes: list[Scope]) -> list[MemoryItem]:
        """Every store item of the scopes, newest first (a scan of their facts)."""
        out: list[MemoryItem] = []
        for scope in scopes:
            out += [m async for m in self._memory.keyed_facts(scope, page=PAGE) if _is_item(m)]
        return out


def _is_item(m: MemoryItem) -> bool:
    return m.metadata.get("source") == SOURCE and isinstance(m.metadata.get("namespace"), list)


def _part(item: MemoryItem, i: int, text: str) -> MemoryItem:
    """The ``i``-th indexed text of ``item`` as a memory of its own (its parts share its expiry)."""
    part_id = f"{item.id}_p{i}"
    return MemoryItem(
        id=part_id,
        scope=item.scope,
        kind=MemoryKind.FACT,
        content=text[:MAX_CONTENT_CHARS],
        created_at=item.created_at,
        metadata={
            "source": PART_SOURCE,
            "item": item.id,
            "namespace": item.metadata["namespace"],
            "key": item.metadata["key"],
        },
        key=f"{SOURCE}:{part_id}",
        expires_at=item.expires_at,
    )


def _part_ids(m: MemoryItem) -> list[str]:
    count = m.metadata.get("parts")
    return [f"{m.id}_p{i}" for i in range(count)] if isinstance(count, int) else []


def _namespace(m: MemoryItem) -> tuple[str, ...]:
    return tuple(m.metadata["namespace"])


def _item(m: MemoryItem, score: float | None = None, *, search: bool = False) -> Any:
    meta = m.metadata
    updated = m.updated_at or m.created_at
    if score is None and not search:
        return Item(
            value=meta["value"], key=meta["key"], namespace=_namespace(m), created_at=m.created_at, updated_at=updated
        )
    return SearchItem(_namespace(m), meta["key"], meta["value"], m.created_at, updated, score)


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
