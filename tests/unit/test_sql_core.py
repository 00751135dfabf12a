"""The shared SQL core's pure builders and row mappers, read without a database: what each engine's
dialect makes of one rule (the contract suites run the statements on the engines themselves)."""

from __future__ import annotations

import json
import math
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.adapters.postgres.dialect import POSTGRES
from hipocampo.adapters.sql.dialect import Dialect
from hipocampo.adapters.sql.memories import COLUMNS, memory_values
from hipocampo.adapters.sql.messages import INSERTED, message_values
from hipocampo.adapters.sql.rows import memory_from_row, message_from_row
from hipocampo.adapters.sql.vectors import batch_dimension, unit
from hipocampo.adapters.sql.where import list_memories, scope_filter, scoped_ids, searchable, upsert
from hipocampo.adapters.sqlite.dialect import SQLITE
from hipocampo.domain.errors import DimensionMismatch, InvalidInput
from hipocampo.domain.model import CUSTOM_TYPE_KEY, MemoryItem, MemoryKind, MemoryType, Message, Role, Scope

NOW = datetime(2026, 5, 4, 12, 30, 15, 250_000, tzinfo=timezone.utc)
USER = Scope("acme", "ana")
AGENT_ONLY = Scope("acme", "ana", "bot", agent_only=True)


def test_the_scope_is_tenant_and_user_and_an_agent_only_scope_adds_the_shared_rows() -> None:
    assert scope_filter(POSTGRES, USER) == ("tenant_id = %s AND user_id = %s", ["acme", "ana"])
    assert scope_filter(SQLITE, USER, "m") == ("m.tenant_id = ? AND m.user_id = ?", ["acme", "ana"])
    sql, params = scope_filter(SQLITE, AGENT_ONLY)
    assert sql == "tenant_id = ? AND user_id = ? AND (agent_id = ? OR agent_id IS NULL)"
    assert params == ["acme", "ana", "bot"]
    # An agent without agent_only sees all of the user's rows.
    assert scope_filter(POSTGRES, Scope("acme", "ana", "bot"))[1] == ["acme", "ana"]


def test_sqlite_pins_the_scope_columns_when_the_statement_selects_by_id_and_postgres_does_not() -> None:
    assert scope_filter(SQLITE, USER, by_id=True)[0] == "+tenant_id = ? AND +user_id = ?"
    assert scope_filter(POSTGRES, USER, by_id=True)[0] == "tenant_id = %s AND user_id = %s"


def test_a_list_of_ids_is_one_array_on_postgres_whatever_its_length() -> None:
    two = scoped_ids(POSTGRES, USER, ["a", "b"])
    five = scoped_ids(POSTGRES, USER, ["a", "b", "c", "d", "e"])
    assert two[0] == five[0] == "tenant_id = %s AND user_id = %s AND id = ANY(%s)"  # one text, one plan
    assert five[1] == ["acme", "ana", ["a", "b", "c", "d", "e"]]
    sql, params = scoped_ids(SQLITE, USER, ["a", "b", "c"], "m")
    assert sql == "+m.tenant_id = ? AND +m.user_id = ? AND m.id IN (?,?,?)"
    assert params == ["acme", "ana", "a", "b", "c"]


def test_a_custom_memory_type_is_read_from_the_metadata_in_each_engines_json() -> None:
    common = dict(kind=None, thread_id=None, since=None, until=None, current=None, limit=10, offset=0)
    pg, pg_params = list_memories(POSTGRES, USER, memory_type="recipe", **common)  # type: ignore[arg-type]
    lite, _ = list_memories(SQLITE, USER, memory_type="recipe", **common)  # type: ignore[arg-type]
    assert f"metadata->>'{CUSTOM_TYPE_KEY}' = %s" in pg
    assert f"json_extract(metadata, '$.{CUSTOM_TYPE_KEY}') = ?" in lite
    assert "?" not in pg and "%s" not in lite
    assert pg_params == ["acme", "ana", "recipe", 10, 0]
    builtin, params = list_memories(POSTGRES, USER, memory_type=MemoryType.PREFERENCE, **common)  # type: ignore[arg-type]
    assert "memory_type = %s" in builtin and params[2] == MemoryType.PREFERENCE.value


def test_current_at_a_time_means_neither_replaced_nor_expired_then_in_each_engines_time() -> None:
    common = dict(kind=MemoryKind.FACT, thread_id=None, memory_type=None, since=None, until=None, offset=0)
    sql, params = list_memories(SQLITE, USER, current=NOW, limit=5, **common)  # type: ignore[arg-type]
    assert "(valid_to IS NULL OR valid_to > ?) AND (expires_at IS NULL OR expires_at > ?)" in sql
    assert params == ["acme", "ana", "fact", NOW.timestamp(), NOW.timestamp(), 5, 0]
    _, params = list_memories(POSTGRES, USER, current=NOW.replace(tzinfo=None), limit=5, **common)  # type: ignore[arg-type]
    assert params[3:5] == [NOW, NOW]  # a naive time is UTC, as everywhere in the domain


