"""The MCP server: the four memory tools, a ``retrieval.recall`` tool and the session's system prompt.

Whose memory a call touches is never an argument the model can set: :func:`build_server` takes a
``caller_for`` function that finds the request's :class:`Caller` (stdio: the one session the
process was started for; HTTP: the API key and headers of the request).

No ``from __future__ import annotations`` here: the SDK reads the tools' annotations to build
their JSON schemas, and some of them (the memory types enum) are built at run time.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from ... import __version__
from ...agent.session import SessionConfig
from ...agent.tools import GetMemoryResult, MemoryTools, WriteResult
from ...client import AsyncMemory
from ...domain.errors import HipocampoError
from ...domain.model import MemoryKind, MemoryType, Scope
from ...domain.tenancy import Tenant


@dataclass(frozen=True)
class Caller:
    """Who a request acts for: the memory tools of its session and, over HTTP, the tenant whose
    ``max_memories`` quota its saves count against (``None``: no quota, as over stdio)."""

    tools: MemoryTools
    tenant: Tenant | None = None

    async def save_memory(self, content: str, memory_type: str) -> WriteResult:
        if self.tenant is not None:
            try:
                await self.tools.memory.check_memory_quota(self.tenant)
            except HipocampoError as exc:
                return WriteResult(success=False, error_message=str(exc))
        return await self.tools.save_memory(content, memory_type)


CallerFor = Callable[[Context], Caller]
"""Finds who a request acts for; raises (an error result for the client) when it cannot."""

SYSTEM_PROMPT_URI = "hipocampo://system-prompt"


class RecallToolResult(BaseModel):
    """What the ``retrieval.recall`` tool returns: the rendered context and the memories in it."""

    success: bool = True
    query: str
    context: str = ""
    memory_ids: list[str] = []
    outdated: dict[str, str] = Field(
        default_factory=dict,
        description="Recalled memories a later fact replaced: id -> what holds now and since when.",
    )
    context_tokens: int = 0
    error_message: str | None = None


def configured_session(
    memory: AsyncMemory, user_id: str, thread_id: str, *, tenant_id: str = "default", agent_id: str | None = None
) -> SessionConfig:
    """A session whose memory types are the agent's from ``HIPOCAMPO_MEMORY_TYPES`` (else the
    ``"*"`` entry, else all six), custom ones included, as fact extraction uses them."""
    types = memory.memory_types_for(Scope(tenant_id, user_id, agent_id))
    return SessionConfig(
        user_id=user_id, thread_id=thread_id, tenant_id=tenant_id, agent_id=agent_id, memory_types=dict(types)
    )


def build_server(caller_for: CallerFor, template: SessionConfig, *, name: str = "hipocampo") -> MCPServer:
    """An MCP server whose tools act for the caller ``caller_for`` finds in each request.

    ``template`` gives what every session shares: the memory types (listed in the server's
    instructions and in ``save_memory``'s schema) and the system prompt.
    """
    server = MCPServer(
        name,
        title="hipocampo memory",
        version=__version__,
        instructions=template.render_system_prompt(),
    )
    _add_memory_tools(server, caller_for, template)
    _add_recall(server, caller_for)
    _add_system_prompt(server, caller_for, template)
    return server


def _result(result: GetMemoryResult | WriteResult | RecallToolResult, text: str | None = None) -> CallToolResult:
    """Structured content for programs, text for the model; a failed call is an error result."""
    return CallToolResult(
        content=[TextContent(type="text", text=text or result.model_dump_json(exclude_none=True))],
        structured_content=result.model_dump(mode="json"),
        is_error=not result.success,
    )


def _type_names(template: SessionConfig) -> str:
    """Every name get_memory filters by: the built-in types, the custom ones the session has
    (campaign, metric...: from ``HIPOCAMPO_MEMORY_TYPES``), and the kinds of memory."""
    return ", ".join([t.value for t in MemoryType] + list(template.custom_memory_types) + [k.value for k in MemoryKind])


def _add_memory_tools(server: MCPServer, caller_for: CallerFor, template: SessionConfig) -> None:
    types = list(template.memory_types)
    described = "\n".join(f"- {name}: {desc}" for name, desc in template.memory_types.items())

    async def get_memory(
        ctx: Context,
        mode: Annotated[
            Literal["semantic", "chronological"],
            Field(description="semantic: rank memories against the query; chronological: newest first."),
        ] = "semantic",
        query: Annotated[str | None, Field(description="What to look for (required in semantic mode).")] = None,
        memory_type: Annotated[
            str | None, Field(description=f"Only memories of this type or kind: {_type_names(template)}.")
        ] = None,
    ) -> Annotated[CallToolResult, GetMemoryResult]:
        return _result(await caller_for(ctx).tools.get_memory(mode, query, memory_type))

    async def save_memory(
        ctx: Context,
        content: Annotated[str, Field(description="One self-contained fact about the user, in a full sentence.")],
        memory_type: Annotated[str, Field(description="What kind of fact it is.", json_schema_extra={"enum": types})],
    ) -> Annotated[CallToolResult, WriteResult]:
        return _result(await caller_for(ctx).save_memory(content, memory_type))

    async def update_memory(
        ctx: Context,
        memory_id: Annotated[str, Field(description="The memory_id returned by get_memory or save_memory.")],
        new_content: Annotated[str, Field(description="The corrected fact, replacing the old text.")],
    ) -> Annotated[CallToolResult, WriteResult]:
        return _result(await caller_for(ctx).tools.update_memory(memory_id, new_content))

    async def delete_memory(
        ctx: Context,
        memory_id: Annotated[str, Field(description="The memory_id of the memory to delete.")],
    ) -> Annotated[CallToolResult, WriteResult]:
        return _result(await caller_for(ctx).tools.delete_memory(memory_id))

    server.add_tool(
        get_memory,
        title="Look up memories",
        description="Look up what you remember about the user: semantically for a question (mode=semantic, "
        "with a query), or the newest memories (mode=chronological). Returns each memory with its memory_id.",
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    server.add_tool(
        save_memory,
        title="Save a memory",
        description=f"Save a durable fact about the user. Memory types:\n{described}",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False),
    )
    server.add_tool(
        update_memory,
        title="Correct a memory",
        description="Correct a saved memory when the user says it changed or was wrong (its history is kept).",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
        ),
    )
    server.add_tool(
        delete_memory,
        title="Delete a memory",
        description="Delete a memory the user asks you to forget or that is no longer true.",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
        ),
    )


async def _recall(tools: MemoryTools, query: str) -> RecallToolResult:
    s = tools.session
    try:
        found = await tools.memory.recall(s.user_id, s.thread_id, query, tenant_id=s.tenant_id, agent_id=s.agent_id)
    except HipocampoError as exc:
        return RecallToolResult(success=False, query=query, error_message=str(exc))
    return RecallToolResult(
        query=query,
        context=found.context,
        memory_ids=[h.memory.id for h in found.memories],
        outdated={h.memory.id: h.outdated_note for h in found.memories if h.outdated_note},
        context_tokens=found.context_tokens,
    )


def _add_recall(server: MCPServer, caller_for: CallerFor) -> None:
    async def recall(
        ctx: Context,
        query: Annotated[str, Field(description="The user's message or question, in any language.")],
    ) -> Annotated[CallToolResult, RecallToolResult]:
        result = await _recall(caller_for(ctx).tools, query)
        return _result(result, text=result.context or ("nothing remembered about this yet" if result.success else None))

    server.add_tool(
        recall,
        title="Recall context",
        description="Everything worth remembering before answering a message: the user's relevant memories "
        "from every conversation, rendered as context within a token budget.",
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )


def _add_system_prompt(server: MCPServer, caller_for: CallerFor, template: SessionConfig) -> None:
    @server.prompt(
        name="memory_system_prompt",
        title="System prompt with memory",
        description="The system prompt for an agent with these memory tools; give the user's first message "
        "as `query` to include what is remembered about it.",
    )
    async def memory_system_prompt(ctx: Context, query: str | None = None) -> str:
        if not query or not query.strip():
            return template.render_system_prompt()
        tools = caller_for(ctx).tools
        recalled = await _recall(tools, query)
        return tools.session.render_system_prompt(recalled.context or None)

    @server.resource(
        SYSTEM_PROMPT_URI,
        name="system-prompt",
        title="System prompt",
        description="The system prompt for an agent with these memory tools, memory types included.",
        mime_type="text/plain",
    )
    def system_prompt() -> str:
        return template.render_system_prompt()


async def serve_stdio(memory: AsyncMemory, session: SessionConfig) -> None:
    """Serve ``session``'s memory over stdin/stdout until the client hangs up.

    While it runs, the SDK points file descriptor 1 at stderr, so a stray ``print`` cannot corrupt
    the protocol; only the protocol itself reaches the real stdout.
    """
    caller = Caller(MemoryTools(memory, session))
    await build_server(lambda ctx: caller, session).run_stdio_async()
