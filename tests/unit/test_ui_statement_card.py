"""The inspector's card for a turn a later statement replaced on one subject: the turn is shown as
said, not struck through (the rest of it may still hold), with the subject that changed and what
was said later. A fact taken back whole stays struck through."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from hipocampo.domain.model import MemoryItem, MemoryKind, Scope
from hipocampo.entrypoints.http.ui.core import make_templates
from hipocampo.services.inspector import Slot

WHEN = datetime(2026, 11, 28, tzinfo=timezone.utc)


def card(key: str, metadata: dict[str, Any]) -> str:
    m = MemoryItem("f1", Scope("t", "u"), MemoryKind.FACT, "moro em bh e trampo numa agência", WHEN)
    m.key, m.metadata, m.valid_to = key, metadata, WHEN
    env = make_templates().env
    env.globals["link"] = lambda *a, **k: "/ui/x"  # no request here: any link will do
    macro = env.get_template("_macros.html").module.slot_card  # type: ignore[attr-defined]
    return str(macro(Slot(current=None, earlier=[m]), "u"))


def test_a_subject_replaced_later_is_named_and_the_turn_not_struck() -> None:
    html = card("statement:work:agencia", {"later_statement": "pedi demissão da agência"})
    assert "earlier about work" in html and "said later: pedi demissão da agência" in html
    assert "<del>" not in html


def test_a_fact_taken_back_whole_is_struck() -> None:
    html = card("allergy:peanuts", {})
    assert "<del>moro em bh" in html and "no longer true" in html
