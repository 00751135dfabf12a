"""What links memories into one consolidated memory, and what titles it: never the subject of
every fact sentence, never the user's own name."""

from __future__ import annotations

from datetime import datetime, timezone

from hipocampo.domain.model import MemoryItem, MemoryKind, Scope
from hipocampo.domain.truth.reconcile import FACT_VALUE
from hipocampo.services.consolidation_text import Context, draft, speakers_of, topic_terms

SCOPE = Scope("default", "marcos")
T = datetime(2024, 5, 2, tzinfo=timezone.utc)


def fact(key: str, value: str, content: str) -> MemoryItem:
    return MemoryItem(f"f-{key}", SCOPE, MemoryKind.FACT, content, T, key=key, metadata={FACT_VALUE: value})


def test_the_fact_subject_links_nothing() -> None:
    work = fact("employer", "Globex", "O usuário trabalha na Globex.")
    run = fact("goal:correr", "correr uma meia maratona", "O objetivo do usuário é correr uma meia maratona.")
    a, b = topic_terms([work, run], frozenset())
    assert not a & b


def test_the_users_own_name_is_a_speaker_not_a_topic() -> None:
    items = [
        fact("name", "Marcos Silva", "O nome do usuário é Marcos Silva."),
        fact("employer", "Globex", "O usuário trabalha na Globex."),
    ]
    assert {"marcos", "silva"} <= speakers_of(items)


def test_a_superseded_value_never_titles_nor_recurs() -> None:
    turns = [
        MemoryItem(f"t{i}", SCOPE, MemoryKind.TURN, text, T)
        for i, text in enumerate(
            [
                "Trabalho na Acme como engenheiro.",
                "Na Acme o projeto atrasou.",
                "Saí da Acme, agora trabalho na Globex.",
                "Na Globex o projeto anda bem.",
            ]
        )
    ]
    drafted = draft(SCOPE, turns, Context(stale_words=frozenset({"acme"})), T)
    title, *_ = drafted.content.splitlines()
    assert "Acme" not in title and "Acme" not in next(
        (line for line in drafted.content.splitlines() if line.startswith("Recurring")), ""
    )
