"""The truthful-memory walkthrough, offline: a user states, corrects and retracts facts across threads, and the
memory ends with the right current facts, full history, dated events and a summary."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from hipocampo import HistoryEvent, Memory, MemoryKind
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder

pytestmark = pytest.mark.backends()

T0 = datetime(2024, 3, 4, 10, 0, tzinfo=timezone.utc)  # a Monday


def current_facts(mem: Memory, user: str) -> dict[str, str]:
    """key -> value of the facts that hold now."""
    return {
        m.key: m.metadata["fact_value"] for m in mem.list(user, kind="fact", limit=500) if m.valid_to is None and m.key
    }


def test_state_correct_retract_across_threads(db_path: str) -> None:
    clock = FakeClock(T0 + timedelta(days=30))
    with Memory.open(
        db_path, embedder=FakeEmbedder(), clock=clock, summarization_threshold=4, summary_keep_recent=2
    ) as mem:
        mem.add(
            "ana",
            "week1",
            [
                {"role": "user", "name": "Ana", "content": "Oi! Moro em São Paulo e sou vegetariana."},
                {"role": "assistant", "content": "Que legal!"},
                {"role": "user", "name": "Ana", "content": "I'm allergic to peanuts."},
            ],
            at=T0,
        )
        mem.add(
            "ana",
            "week2",
            [
                {"role": "user", "name": "Ana", "content": "Me mudei de São Paulo para Lisboa ontem!"},
                {"role": "assistant", "content": "Parabéns pela mudança!"},
                {"role": "user", "name": "Ana", "content": "Não sou mais vegetariana."},
                {"role": "user", "name": "Ana", "content": "Lembrando: sou alérgica a amendoim."},
                {"role": "assistant", "content": "Claro, anotado."},
                {"role": "user", "name": "Ana", "content": "Vou ao Porto no sábado que vem."},
            ],
            at=T0 + timedelta(days=7),
        )
        mem.add(  # the allergy said again in words no rule reads, once more in a question
            "ana",
            "week3",
            [
                {"role": "user", "name": "Ana", "content": "peanuts still a no for me btw, going to a thai place"},
                {"role": "user", "name": "Ana", "content": "do they use peanuts in pad thai?"},
            ],
            at=T0 + timedelta(days=9),
        )
        mem.flush()

        facts = current_facts(mem, "ana")
        assert facts["home_city"] == "Lisboa"
        assert "diet" not in facts  # retracted
        allergy = next(m for m in mem.list("ana", kind="fact") if m.key == "allergy:peanuts" and m.valid_to is None)
        assert allergy.mention_count == 3  # said in English, then in Portuguese, then in passing: one fact
        assert [e.event for e in mem.history("ana", allergy.id)].count(HistoryEvent.MENTION) == 2

        # the superseded city stays, with its history pointing at its successor
        old_city = next(m for m in mem.list("ana", kind="fact") if m.key == "home_city" and m.valid_to)
        events = [e.event for e in mem.history("ana", old_city.id)]
        assert events == [HistoryEvent.ADD, HistoryEvent.UPDATE]
        assert mem.history("ana", old_city.id)[-1].related_id is not None

        # relative dates are resolved against when they were said
        moved = next(m for m in mem.list("ana", kind="turn") if "mudei" in m.content)
        assert moved.event_start == T0 + timedelta(days=6) - timedelta(hours=10)  # "ontem": Sunday 10 March
        recall = mem.recall("ana", "week3", "Quando a Ana se mudou para Lisboa?")
        assert "ontem: on 2024-03-10" in recall.context
        assert "## Known facts" in recall.context and "Lisboa" in recall.context
        assert "vegetariana" not in recall.context.split("## Relevant memories")[0]  # retracted: not a known fact

        # the long thread has a summary, searchable like any memory
        summaries = mem.list("ana", kind="summary")
        assert summaries and summaries[0].thread_id == "week2"


def test_an_expired_fact_leaves_recall_but_not_history(db_path: str) -> None:
    clock = FakeClock(T0)
    with Memory.open(db_path, embedder=FakeEmbedder(), clock=clock) as mem:
        fact = mem.remember(
            "ana", "Ana is in hospital until Friday", memory_type="critical_info", expires_at=T0 + timedelta(days=4)
        )
        mem.flush()
        assert mem.search("ana", "hospital", k=3).hits[0].memory.id == fact.id
        clock.advance(5 * 86400)
        assert all(h.memory.id != fact.id for h in mem.search("ana", "hospital", k=3).hits)
        assert [e.event for e in mem.history("ana", fact.id)] == [HistoryEvent.ADD]
        assert mem.get("ana", fact.id).kind is MemoryKind.FACT
