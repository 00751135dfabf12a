"""Query enrichment: short queries that refer back borrow the last user turn; HyDE with an LLM."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

from hipocampo.adapters.llm.scripted import ScriptedChatModel
from hipocampo.domain.errors import LLMError
from hipocampo.domain.model import Message, Role, Scope
from hipocampo.services.enrichment import enrich
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
ANA = Scope("t", "ana")


def msg(role: Role, content: str, seq: int) -> Message:
    return Message(f"m{seq}", ANA, "t1", role, content, T0, seq)


RECENT = [msg(Role.USER, "Where does my sister Rita live?", 0), msg(Role.ASSISTANT, "In Lisbon.", 1)]


def run(query: str, recent: list[Message], chat=None):  # noqa: ANN001, ANN201
    deps = build_memory_deps(Settings(embedder="fake", tokenizer="chars"), chat=chat)
    return asyncio.run(enrich(deps, query, recent))


def test_a_short_query_that_refers_back_borrows_the_last_user_turn() -> None:
    result = run("and her husband?", RECENT)
    assert result.keyword_extra == "Where does my sister Rita live?"
    assert result.notes and "previous user turn" in result.notes[0]


def test_a_short_query_naming_its_subject_is_left_alone() -> None:
    assert run("saffron", RECENT).keyword_extra is None
    assert run("and her husband?", []).keyword_extra is None  # no thread, nothing to borrow


def test_hyde_embeds_a_hypothetical_answer_when_an_llm_is_configured() -> None:
    chat = ScriptedChatModel([{"passage": "Rita's husband is called João."}])
    result = run("Rita's husband?", [], chat)
    assert result.dense_text == "Rita's husband is called João."
    assert any("HyDE" in n for n in result.notes)


def test_a_failing_llm_leaves_the_query_as_it_is() -> None:
    result = run("Rita's husband?", [], ScriptedChatModel([LLMError("down")]))
    assert result.dense_text is None and "HyDE failed" in result.notes[-1]
