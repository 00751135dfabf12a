"""domain.context.render_context: the token-budgeted prompt context; here one char = one token."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.domain.model import MemoryItem, MemoryKind, MemoryType, Message, Role, Scope, Summary
from hipocampo.domain.retrieval.context import ContextPiece, memory_line, message_line, render_context

SCOPE = Scope("acme", "alice")
T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)


def count(text: str) -> int:
    return len(text)


def truncate(text: str, n: int) -> str:
    return text[: max(n, 0)]


def render(**kw):
    """Text and chosen pieces; also checks the returned token count is the text's."""
    kw.setdefault("summary", None)
    kw.setdefault("recent", [])
    kw.setdefault("pieces", [])
    text, chosen, tokens = render_context(count=count, truncate=truncate, **kw)
    assert tokens == count(text)
    return text, chosen


def message(seq: int, content: str | None = None) -> Message:
    return Message(
        id=f"msg_{seq}",
        scope=SCOPE,
        thread_id="current",
        role=Role.USER if seq % 2 == 0 else Role.ASSISTANT,
        content=content or f"message number {seq}",
        created_at=T0 + timedelta(minutes=seq),
        seq=seq,
    )


def piece(
    mid: str,
    rank: int,
    *,
    thread: str | None = "t1",
    minutes: int = 0,
    seq: int | None = None,
    content: str | None = None,
    kind: MemoryKind = MemoryKind.TURN,
) -> ContextPiece:
    item = MemoryItem(
        id=mid,
        scope=SCOPE,
        kind=kind,
        content=content or f"memory {mid}",
        created_at=T0 + timedelta(minutes=minutes),
        thread_id=thread,
        seq=seq,
        role=Role.USER if kind is MemoryKind.TURN else None,
    )
    return ContextPiece(item, rank)


def summary(content: str) -> Summary:
    return Summary(
        SCOPE,
        "current",
        content,
        messages_summarized=40,
        last_message_seq=39,
        token_count=len(content),
        updated_at=T0,
    )


def test_nothing_to_say_renders_nothing() -> None:
    assert render(budget=1000) == ("", [])
    assert render(summary=summary("   "), budget=1000) == ("", [])


def test_sections_come_in_order() -> None:
    text, chosen = render(
        summary=summary("Alice is planning a trip."),
        recent=[message(0), message(1)],
        pieces=[piece("a", 0)],
        budget=2000,
    )
    assert text.index("## Summary of this conversation") < text.index("## Recent messages")
    assert text.index("## Recent messages") < text.index("## Relevant memories")
    assert "Alice is planning a trip." in text
    assert message_line(message(0)) in text and message_line(message(1)) in text
    assert memory_line(chosen[0].memory) in text


def test_lines_show_speaker_and_kind_and_headers_carry_the_day() -> None:
    turn = piece("t", 0).memory
    turn.name = "Alice"
    assert memory_line(turn) == "- Alice: memory t"
    fact = piece("f", 0, kind=MemoryKind.FACT).memory
    fact.memory_type = MemoryType.PREFERENCE
    assert memory_line(fact) == "- (fact/preference) memory f"
    assert message_line(message(1)) == "- [2024-03-01 09:01] assistant: message number 1"
    text, _ = render(pieces=[piece("t", 0)], budget=500)
    assert "Friday 01 March 2024" in text


def test_the_summary_is_truncated_to_its_share() -> None:
    long = "word " * 1000
    text, _ = render(summary=summary(long), budget=400)
    assert text.startswith("## Summary of this conversation\n")
    assert len(text) <= 100  # a quarter of the budget
    assert long.strip().startswith(text.split("\n", 1)[1])


def test_recent_messages_keep_the_newest_in_order() -> None:
    recent = [message(i) for i in range(50)]
    text, _ = render(recent=recent, budget=500)
    shown = [line for line in text.splitlines() if line.startswith("- [")]
    assert 0 < len(shown) < 50
    assert shown == [message_line(m) for m in recent[-len(shown) :]]  # the newest, oldest first
    assert len(text) <= 150  # 30% of the budget


