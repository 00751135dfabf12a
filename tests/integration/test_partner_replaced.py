"""A partner named in passing, then another one: the earlier partner's fact ends with the turn
that named them, whatever the relation word ("namorado", "girlfriend", "husband")."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from hipocampo import Memory
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder

pytestmark = pytest.mark.backends()

T0 = datetime(2024, 10, 1, 10, 0, tzinfo=timezone.utc)


def test_a_new_partner_ends_the_boyfriend_named_before(db_path: str) -> None:
    with Memory.open(db_path, embedder=FakeEmbedder(), clock=FakeClock(T0 + timedelta(days=200))) as mem:
        first = "meu namorado Caio faz aniversário semana que vem, ideia de presente?"
        mem.add("nina", "t1", [{"role": "user", "content": first}], at=T0)
        mem.flush()
        caio = [m for m in mem.list("nina", kind="fact") if m.key == "person:boyfriend"]
        assert [m.metadata["fact_value"] for m in caio] == ["Caio"] and caio[0].valid_to is None
        later = "tô saindo com o Henrique faz dois meses, ele é chef"
        mem.add("nina", "t2", [{"role": "user", "content": later}], at=T0 + timedelta(days=165))
        mem.flush()
        caio = [m for m in mem.list("nina", kind="fact") if m.key == "person:boyfriend"]
        assert caio and all(m.valid_to is not None for m in caio)
        context = mem.recall("nina", "t3", "quem é meu namorado?").context
        assert "Caio" not in context.split("## Relevant memories")[0]  # not a known fact any more
