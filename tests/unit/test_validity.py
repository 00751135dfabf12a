"""domain.validity: which memories a later fact made outdated, and how the context says so."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hipocampo.domain.model import MemoryItem, MemoryKind, Message, Role, Scope, Summary
from hipocampo.domain.retrieval.context import ContextPiece, render_context
from hipocampo.domain.truth.reconcile import FACT_VALUE, NEGATIVE
from hipocampo.domain.truth.validity import (
    OUTDATED_BOOST,
    OUTDATED_MARK,
    UPDATED_SINCE,
    Validity,
    summary_updates,
    validity_boost,
)

SCOPE = Scope("acme", "ana")
T0 = datetime(2024, 4, 1, 10, 0, tzinfo=timezone.utc)
MOVED = T0 + timedelta(days=62)  # 2024-06-02
NOW = T0 + timedelta(days=90)


def fact(
    mid: str,
    key: str,
    value: str,
    content: str,
    *,
    said: datetime = T0,
    closed: datetime | None = None,
    sources: tuple[str, ...] = (),
    negative: bool = False,
) -> MemoryItem:
    meta: dict[str, object] = {FACT_VALUE: value}
    if negative:
        meta[NEGATIVE] = True
    return MemoryItem(
        id=mid,
        scope=SCOPE,
        kind=MemoryKind.FACT,
        content=content,
        created_at=said,
        key=key,
        valid_to=closed,
        source_message_ids=list(sources or (f"msg_{mid}",)),
        metadata=meta,
    )


def turn(message_id: str, content: str, said: datetime = T0, kind: MemoryKind = MemoryKind.TURN) -> MemoryItem:
    return MemoryItem(
        id=f"turn_{message_id}",
        scope=SCOPE,
        kind=kind,
        content=content,
        created_at=said,
        thread_id="t1",
        role=Role.USER,
        source_message_ids=[message_id],
    )


ACME = fact("acme", "employer", "Acme", "The user works at Acme.", closed=MOVED, sources=("m1",))
GLOBEX = fact("globex", "employer", "Globex", "The user works at Globex.", said=MOVED, sources=("m9",))
DESIGNER = fact("designer", "occupation", "graphic designer", "The user works as a graphic designer.", sources=("m1",))
SAO_PAULO = fact("sp", "home_city", "São Paulo", "O usuário mora em São Paulo.", closed=T0 + timedelta(days=5))
LISBOA = fact("lisboa", "home_city", "Lisboa", "O usuário mora em Lisboa.", said=T0 + timedelta(days=5))
VEGETARIAN = fact("veg", "diet", "vegetarian", "The user is vegetarian.", closed=T0 + timedelta(days=16))


def validity(*facts: MemoryItem) -> Validity:
    return Validity.of(facts or (ACME, GLOBEX, DESIGNER, SAO_PAULO, LISBOA, VEGETARIAN), NOW)


def test_a_source_of_a_superseded_fact_is_outdated_with_what_replaced_it() -> None:
    v = validity()
    note = v.note(turn("m1", "I work at Acme as a graphic designer."))
    assert note == f"{OUTDATED_MARK} 2024-06-02: The user works at Globex"
    assert validity_boost(v.of_memory(turn("m1", "anything"))) == OUTDATED_BOOST


def test_saying_the_closed_value_before_it_closed_is_outdated_after_is_not() -> None:
    v = validity()
    assert v.note(turn("m2", "Acme's office is nice", T0 + timedelta(days=3))) is not None
    assert v.note(turn("m3", "I miss the people at ACME", MOVED + timedelta(days=1))) is None
    assert v.note(turn("m4", "Acmes and acmeish things", T0)) is None  # whole words only
    assert v.note(turn("m5", "Moro em SAO PAULO", T0)) == f"{OUTDATED_MARK} 2024-04-06: O usuário mora em Lisboa"
    assert v.note(turn("m6", "são   paulo é grande", T0)) is not None  # folded, any spacing


def test_the_change_itself_and_what_states_the_new_value_are_current() -> None:
    v = validity()
    assert v.note(turn("m9", "I left Acme, I now work at Globex")) is None  # source of the successor
    assert v.note(turn("m7", "Acme or Globex?", T0)) is None  # states what holds now too
    assert v.of_memory(DESIGNER) is None  # a fact answers for itself: same turn, still current


def test_a_retraction_says_retracted_since_it_closed() -> None:
    v = validity()
    note = v.note(turn("m8", "I'm vegetarian.", T0))
    assert note is not None and note.startswith(f"{OUTDATED_MARK} 2024-04-17: retracted: ")


def test_summaries_episodes_and_consolidated_memories_are_judged_too() -> None:
    v = validity()
    for kind in (MemoryKind.SUMMARY, MemoryKind.EPISODE, MemoryKind.CONSOLIDATED):
        assert v.note(turn("mx", "Ana works at Acme as a designer", T0, kind)) is not None


def test_a_value_that_holds_again_outdates_nothing() -> None:
    back = fact("acme2", "employer", "acme", "The user works at Acme again.", said=NOW - timedelta(days=1))
    v = validity(ACME, back)
    assert not v and v.note(turn("m1", "I work at Acme")) is None


def test_a_set_item_whose_polarity_flipped_is_still_outdated() -> None:
    likes = fact("likes", "likes:jazz", "jazz", "The user likes jazz.", closed=MOVED)
    dislikes = fact("dislikes", "likes:jazz", "jazz", "The user dislikes jazz.", said=MOVED, negative=True)
    v = validity(likes, dislikes)
    assert v.note(turn("m2", "I love jazz", T0)) == f"{OUTDATED_MARK} 2024-06-02: The user dislikes jazz"


def test_a_fact_closed_after_now_is_not_closed_yet() -> None:
    later = fact("acme", "employer", "Acme", "works at Acme", closed=NOW + timedelta(days=1), sources=("m1",))
    assert not Validity.of([later], NOW)


def test_the_most_recent_change_of_a_slot_names_what_holds_now() -> None:
    porto = fact(
        "porto", "home_city", "Porto", "Lives in Porto", said=T0 + timedelta(days=1), closed=T0 + timedelta(days=3)
    )
    lisboa = fact("lisboa", "home_city", "Lisboa", "Lives in Lisboa", said=T0 + timedelta(days=3))
    sp = fact("sp", "home_city", "São Paulo", "Lives in São Paulo", closed=T0 + timedelta(days=1))
    v = validity(sp, porto, lisboa)
    assert v.note(turn("m", "Porto and São Paulo", T0)) == f"{OUTDATED_MARK} 2024-04-04: Lives in Lisboa"


def test_summary_updates_name_the_slot_the_old_and_the_new_value() -> None:
    v = validity()
    line = summary_updates(v, "Ana is a designer at Acme in São Paulo.", T0)
    assert line == f"{UPDATED_SINCE} employer Acme → Globex (2024-06-02); home_city São Paulo → Lisboa (2024-04-06)"
    # Written after the move and telling it: nothing to add.
    assert summary_updates(v, "Ana left Acme for Globex.", NOW) == ""
    assert summary_updates(v, "Ana was vegetarian.", NOW) == f"{UPDATED_SINCE} diet vegetarian → retracted (2024-04-17)"
    assert summary_updates(None, "Ana works at Acme.", T0) == ""


def _count(text: str) -> int:
    return len(text)


def _truncate(text: str, n: int) -> str:
    return text[: max(n, 0)]


def test_no_section_of_the_context_presents_a_replaced_value_as_current() -> None:
    v = validity()
    old = Message("m1", SCOPE, "t1", Role.USER, "I work at Acme as a graphic designer.", T0, seq=0)
    new = Message("m9", SCOPE, "t1", Role.USER, "I now work at Globex.", MOVED, seq=1)
    summary = Summary(SCOPE, "t1", "Ana works at Acme.", 2, 0, 5, T0 + timedelta(days=1))
    pieces = [ContextPiece(turn("m5", "Moro em São Paulo.", T0), 0), ContextPiece(GLOBEX, 1)]
    text, _, _ = render_context(
        summary=summary, recent=[old, new], pieces=pieces, budget=4000, count=_count, truncate=_truncate, validity=v
    )
    for line in text.splitlines():
        if "Acme" in line or "São Paulo" in line:
            assert OUTDATED_MARK in line or line.startswith(UPDATED_SINCE), line
    assert "Updated since: employer Acme → Globex (2024-06-02)" in text
    assert "I now work at Globex." in text and "The user works at Globex." in text
    plain, _, _ = render_context(
        summary=summary, recent=[old, new], pieces=pieces, budget=4000, count=_count, truncate=_truncate
    )
    assert OUTDATED_MARK not in plain and UPDATED_SINCE not in plain  # no fact history: as before


def test_a_memory_of_several_lines_is_marked_on_the_line_that_states_the_replaced_value() -> None:
    """A summary memory states many things: the note goes on the line naming Acme, not at its end,
    where it would seem to call the trip (its last line) outdated."""
    summary = turn(
        "m1",
        "- User: I work at Acme as a designer\n- User: We should plan the trip to Japan in October",
        kind=MemoryKind.SUMMARY,
    )
    text, _, _ = render_context(
        summary=None,
        recent=[],
        pieces=[ContextPiece(summary, 0)],
        budget=500,
        count=lambda t: len(t) // 4,
        truncate=lambda t, n: t[: n * 4],
        validity=validity(),
    )
    acme_line = next(line for line in text.splitlines() if "Acme" in line)
    trip_line = next(line for line in text.splitlines() if "Japan" in line)
    assert OUTDATED_MARK in acme_line and "Globex" in acme_line
    assert OUTDATED_MARK not in trip_line


def test_a_turn_marked_by_a_later_statement_ranks_as_outdated_only_for_what_changed() -> None:
    """ "i work nights at st ansgar, 7p-7a" then "they switched me to days, 7a-7p": the turn is
    earlier for the shift, not for where the user works (its line is rendered marked either way)."""
    from hipocampo.domain.retrieval.query import RecallQuery
    from hipocampo.domain.truth.validity import LATER_STATEMENT
    from hipocampo.services.rerank import concerns

    mark = fact("s1", "statement:restated:7p_7a", "7p-7a", "i work nights at st ansgar, 7p-7a", closed=MOVED)
    mark.metadata[LATER_STATEMENT] = "they switched me to days, 7a-7p starting next month"
    change = Validity.of([mark], NOW).changes[0]
    assert concerns(RecallQuery.parse("what's my shift now"), change)  # a number, and the later line gives one
    assert not concerns(RecallQuery.parse("where do i work again"), change)  # another part of the turn
    assert concerns(RecallQuery.parse("any tips for sleeping?"), change)  # neither part: it stays outdated
    home = fact("s2", "statement:home:santos", "santos", "moro em Santos", closed=MOVED)
    home.metadata[LATER_STATEMENT] = "primeiro mês em Belo Horizonte"
    assert concerns(RecallQuery.parse("em que cidade eu moro?"), Validity.of([home], NOW).changes[0])
    rule = fact("f1", "employer", "Acme", "The user works at Acme.", closed=MOVED)
    assert concerns(RecallQuery.parse("what's the weather"), Validity.of([rule], NOW).changes[0])  # a rule's slot