def test_memories_take_what_the_other_sections_leave() -> None:
    pieces = [piece(f"m{i}", i, minutes=i, seq=i) for i in range(60)]
    _, chosen_alone = render(pieces=pieces, budget=2000)
    crowded, chosen_crowded = render(
        summary=summary("s " * 500),
        recent=[message(i) for i in range(30)],
        pieces=pieces,
        budget=700,
    )
    assert len(chosen_alone) == 60
    assert 0 < len(chosen_crowded) < 60
    assert [p.memory.id for p in chosen_crowded] == [f"m{i}" for i in range(len(chosen_crowded))]  # best first
    assert len(crowded) <= 700


def test_pieces_are_grouped_by_thread_in_the_order_said() -> None:
    pieces = [
        piece("b-late", 0, thread="B", minutes=50, seq=5),
        piece("a-late", 1, thread="A", minutes=40, seq=4),
        piece("b-early", 2, thread="B", minutes=10, seq=1),
        piece("a-early", 3, thread="A", minutes=5, seq=0),
        piece("fact", 4, thread=None, minutes=1, kind=MemoryKind.FACT),
        piece("b-same-time", 5, thread="B", minutes=10, seq=2),
    ]
    text, chosen = render(pieces=pieces, budget=5000)
    assert len(chosen) == 6
    lines = text.splitlines()
    headers = [line for line in lines if line.startswith("### ")]
    assert headers == [
        "### conversation B, Friday 01 March 2024",  # the best-ranked thread first
        "### conversation A, Friday 01 March 2024",
    ]
    order = [line.split("memory ")[-1] for line in lines if line.startswith("- ")]
    assert order == ["fact", "b-early", "b-same-time", "b-late", "a-early", "a-late"]  # facts first
    assert text.index("## Known facts") < text.index("## Relevant memories")


def test_repeated_memories_appear_once() -> None:
    pieces = [piece("same", 0), piece("other", 1, minutes=1), piece("same", 2), piece("same", 3)]
    text, chosen = render(pieces=pieces, budget=5000)
    assert [p.memory.id for p in chosen] == ["same", "other"]
    assert text.count("memory same") == 1


def test_a_piece_too_big_for_the_budget_is_skipped_not_cut() -> None:
    pieces = [piece("huge", 0, content="x" * 5000), piece("small", 1)]
    text, chosen = render(pieces=pieces, budget=300)
    assert [p.memory.id for p in chosen] == ["small"]
    assert "x" * 10 not in text


@pytest.mark.parametrize("seed", range(8))
def test_never_exceeds_the_budget(seed: int) -> None:
    rng = random.Random(seed)
    words = ["alice", "lisbon", "tea", "coffee", "trip", "dentist", "alergia", "ação", "coração"]

    def sentence(n: int) -> str:
        return " ".join(rng.choice(words) for _ in range(n))

    pieces = [
        piece(
            f"m{i}",
            i,
            thread=rng.choice(["t1", "t2", "t3", None]),
            minutes=rng.randrange(10_000),
            seq=i,
            content=sentence(rng.randrange(1, 60)),
        )
        for i in range(60)
    ]
    pieces += rng.sample(pieces, 10)  # some repeated
    recent = [message(i, sentence(rng.randrange(1, 40))) for i in range(rng.randrange(0, 30))]
    summ = summary(sentence(rng.randrange(1, 300))) if rng.random() < 0.7 else None
    for budget in (0, 1, 10, 50, 100, 150, 257, 400, 800, 1500, 3000, 10_000):
        text, chosen = render(summary=summ, recent=recent, pieces=pieces, budget=budget)
        assert len(text) <= budget, (budget, len(text))
        assert len({p.memory.id for p in chosen}) == len(chosen)
        for p in chosen:
            assert memory_line(p.memory) in text


def test_no_empty_memories_section() -> None:
    one = piece("m1", 0, kind=MemoryKind.FACT, content="likes tea")
    for budget in range(40, 120):
        text, chosen = render(pieces=[one], budget=budget)
        if not chosen:
            assert "## Relevant memories" not in text, budget
