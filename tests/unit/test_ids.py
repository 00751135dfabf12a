"""Ids: one form (NFC), no invisible characters, and one way to read them from HTTP headers."""

from __future__ import annotations

import unicodedata

import pytest

from hipocampo.domain.errors import InvalidInput
from hipocampo.domain.model import NewMessage, Scope, check_id
from hipocampo.entrypoints.ids import header_text, id_from_header

JOAO_NFC = "jo\u00e3o"
JOAO_NFD = "joa\u0303o"


def as_asgi(text: str) -> str:
    """What an ASGI framework hands over for a header whose bytes are ``text`` in UTF-8."""
    return text.encode("utf-8").decode("latin-1")


def test_ids_are_kept_in_nfc_so_both_spellings_are_one_user() -> None:
    assert JOAO_NFC != JOAO_NFD and unicodedata.normalize("NFC", JOAO_NFD) == JOAO_NFC
    assert check_id("user_id", JOAO_NFD) == JOAO_NFC
    assert Scope("default", JOAO_NFD) == Scope("default", JOAO_NFC)
    assert Scope("default", JOAO_NFD).user_id == JOAO_NFC
    assert NewMessage.parse({"content": "x", "id": "m-" + JOAO_NFD}).id == "m-" + JOAO_NFC


@pytest.mark.parametrize(
    "char",
    [
        "\u200b",  # zero-width space (Cf)
        "\u200d",  # zero-width joiner
        "\u200e",  # left-to-right mark
        "\u202e",  # right-to-left override
        "\u2060",  # word joiner
        "\ufeff",  # byte order mark
        "\u00ad",  # soft hyphen (Cf)
        "\u2028",  # line separator (Zl)
        "\u2029",  # paragraph separator (Zp)
        "\x7f",  # DEL (Cc)
        "\x85",  # NEL, a C1 control
        "\ue000",  # private use (Co)
        "\ud800",  # a lone surrogate (Cs)
        "\u3164",  # Hangul filler: a letter that shows nothing
        "\x00",
        "\t",
    ],
)
def test_invisible_and_control_characters_are_refused(char: str) -> None:
    with pytest.raises(InvalidInput, match=r"control or invisible characters \(found U\+"):
        check_id("user_id", f"ana{char}")
    with pytest.raises(InvalidInput):
        Scope("default", f"ana{char}")


@pytest.mark.parametrize("value", ["ana", "Ana Silva", JOAO_NFC, "用户", "user@example.com", "50%off", "❤️"])
def test_visible_ids_pass_unchanged(value: str) -> None:
    assert check_id("user_id", value) == value


def test_blank_and_long_ids_are_refused_as_before() -> None:
    for bad, message in ((" ", "empty"), ("x" * 201, "longer than 200")):
        with pytest.raises(InvalidInput, match=message):
            check_id("user_id", bad)


class TestHeaders:
    def test_utf8_bytes_are_read_as_utf8_not_latin1(self) -> None:
        assert header_text("X-Hipocampo-User", as_asgi(JOAO_NFC)) == JOAO_NFC

    def test_percent_encoding_is_decoded_like_a_path_segment(self) -> None:
        assert header_text("X-Hipocampo-User", "jo%C3%A3o") == JOAO_NFC
        assert header_text("X-Hipocampo-User", "100%25") == "100%"
        assert header_text("X-Hipocampo-User", "a+b") == "a+b"  # not a form: + stays

    def test_bytes_that_are_not_utf8_are_refused(self) -> None:
        latin1 = JOAO_NFC.encode("latin-1").decode("latin-1")  # b"jo\xe3o"
        with pytest.raises(InvalidInput, match="not UTF-8"):
            header_text("X-Hipocampo-User", latin1)
        with pytest.raises(InvalidInput, match="not UTF-8"):
            header_text("X-Hipocampo-User", "jo%E3o")

    def test_the_header_id_goes_through_check_id(self) -> None:
        assert id_from_header("user_id", "X-Hipocampo-User", as_asgi(JOAO_NFD)) == JOAO_NFC
        assert id_from_header("agent_id", "X-Hipocampo-Agent", None) is None
        with pytest.raises(InvalidInput, match="invisible"):
            id_from_header("user_id", "X-Hipocampo-User", "ana%E2%80%8B")  # ana + U+200B
        with pytest.raises(InvalidInput, match="required"):
            id_from_header("user_id", "X-Hipocampo-User", "", required=True)
