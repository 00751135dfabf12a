"""domain.model: parsing and validating what callers send."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.domain.errors import InvalidInput
from hipocampo.domain.model import (
    MAX_CONTENT_CHARS,
    MAX_ID_CHARS,
    MemoryItem,
    MemoryKind,
    NewMessage,
    Role,
    Scope,
    parse_time,
    turn_memory_id,
)

UTC = timezone.utc


class TestNewMessageParse:
    def test_a_bare_string_is_a_user_turn(self) -> None:
        msg = NewMessage.parse("olá")
        assert (msg.role, msg.content, msg.created_at, msg.id, msg.metadata) == (
            Role.USER,
            "olá",
            None,
            None,
            {},
        )

    def test_a_dict_with_every_field(self) -> None:
        msg = NewMessage.parse(
            {
                "role": "assistant",
                "content": "hi",
                "created_at": "2024-05-01T12:00:00Z",
                "name": "Bot",
                "metadata": {"k": 1},
                "id": "ext-1",
            }
        )
        assert msg == NewMessage(
            role=Role.ASSISTANT,
            content="hi",
            created_at=datetime(2024, 5, 1, 12, tzinfo=UTC),
            name="Bot",
            metadata={"k": 1},
            id="ext-1",
        )

    def test_role_defaults_to_user_and_timestamp_is_an_alias(self) -> None:
        msg = NewMessage.parse({"content": "hi", "timestamp": 1714564800})
        assert msg.role is Role.USER
        assert msg.created_at == datetime(2024, 5, 1, 12, tzinfo=UTC)

    def test_created_at_wins_over_timestamp(self) -> None:
        msg = NewMessage.parse({"content": "hi", "created_at": 0, "timestamp": 1714564800})
        assert msg.created_at == datetime(1970, 1, 1, tzinfo=UTC)

    def test_metadata_is_copied(self) -> None:
        meta = {"k": 1}
        msg = NewMessage.parse({"content": "hi", "metadata": meta})
        meta["k"] = 2
        assert msg.metadata == {"k": 1}
        assert NewMessage.parse({"content": "hi", "metadata": None}).metadata == {}

    def test_a_new_message_passes_through_validated(self) -> None:
        msg = NewMessage(role=Role.TOOL, content="result")
        assert NewMessage.parse(msg) is msg
        with pytest.raises(InvalidInput):
            NewMessage.parse(NewMessage(role=Role.USER, content="  "))

    @pytest.mark.parametrize("role", ["admin", "User", "", None, 3])
    def test_bad_roles_are_refused_with_the_allowed_ones(self, role: object) -> None:
        with pytest.raises(InvalidInput, match="user, assistant, system, tool"):
            NewMessage.parse({"role": role, "content": "hi"})

    @pytest.mark.parametrize("content", ["", "   ", "\n\t", None, 42, ["a"]])
    def test_empty_or_non_text_content_is_refused(self, content: object) -> None:
        with pytest.raises(InvalidInput):
            NewMessage.parse({"content": content})

    def test_missing_content_is_refused(self) -> None:
        with pytest.raises(InvalidInput):
            NewMessage.parse({"role": "user"})

    def test_content_up_to_the_limit_is_accepted(self) -> None:
        assert len(NewMessage.parse("x" * MAX_CONTENT_CHARS).content) == MAX_CONTENT_CHARS
        with pytest.raises(InvalidInput, match=str(MAX_CONTENT_CHARS)):
            NewMessage.parse("x" * (MAX_CONTENT_CHARS + 1))

    def test_unknown_fields_are_named(self) -> None:
        with pytest.raises(InvalidInput, match="colour, text"):
            NewMessage.parse({"content": "hi", "text": "hi", "colour": "red"})

    @pytest.mark.parametrize("when", ["yesterday", "2024-13-01", "", True, [2024], {"y": 2024}])
    def test_bad_timestamps_are_refused(self, when: object) -> None:
        with pytest.raises(InvalidInput, match="ISO-8601"):
            NewMessage.parse({"content": "hi", "created_at": when})

    def test_metadata_that_is_not_an_object_is_refused_on_a_new_message(self) -> None:
        with pytest.raises(InvalidInput, match="metadata"):
            NewMessage.parse(NewMessage(role=Role.USER, content="hi", metadata=["x"]))  # type: ignore[arg-type]

    @pytest.mark.parametrize("metadata", [["not", "a", "dict"], 5, "text", [["k", "v"]]])
    def test_metadata_that_is_not_an_object_is_refused_in_a_dict(self, metadata: object) -> None:
        with pytest.raises(InvalidInput, match="metadata"):
            NewMessage.parse({"content": "hi", "metadata": metadata})

    @pytest.mark.parametrize("bad", ["", "  ", "a\nb", "x" * (MAX_ID_CHARS + 1), 7])
    def test_bad_message_ids_and_names_are_refused(self, bad: object) -> None:
        with pytest.raises(InvalidInput):
            NewMessage.parse({"content": "hi", "id": bad})
        with pytest.raises(InvalidInput):
            NewMessage.parse({"content": "hi", "name": bad})

    @pytest.mark.parametrize("raw", [None, 42, ["user", "hi"], b"hi"])
    def test_other_types_are_refused(self, raw: object) -> None:
        with pytest.raises(InvalidInput, match="dict or a string"):
            NewMessage.parse(raw)  # type: ignore[arg-type]

    def test_invalid_input_is_a_value_error(self) -> None:
        with pytest.raises(ValueError):
            NewMessage.parse({"content": ""})


class TestParseTime:
    @pytest.mark.parametrize(
        "value",
        [
            "2024-05-01T12:00:00Z",
            "2024-05-01T12:00:00+00:00",
            "2024-05-01T09:00:00-03:00",
            "2024-05-01 12:00:00",
            "  2024-05-01T12:00:00Z  ",
            1714564800,
            1714564800.0,
            datetime(2024, 5, 1, 12),
            datetime(2024, 5, 1, 14, tzinfo=timezone(timedelta(hours=2))),
        ],
    )
    def test_forms_that_mean_the_same_instant(self, value: object) -> None:
        parsed = parse_time(value)
        assert parsed == datetime(2024, 5, 1, 12, tzinfo=UTC)
        assert parsed.tzinfo is not None and parsed.utcoffset() == timedelta(0)

    def test_a_bare_date_is_midnight_utc(self) -> None:
        assert parse_time("2024-05-01") == datetime(2024, 5, 1, tzinfo=UTC)

    def test_fractions_of_a_second_are_kept(self) -> None:
        assert parse_time(1714564800.25) == datetime(2024, 5, 1, 12, 0, 0, 250000, tzinfo=UTC)
        assert parse_time("2024-05-01T12:00:00.123456Z").microsecond == 123456

    @pytest.mark.parametrize("value", ["soon", "01/05/2024", "", None, True, False, object()])
    def test_unreadable_values(self, value: object) -> None:
        with pytest.raises(InvalidInput, match="ISO-8601"):
            parse_time(value)

    @pytest.mark.parametrize("value", [float("nan"), float("inf"), 1714564800000, 1e20, "9999-12-31T23:59:59-05:00"])
    def test_out_of_range_values_are_invalid_input(self, value: object) -> None:
        with pytest.raises(InvalidInput):
            parse_time(value)


class TestScope:
    def test_valid_scopes(self) -> None:
        scope = Scope("acme", "alice")
        assert (scope.agent_id, scope.agent_only) == (None, False)
        assert Scope("acme", "alice", "sales", agent_only=True).agent_id == "sales"
        assert Scope("ação", "josé-ñ 😀", "x" * MAX_ID_CHARS).tenant_id == "ação"

    def test_scopes_are_values(self) -> None:
        assert Scope("acme", "alice") == Scope("acme", "alice")
        assert len({Scope("acme", "alice"), Scope("acme", "alice"), Scope("acme", "bob")}) == 2
        with pytest.raises(AttributeError):
            Scope("acme", "alice").user_id = "bob"  # type: ignore[misc]

    @pytest.mark.parametrize(
        "bad", ["", "   ", "\t", "x" * (MAX_ID_CHARS + 1), "a\x00b", "line\nbreak", "\x1f", None, 3]
    )
    @pytest.mark.parametrize("field", ["tenant_id", "user_id"])
    def test_required_ids_are_checked(self, field: str, bad: object) -> None:
        args = {"tenant_id": "acme", "user_id": "alice", field: bad}
        with pytest.raises(InvalidInput, match=field):
            Scope(**args)  # type: ignore[arg-type]

    @pytest.mark.parametrize("bad", ["", " ", "x" * (MAX_ID_CHARS + 1), "a\rb", 3])
    def test_agent_id_is_optional_but_checked(self, bad: object) -> None:
        with pytest.raises(InvalidInput, match="agent_id"):
            Scope("acme", "alice", bad)  # type: ignore[arg-type]


class TestMemoryItem:
    def test_index_text_carries_the_day_and_the_speaker(self) -> None:
        when = datetime(2024, 3, 5, 18, 30, tzinfo=UTC)
        turn = MemoryItem("m", Scope("acme", "alice"), MemoryKind.TURN, "I moved to Lisbon", when, name="Alice")
        assert turn.index_text == "[05 March 2024] Alice: I moved to Lisbon"
        fact = MemoryItem("f", Scope("acme", "alice"), MemoryKind.FACT, "Lives in Lisbon", when)
        assert fact.index_text == "[05 March 2024] Lives in Lisbon"

    def test_defaults(self) -> None:
        item = MemoryItem("m", Scope("acme", "alice"), MemoryKind.FACT, "x", datetime(2024, 1, 1, tzinfo=UTC))
        assert (item.importance, item.source_message_ids, item.metadata, item.valid_to) == (
            0.5,
            [],
            {},
            None,
        )
        other = MemoryItem("n", Scope("acme", "alice"), MemoryKind.FACT, "y", datetime(2024, 1, 1, tzinfo=UTC))
        other.metadata["k"] = 1
        assert item.metadata == {}  # no shared mutable default

    def test_turn_memory_ids_are_deterministic(self) -> None:
        assert turn_memory_id("msg_1") == turn_memory_id("msg_1") == "turn_msg_1"
