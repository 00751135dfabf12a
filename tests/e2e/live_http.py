"""A real ``hipocampo`` HTTP server for tests: uvicorn on a free loopback port, in a thread with
its own event loop, over the store it is given (a SQLite file or a Postgres URL) and the fake embedder.

Tenants and keys are made through ``services.tenancy`` on the server's loop before it listens;
:meth:`LiveServer.call` runs more coroutines there (e.g. ``mem.flush()``).
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import uvicorn

from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.client import AsyncMemory
from hipocampo.entrypoints.http import create_app

T = TypeVar("T")
Setup = Callable[[AsyncMemory], Awaitable[dict[str, str]]]


@dataclass
class LiveServer:
    url: str
    tokens: dict[str, str]
    memory: AsyncMemory
    loop: asyncio.AbstractEventLoop
    app: Any
    clients: list[httpx.Client] = field(default_factory=list)

    def call(self, coro: Awaitable[T]) -> T:
        """Run ``coro`` on the server's loop (the store belongs to it) and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)  # type: ignore[arg-type]

    def flush(self) -> None:
        self.call(self.memory.flush(timeout=60))

    def client(self, who: str | None = None, **headers: str) -> httpx.Client:
        """A client sending ``who``'s key (``None``: no key)."""
        if who is not None:
            headers["Authorization"] = f"Bearer {self.tokens[who]}"
        c = httpx.Client(base_url=self.url, headers=headers, timeout=30)
        self.clients.append(c)
        return c


@contextmanager
def live_server(db: str, setup: Setup, **app_options: Any) -> Iterator[LiveServer]:
    """Serve until the block ends. ``setup`` returns the tokens the tests use, by name."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    ready: Future[LiveServer] = Future()
    server_box: list[uvicorn.Server] = []

    async def main() -> None:
        mem = await AsyncMemory.open(db, embedder=FakeEmbedder())
        try:
            tokens = await setup(mem)
            app = create_app(mem, **app_options)
            config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False, http="h11")
            server = uvicorn.Server(config)
            server_box.append(server)
            serving = asyncio.create_task(server.serve(sockets=[sock]))
            while not server.started and not serving.done():
                await asyncio.sleep(0.01)
            if serving.done():
                serving.result()
            ready.set_result(LiveServer(f"http://127.0.0.1:{port}", tokens, mem, asyncio.get_running_loop(), app))
            await serving
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            raise
        finally:
            await mem.close()

    thread = threading.Thread(target=lambda: asyncio.run(main()), name="hipocampo-http-test", daemon=True)
    thread.start()
    live = ready.result(timeout=60)
    try:
        yield live
    finally:
        for c in live.clients:
            c.close()
        live.loop.call_soon_threadsafe(setattr, server_box[0], "should_exit", True)
        thread.join(timeout=30)
        sock.close()
