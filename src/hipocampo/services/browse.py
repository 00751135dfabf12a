"""Read-only lookups the entry points need: users, threads, pages of a thread, summaries.

Entry points (HTTP, MCP, CLI, the agent) reach the stores through services like these, never
through raw ports, so a rule about what a caller may see lives in one place.
"""

from __future__ import annotations

from ..domain.errors import NotFound
from ..domain.model import Message, Scope, Summary
from ..domain.truth.validity import CLOSED_FACTS_LIMIT, Validity
from .deps import Deps


async def list_users(deps: Deps, tenant_id: str) -> list[str]:
    """Every user of the tenant that has conversations or saved memories, sorted."""
    users = set(await deps.log.users(tenant_id))
    # Users who only have facts saved directly have no thread: the memory store knows them.
    users.update(u for t, u in await deps.memories.scopes() if t == tenant_id)
    return sorted(users)


async def tenant_scopes(deps: Deps, tenant_id: str | None = None) -> list[Scope]:
    """The (tenant, user) scopes that hold memories: the tenant's, or every tenant's."""
    return [Scope(t, u) for t, u in await deps.memories.scopes() if tenant_id is None or t == tenant_id]


async def list_threads(deps: Deps, scope: Scope) -> list[str]:
    """The user's threads (empty for a user without any)."""
    return await deps.log.threads(scope)


async def user_exists(deps: Deps, scope: Scope) -> bool:
    """Whether the user has a conversation or a memory (a 404 otherwise, on per-user routes)."""
    return bool(await deps.log.threads(scope)) or bool(await deps.memories.count(scope))


async def thread_page(
    deps: Deps, scope: Scope, thread_id: str, *, after_seq: int = -1, limit: int = 100, what: str = "thread"
) -> tuple[list[Message], int | None]:
    """A page of a thread's messages, oldest first, and the cursor of the next page (None at the
    end). :class:`NotFound` for a thread the user does not have."""
    page = await deps.log.list_thread(scope, thread_id, after_seq=after_seq, limit=limit)
    if not page and thread_id not in await deps.log.threads(scope):
        raise NotFound(f"no {what} {thread_id!r} for user {scope.user_id!r}")
    return page, page[-1].seq if len(page) == limit else None


async def thread_summary(deps: Deps, scope: Scope, thread_id: str) -> Summary | None:
    """The thread's rolling summary, if one was written yet."""
    return await deps.summaries.get(scope, thread_id)


async def validity(deps: Deps, scope: Scope) -> Validity:
    """What the user's closed facts make outdated, for rendering memories read without a search
    (a summary, a recent window): the same judgement search applies to its hits."""
    return Validity.of(await deps.memories.closed_facts(scope, CLOSED_FACTS_LIMIT), deps.clock.now())
