"""domain.summarize: sentence splitting, the token budget, what is kept over filler, chronological
lines, incremental stability, Portuguese and English, determinism, with and without an embedder."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.summaries.summarize import SummaryTurn, extractive_summary, split_sentences

DAY0 = datetime(2023, 5, 8, 14, 30, tzinfo=timezone.utc)
EMBEDDER = FakeEmbedder()


def chars(text: str) -> int:
    """A char-count tokenizer: 4 characters per token, as CharTokenizer counts."""
    return math.ceil(len(text) / 4)


def turns(*said: tuple[str, str], start: int = 0) -> list[SummaryTurn]:
    return [SummaryTurn(who, text, DAY0 + timedelta(days=start + i)) for i, (who, text) in enumerate(said)]


EN = turns(
    ("Caroline", "Hey Mel! How are you?"),
    ("Melanie", "Hi! Good, thanks."),
    ("Caroline", "haha ok"),
    ("Caroline", "I went to a support group with Sarah on Friday."),
    ("Melanie", "lol thanks"),
    ("Melanie", "I decided to sign the lease for $1,200 a month."),
    ("Caroline", "ok ok"),
    ("Melanie", "I'm allergic to peanuts, so no cake for me."),
    ("Caroline", "Thanks, bye!"),
)

PT = turns(
    ("Ana", "Oi! Tudo bem?"),
    ("Bruno", "kkk obrigado"),
    ("Ana", "Combinamos o jantar com a Joana no sábado às 20h."),
    ("Bruno", "Boa noite!"),
    ("Ana", "Sou alérgica a camarão, não posso comer frutos do mar."),
    ("Bruno", "kkkk ok"),
    ("Ana", "Vou pagar R$ 300 pela reserva amanhã."),
)

EMBEDS = pytest.mark.parametrize("embed", [None, EMBEDDER.embed_documents], ids=["terms", "embeddings"])


def lines(summary: str) -> list[str]:
    """The summary's lines with their day inline (``- [day] Speaker: text``): the summary writes
    each day once, as a ``[day]`` header over that day's lines."""
    out, day = [], None
    for line in summary.splitlines():
        if line.startswith("[") and line.endswith("]"):
            day = line
        else:
            out.append(f"- {day} {line[2:]}" if day else line)
    return out


class TestSplitSentences:
    def test_keeps_short_turns_whole(self) -> None:
        assert split_sentences("Yes! Saturday, at 3. With Ana.") == ["Yes! Saturday, at 3. With Ana."]

    def test_splits_long_turns_in_english_and_portuguese(self) -> None:
        en = "I went hiking on Sunday with my brother and two of his friends. " * 3 + "Then we had lunch by the lake!"
        assert len(split_sentences(en)) == 4
        assert split_sentences(en, whole_up_to=1000) == [en]
        pt = "Fui ao mercado ontem de manhã com a minha irmã e o meu primo. " * 3 + "Depois almoçamos… Foi ótimo?"
        assert split_sentences(pt)[-2:] == ["Depois almoçamos…", "Foi ótimo?"]

    def test_does_not_split_after_abbreviations_or_initials(self) -> None:
        first = "I saw Dr. Smith today about the pain in my left knee."
        text = f"{first} " * 3 + "She recommends J. K. Rowling, e.g. Harry Potter."
        found = split_sentences(text)
        assert found[0] == first
        assert found[-1] == "She recommends J. K. Rowling, e.g. Harry Potter."

    def test_flattens_whitespace_and_splits_paragraphs(self) -> None:
        text = "First paragraph talks about the trip to Porto and the hotel.\n\n" + "Second   one\nsays more. " * 8
        found = split_sentences(text)
        assert found[0] == "First paragraph talks about the trip to Porto and the hotel."
        assert all("\n" not in s and "  " not in s for s in found)


