"""domain.extraction.confidence: the precision gate. A fact is written only when its rule family
(slot kind and value shape) has been right often enough by value on the measured splits; a family
never observed starts at the conservative prior and writes nothing; a retraction is never held."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from hipocampo.domain.extraction import ExtractedFact, extract_facts
from hipocampo.domain.extraction.confidence import (
    PRIOR_RIGHT,
    PRIOR_SEEN,
    TABLE,
    confidence,
    family,
    passes,
    precision_gate,
    shape,
    smoothed,
)
from hipocampo.domain.model import MemoryType


@pytest.mark.parametrize(
    ("key", "fam"),
    [
        ("allergy:peanuts", "allergy"),
        ("home_city", "home_city"),
        ("person:sister:home_city", "person:home_city"),
        ("person:sister:emma:home_city", "person:home_city"),  # several sisters: the name is in the slot
        ("person:wife:condition:celiac_disease", "person:condition"),
        ("person:sister", "person"),
    ],
)
def test_a_slot_belongs_to_its_family(key: str, fam: str) -> None:
    assert family(key) == fam


@pytest.mark.parametrize(("value", "kind"), [("Lisbon", "proper"), ("gato", "common"), ("3000 EUR", "number")])
def test_a_value_has_a_shape(value: str, kind: str) -> None:
    assert shape(value) == kind


def test_a_family_never_seen_scores_the_prior_and_a_record_moves_it() -> None:
    assert smoothed({}, "spaceship", "common") == PRIOR_RIGHT / PRIOR_SEEN
    good = {"pet": (20.0, 20.0), "pet/proper": (18.0, 18.0), "pet/common": (2.0, 8.0)}
    assert smoothed(good, "pet", "proper") > 0.9
    assert smoothed(good, "pet", "common") < 0.5  # the family's good name does not cover a bad shape


def _fact(key: str, value: str, negated: bool = False) -> ExtractedFact:
    return ExtractedFact(MemoryType.USER_PROFILE, key, value, f"{key} {value}", 0.9, negated=negated)


def test_the_gate_holds_an_unproven_family_but_never_a_retraction() -> None:
    unseen = _fact("spaceship", "rocket")
    assert confidence("spaceship", "rocket") == PRIOR_RIGHT / PRIOR_SEEN
    assert not passes(unseen)
    assert passes(_fact("spaceship", "rocket", negated=True))
    assert precision_gate([unseen, _fact("name", "Ana")]) == [_fact("name", "Ana")]


def test_the_shipped_table_says_how_it_was_chosen() -> None:
    table = json.loads(resources.files("hipocampo.domain.extraction").joinpath(TABLE).read_text(encoding="utf-8"))
    assert 0.5 < table["threshold"] <= table["tuned_ceiling"]
    assert table["threshold"] <= table["cross_validated"]
    assert {"tuned", "earlier-blind", "unit"} & set(table["families"]["home_city"])


@pytest.mark.parametrize(
    "text",
    ["I live in Lisbon and I work at Globex.", "Sou a Ana, sou alérgica a amendoim.", "I have a cat named Miso."],
)
def test_plain_statements_of_well_measured_rules_pass(text: str) -> None:
    facts = extract_facts(text)
    assert facts and precision_gate(facts) == facts
