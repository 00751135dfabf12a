"""Endings said in the past tense or by naming an ex ("I used to work at Acme", "eu morava em
Campinas", "my ex Zoe"), in :mod:`hipocampo.domain.truth.changes`: the earlier statement or fact they
name ends; "used to" as a habit, a lunch break or someone else's statement ends nothing."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from hipocampo.domain.model import MemoryItem, MemoryKind, Scope
from hipocampo.domain.truth.changes import ended_facts, ended_statements

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def _fact(key: str, value: str, content: str, n: int = 1) -> MemoryItem:
    return MemoryItem(
        id=f"f{n}", scope=Scope("t", "u"), kind=MemoryKind.FACT, content=content, created_at=T0,
        metadata={"fact_value": value}, key=key,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("later", "earlier", "words"),
    [
        ("I used to work at Acme, freelancing since december", "I work at Acme as a dev", "work Acme"),
        ("eu morava em Campinas, agora é outra vida", "moro em Campinas com a Lia", "Campinas"),
        ("my ex Zoe kept the cat lol", "my girlfriend Zoe is a vet", "Zoe"),  # the partner's own, by name
    ],
)
def test_a_past_tense_ending_takes_back_the_statement_it_names(later: str, earlier: str, words: str) -> None:
    (found,) = ended_statements(later, [("m0", earlier)])
    assert (found.message_id, found.words) == ("m0", words)


@pytest.mark.parametrize(
    ("later", "earlier"),
    [
        ("im used to Boston winters", "I live in Boston"),  # "used to" as a habit
        ("saí do escritório pra almoçar, me indica um prato", "trabalho num escritório no centro"),
        ("im not coeliac anymore", "my sister is coeliac"),  # someone else's statement
    ],
)
def test_a_look_alike_takes_back_nothing(later: str, earlier: str) -> None:
    assert ended_statements(later, [("m0", earlier)]) == []


def test_an_ex_named_ends_the_partner_and_what_was_said_of_them_as_partner() -> None:
    partner = _fact("person:girlfriend", "Zoe", "The user's girlfriend is named Zoe.", 1)
    job = _fact("person:girlfriend:occupation", "vet", "The user's girlfriend Zoe works as a vet.", 2)
    pet = _fact("pet:cat", "Miso", "The user has a cat named Miso.", 3)
    ended = {e.fact.id for e in ended_facts("my ex Zoe kept the cat lol", [partner, job, pet])}
    assert ended == {"f1", "f2"}
