"""A tiny OpenAI-compatible chat server for tests: ``/v1/chat/completions`` with and without SSE
streaming, and ``/v1/models``, on a free loopback port in a thread. It records every request body,
so a test can read the system prompt the wrapped client really sent.

The answer depends on the prompt, as a model's would: it says what the system prompt told it
about the user (``knows: peanuts`` when "peanut" is in it), then echoes the question. Model
``"fail"`` is refused (HTTP 400, the OpenAI error shape); model ``"break"`` breaks a stream after
its first chunk. Asked for a JSON schema, it answers ``{"answer": <that text>}``.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse


@dataclass
class ChatStub:
    url: str  # the OpenAI base URL: ends in /v1
    requests: list[dict[str, Any]] = field(default_factory=list)

    def system_prompt(self, index: int = -1) -> str:
        """The system text of one recorded request ('' when it had none)."""
        messages = self.requests[index]["messages"]
        return "\n".join(_text(m) for m in messages if m["role"] in ("system", "developer"))


def answer_for(messages: list[dict[str, Any]]) -> str:
    system = "\n".join(_text(m) for m in messages if m["role"] in ("system", "developer"))
    question = next((_text(m) for m in reversed(messages) if m["role"] == "user"), "")
    knows = "knows: peanuts" if "peanut" in system.lower() else "knows: nothing"
    return f"{knows}. You said: {question}"


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def _app(stub: ChatStub) -> FastAPI:
    app = FastAPI()

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {"object": "list", "data": [{"id": "stub-1", "object": "model", "created": 0, "owned_by": "test"}]}

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> Any:
        body = await request.json()
        stub.requests.append(body)
        model = body.get("model", "stub-1")
        if model == "fail":
            error = {"message": "model 'fail' refuses", "type": "invalid_request_error", "code": "bad_model"}
            return JSONResponse({"error": error}, status_code=400)
        text = answer_for(body["messages"])
        if body.get("response_format", {}).get("type") == "json_schema":  # structured output: {"answer": ...}
            text = json.dumps({"answer": text})
        created = int(time.time())
        if not body.get("stream"):
            return {
                "id": "chatcmpl-stub",
                "object": "chat.completion",
                "created": created,
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": text},
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }

        async def events() -> AsyncIterator[str]:
            def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
                payload = {
                    "id": "chatcmpl-stub",
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                }
                return f"data: {json.dumps(payload)}\n\n"

            yield chunk({"role": "assistant", "content": ""})
            words = text.split(" ")
            for i, word in enumerate(words):
                if model == "break" and i == 1:
                    yield 'data: {"error": {"message": "the stub broke the stream"}}\n\n'
                    return
                yield chunk({"content": word if i == 0 else " " + word})
                await asyncio.sleep(0)
            yield chunk({}, "stop")
            yield "data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    return app


@contextmanager
def chat_stub() -> Iterator[ChatStub]:
    """Serve until the block ends."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    stub = ChatStub(f"http://127.0.0.1:{sock.getsockname()[1]}/v1")
    server = uvicorn.Server(uvicorn.Config(_app(stub), log_level="warning", access_log=False, lifespan="off"))
    started: Future[None] = Future()

    async def main() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not serving.done():
            await asyncio.sleep(0.01)
        if serving.done():
            started.set_exception(serving.exception() or RuntimeError("the stub server stopped"))
            return
        started.set_result(None)
        await serving

    thread = threading.Thread(target=lambda: asyncio.run(main()), name="openai-stub", daemon=True)
    thread.start()
    started.result(timeout=30)
    try:
        yield stub
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
