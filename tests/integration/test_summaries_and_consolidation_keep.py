"""Through the public API over a real SQLite store: a thread's rolling summary keeps the numbers,
dates, names and decisions of what it folds (or says how many it left out), and imported history
is consolidated with the default lookback and recalled under its own heading."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from pathlib import Path

from hipocampo import AsyncMemory
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.model import MemoryKind, Scope
from hipocampo.domain.summaries.coverage import omitted_in
from hipocampo.domain.summaries.details import missing
from hipocampo.testing import deps_of

PARTY = (
    "Oi! Quero organizar o aniversário do Pedro.",
    "Claro! Me conta o que você já pensou.",
    "Ele faz 40 anos no dia 23 de março, um sábado.",
    "Que data boa! Vai ser surpresa?",
    "Vai sim, surpresa total. Ele não pode desconfiar de nada.",
    "Entendido, vamos manter segredo.",
    "Pensei em alugar um salão, mas é caro demais. O orçamento total é de €300, no máximo.",
    "Com €300 dá para fazer algo bonito em casa ou num parque.",
    "Hmm, deixa eu pensar.",
    "Sem pressa.",
    "Decidi: vai ser em casa, no quintal.",
    "Ótima escolha, fica mais íntimo.",
    "Os convidados são a Marta, o Rui, a Joana e o Tiago, e os pais dele.",
    "Uma festa pequena então, umas oito pessoas.",
    "Isso. A Marta vai levar o bolo de chocolate.",
    "Perfeito, um item a menos.",
    "Haha sim",
    "Quer ajuda com a lista de compras?",
    "Quero, mas depois. Obrigada!",
    "Combinado!",
    "Ah, e a festa começa às 19h.",
    "Anotado!",
    "Outra coisa: preciso de ideias de jantar para hoje.",
    "Que tal uma massa com legumes?",
    "Boa ideia, obrigada.",
    "Bom apetite!",
    "Até amanhã!",
    "Até!",
    "Ah, esqueci: ele gosta de jazz.",
    "Anotado também.",
    "Tchau!",
)
KEYS = ("pedro", "40", "23", "marco", "sabado", "300", "decidi: vai ser em casa, no quintal", "marta", "rui")
KEYS += ("joana", "tiago", "19h")


def test_the_party_thread_summary_keeps_its_details(tmp_path: Path) -> None:
    async def main() -> None:
        mem = await AsyncMemory.open(str(tmp_path / "keep.db"), embedder=FakeEmbedder(), extraction=False)
        try:
            start = datetime(2024, 3, 1, 19, tzinfo=timezone.utc)
            for i, text in enumerate(PARTY):
                role = "user" if i % 2 == 0 else "assistant"
                await mem.add("ana", "party", [{"role": role, "content": text}], at=start + timedelta(minutes=i))
                await mem.flush()  # a live chat: the worker folds as it goes, the same way every run
            summary = await deps_of(mem).summaries.get(Scope("default", "ana"), "party")
            assert summary is not None and summary.messages_summarized >= 21
            lost = missing(summary.content, KEYS)
            assert len(lost) <= omitted_in(summary.content), (lost, summary.content)
            for said in ("€300", "vai ser em casa", "Marta", "Rui", "Joana", "Tiago"):
                assert said in summary.content, (said, summary.content)
        finally:
            await mem.close()

    asyncio.run(main())


GUITAR = (
    "I practise guitar with my teacher every Monday evening",
    "I practise guitar with my teacher every Monday night",
    "I practise guitar with my teacher every Monday, scales",
)


def test_imported_history_is_consolidated_and_recalled_in_its_own_section(tmp_path: Path) -> None:
    async def main() -> None:
        mem = await AsyncMemory.open(str(tmp_path / "import.db"), embedder=FakeEmbedder(), extraction=False)
        try:
            long_ago = datetime.now(timezone.utc) - timedelta(days=400)  # far outside 90 days of the wall clock
            for i, text in enumerate(GUITAR):
                await mem.add("bia", f"t{i}", [{"role": "user", "content": text}], at=long_ago + timedelta(days=i))
            await mem.flush()
            (report,) = (await mem.consolidate("bia")).values()
            assert report.memories_seen >= 3 and report.clusters == 1
            await mem.flush()
            found = await deps_of(mem).memories.list(Scope("default", "bia"), kind=MemoryKind.CONSOLIDATED)
            assert len(found) == 1 and "Facts:" not in found[0].content  # turns alone state no fact
            result = await mem.recall("bia", None, "guitar teacher Monday", token_budget=2000)
            context = result.context
            assert "## Consolidated memories\n- (consolidated) " in context
            known = context.split("## Known facts")[1].split("\n\n")[0] if "## Known facts" in context else ""
            assert "(consolidated)" not in known
        finally:
            await mem.close()

    asyncio.run(main())
