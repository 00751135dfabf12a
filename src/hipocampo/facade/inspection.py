"""Reading a tenant's users and one user's memory as people look at them: the HTTP routes, the
web inspector (``/ui``) and the exports. Reads only; each through the caller's tenant or scope."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..domain.model import Job, Message, Scope, Summary
from ..domain.truth.validity import Validity
from ..services import admin, browse, export, insights, inspector
from ..services.facts import custom_memory_types, memory_types_for

if TYPE_CHECKING:
    from ..services.deps import Deps

UserRow = inspector.UserRow
UserMemory = inspector.UserMemory
Record = export.Record
json_line = export.json_line


class InspectionCalls:
    """The read models of the service and the inspector."""

    _deps: Deps

    def now(self) -> datetime:
        """The memory's clock (tests give a fixed one), so pages date things as the store does."""
        return self._deps.clock.now()

    async def user_exists(self, scope: Scope) -> bool:
        return await browse.user_exists(self._deps, scope)

    async def tenant_scopes(self, tenant_id: str | None = None) -> list[Scope]:
        """Every user scope with messages or memories (of one tenant, or of all)."""
        return await browse.tenant_scopes(self._deps, tenant_id)

    async def list_threads(self, scope: Scope) -> list[str]:
        """The threads of ``scope`` (empty for a user without any)."""
        return await browse.list_threads(self._deps, scope)

    async def thread_page(
        self, scope: Scope, thread_id: str, *, after_seq: int = -1, limit: int = 100, what: str = "thread"
    ) -> tuple[list[Message], int | None]:
        """A page of a thread and the next cursor; ``NotFound`` for a thread the user does not have."""
        return await browse.thread_page(self._deps, scope, thread_id, after_seq=after_seq, limit=limit, what=what)

    async def thread_summary(self, scope: Scope, thread_id: str) -> Summary | None:
        return await browse.thread_summary(self._deps, scope, thread_id)

    async def validity(self, scope: Scope) -> Validity:
        """What the user's closed facts make outdated, for memories read without a search."""
        return await browse.validity(self._deps, scope)

    async def user_rows(self, tenant_id: str, *, offset: int = 0, limit: int = 50) -> tuple[list[UserRow], int]:
        return await inspector.user_rows(self._deps, tenant_id, offset=offset, limit=limit)

    async def user_memory(self, scope: Scope) -> UserMemory:
        return await inspector.user_memory(self._deps, scope)

    async def thread_view(self, scope: Scope, thread_id: str, *, limit: int = 500) -> dict[str, Any]:
        return await inspector.thread_view(self._deps, scope, thread_id, limit=limit)

    async def dead_letters(self, tenant_id: str, limit: int = 20) -> list[Job]:
        return await inspector.dead_letters(self._deps, tenant_id, limit)

    async def retry_dead_of(self, tenant_id: str) -> int:
        """Queue one tenant's dead jobs again (never another tenant's); returns how many."""
        return await inspector.retry_dead(self._deps, tenant_id)

    def custom_types(self) -> list[str]:
        """The deployment's own memory types (``HIPOCAMPO_MEMORY_TYPES``)."""
        return inspector.custom_types(self._deps)

    def custom_memory_types(self) -> dict[str, str]:
        return custom_memory_types(self._deps)

    def memory_types_for(self, scope: Scope) -> dict[str, str]:
        """The memory types (names and descriptions) the agent of ``scope`` may save."""
        return memory_types_for(self._deps, scope)

    async def tenant_metrics(self, tenant_id: str) -> dict[str, Any]:
        return await insights.tenant_metrics(self._deps, tenant_id)

    async def user_metrics(self, scope: Scope, *, gap_days: int = 7) -> dict[str, Any]:
        return await insights.user_metrics(self._deps, scope, gap_days=gap_days)

    async def forget_in(self, scope: Scope, thread_id: str | None = None) -> dict[str, int]:
        """Delete a thread (or, with None, the whole user of ``scope``) with everything derived
        from it; the counts of what went (the routes answer 404 when nothing did)."""
        return await admin.forget(self._deps, scope, thread_id)

    def export_records(self, scope: Scope) -> AsyncIterator[Record]:
        """The user's memory as records, one store page at a time (NDJSON exports)."""
        return export.export_records(self._deps, scope)
