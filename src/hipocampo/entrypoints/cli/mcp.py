"""CLI commands for the MCP server (`hipocampo mcp`)."""

from __future__ import annotations

import logging
import sys
from contextlib import redirect_stdout
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from ...domain.errors import InvalidInput
from ...domain.model import check_id
from .support import state

if TYPE_CHECKING:
    from ...client import AsyncMemory


class Transport(str, Enum):
    STDIO = "stdio"
    HTTP = "http"


def mcp(
    ctx: typer.Context,
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="stdio: the user whose memory the tools use (required).")
    ] = None,
    thread: Annotated[str, typer.Option("--thread", "-t", help="stdio: the thread saved memories come from.")] = "mcp",
    tenant: Annotated[
        str | None,
        typer.Option("--tenant", help="stdio, or http with --no-auth: the tenant (default: `hipocampo --tenant`)."),
    ] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="stdio: the agent id, if agents keep apart.")] = None,
    transport: Annotated[Transport, typer.Option(help="stdio for one local client; http to serve many.")] = (
        Transport.STDIO
    ),
    host: Annotated[str, typer.Option(help="http: the address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="http: the port to listen on.")] = 8766,
    no_auth: Annotated[
        bool, typer.Option("--no-auth", help="http: accept requests without an API key (local use only).")
    ] = False,
) -> None:
    """Serve the memory tools (get, save, update, delete, recall) over the Model Context Protocol.

    **stdio** (default): one session bound to --user, for a local client such as Claude Desktop;
    stdout carries only the protocol. **http**: streamable HTTP at `http://HOST:PORT/mcp`; each
    request sends `Authorization: Bearer hk_...` (see `hipocampo keys`) and names its user in
    the `X-Hipocampo-User` header (thread: `X-Hipocampo-Thread`, default `mcp`).
    """
    from ...agent.session import SessionConfig
    from .. import mcp_server  # the `mcp` extra: the core CLI loads without it

    st = state(ctx)
    tenant_id = tenant or st.tenant
    if transport is Transport.HTTP:
        if user is not None or agent is not None:
            raise InvalidInput(
                f"over http each request names its user and agent ({mcp_server.asgi.USER_HEADER}, "
                f"{mcp_server.asgi.AGENT_HEADER}); --user and --agent are for stdio"
            )
        _log_to_stderr()
        st.run(lambda mem: mcp_server.serve_http(mem, host=host, port=port, auth=not no_auth, tenant_id=tenant_id))
        return
    if user is None:
        raise InvalidInput("--user is required over stdio: the user whose memory the tools use")
    SessionConfig(user_id=user, thread_id=thread, tenant_id=tenant_id)  # bad ids fail before the store opens
    check_id("agent_id", agent, required=False)
    _log_to_stderr()
    protocol = sys.stdout

    async def work(mem: AsyncMemory) -> None:
        session = mcp_server.configured_session(mem, user, thread, tenant_id=tenant_id, agent_id=agent)
        with redirect_stdout(protocol):  # the SDK claims fd 1 for the protocol and diverts stray output itself
            await mcp_server.serve_stdio(mem, session)

    with redirect_stdout(sys.stderr):  # what is printed while the store opens or closes must not reach the client
        st.run(work)


def _log_to_stderr() -> None:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("mcp").setLevel(logging.WARNING)  # the SDK logs every stateless request at INFO


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("mcp")(mcp)