def test_a_negative_page_size_keeps_each_engines_meaning() -> None:
    common = dict(kind=None, thread_id=None, memory_type=None, since=None, until=None, current=None, offset=0)
    assert list_memories(SQLITE, USER, limit=-1, **common)[1][-2] == -1  # type: ignore[arg-type]  # SQLite: no limit
    assert list_memories(POSTGRES, USER, limit=-1, **common)[1][-2] == 0  # type: ignore[arg-type]


def test_what_a_search_shows_leaves_the_excluded_thread_out_and_keeps_rows_of_no_thread() -> None:
    assert searchable(POSTGRES, USER, None) == ("tenant_id = %s AND user_id = %s AND valid_to IS NULL", ["acme", "ana"])
    sql, params = searchable(POSTGRES, USER, "t1")
    assert sql.endswith("valid_to IS NULL AND thread_id IS DISTINCT FROM %s") and params[-1] == "t1"
    sql, params = searchable(SQLITE, USER, "t1", "m")
    assert sql.endswith("m.valid_to IS NULL AND (m.thread_id IS NULL OR m.thread_id != ?)") and params[-1] == "t1"


def test_an_upsert_changes_only_the_columns_named_and_only_where_it_says() -> None:
    assert upsert("id", ("content", "name"), where="memories.user_id = excluded.user_id") == (
        "ON CONFLICT (id) DO UPDATE SET content = excluded.content, name = excluded.name"
        " WHERE memories.user_id = excluded.user_id"
    )


def _memory(**changes: object) -> MemoryItem:
    fields: dict[str, object] = dict(
        id="m1",
        scope=Scope("acme", "ana", "bot"),
        kind=MemoryKind.FACT,
        content="lives in Lisbon",
        created_at=NOW,
        thread_id="t1",
        memory_type=MemoryType.PREFERENCE,
        importance=0.75,
        source_message_ids=["x", "y"],
        metadata={"k": [1, "é"]},
        updated_at=NOW + timedelta(seconds=1),
        valid_to=NOW + timedelta(days=1),
        key="home_city",
        confidence=0.9,
        mention_count=2,
        expires_at=NOW + timedelta(days=2),
        event_start=NOW - timedelta(days=3),
    )
    fields.update(changes)
    return MemoryItem(**fields)  # type: ignore[arg-type]


def _stored(values: tuple[object, ...], columns: tuple[str, ...], **extra: object) -> dict[str, object]:
    """The row an engine hands back for ``values`` written to ``columns`` (JSON as it reads it)."""
    return dict(zip(columns, values, strict=True)) | extra


@pytest.mark.parametrize("d", [SQLITE, POSTGRES], ids=lambda d: d.name)
def test_a_memory_comes_back_from_its_row_as_it_went_in(d: Dialect) -> None:
    item = _memory()
    row = _stored(memory_values(d, item), COLUMNS, access_count=3, last_accessed=d.time_in(NOW))
    if d is POSTGRES:  # jsonb is decoded by the driver
        row |= {"source_ids": json.loads(str(row["source_ids"])), "metadata": json.loads(str(row["metadata"]))}
    back = memory_from_row(d, row)
    assert back == _memory(access_count=3, last_accessed=NOW)
    assert back.created_at.tzinfo is not None


@pytest.mark.parametrize("d", [SQLITE, POSTGRES], ids=lambda d: d.name)
def test_a_message_comes_back_from_its_row_as_it_went_in(d: Dialect) -> None:
    message = Message(
        id="m1",
        scope=USER,
        thread_id="t1",
        role=Role.USER,
        content="hi",
        created_at=NOW,
        seq=4,
        name="Ana",
        metadata={"lang": "pt"},
        external_id="e1",
    )
    row = _stored(message_values(d, message), INSERTED)
    if d is POSTGRES:
        row["metadata"] = json.loads(str(row["metadata"]))
    assert message_from_row(d, row) == message


def test_sqlite_repairs_metadata_an_older_version_stored_and_no_json_answer_can_hold() -> None:
    row = _stored(memory_values(SQLITE, _memory()), COLUMNS, access_count=0, last_accessed=None)
    row["metadata"] = '{"score": NaN, "ok": 1}'
    repaired = memory_from_row(SQLITE, row).metadata
    assert repaired["ok"] == 1 and not (isinstance(repaired["score"], float) and math.isnan(repaired["score"]))


def test_postgres_refuses_a_nul_character_before_anything_is_written() -> None:
    with pytest.raises(InvalidInput):
        memory_values(POSTGRES, _memory(content="a\x00b"))
    with pytest.raises(InvalidInput):
        memory_values(POSTGRES, _memory(metadata={"k": "a\x00b"}))
    assert memory_values(SQLITE, _memory(content="a\x00b"))[7] == "a\x00b"  # SQLite text holds it


def test_a_vector_batch_has_one_dimension_and_vectors_are_stored_as_unit_vectors() -> None:
    import numpy as np

    assert batch_dimension([("a", np.ones(3)), ("b", np.zeros(3))]) == 3
    with pytest.raises(DimensionMismatch):
        batch_dimension([("a", np.ones(3)), ("b", np.ones(4))])
    given = np.array([3.0, 4.0])
    assert np.allclose(unit(given), [0.6, 0.8]) and given[0] == 3.0
    zero = np.zeros(2, dtype=np.float32)
    assert unit(zero) is not zero
