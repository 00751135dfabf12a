"""CLI commands for the HTTP service (`hipocampo serve`)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from .support import out, state

if TYPE_CHECKING:
    from ...client import AsyncMemory


async def serve_http(
    mem: AsyncMemory, *, host: str, port: int, auth: bool, tenant_id: str, allowed_hosts: list[str] | None = None
) -> None:
    """Serve the HTTP API on ``mem`` until Ctrl-C or SIGTERM (uvicorn's handlers stop it cleanly).

    ``allowed_hosts``: the ``Host`` values to answer (default: the settings', else the default for
    ``host`` and ``auth``, see :mod:`hipocampo.entrypoints.http.hosts`)."""
    import uvicorn  # loaded only by the command that needs it

    from ...client import redact
    from ..http import create_app
    from ..http.access_log import drop_query_strings
    from ..http.hosts import default_allowed_hosts, is_loopback

    hosts = allowed_hosts or mem.settings.allowed_hosts or default_allowed_hosts(host, auth)
    app = create_app(mem, auth=auth, local_tenant=tenant_id, allowed_hosts=hosts)
    url = f"http://{_display_host(host)}:{port}"
    console = out()
    console.print(f"hipocampo serving {redact(mem.settings.db)} on [bold]{url}[/bold]", soft_wrap=True)
    console.print(f"API docs: {url}/docs   inspector: {url}/ui   metrics: {url}/metrics", soft_wrap=True)
    if not auth:
        console.print(f"[yellow]no authentication:[/yellow] every request acts as an admin of tenant {tenant_id!r}")
    elif not await mem.list_keys():
        console.print(
            "No API keys yet; create one with:\n  hipocampo tenants create acme && hipocampo keys create --tenant acme",
            soft_wrap=True,
        )
    if "*" not in hosts:
        allowed = ", ".join(hosts)
        console.print(f"answering for hosts: {allowed} (--allowed-host, HIPOCAMPO_ALLOWED_HOSTS)", soft_wrap=True)
        if not is_loopback(host) and not allowed_hosts and not mem.settings.allowed_hosts:
            console.print(
                "[yellow]listening beyond this machine without keys:[/yellow] other machines must be "
                "named with --allowed-host (or HIPOCAMPO_ALLOWED_HOSTS); other hosts get 421",
                soft_wrap=True,
            )
    # h11, whatever else is installed: uvicorn switches to httptools when an unrelated extra pulls
    # it in (chromadb does), and httptools answers a control character in a header with a bare
    # "Invalid HTTP request" instead of the service's own 422 with a reason.
    config = uvicorn.Config(app, host=host, port=port, log_level="info", lifespan="on", server_header=False, http="h11")
    drop_query_strings()  # after Config, which sets up uvicorn's loggers

    class Server(uvicorn.Server):
        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn re-raises Ctrl-C / SIGTERM once it has shut down, which would end the process
            # before the store is closed (worker stopped, SQLite checkpointed): return instead.
            with super().capture_signals():
                yield
                self._captured_signals.clear()

    await Server(config).serve()


def _display_host(host: str) -> str:
    if host in ("0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def serve(
    ctx: typer.Context,
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (default HIPOCAMPO_HTTP_HOST, 127.0.0.1).")
    ] = None,
    port: Annotated[
        int | None, typer.Option(min=1, max=65535, help="Port (default HIPOCAMPO_HTTP_PORT, 8765).")
    ] = None,
    no_auth: Annotated[
        bool, typer.Option("--no-auth", help="Accept requests without an API key, as an admin of --tenant (local use).")
    ] = False,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="A Host to answer for (repeat for more; name, name:port, *.domain, or * for any); others get 421. "
            "Default HIPOCAMPO_ALLOWED_HOSTS, else localhost names on loopback.",
            show_default=False,
        ),
    ] = None,
    workers_inprocess: Annotated[
        bool | None,
        typer.Option(
            "--workers-inprocess/--no-workers-inprocess",
            help="Index in this process (default), or leave it to `hipocampo worker` processes.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve the HTTP API: write turns, recall, curate memories, agent tools, metrics.

    Every request needs a tenant's API key (`Authorization: Bearer hk_...`) unless HIPOCAMPO_AUTH=none
    or --no-auth. Docs at /docs, Prometheus metrics at /metrics. Requests for another Host than
    the allowed ones get 421 (DNS-rebinding protection); the access log never shows query strings.
    """
    st = state(ctx)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    overrides = {} if workers_inprocess is None else {"worker": "inprocess" if workers_inprocess else "external"}

    async def work(mem: AsyncMemory) -> None:
        s = mem.settings
        await serve_http(
            mem,
            host=host or s.http_host,
            port=port or s.http_port,
            auth=s.auth == "keys" and not no_auth,
            tenant_id=st.tenant,
            allowed_hosts=allowed_host or None,
        )

    st.run(work, **overrides)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("serve")(serve)
