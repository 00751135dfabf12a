"""The note on a turn that a later statement made earlier names the subject that changed: the
same turn often says other things that still hold ("moro em bh e trampo numa agência")."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hipocampo.domain.model import MemoryItem, MemoryKind, Scope
from hipocampo.domain.truth.validity import LATER_STATEMENT, OUTDATED_MARK, Validity

WHEN = datetime(2026, 11, 1, tzinfo=timezone.utc)


def closed_statement(key: str) -> MemoryItem:
    item = MemoryItem("f1", Scope("t", "u"), MemoryKind.FACT, "moro em bh e trampo numa agência", WHEN)
    item.key = key
    item.valid_to = WHEN + timedelta(days=3)
    item.metadata = {LATER_STATEMENT: "pedi demissão da agência, agora sou freela"}
    return item


def test_the_note_names_the_subject_a_later_statement_changed() -> None:
    (change,) = Validity.of([closed_statement("statement:work:agencia")], WHEN + timedelta(days=10)).changes
    assert (
        change.note()
        == f"{OUTDATED_MARK} 2026-11-04: said later about work: pedi demissão da agência, agora sou freela"
    )


def test_a_statement_key_without_a_subject_keeps_the_plain_note() -> None:
    (change,) = Validity.of([closed_statement("statement:agencia")], WHEN + timedelta(days=10)).changes
    assert change.note().endswith(": said later: pedi demissão da agência, agora sou freela")
