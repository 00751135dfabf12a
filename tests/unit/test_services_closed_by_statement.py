"""A current fact that a later statement of its subject replaces is closed, whatever phrasing its own
turn had (:func:`hipocampo.services.fact_upkeep.closed_by_statement`, or the rules when they read the
later turn); one that states the same value, or someone else's, leaves it current."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.model import MemoryItem, MemoryKind, Scope, new_id
from hipocampo.domain.truth.reconcile import FACT_VALUE
from hipocampo.domain.truth.validity import LATER_STATEMENT, OUTDATED_MARK, Validity
from hipocampo.services.deps import Deps
from hipocampo.services.facts import mine_messages
from hipocampo.services.ingest import add_messages
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2025, 1, 1, 9, tzinfo=timezone.utc)
ANA = Scope("t", "ana")


async def _fact(deps: Deps, key: str, value: str, content: str) -> MemoryItem:
    (turn,) = await add_messages(deps, ANA, "a", [{"role": "user", "content": content, "created_at": T0.isoformat()}])
    item = MemoryItem(
        id=new_id("fact"), scope=ANA, kind=MemoryKind.FACT, content=f"The user: {value}.", created_at=T0,
        source_message_ids=[turn.id], metadata={FACT_VALUE: value}, key=key, updated_at=T0,
    )  # fmt: skip
    await deps.memories.upsert([item])
    return item


async def _say(deps: Deps, text: str, days: int) -> None:
    at = (T0 + timedelta(days=days)).isoformat()
    (m,) = await add_messages(deps, ANA, "b", [{"role": "user", "content": text, "created_at": at}])
    await mine_messages(deps, ANA, [m.id])


@pytest.mark.parametrize(
    ("key", "value", "said", "later", "closed"),
    [
        ("home_city", "Goiânia", "sou goiano de coração, a vida toda lá", "pronto, agora moro em Brasília", True),
        ("employer", "Memorial Hermann", "nights at Memorial Hermann again", "I work at Texas Children's now", True),
        ("diet", "vegetarian", "no meat for me", "im pescatarian these days", True),
        ("home_city", "Goiânia", "sou goiano de coração", "moro em Goiânia mesmo, no centro", False),  # the same
        ("home_city", "Leeds", "leeds forever", "my sister moved to Berlin", False),  # someone else
    ],
)
def test_a_later_statement_closes_the_fact_of_its_subject_it_replaces(
    key: str, value: str, said: str, later: str, closed: bool
) -> None:
    async def scenario() -> None:
        deps = build_memory_deps(
            Settings(embedder="fake", tokenizer="chars", summaries=False), clock=FakeClock(T0 + timedelta(days=90))
        )
        fact = await _fact(deps, key, value, said)
        await _say(deps, later, 30)
        (now,) = [f for f in await deps.memories.list(ANA, kind=MemoryKind.FACT) if f.id == fact.id]
        assert (now.valid_to is not None) is closed
        if closed:  # by this turn's own fact (the rules read it) or by its statement
            assert now.metadata.get(LATER_STATEMENT, later) == later
            validity = Validity.of([now], T0 + timedelta(days=90))
            note = validity.outdated_by(now.source_message_ids, said, T0)
            assert note is not None and note.note().startswith(OUTDATED_MARK)

    asyncio.run(scenario())
