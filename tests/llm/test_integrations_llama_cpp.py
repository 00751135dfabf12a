"""``with_memory`` around the real ``openai`` client talking to a real llama.cpp server.

Opt-in like the rest of this folder (``HIPOCAMPO_LLM_E2E=1``, packages in
``test_llama_cpp_e2e.py``). The requests are read on the way out, through an httpx event hook,
to see the system prompt the model really got; a 135M model's answers are not judged.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from test_llama_cpp_e2e import server_url  # noqa: F401 (the module-scoped llama.cpp server)

from hipocampo import Memory
from hipocampo.integrations import MEMORY_HEADER, with_memory

pytestmark = pytest.mark.llm_e2e


def test_a_real_model_gets_the_memory_and_its_answers_are_stored(server_url: str, tmp_path: Path) -> None:  # noqa: F811
    import openai

    sent: list[dict] = []

    def record(request: httpx.Request) -> None:
        if request.url.path.endswith("/chat/completions"):
            sent.append(json.loads(request.content))

    http = httpx.Client(event_hooks={"request": [record]}, timeout=120)
    llm = openai.OpenAI(base_url=server_url, api_key="none", http_client=http, max_retries=0)
    with Memory.open(str(tmp_path / "memory.db"), embedder="fake") as mem:
        client = with_memory(llm, user_id="ana", memory=mem)
        allergy = "I'm allergic to peanuts."
        first = client.chat.completions.create(
            model="smollm2", messages=[{"role": "user", "content": allergy}], max_tokens=24, thread_id="t1"
        )
        said = first.choices[0].message.content or ""
        assert [m.content for m in mem.messages("ana", "t1")] == [allergy, said] if said.strip() else [allergy]

        mem.flush()
        question = "Can I eat peanut butter?"
        stream = client.chat.completions.create(
            model="smollm2",
            messages=[{"role": "system", "content": "Answer in one sentence."}, {"role": "user", "content": question}],
            max_tokens=24,
            stream=True,
            thread_id="t2",
        )
        text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
        system = sent[-1]["messages"][0]["content"]
        assert system.startswith("Answer in one sentence.\n\n" + MEMORY_HEADER) and "peanut" in system
        assert [m.content for m in mem.messages("ana", "t2")] == [question, text] if text.strip() else [question]
    http.close()
