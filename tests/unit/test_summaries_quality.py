"""Summaries that summarise: filler left out, about 30% of the folded tokens on realistic chats,
and fact updates said as such, in the thread's language (offline and with a scripted model)."""

from __future__ import annotations

import asyncio
import statistics
from datetime import datetime, timedelta, timezone

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.llm.scripted import ScriptedChatModel
from hipocampo.adapters.tokenizers import TiktokenTokenizer
from hipocampo.domain.model import HistoryEntry, HistoryEvent, MemoryItem, MemoryKind, NewMessage, Role, Scope
from hipocampo.domain.summaries.salience import is_filler, strip_leading_filler
from hipocampo.domain.summaries.summarize import SummaryTurn, extractive_summary, fold_budget
from hipocampo.domain.summaries.summary_changes import FactChange, describe_change
from hipocampo.domain.truth.reconcile import FACT_VALUE
from hipocampo.services.summaries import SummaryPolicy, maybe_summarize
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps
from hipocampo_bench.scenario_files import SCENARIOS_DIR, load_file

ANA = Scope("acme", "ana")
# The first scenario chats (English, mixed, Portuguese), the ones this test was measured on.
CHATS = tuple(
    load_file(SCENARIOS_DIR / "tuned" / f"{name}.json")
    for name in (
        *("sarah_boston_to_denver", "mike_japan_trip", "priya_london_health", "dan_manchester_family"),
        "lucas_code_switching",
        *("joana_lisboa_porto", "rafael_sao_paulo", "carla_belo_horizonte", "pedro_viagem_europa"),
        "helena_coimbra_saude",
    )
)
T0 = datetime(2024, 1, 8, 9, tzinfo=timezone.utc)
COUNT = TiktokenTokenizer().count


def test_filler_is_recognised_in_both_languages() -> None:
    for text in ("Entendi.", "Que bom, Marcos!", "Thanks, Caroline.", "haha ok", "Entendi. Boa sorte!"):
        assert is_filler(text), text
    for text in ("I'm vegan.", "Wow, Mel! I got the job.", "Saturday at 3.", "Treinei 5 km hoje."):
        assert not is_filler(text), text
    assert strip_leading_filler("Wow, Mel! I got the job.") == "I got the job."


def test_scenario_chats_fold_to_about_30_percent_of_their_tokens() -> None:
    ratios = []
    for scenario in CHATS:
        turns = [
            SummaryTurn(
                "User" if t.role == "user" else "Assistant",
                t.content,
                datetime.fromisoformat(t.at.replace("Z", "+00:00")),
                role=t.role,
            )
            for s in scenario.sessions
            for t in s.turns
        ]
        text, total = None, 0
        for i in range(0, len(turns), 11):  # folded 11 at a time, as the service does
            chunk = turns[i : i + 11]
            total += sum(COUNT(f"{t.speaker}: {t.text}") for t in chunk)
            text = extractive_summary(text, chunk, max_tokens=fold_budget(500, 0.3, total), count=COUNT)
        assert text and "Nice to meet you" not in text
        ratios.append(COUNT(text) / total)
    assert statistics.median(ratios) <= 0.31 and max(ratios) <= 0.35


def test_the_leading_filler_of_a_sentence_is_dropped_and_praise_is_not_kept() -> None:
    said = [
        SummaryTurn("Caroline", "Hey Mel! Good to see you! I went to a support group on Friday.", T0),
        SummaryTurn("Melanie", "Wow, Caroline! That's awesome! You'll be an awesome mom!", T0),
        SummaryTurn("Melanie", "Thanks! I signed up for a pottery class on May 20.", T0),
    ]
    summary = extractive_summary(None, said, max_tokens=60, count=COUNT)
    assert summary.splitlines() == [
        "[2024-01-08]",
        "- Caroline: I went to a support group on Friday.",
        "- Melanie: I signed up for a pottery class on May 20.",
    ]


