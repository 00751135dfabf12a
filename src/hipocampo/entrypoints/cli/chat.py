"""CLI commands for the interactive terminal chat (`hipocampo chat`)."""

from __future__ import annotations

import asyncio
import sys
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from ...domain.errors import HipocampoError
from ...domain.model import MemoryKind
from .render import memories_table
from .support import out, state

if TYPE_CHECKING:
    from ...agent.chat import ChatReply
    from ...agent.session import SessionConfig
    from ...client import AsyncMemory

HELP = "Commands: /memories (what I remember), /forget <memory id>, /quit."
FLUSH_SECONDS = 60.0


def chat(
    ctx: typer.Context,
    user: Annotated[str, typer.Option("--user", "-u", help="Whose memory the agent uses.", show_default=False)],
    thread: Annotated[
        str | None, typer.Option("--thread", "-t", help="Conversation id (default: a new one per session).")
    ] = None,
    show_context: Annotated[
        bool, typer.Option("--show-context", help="Show the memory injected before each answer.")
    ] = False,
) -> None:
    """Chat in the terminal with an agent that remembers USER across conversations.

    The agent is the LangGraph one (`pip install 'hipocampo[langgraph]'`), answering with the model
    of `HIPOCAMPO_LLM`. Without one it still shows the memory it would inject, and stores what
    you say. Reads stdin line by line, so it can be piped. /memories lists what it remembers,
    /forget ID deletes a memory, /quit (or end of input) leaves.
    """
    from ...agent.chat import chat_model_from_config  # imported late: the core CLI starts faster without it
    from ...agent.session import SessionConfig

    st = state(ctx)
    session = SessionConfig(
        user_id=user,
        thread_id=thread or f"chat-{datetime.now(timezone.utc):%Y%m%d-%H%M%S}",
        tenant_id=st.tenant,
    )

    async def loop(mem: AsyncMemory) -> None:
        console = out()
        model, notice = chat_model_from_config(mem.settings)
        console.print(f"[bold]hipocampo chat[/bold] · user {escape(user)} · thread {escape(session.thread_id)}")
        console.print(f"[dim]{HELP}[/dim]")
        if notice:
            console.print(Panel(Text(notice), title="no answers without a chat model", title_align="left"))
        while (line := await _read(console)) is not None:
            text = line.strip()
            if not text:
                continue
            if text in ("/quit", "/exit", "/q"):
                break
            if text.startswith("/"):
                await _command(mem, session, text, console)
                continue
            await _turn(mem, session, text, model, console, show_context or model is None)
        await mem.flush(FLUSH_SECONDS)  # so the next session finds this one indexed and extracted

    st.run(loop)


async def _read(console: Console) -> str | None:
    """The next line the user types, or ``None`` at the end of input."""
    if sys.stdin.isatty():
        try:
            return await asyncio.to_thread(console.input, "[bold cyan]you>[/bold cyan] ")
        except EOFError:
            return None
    line = await asyncio.to_thread(sys.stdin.readline)
    return line if line else None


async def _turn(
    mem: AsyncMemory, session: SessionConfig, text: str, model: Any, console: Console, show_context: bool
) -> None:
    from ...agent.chat import run_chat

    try:
        reply = await run_chat(mem, session, text, chat_model=model)
    except HipocampoError as exc:  # a failing model: say so, and keep the session going
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        return
    _show(reply, console, show_context)


def _show(reply: ChatReply, console: Console, show_context: bool) -> None:
    if show_context:
        body = Text(reply.memory_context) if reply.memory_context else Text("(nothing recalled yet)", style="dim")
        title = "memory injected" if reply.llm_configured else "memory that would be injected"
        console.print(Panel(body, title=title, title_align="left"))
    for call in reply.tool_calls:
        ok = (call.get("result") or {}).get("success", True) if isinstance(call.get("result"), dict) else True
        args = ", ".join(f"{k}={v!r}" for k, v in call["args"].items())
        console.print(f"[dim]· {escape(call['name'])}({escape(args)}){'' if ok else ' failed'}[/dim]")
    for error in reply.memory_errors:
        console.print(f"[yellow]memory: {escape(error)}[/yellow]")
    if reply.answer is not None:
        console.print(f"[bold green]assistant>[/bold green] {escape(reply.answer)}")
    elif reply.llm_configured:
        console.print("[dim](the model gave no answer)[/dim]")


async def _command(mem: AsyncMemory, session: SessionConfig, text: str, console: Console) -> None:
    name, _, arg = text.partition(" ")
    if name == "/memories":
        await mem.flush(FLUSH_SECONDS)  # facts from what was just said are extracted in the background
        items = []
        for kind in (MemoryKind.FACT, MemoryKind.CONSOLIDATED):
            items += await mem.list(session.user_id, tenant_id=session.tenant_id, kind=kind, limit=50)
        now = mem.now()
        items = sorted((m for m in items if m.is_current(now)), key=lambda m: m.created_at, reverse=True)
        console.print(memories_table(items) if items else "[dim](no memories yet)[/dim]")
    elif name == "/forget" and arg.strip():
        try:
            item = await mem.delete(session.user_id, arg.strip(), tenant_id=session.tenant_id)
        except HipocampoError as exc:
            console.print(f"[red]error:[/red] {escape(str(exc))}")
            return
        console.print(f"forgot {escape(item.id)}: {escape(item.content)}")
    else:
        console.print(f"[dim]{HELP}[/dim]")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("chat")(chat)