class TestExtractiveSummary:
    @EMBEDS
    def test_renders_dated_speaker_lines_in_chronological_order(self, embed) -> None:  # noqa: ANN001
        summary = extractive_summary(None, EN, max_tokens=500, count=chars, embed=embed)
        assert lines(summary) == [
            "- [2023-05-11] Caroline: I went to a support group with Sarah on Friday.",
            "- [2023-05-13] Melanie: I decided to sign the lease for $1,200 a month.",
            "- [2023-05-15] Melanie: I'm allergic to peanuts, so no cake for me.",
        ]  # greetings, thanks and laughter are left out even when the budget allows them

    @EMBEDS
    @pytest.mark.parametrize("budget", [10, 20, 30, 45, 60, 200])
    def test_respects_the_token_budget(self, embed, budget: int) -> None:  # noqa: ANN001
        summary = extractive_summary(None, EN + PT, max_tokens=budget, count=chars, embed=embed)
        assert chars(summary) <= budget
        if budget >= 20:
            assert summary  # at least one line fits

    @EMBEDS
    def test_keeps_names_numbers_decisions_and_constraints_over_filler(self, embed) -> None:  # noqa: ANN001
        chatter = turns(
            ("Melanie", "That sounds really lovely, it is such a nice thing to hear about."),
            ("Caroline", "Yes it really was a lovely and nice thing for sure."),
            ("Melanie", "Such a lovely thing, really nice to hear about it."),
            ("Caroline", "We agreed to meet Jon at the airport on July 4."),
            ("Melanie", "It really was lovely, a nice thing to hear about."),
            ("Caroline", "I can't eat gluten, remember that."),
        )
        summary = extractive_summary(None, chatter, max_tokens=40, count=chars, embed=embed)
        assert lines(summary) == [
            "- [2023-05-11] Caroline: We agreed to meet Jon at the airport on July 4.",
            "- [2023-05-13] Caroline: I can't eat gluten, remember that.",
        ]

    @EMBEDS
    def test_portuguese(self, embed) -> None:  # noqa: ANN001
        summary = extractive_summary(None, PT, max_tokens=500, count=chars, embed=embed)
        assert lines(summary) == [
            "- [2023-05-10] Ana: Combinamos o jantar com a Joana no sábado às 20h.",
            "- [2023-05-12] Ana: Sou alérgica a camarão, não posso comer frutos do mar.",
            "- [2023-05-14] Ana: Vou pagar R$ 300 pela reserva amanhã.",
        ]

    @EMBEDS
    def test_is_incremental_and_stable(self, embed) -> None:  # noqa: ANN001
        first = extractive_summary(None, EN, max_tokens=80, count=chars, embed=embed)
        assert len(lines(first)) == 3
        later = turns(
            ("Caroline", "The weather was grey and the walk was long and quiet."),
            ("Melanie", "haha yes, so grey"),
            ("Caroline", "We will visit Lisbon in March with the kids."),
            ("Melanie", "The walk was quiet and the weather grey all day long."),
            start=20,
        )
        second = extractive_summary(first, later, max_tokens=80, count=chars, embed=embed)
        assert chars(second) <= 80
        # The important old lines stay, with their own text and first; the new decision joins
        # them; the new small talk does not displace them.
        assert lines(second) == [*lines(first), "- [2023-05-30] Caroline: We will visit Lisbon in March with the kids."]
        # Nothing new: the summary is a fixed point.
        assert extractive_summary(second, [], max_tokens=80, count=chars, embed=embed) == second
        # Squeezed, it drops whole lines and never rewrites them; it says how many details it dropped.
        tight = extractive_summary(second, [], max_tokens=50, count=chars, embed=embed)
        kept, count_line = lines(tight)[:-1], tight.splitlines()[-1]
        assert len(kept) == 2 and set(kept) <= set(lines(second))
        assert count_line.startswith("(+") and count_line.endswith(" details omitted)")

    def test_previous_prose_becomes_lines(self) -> None:
        previous = "Ana moved to Porto in 2021. She prefers tea to coffee."
        summary = extractive_summary(previous, PT[2:3], max_tokens=500, count=chars)
        assert lines(summary) == [
            "- Ana moved to Porto in 2021.",
            "- She prefers tea to coffee.",
            "- [2023-05-10] Ana: Combinamos o jantar com a Joana no sábado às 20h.",
        ]

    def test_drops_repeats(self) -> None:
        said = turns(("Ana", "I'm allergic to peanuts."), ("Ana", "I'm allergic to peanuts!"), ("Ana", "ok"))
        assert lines(extractive_summary(None, said, max_tokens=500, count=chars)) == [
            "- [2023-05-08] Ana: I'm allergic to peanuts."
        ]

    def test_clips_sentences_that_would_eat_the_budget(self) -> None:
        long = "We decided " + "to review every single item of the plan again " * 20
        summary = extractive_summary(None, turns(("Ana", long)), max_tokens=500, count=chars)
        assert summary.endswith("…") and chars(summary) < 100

    @EMBEDS
    def test_is_deterministic(self, embed) -> None:  # noqa: ANN001
        runs = {extractive_summary(None, EN + PT, max_tokens=50, count=chars, embed=embed) for _ in range(3)}
        assert len(runs) == 1

    def test_nothing_worth_keeping_gives_an_empty_summary(self) -> None:
        said = turns(("Ana", "haha"), ("Bruno", "kkk"), ("Ana", "ok, thanks!"))
        assert extractive_summary(None, said, max_tokens=500, count=chars) == ""
        assert extractive_summary(None, [], max_tokens=500, count=chars) == ""
        assert extractive_summary(None, EN, max_tokens=0, count=chars) == ""
