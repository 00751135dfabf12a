"""A LangGraph ``BaseStore`` kept in hipocampo, so LangGraph and LangMem apps can switch to it.

Each item is one hipocampo memory (kind ``fact``) with a deterministic id derived from its scope,
namespace and key, so a put overwrites. The memory's metadata holds the namespace, key and JSON
value; its content is the text that is embedded: the fields named by the index configuration
(default: the whole value as JSON). Items are indexed as they are put, so a search right after a
put finds them; ``index=False`` stores an item that searches by query never score (it can still
fill a page, unscored, as with LangGraph's own stores).

Namespaces map onto hipocampo scopes: by default every item lives in one user scope
(``tenant_id``/``user_id``); with ``user_from_namespace=i``, ``namespace[i]`` is the hipocampo user,
so each end user's items are isolated, and appear in that user's recall as facts. Searches must
then name that element in their prefix.

TTLs (minutes, LangGraph's ``ttl``/``TTLConfig``) become the memory's ``expires_at``: an expired
item is gone for gets, searches and listings (hipocampo keeps it, with its history, until
:meth:`HipocampoStore.sweep_ttl` deletes it), and reads refresh the TTL unless told not to.

Searches by query use hipocampo's hybrid search (dense + keyword, with its boosts); ``score`` is
its final score. Filtering and listing scan the scope's facts: fine for thousands of items.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine, Iterable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from ...domain.errors import ConfigurationError, InvalidInput
from ...domain.model import MAX_CONTENT_CHARS, MemoryItem, MemoryKind, Scope, content_hash
from ...services import browse, keyed, retrieval
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
    from ...client import AsyncMemory, Memory
    from ...services.deps import Deps

T = TypeVar("T")
SOURCE = "langgraph_store"
PAGE = 500


class HipocampoStore(BaseStore):
    """LangGraph's ``BaseStore`` on hipocampo memories (see the module docs).

    ``index`` takes LangGraph's ``IndexConfig``; only ``fields`` is used (hipocampo's own embedder
    embeds, so ``dims`` and ``embed`` are ignored). ``ttl`` takes LangGraph's ``TTLConfig``
    (``default_ttl`` minutes, ``refresh_on_read``); ``sweep_interval_minutes`` is ignored: call
    :meth:`sweep_ttl` to delete expired items, which reads already leave out.
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
    ) -> None:
        if user_from_namespace is not None and user_from_namespace < 0:
            raise ConfigurationError("user_from_namespace must be a namespace position (0 or more)")
        Scope(tenant_id, user_id)  # validates the ids now rather than on first use
        self._runner = getattr(memory, "_runner", None)
        self._memory: AsyncMemory = memory._inner if self._runner is not None else memory  # type: ignore[union-attr,assignment]
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.user_from_namespace = user_from_namespace
        self.fields: list[str] = list((index or {}).get("fields") or ["$"])
        self.ttl_config = ttl
        try:  # an AsyncMemory belongs to the loop that opened it: sync calls are sent there
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None

    @property
    def deps(self) -> Deps:
        return self._memory.deps

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
            raise ConfigurationError(
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
            m for m in await keyed.get_keyed(self.deps, scope, [self._id(scope, op.namespace, op.key)]) if self._live(m)
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
        if op.value is None:
            await keyed.delete_keyed(self.deps, scope, [memory_id])
            return
        value = dict(op.value)
        try:
            as_json = json.dumps(value, ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"a store value must be JSON-serialisable: {exc}") from None
        fields = [] if op.index is False else (op.index if op.index is not None else self.fields)
        texts = [t for f in fields for t in get_text_at_path(value, tokenize_path(f) if f != "$" else f) if t.strip()]
        indexed = bool(texts)
        now = self.deps.clock.now()
        item = MemoryItem(
            id=memory_id,
            scope=scope,
            kind=MemoryKind.FACT,
            content=("\n".join(texts) if indexed else as_json)[:MAX_CONTENT_CHARS],
            created_at=now,
            metadata={
                "source": SOURCE,
                "namespace": list(namespace),
                "key": op.key,
                "value": value,
                "indexed": indexed,
                "ttl_minutes": op.ttl,
            },
            key=f"{SOURCE}:{memory_id}",  # its own fact slot: fact reconciliation leaves it alone
            expires_at=None if op.ttl is None else now + timedelta(minutes=op.ttl),
        )
        await keyed.put_keyed(self.deps, item, index=indexed)

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
        pool = min(max(self.deps.settings.candidate_pool, 5 * needed + 20), 2000)
        options = retrieval.SearchOptions(k=200, kinds=(MemoryKind.FACT,), min_relevance=0.0, pool=pool)
        found = await retrieval.search(self.deps, scope, op.query, options)
        scored = [(h.memory, h.score) for h in found.hits if wanted(h.memory) and h.memory.metadata.get("indexed")]
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
        now = self.deps.clock.now()
        removed = 0
        for scope in scopes:
            expired = [m.id for m in await self._all_items([scope]) if not m.is_current(now)]
            removed += await keyed.delete_keyed(self.deps, scope, expired)
        return removed

    # -- TTLs ------------------------------------------------------------------------------------
    def _live(self, m: MemoryItem) -> bool:
        return _is_item(m) and m.is_current(self.deps.clock.now())

    async def _refresh(self, items: list[MemoryItem]) -> None:
        """Push the expiry of items read with a TTL one TTL past now (LangGraph's refresh on read)."""
        now = self.deps.clock.now()
        renewed = []
        for m in items:
            minutes = m.metadata.get("ttl_minutes")
            if isinstance(minutes, (int, float)) and minutes > 0:
                m.expires_at = now + timedelta(minutes=minutes)
                renewed.append(m)
        await keyed.renew(self.deps, renewed)  # only the expiry changes: the indexes stay as they are

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
        return await browse.tenant_scopes(self.deps, self.tenant_id)

    def _id(self, scope: Scope, namespace: tuple[str, ...], key: str) -> str:
        path = json.dumps([scope.tenant_id, scope.user_id, list(namespace), key], ensure_ascii=False)
        return "lgstore_" + content_hash(path)[:32]

    async def _all_items(self, scopes: list[Scope]) -> list[MemoryItem]:
        """Every store item of the scopes, newest first (a scan of their facts)."""
        out: list[MemoryItem] = []
        for scope in scopes:
            out += [m async for m in keyed.facts(self.deps, scope, page=PAGE) if _is_item(m)]
        return out


def _is_item(m: MemoryItem) -> bool:
    return m.metadata.get("source") == SOURCE and isinstance(m.metadata.get("namespace"), list)


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