def test_updates_are_described_in_the_thread_language() -> None:
    change = FactChange("home_city", "São Paulo", "Lisboa", T0, "Ana")
    assert describe_change(change, "pt", reference=T0) == "Ana mudou de São Paulo para Lisboa em janeiro."
    assert describe_change(change, "en", reference=T0) == "Ana moved from São Paulo to Lisboa in January."
    assert describe_change(FactChange("employer", "Acme", "Globex", T0), "en", reference=T0 + timedelta(days=400)) == (
        "The user changed jobs from Acme to Globex in January 2024."
    )


def _deps():  # noqa: ANN202
    return build_memory_deps(
        Settings(embedder="fake", tokenizer="chars"), embedder=FakeEmbedder(dim=256), clock=FakeClock(T0)
    )


async def _thread_with_a_move(deps, chat=None):  # noqa: ANN001, ANN202
    texts = [
        "Oi! Moro em São Paulo e trabalho com design.",
        "Que legal!",
        "Me mudei para Lisboa ontem!",
        "Parabéns pela mudança!",
        "Vou ao Porto no sábado.",
        "Boa viagem!",
    ]
    stored = await deps.log.append(
        ANA,
        "t1",
        [
            NewMessage(
                role=Role.USER if i % 2 == 0 else Role.ASSISTANT,
                content=t,
                name="Ana" if i % 2 == 0 else None,
                created_at=T0 + timedelta(days=i),
            )
            for i, t in enumerate(texts)
        ],
        [],
    )
    old = MemoryItem(
        id="fact_sp",
        scope=ANA,
        kind=MemoryKind.FACT,
        content="Ana mora em São Paulo.",
        created_at=stored[0].created_at,
        thread_id="t1",
        source_message_ids=[stored[0].id],
        key="home_city",
        metadata={FACT_VALUE: "São Paulo"},
        valid_to=stored[2].created_at,
    )
    new = MemoryItem(
        id="fact_lx",
        scope=ANA,
        kind=MemoryKind.FACT,
        content="Ana mora em Lisboa.",
        created_at=stored[2].created_at,
        thread_id="t1",
        source_message_ids=[stored[2].id],
        key="home_city",
        metadata={FACT_VALUE: "Lisboa"},
    )
    await deps.memories.upsert([old, new])
    await deps.memories.add_history(
        ANA,
        [
            HistoryEntry(
                old.id, HistoryEvent.UPDATE, new.created_at, old.content, new.content, "heuristic", "moved", new.id
            )
        ],
    )
    policy = SummaryPolicy(threshold=3, keep_recent=0, max_tokens=500, window=0)
    return await maybe_summarize(deps, ANA, "t1", policy, llm=chat)


def test_a_fact_superseded_in_the_folded_span_is_said_in_the_summary() -> None:
    summary = asyncio.run(_thread_with_a_move(_deps()))
    assert summary is not None
    assert "- Ana mudou de São Paulo para Lisboa em janeiro." in summary.content.splitlines()
    assert "Que legal" not in summary.content and "Boa viagem" not in summary.content


def test_an_llm_summary_that_leaves_an_update_out_gets_it_added() -> None:
    chat = ScriptedChatModel(["- [2024-01-12] Ana vai ao Porto no sábado."])
    summary = asyncio.run(_thread_with_a_move(_deps(), chat))
    assert summary is not None
    assert summary.content.splitlines()[0] == "- [2024-01-10] Ana mudou de São Paulo para Lisboa em janeiro."
    assert "Facts that changed in these turns" in chat.calls[0][1]


def test_a_change_sentence_agrees_with_the_users_gender() -> None:
    change = FactChange("home_city", "Lisboa", "Porto", datetime(2024, 3, 4, tzinfo=timezone.utc), "", True)
    assert describe_change(change, "pt", reference=datetime(2024, 3, 18, tzinfo=timezone.utc)) == (
        "A usuária mudou de Lisboa para Porto em março."
    )
