"""One contract for every Tokenizer adapter."""

from __future__ import annotations

import pytest

from hipocampo.adapters.tokenizers import CharTokenizer, TiktokenTokenizer
from hipocampo.ports import Tokenizer

PORTUGUESE = "A ação da organização é útil: coração, pão, avó, açaí e maçã não faltarão à mesa. " * 5
ENGLISH = "The quick brown fox jumps over the lazy dog while the cat sleeps. " * 5


@pytest.fixture(params=["cl100k", "chars"])
def tokenizer(request: pytest.FixtureRequest) -> Tokenizer:
    return TiktokenTokenizer() if request.param == "cl100k" else CharTokenizer()


def test_names(tokenizer: Tokenizer) -> None:
    assert tokenizer.name in {"cl100k", "chars"}


def test_count_grows_with_text(tokenizer: Tokenizer) -> None:
    counts = [tokenizer.count(ENGLISH[:n]) for n in range(0, len(ENGLISH), 7)]
    assert counts == sorted(counts)
    assert tokenizer.count(ENGLISH) > tokenizer.count(ENGLISH[:40]) > 0


def test_empty_string(tokenizer: Tokenizer) -> None:
    assert tokenizer.count("") == 0
    assert tokenizer.truncate("", 10) == ""


@pytest.mark.parametrize("text", [ENGLISH, PORTUGUESE])
def test_truncate_respects_the_budget(tokenizer: Tokenizer, text: str) -> None:
    for budget in [0, 1, 2, 3, 7, 20, 50]:
        cut = tokenizer.truncate(text, budget)
        assert tokenizer.count(cut) <= budget
        assert text.startswith(cut)


def test_truncate_with_room_returns_the_text(tokenizer: Tokenizer) -> None:
    assert tokenizer.truncate(PORTUGUESE, 10_000) == PORTUGUESE


def test_accents_survive_truncation(tokenizer: Tokenizer) -> None:
    for budget in range(1, 60):
        cut = tokenizer.truncate(PORTUGUESE, budget)
        assert "\ufffd" not in cut
        assert PORTUGUESE.startswith(cut)


def test_multibyte_characters_are_never_split() -> None:
    tokenizer = TiktokenTokenizer()
    text = "日本語のテキスト🙂🙂 e também emojis 🎉 no meio"  # characters spanning several tokens
    for budget in range(1, tokenizer.count(text) + 1):
        cut = tokenizer.truncate(text, budget)
        assert "\ufffd" not in cut and text.startswith(cut)
        assert tokenizer.count(cut) <= budget


def test_special_token_markers_are_plain_text() -> None:
    tokenizer = TiktokenTokenizer()
    assert tokenizer.count("<|endoftext|>") > 1
    assert tokenizer.truncate("<|endoftext|> hi", 100) == "<|endoftext|> hi"
