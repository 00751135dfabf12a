"""The user page's header counts facts that hold now; the closed ones are earlier facts."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hipocampo.domain.model import MemoryItem, MemoryKind, Scope
from hipocampo.services.inspector import _kinds

NOW = datetime(2026, 11, 28, tzinfo=timezone.utc)


def item(i: int, kind: MemoryKind, *, closed: bool = False) -> MemoryItem:
    m = MemoryItem(f"m{i}", Scope("t", "u"), kind, f"memory {i}", NOW - timedelta(days=30))
    m.valid_to = NOW - timedelta(days=1) if closed else None
    return m


def test_facts_count_while_they_hold_and_closed_ones_apart() -> None:
    items = [
        item(1, MemoryKind.FACT),
        item(2, MemoryKind.FACT, closed=True),
        item(3, MemoryKind.FACT, closed=True),
        item(4, MemoryKind.TURN),
    ]
    assert _kinds(items, NOW) == {"fact": 1, "earlier fact": 2, "turn": 1}


def test_no_earlier_count_without_closed_facts() -> None:
    assert _kinds([item(1, MemoryKind.FACT)], NOW) == {"fact": 1}
